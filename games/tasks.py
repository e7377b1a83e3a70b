"""Celery tasks for the game timers (``GAME_TIMERS=celery``): thin wrappers of :mod:`games.timers`.

Every task is idempotent: ``expire_deadline`` applies a deadline only while the table is
still at the version that set it and the deadline has passed; ``play_bots`` moves a bot only
when the table waits for it; the sweep only applies what is overdue. A task delivered twice,
late, or after a restart changes nothing more than the first delivery did.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task

from games import client_actions, timers


class CeleryTimers:
    """The timer backend of ``GAME_TIMERS=celery``: a task at each deadline (a little after it,
    so a worker's clock slightly ahead of the writer's does not find it not yet due) and a bot
    move a second after each write; beat sweeps (``CELERY_BEAT_SCHEDULE``)."""

    def schedule(self, table_id: int, version: int, due: datetime | None, with_bots: bool) -> None:
        if due is not None:
            expire_deadline.apply_async(
                (table_id, version), eta=due + timers.ETA_MARGIN, expires=due + timedelta(minutes=5)
            )
        if with_bots:
            play_bots.apply_async((table_id, version), countdown=timers.BOT_THINK_SECONDS)


@shared_task(ignore_result=True, acks_late=True)
def expire_deadline(table_id: int, version: int) -> bool:
    """The deadline set by the write that brought table ``table_id`` to ``version``."""
    return timers.expire(table_id, version)


@shared_task(ignore_result=True)
def sweep() -> int:
    """Celery beat, every ``GAME_SWEEP_SECONDS``: apply every overdue deadline."""
    return timers.sweep()


@shared_task(ignore_result=True)
def play_bots(table_id: int, version: int | None = None) -> int:
    """A bot's move, a second after the write that brought the table to ``version``."""
    return timers.play_bots(table_id, version)


@shared_task(ignore_result=True)
def drive_bots() -> int:
    """Celery beat: move the bots of practice tables whose bot task was lost."""
    return timers.drive_bots() + timers.refill()


@shared_task(ignore_result=True)
def prune_receipts() -> int:
    """Celery beat, hourly: forget action receipts older than a day."""
    return client_actions.prune_receipts()
