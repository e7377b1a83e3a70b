"""Fair play's schedule in the embedded mode (``GAME_TIMERS=embedded``, no Celery): inside
daphne, the signals' purge at start-up and then every ``FAIRPLAY_PURGE_SECONDS`` (a day).
Production runs it from Celery beat (``fairplay.tasks``)."""

from __future__ import annotations

import asyncio
import logging
import sys

from channels.db import database_sync_to_async
from django.conf import settings

from fairplay import retention

log = logging.getLogger(__name__)

#: The schedule's task: the event loop keeps only a weak reference to a task.
_running: set[asyncio.Task[None]] = set()


async def _every(seconds: float) -> None:
    while True:
        try:
            await database_sync_to_async(retention.purge, thread_sensitive=False)()
        except Exception:  # the schedule must outlive any one failure
            log.exception("purge-signals: the run failed")
        await asyncio.sleep(seconds)


def start_with_daphne() -> bool:
    """Arrange the runs once daphne's reactor runs, in embedded mode only. True if arranged."""
    if settings.GAME_TIMERS != "embedded" or "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor

    def start() -> None:
        loop = asyncio.get_running_loop()
        seconds = float(getattr(settings, "FAIRPLAY_PURGE_SECONDS", 86_400))
        _running.add(loop.create_task(_every(seconds), name="purge-signals"))

    # Twisted types the reactor by its zope interfaces (see wallet.schedule).
    reactor.callLater(0, start)  # type: ignore[arg-type]
    return True
