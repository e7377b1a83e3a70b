"""The wallet's schedule in the embedded mode (``GAME_TIMERS=embedded``, no Celery): inside
daphne, the auditor at start-up and then every ``RECONCILE_EVERY_SECONDS`` (hourly), and the
payouts still to send every ``PAYOUT_SWEEP_SECONDS`` (a minute, the setting beat's entry uses
too). Production runs both from Celery beat (``wallet.tasks``)."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable

from channels.db import database_sync_to_async
from django.conf import settings

from wallet import payouts, reconcile

log = logging.getLogger(__name__)

#: The schedule's tasks: the event loop keeps only a weak reference to a task.
_running: set[asyncio.Task[None]] = set()


def _reconcile(trigger: str) -> None:
    result = reconcile.run(trigger)
    if not result.ok:
        log.error("reconciliation: %d problem(s)", len(result.problems))


def _send_payouts(_trigger: str) -> None:
    payouts.send_pending()


async def _every(seconds: float, job: Callable[[str], None]) -> None:
    trigger = "start-up"
    while True:
        try:
            await database_sync_to_async(job, thread_sensitive=False)(trigger)
        except Exception:  # the schedule must outlive any one failure
            log.exception("%s: the run failed", job.__name__.strip("_"))
        trigger = "schedule"
        await asyncio.sleep(seconds)


def start_with_daphne() -> bool:
    """Arrange the runs once daphne's reactor runs, in embedded mode only. True if arranged."""
    if settings.GAME_TIMERS != "embedded" or "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor

    def start() -> None:
        loop = asyncio.get_running_loop()
        for seconds, job, name in (
            (settings.RECONCILE_EVERY_SECONDS, _reconcile, "reconcile"),
            (settings.PAYOUT_SWEEP_SECONDS, _send_payouts, "send-payouts"),
        ):
            _running.add(loop.create_task(_every(seconds, job), name=name))

    # Twisted types the reactor by its zope interfaces, whose methods have no ``self``: mypy
    # takes callLater's delay for the bound argument. The call is the documented one.
    reactor.callLater(0, start)  # type: ignore[arg-type]
    return True
