"""The embedded reconciliation schedule (``GAME_TIMERS=embedded``, no Celery): inside daphne,
run the auditor at start-up and then every ``RECONCILE_EVERY_SECONDS`` (hourly); production
runs it from Celery beat (``wallet.tasks.reconcile_ledger``)."""

from __future__ import annotations

import asyncio
import logging
import sys

from channels.db import database_sync_to_async
from django.conf import settings

from wallet import reconcile

log = logging.getLogger(__name__)


async def _every(seconds: float) -> None:
    trigger = "start-up"
    while True:
        try:
            result = await database_sync_to_async(reconcile.run, thread_sensitive=False)(trigger)
            if not result.ok:
                log.error("reconciliation: %d problem(s)", len(result.problems))
        except Exception:  # the schedule must outlive any one failure
            log.exception("reconciliation: the run failed")
        trigger = "schedule"
        await asyncio.sleep(seconds)


def start_with_daphne() -> bool:
    """Arrange the runs once daphne's reactor runs, in embedded mode only. True if arranged."""
    if settings.GAME_TIMERS != "embedded" or "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor

    def start() -> None:
        asyncio.get_running_loop().create_task(_every(settings.RECONCILE_EVERY_SECONDS), name="reconcile")

    # Twisted types the reactor by its zope interfaces, whose methods have no ``self``: mypy
    # takes callLater's delay for the bound argument. The call is the documented one.
    reactor.callLater(0, start)  # type: ignore[arg-type]
    return True
