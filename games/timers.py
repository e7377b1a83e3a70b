"""Deadlines, the sweep and bots: the jobs behind every timed rule, however they are run.

Every deadline a table sets (a move, extra time, the show, the rejoin window, the split
offer, the start countdown: R-TURN-5/6, R-DECL-1, R-SHOW-1, R-POOL-4/6) is applied by
:func:`games.services.expire`, which does nothing unless the table is still at the version
that set it and the deadline has passed, so a timer that fires late, early or twice is
harmless. Two ways run them, chosen by ``settings.GAME_TIMERS``:

- ``celery`` (:class:`games.tasks.CeleryTimers`): Celery beat runs :func:`tick` every
  ``GAME_SWEEP_SECONDS`` (1 s), whose sweep applies every deadline that has passed, so a
  timeout lands within about a second of its time, and a restarted worker or beat delays it by
  seconds, never forever; after each write at a practice table with bots, a bot move a second
  later, and the tick's :func:`drive_bots` as the backstop.
- ``embedded`` (:class:`games.scheduler.EmbeddedTimers`): an asyncio task inside daphne runs
  :func:`tick` every second, and each write wakes it at its new deadline.

Both implement :class:`TimerBackend`; ``GamesConfig.ready`` puts them in :data:`backends` and
connects :func:`after_write` to the service layer. This module imports neither.

The automatic split (R-POOL-7) is checked by the engine itself at the end of every deal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

from django.conf import settings
from django.utils import timezone

from games import bots, services
from games.errors import GameError
from games.models import Seat, Table, TableStatus

log = logging.getLogger(__name__)

#: A bot waits this long after the table's last write before it moves.
BOT_THINK_SECONDS = 1.0
#: Actions one bot may make in one call: a draw and a discard, or a finish and a declaration.
BOT_ACTIONS_PER_TURN = 3


def mode() -> str:
    return str(settings.GAME_TIMERS)


# --- after each write -------------------------------------------------------------------------


class TimerBackend(Protocol):
    """Runs the jobs below at the right times: :func:`expire` at each deadline, :func:`play_bots`
    a moment after each write at a practice table with bots, and :func:`sweep` and
    :func:`drive_bots` as a backstop every few seconds."""

    def schedule(self, table_id: int, version: int, due: datetime | None, with_bots: bool) -> None:
        """After a write brought the table to ``version``: its deadline ``due``, if any, and
        whether its bots should move."""


#: The backends by ``settings.GAME_TIMERS`` ("off" has none), filled by ``GamesConfig.ready``.
backends: dict[str, TimerBackend] = {}


def after_write(written: services.Written) -> None:
    """After-commit hook: schedule the deadline the write set, and its bots' next move."""
    backend = backends.get(mode())
    if backend is None:
        return
    with_bots = written.bots_allowed and written.status == TableStatus.PLAYING
    try:
        backend.schedule(written.table_id, written.version, written.due, with_bots)
    except Exception:  # a broker down must not fail a committed write: the sweep catches up
        log.exception(
            "could not schedule the timers of table %s at version %s", written.table_id, written.version
        )


# --- the jobs ---------------------------------------------------------------------------------


def expire(table_id: int, version: int) -> bool:
    """Apply the deadline table ``table_id`` set at ``version``, if it is still due."""
    try:
        return services.expire(table_id, version)
    except Table.DoesNotExist:
        return False
    except GameError as error:
        log.warning("table %s: deadline of version %s refused: %s", table_id, version, error.code)
        return False


def sweep() -> int:
    """Apply every overdue deadline (:func:`games.services.sweep`); one table that fails does
    not stop the others. Returns how many tables moved."""
    try:
        return services.sweep()
    except Exception:
        log.exception("the sweep failed; expiring the overdue tables one by one")
    now = datetime.fromtimestamp(services.now_ms() / 1000, tz=UTC)
    due = list(Table.objects.filter(deadline__lte=now).values_list("id", "deadline_version"))
    moved = 0
    for table_id, version in due:
        if version is None:  # a deadline is always written with its version
            continue
        try:
            moved += expire(table_id, version)
        except Exception:
            log.exception("table %s: the overdue deadline could not be applied", table_id)
    return moved


def play_bots(table_id: int, version: int | None = None) -> int:
    """Let the bots at the table move, each at most one turn; returns how many actions.

    With ``version``, only if the table is still there (a later write scheduled its own call).
    """
    table = Table.objects.filter(pk=table_id).values_list("version", "status").first()
    if table is None or table[1] != TableStatus.PLAYING or (version is not None and table[0] != version):
        return 0
    seats = Seat.objects.filter(table_id=table_id, left_at__isnull=True, user__is_bot=True).select_related(
        "user"
    )
    actions = 0
    for seat in seats:
        for _ in range(BOT_ACTIONS_PER_TURN):
            try:
                if not bots.act(table_id, seat.user):
                    break
            except GameError as error:
                # The code, not the message: a message may name a card, and no card is logged.
                log.warning("bot %s at table %s: %s", seat.user.pk, table_id, error.code)
                break
            actions += 1
    return actions


def drive_bots(*, think_seconds: float = BOT_THINK_SECONDS) -> int:
    """Nudge the bots of every practice table in play whose last write is ``think_seconds`` old
    (a backstop for a lost bot task; the embedded scheduler's only way to move bots)."""
    quiet_since = timezone.now() - timedelta(seconds=think_seconds)
    table_ids = list(
        Table.objects.filter(
            status=TableStatus.PLAYING,
            template__bots_allowed=True,
            updated_at__lte=quiet_since,
            seats__user__is_bot=True,
            seats__left_at__isnull=True,
        )
        .values_list("id", flat=True)
        .distinct()
    )
    actions = 0
    for table_id in table_ids:
        try:
            actions += play_bots(table_id)
        except Exception:
            log.exception("the bots of table %s could not move", table_id)
    return actions


#: Jobs of the apps above the games that run in every tick, after the tables' own, by name
#: (the tournaments' sweep). Registered explicitly from those apps' ``AppConfig.ready``; each
#: returns how much it did. One that fails is logged and does not stop the others.
each_tick: dict[str, Callable[[], int]] = {}


def tick() -> dict[str, int]:
    """One round of the timers, every second (the embedded scheduler's, and Celery beat's
    ``games.tasks.tick``): the sweep, then the bots, then the jobs in :data:`each_tick`."""
    done = {"expired": sweep(), "bot_actions": drive_bots(), "refilled": refill()}
    for name, job in list(each_tick.items()):
        try:
            done[name] = job()
        except Exception:
            log.exception("the timers' job %s failed", name)
            done[name] = 0
    return done


def refill() -> int:
    """Seat bots again at practice tables left waiting with a person (deal after deal)."""
    try:
        return bots.refill_practice_tables()
    except Exception:
        log.exception("the practice tables could not be refilled with bots")
        return 0
