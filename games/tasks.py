"""Celery tasks for the game timers (``GAME_TIMERS=celery``): thin wrappers of :mod:`games.timers`.

Every task is idempotent: the tick's sweep applies a deadline only while the table is still at
the version that set it and the deadline has passed; ``play_bots`` moves a bot only when the
table waits for it. A task delivered twice, late, or after a restart changes nothing more than the
first delivery did.

Deadlines have no task of their own: beat's tick, every ``GAME_SWEEP_SECONDS`` (1 s), sweeps
whatever came due, from the ``deadline`` column every write keeps, then nudges the bots: the
same round as the embedded scheduler's (:func:`games.timers.tick`), in one message a second.
A task per move with an ``eta`` cost a broker message from the server and a database read in
the worker for every move, nearly all of them to find the table moved on, and the worker held
each one in memory until its time (the broker redelivers such tasks when they outlive its
visibility timeout).
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from games import client_actions, timers


class CeleryTimers:
    """The timer backend of ``GAME_TIMERS=celery``: a bot move a second after each write at a
    practice table with bots. Deadlines need nothing here: beat's tick finds them in the table
    rows (``CELERY_BEAT_SCHEDULE``)."""

    def schedule(self, table_id: int, version: int, due: datetime | None, with_bots: bool) -> None:
        if with_bots:
            play_bots.apply_async((table_id, version), countdown=timers.BOT_THINK_SECONDS)


@shared_task(ignore_result=True)
def tick() -> dict[str, int]:
    """Celery beat, every ``GAME_SWEEP_SECONDS``: apply every overdue deadline (each table's
    move, show, rejoin, split and start deadlines alike), then move the bots of practice tables
    whose bot task was lost, and seat bots again where a person waits alone."""
    return timers.tick()


@shared_task(ignore_result=True)
def play_bots(table_id: int, version: int | None = None) -> int:
    """A bot's move, a second after the write that brought the table to ``version``."""
    return timers.play_bots(table_id, version)


@shared_task(ignore_result=True)
def prune_receipts() -> int:
    """Celery beat, hourly: forget action receipts older than a day."""
    return client_actions.prune_receipts()
