"""Test set-up shared by every test: personas, and services that must fail (not skip) in CI.

A test marked ``postgres`` needs ``DATABASE_URL`` to point at PostgreSQL and one marked
``redis`` needs ``REDIS_URL``. Run by hand without them, such tests skip with the reason;
with ``REQUIRE_SERVICES=1`` (set by ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import os

import pytest


def _service_missing(marker: str) -> str | None:
    if marker == "postgres":
        from django.conf import settings

        if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
            return "needs PostgreSQL: set DATABASE_URL=postgresql://..."
    if marker == "redis" and not os.environ.get("REDIS_URL"):
        return "needs Redis: set REDIS_URL=redis://..."
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in ("postgres", "redis"):
        if item.get_closest_marker(marker) is None:
            continue
        reason = _service_missing(marker)
        if reason is None:
            continue
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"{reason} (REQUIRE_SERVICES=1: services are mandatory here)", pytrace=False)
        pytest.skip(reason)
