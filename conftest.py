"""Test set-up shared by every test: personas, and services that must fail (not skip) in CI.

A test marked ``postgres`` needs ``DATABASE_URL`` to point at PostgreSQL and one marked
``redis`` needs ``REDIS_URL``. Run by hand without them, such tests skip with the reason;
with ``REQUIRE_SERVICES=1`` (set by ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import os
import uuid

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


def pytest_configure(config: pytest.Config) -> None:
    """The API's rate-limit counts: in-process tests keep them in this process's memory, where
    each test can clear them (``tests/api/support.py``), as ``make run`` does; clearing the
    Redis one would empty the whole Redis database the other test processes share. A daphne a
    test starts counts in Redis, under a key prefix of this test process's own."""
    from django.conf import settings

    settings.CACHES["throttles"] = {"BACKEND": settings.LOCAL_MEMORY_CACHE, "LOCATION": "throttles"}
    # Each test has a database of its own (a transaction rolled back after it): the lobby's
    # counts are read afresh, never kept from another test (tests/pages/test_lobby.py keeps them).
    settings.LOBBY_COUNTS_MS = 0
    os.environ["THROTTLE_KEY_PREFIX"] = f"tests-{uuid.uuid4().hex}"


@pytest.fixture(autouse=True)
def _throttle_counts_of_the_tests_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A daphne a test starts counts the API's rate limits under a key prefix of the test's
    own, so no count is carried from one test, or one test process, to another."""
    monkeypatch.setenv("THROTTLE_KEY_PREFIX", f"tests-{uuid.uuid4().hex}")
