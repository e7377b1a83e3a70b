"""Signals are kept ``FAIRPLAY_SIGNAL_DAYS`` days, then purged (daily: Celery beat, or the
embedded schedule); the links they made stay."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from fairplay import retention, schedule, signals, tasks
from fairplay.models import Link, Signal
from tests.fairplay.support import DEVICE

pytestmark = pytest.mark.django_db


def test_it_purges_the_signals_older_than_the_setting_and_keeps_the_links(alice, bob, settings):
    settings.FAIRPLAY_SIGNAL_DAYS = 30
    now = timezone.now()
    signals.record("login", alice.pk, device=DEVICE, at=now - timedelta(days=31))
    signals.record("login", bob.pk, device=DEVICE, at=now - timedelta(days=29))
    assert Link.objects.filter(strength="strong").count() == 1
    assert retention.purge(now=now) == 1
    assert list(Signal.objects.values_list("user_id", flat=True)) == [bob.pk]
    assert Link.objects.filter(strength="strong").count() == 1, "the finding stays"


def test_the_default_is_180_days_and_the_task_runs_the_purge(alice, settings):
    del settings.FAIRPLAY_SIGNAL_DAYS
    assert retention.days() == 180
    signals.record("login", alice.pk, at=timezone.now() - timedelta(days=181))
    signals.record("login", alice.pk, at=timezone.now() - timedelta(days=179))
    assert tasks.purge_signals() == 1
    assert Signal.objects.count() == 1


def test_beat_runs_the_purge_daily():
    entry = django_settings.CELERY_BEAT_SCHEDULE["purge-fairplay-signals"]
    assert (entry["task"], entry["schedule"]) == ("fairplay.tasks.purge_signals", 86_400.0)


@pytest.mark.django_db(transaction=True)
def test_the_embedded_schedule_purges_at_start_up_then_every_interval(alice, monkeypatch, settings):
    """Inside daphne (embedded mode): a purge at start-up, then one a day."""
    import asyncio

    naps: list[float] = []
    old = timezone.now() - timedelta(days=200)

    def grown_old() -> None:
        from django.db import connection

        signals.record("login", alice.pk, at=old)
        connection.close()  # this thread's own connection

    async def nap(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) == 1:  # a signal grown too old between two runs
            await asyncio.to_thread(grown_old)
        if len(naps) == 2:
            raise asyncio.CancelledError

    signals.record("login", alice.pk, at=old)
    monkeypatch.setattr(schedule.asyncio, "sleep", nap)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(schedule._every(86_400.0, retention.purge, "purge-signals", first_at_once=True))
    assert naps == [86_400.0, 86_400.0]
    assert not Signal.objects.filter(kind="login").exists(), "both runs purged"
    assert Signal.objects.filter(kind="identity", user=alice).exists(), "a fresh signal stays"
    settings.GAME_TIMERS = "celery"
    assert schedule.start_with_daphne() is False, "with Celery, beat runs it instead"
