"""Per-user (and, before log-in, per-address) rate limits: ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
``user`` and ``anon``, read at each request (so a changed setting applies at once).

They are counted in the ``throttles`` cache (``settings.CACHES``): in Redis when the site has
it, so every daphne serving the port counts against the one limit (``rummysite.daphnes``), and
in the process's memory without it (``make run``: one daphne). A count Redis cannot take (Redis
down or slow) lets the request through, logged at most once a minute: the API keeps serving
through a Redis outage, as the tables do.

The process keeps one ``throttles`` cache (:func:`counts`), not Django's one per request: under
ASGI ``caches`` hands each request a cache of its own, and a ``RedisCache`` its own connection
pool, so counting through it opened a new connection to Redis at every API request.
"""

from __future__ import annotations

import functools
import logging
import time
from typing import Any

from django.core.cache import BaseCache, caches
from django.core.signals import setting_changed
from redis.exceptions import RedisError
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

log = logging.getLogger(__name__)

#: Seconds between two warnings that the counts cannot be kept.
WARN_EVERY = 60.0
_warned_at = [-WARN_EVERY]


@functools.cache
def counts() -> BaseCache:
    """The ``throttles`` cache of this process, made at its first use and shared by every
    request and thread (a ``RedisCache`` is safe to share: its connection pool hands each call
    a connection)."""
    return caches.create_connection("throttles")


def _forget_counts(*, setting: str, **kwargs: Any) -> None:
    """A test that changes ``CACHES`` gets a cache made from its settings."""
    if setting == "CACHES":
        counts.cache_clear()


setting_changed.connect(_forget_counts)


class _Counted(SimpleRateThrottle):
    """A rate limit counted in the ``throttles`` cache, with the rate read at each request."""

    @property
    def cache(self) -> BaseCache:  # type: ignore[override]
        return counts()

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return bool(super().allow_request(request, view))
        except (RedisError, OSError) as error:
            now = time.monotonic()
            if now - _warned_at[0] >= WARN_EVERY:
                _warned_at[0] = now
                log.warning(
                    "API rate limits not counted (the throttles cache failed: %s): letting requests through",
                    error,
                )
            return True


class UserThrottle(_Counted, UserRateThrottle):
    pass


class AnonThrottle(_Counted, AnonRateThrottle):
    pass


def _rate(scope: str | None) -> str | None:
    """The rate read from the settings at each request (so tests can change it)."""
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope or "")
    return None if rate is None else str(rate)
