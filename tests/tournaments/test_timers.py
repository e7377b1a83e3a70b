"""The tournaments move on with the game timers: the embedded scheduler inside daphne (and Celery
beat's tick, the same ``games.timers.tick``) runs the tournaments' sweep."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import scheduler as scheduler_module
from tests.conftest import make_user
from tests.tournaments.support import make
from tests.wallet.support import _fast_password_hashing  # noqa: F401
from tournaments import services
from tournaments.models import RoundTable, Tournament


@pytest.mark.django_db(transaction=True)
def test_the_embedded_scheduler_starts_a_tournament_whose_start_has_come(settings: Any) -> None:
    settings.GAME_TIMERS = "embedded"
    t = make(currency="CHIPS", buy_in=0, min_players=3, start_at=timezone.now() + timedelta(hours=1))
    for name in ("alice", "bob", "carol"):
        services.register(t.pk, make_user(name))
    Tournament.objects.filter(pk=t.pk).update(start_at=timezone.now() - timedelta(seconds=1))
    runner = scheduler_module.Scheduler()
    runner.interval = 0.2

    async def body() -> None:
        runner.start()
        deadline = time.monotonic() + 10
        while runner.ticks < 1 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await runner.stop()

    asyncio.run(body())
    assert runner.ticks >= 1
    t.refresh_from_db()
    assert t.status == "running"
    assert RoundTable.objects.filter(round__tournament=t).count() == 1
