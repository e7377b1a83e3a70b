"""Fair play's schedule in the embedded mode (``GAME_TIMERS=embedded``, no Celery): inside
daphne, the detection scan every ``FAIRPLAY_SCAN_EVERY_SECONDS`` (the first one a scan's
interval after start-up, so a restart does not rescan at once). Production runs it from Celery
beat (``fairplay.tasks.scan``)."""

from __future__ import annotations

import asyncio
import logging
import sys

from channels.db import database_sync_to_async
from django.conf import settings

from fairplay import tasks

log = logging.getLogger(__name__)

#: The schedule's task: the event loop keeps only a weak reference to a task.
_running: set[asyncio.Task[None]] = set()


async def _every(seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        try:
            # The task's body, called in a thread of its own: a scan never delays a move.
            await database_sync_to_async(tasks.scan, thread_sensitive=False)()
        except Exception:  # the schedule must outlive any one failure
            log.exception("fairplay scan: the run failed")


def start_with_daphne() -> bool:
    """Arrange the scans once daphne's reactor runs, in embedded mode only. True if arranged."""
    if settings.GAME_TIMERS != "embedded" or "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor

    def start() -> None:
        loop = asyncio.get_running_loop()
        _running.add(loop.create_task(_every(settings.FAIRPLAY_SCAN_EVERY_SECONDS), name="fairplay-scan"))

    # Twisted types the reactor by its zope interfaces, whose methods have no ``self``: mypy
    # takes callLater's delay for the bound argument. The call is the documented one.
    reactor.callLater(0, start)  # type: ignore[arg-type]
    return True
