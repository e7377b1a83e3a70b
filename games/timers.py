"""Deadlines, the sweep and bots: the jobs behind every timed rule, however they are run.

Every deadline a table sets (a move, extra time, the show, the rejoin window, the split
offer, the start countdown: R-TURN-5/6, R-DECL-1, R-SHOW-1, R-POOL-4/6) is applied by
:func:`games.services.expire`, which does nothing unless the table is still at the version
that set it and the deadline has passed, so a timer that fires late, early or twice is
harmless. Two ways run them, chosen by ``settings.GAME_TIMERS``:

- ``celery``: after each write, :func:`after_write` sends a task with an ``eta`` at the new
  deadline (and a bot move a second later on practice tables with bots); Celery beat runs
  :func:`sweep` and :func:`drive_bots` every ``GAME_SWEEP_SECONDS``, so a lost task or a
  restarted worker delays a timeout by seconds, never forever.
- ``embedded``: :mod:`games.scheduler` runs :func:`tick` every second inside daphne, and
  :func:`after_write` wakes it at each new deadline.

The automatic split (R-POOL-7) is checked by the engine itself at the end of every deal.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime, timedelta
from typing import Any

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
#: A deadline task is sent this much after the deadline, so a worker's clock a little ahead of
#: the writer's does not find it not yet due.
ETA_MARGIN = timedelta(milliseconds=50)


def mode() -> str:
    return str(settings.GAME_TIMERS)


# --- after each write -------------------------------------------------------------------------


def after_write(events: list[services.Published]) -> None:
    """Publisher: schedule the deadline each written table now has, and its bots' next move."""
    current = mode()
    if current == "off" or not events:
        return
    if current == "embedded":
        from games import scheduler

        if not scheduler.scheduler.running():
            return  # not inside a daphne process that runs timers (a shell, a test)
    table_ids = sorted({event.table_id for event in events})
    rows = Table.objects.filter(pk__in=table_ids).values_list(
        "id", "version", "status", "deadline", "deadline_version", "template__bots_allowed"
    )
    for table_id, version, status, deadline, deadline_version, bots_allowed in rows:
        due = deadline if deadline is not None and deadline_version == version else None
        with_bots = bots_allowed and status == TableStatus.PLAYING
        try:
            if current == "celery":
                _send_tasks(table_id, version, due, with_bots)
            else:
                _wake_scheduler(due, with_bots)
        except Exception:  # a broker down must not fail a committed write: the sweep catches up
            log.exception("could not schedule the timers of table %s at version %s", table_id, version)


def _send_tasks(table_id: int, version: int, due: datetime | None, with_bots: bool) -> None:
    from games import tasks

    if due is not None:
        tasks.expire_deadline.apply_async(
            (table_id, version), eta=due + ETA_MARGIN, expires=due + timedelta(minutes=5)
        )
    if with_bots:
        tasks.play_bots.apply_async((table_id, version), countdown=BOT_THINK_SECONDS)


def _wake_scheduler(due: datetime | None, with_bots: bool) -> None:
    from games import scheduler

    if due is not None:
        scheduler.scheduler.wake_at(due.timestamp())
    if with_bots:
        scheduler.scheduler.wake_at(time.time() + BOT_THINK_SECONDS)


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


def tick() -> dict[str, Any]:
    """One round of the embedded scheduler: the sweep, then the bots."""
    return {"expired": sweep(), "bot_actions": drive_bots()}
