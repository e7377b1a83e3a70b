"""Heartbeats of the timer processes, so ``/healthz`` can tell a dead worker or beat.

With ``GAME_TIMERS=celery`` the game's deadlines need both a Celery worker (it applies them)
and Celery beat (it sweeps the overdue ones). Each writes the time into Redis every
:data:`INTERVAL` seconds while it works: the worker from a step of its consumer, which runs
only while it is connected to the broker and taking tasks; beat from its scheduler's tick.
``/healthz`` reads them and fails when one is older than ``HEARTBEAT_STALE_SECONDS``.
"""

from __future__ import annotations

import functools
import logging
import time
from typing import Any

import redis
from celery import bootsteps
from celery.beat import PersistentScheduler
from django.conf import settings

log = logging.getLogger(__name__)

INTERVAL = 5.0
ROLES = ("worker", "beat")
_PREFIX = "rummy:heartbeat:"
_KEEP_SECONDS = 86400


def _client() -> redis.Redis:
    return _client_of(str(settings.REDIS_URL))


@functools.cache
def _client_of(url: str) -> redis.Redis:
    """One client a process (its pool keeps the connection): a beat every few seconds, and
    ``/healthz`` at each request, would each open a new connection otherwise."""
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def beat(role: str) -> None:
    """Record that ``role`` is alive now; a failure is logged, never raised."""
    if not settings.REDIS_URL:
        return
    try:
        _client().set(_PREFIX + role, repr(time.time()), ex=_KEEP_SECONDS)
    except redis.RedisError as error:
        log.warning("heartbeat of the %s not written: %s", role, error)


def age(role: str) -> float | None:
    """Seconds since ``role`` last beat, or None if it never did (or the beat expired)."""
    # redis-py types one client for sync and async use (Awaitable | Any); this one is sync.
    value: bytes | None = _client().get(_PREFIX + role)  # type: ignore[assignment]
    if value is None:
        return None
    return max(0.0, time.time() - float(value))


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A step of the worker's consumer: started once connected to the broker, stopped (and
    started again) when the connection is lost and found again."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.entry: Any = None

    def start(self, parent: Any) -> None:
        beat("worker")
        self.entry = parent.timer.call_repeatedly(INTERVAL, beat, ("worker",), priority=10)

    def stop(self, parent: Any) -> None:
        if self.entry is not None:
            self.entry.cancel()
            self.entry = None

    shutdown = stop


class BeatScheduler(PersistentScheduler):
    """Celery beat's scheduler, beating at most every :data:`INTERVAL` seconds as it ticks."""

    _last_beat = 0.0

    def tick(self, *args: Any, **kwargs: Any) -> float:
        now = time.monotonic()
        if now - self._last_beat >= INTERVAL:
            self._last_beat = now
            beat("beat")
        return float(min(super().tick(*args, **kwargs), INTERVAL))
