"""Fair play's schedule in the embedded mode (``GAME_TIMERS=embedded``, no Celery): inside
daphne, the signals' purge at start-up and then every ``FAIRPLAY_PURGE_SECONDS`` (a day), and
the detection scan every ``FAIRPLAY_SCAN_EVERY_SECONDS`` (the first one a scan's interval after
start-up, so a restart does not rescan at once). Production runs both from Celery beat
(``fairplay.tasks``)."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from fairplay import retention, tasks

log = logging.getLogger(__name__)

#: The schedule's tasks: the event loop keeps only a weak reference to a task.
_running: set[asyncio.Task[None]] = set()


async def _every(seconds: float, run: Callable[[], Any], name: str, *, first_at_once: bool) -> None:
    if not first_at_once:
        await asyncio.sleep(seconds)
    while True:
        try:
            # In a thread of its own: a purge or a scan never delays a move.
            await database_sync_to_async(run, thread_sensitive=False)()
        except Exception:  # the schedule must outlive any one failure
            log.exception("%s: the run failed", name)
        await asyncio.sleep(seconds)


def start_with_daphne() -> bool:
    """Arrange the runs once daphne's reactor runs, in embedded mode only. True if arranged."""
    if settings.GAME_TIMERS != "embedded" or "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor

    def start() -> None:
        loop = asyncio.get_running_loop()
        purge_every = float(getattr(settings, "FAIRPLAY_PURGE_SECONDS", 86_400))
        runs = [
            (purge_every, retention.purge, "purge-signals", True),
            (float(settings.FAIRPLAY_SCAN_EVERY_SECONDS), tasks.scan, "fairplay-scan", False),
        ]
        for seconds, run, name, first_at_once in runs:
            _running.add(loop.create_task(_every(seconds, run, name, first_at_once=first_at_once), name=name))

    # Twisted types the reactor by its zope interfaces, whose methods have no ``self``: mypy
    # takes callLater's delay for the bound argument. The call is the documented one.
    reactor.callLater(0, start)  # type: ignore[arg-type]
    return True
