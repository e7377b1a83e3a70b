"""Per-user (and, before log-in, per-address) rate limits: ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
``user`` and ``anon``, read at each request (so a changed setting applies at once)."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class UserThrottle(UserRateThrottle):
    def get_rate(self) -> str | None:
        return _rate(self.scope)


class AnonThrottle(AnonRateThrottle):
    def get_rate(self) -> str | None:
        return _rate(self.scope)


def _rate(scope: str | None) -> str | None:
    """The rate read from the settings at each request (so tests can change it)."""
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope or "")
    return None if rate is None else str(rate)
