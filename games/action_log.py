"""One log line per table action (``games.actions``): table, action, user, duration, outcome.

:func:`logged` wraps the one write path (``services._run``) and notes the command it applies,
so every action is logged however it came (a websocket, the API, a timer, a bot). Only the
command's kind and player are written, never its fields: a discard's card stays out of the log.
"""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Callable
from typing import Any, TypeVar

from games.errors import GameError

Result = TypeVar("Result")

log = logging.getLogger("games.actions")


def _kind(command: object) -> str:
    """``Discard`` -> ``discard``, ``SetAutoDrop`` -> ``set_auto_drop``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(command).__name__).lower()


def logged(run: Callable[..., Result]) -> Callable[..., Result]:
    @functools.wraps(run)
    def wrapper(table_id: int, command_for: Callable[[Any], Any], **options: Any) -> Result:
        seen: list[object] = []

        def noting(state: Any) -> Any:
            command = command_for(state)
            if command is not None:
                seen.append(command)
            return command

        started = time.perf_counter()
        outcome = "error"
        table = None
        try:
            table = run(table_id, noting, **options)
            outcome = "applied" if table is not None else "stale"
            return table
        except GameError as error:
            outcome = error.code
            raise
        finally:
            if seen:
                command = seen[-1]
                player = getattr(command, "player", None)
                log.info(
                    "table %s: %s %s",
                    table_id,
                    _kind(command),
                    outcome,
                    extra={
                        "table": table_id,
                        "action": _kind(command),
                        "user": int(player) if isinstance(player, str) and player.isdigit() else player,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                        "outcome": outcome,
                        "version": getattr(table, "version", None),
                    },
                )

    return wrapper
