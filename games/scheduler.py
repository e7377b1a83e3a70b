"""The embedded timer (``GAME_TIMERS=embedded``, the default without ``REDIS_URL``): an asyncio
task inside the daphne process that runs :func:`games.timers.tick` (the sweep of overdue
deadlines, then the bots of practice tables) every second, and at once when a write sets a
deadline sooner (:meth:`Scheduler.wake_at`, called by :class:`EmbeddedTimers`, the timer
backend of embedded mode).

It makes the same service calls as the Celery tasks, so a table behaves the same under
``make run`` as under ``make run-prod``. :func:`start_with_daphne` is called by
``rummysite.asgi``: it starts the scheduler when the Twisted reactor daphne runs on starts,
and only in embedded mode. Each daphne process runs its own; they do not conflict, since a
deadline is applied at most once (``services.expire`` locks the table and checks its version).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import sys
import time
from datetime import datetime

from channels.db import database_sync_to_async
from django.conf import settings

from games import timers

log = logging.getLogger(__name__)


class Scheduler:
    """Runs :func:`games.timers.tick` every ``interval`` seconds and when woken for a deadline."""

    interval = 1.0

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._next = math.inf
        self.ticks = 0

    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start on the running event loop (call from inside it)."""
        if self.running():
            return
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._task = self._loop.create_task(self._run(), name="game-timers")
        log.info("game timers: the embedded scheduler runs every %.1f s", self.interval)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None

    def wake_at(self, when: float) -> None:
        """Run a tick at ``when`` (a Unix time) if that is before the next one. Thread-safe."""
        loop = self._loop
        if loop is None or not self.running():
            return
        loop.call_soon_threadsafe(self._set_next, when)

    def _set_next(self, when: float) -> None:
        if when < self._next:
            self._next = when
            assert self._wake is not None
            self._wake.set()

    async def _run(self) -> None:
        assert self._wake is not None
        next_tick = time.time()
        while True:
            now = time.time()
            due = min(next_tick, self._next)
            if now >= due:
                if now >= self._next:
                    self._next = math.inf
                await self._tick()
                next_tick = time.time() + self.interval
                continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=due - now)

    async def _tick(self) -> None:
        try:
            # Its own thread (not the one consumers share), so a bot thinking never delays them.
            await database_sync_to_async(timers.tick, thread_sensitive=False)()
        except Exception:  # the scheduler must outlive any one failure
            log.exception("game timers: a tick failed")
        self.ticks += 1


scheduler = Scheduler()


class EmbeddedTimers:
    """The timer backend of ``GAME_TIMERS=embedded``: wake this process's scheduler for each
    new deadline and bot move (nothing to do outside a daphne that runs it: a shell, a test)."""

    def schedule(self, table_id: int, version: int, due: datetime | None, with_bots: bool) -> None:
        if not scheduler.running():
            return
        if due is not None:
            scheduler.wake_at(due.timestamp())
        if with_bots:
            scheduler.wake_at(time.time() + timers.BOT_THINK_SECONDS)


def start_with_daphne() -> bool:
    """Start the scheduler once daphne's reactor runs, in embedded mode only. True if arranged."""
    if settings.GAME_TIMERS != "embedded" or "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor

    # Daphne runs Twisted on its asyncio loop: a call scheduled now runs inside that loop once
    # it runs, where Scheduler.start finds it with asyncio.get_running_loop().
    # Twisted types the reactor by its zope interfaces, whose methods have no ``self``: mypy
    # takes callLater's delay for the bound argument. The call is the documented one.
    reactor.callLater(0, scheduler.start)  # type: ignore[arg-type]
    return True
