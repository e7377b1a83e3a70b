"""Live-play fixtures: committed transactions, a fresh channel layer per test, timers off
unless a test turns them on."""

from __future__ import annotations

import importlib

import pytest
from channels.layers import channel_layers
from django.core.management import call_command
from django.db import connection


@pytest.fixture
def live_db(transactional_db):
    """A database whose writes commit (so ``on_commit`` publishes), emptied after the test.

    On SQLite the flush between tests deletes rows, which the wallet's append-only triggers
    refuse; they are lifted for our own flush and put back, so the flush that follows finds
    the ledger empty. (PostgreSQL flushes with TRUNCATE, which the triggers leave alone.)
    """
    yield
    if connection.vendor != "sqlite":
        return
    triggers = importlib.import_module("wallet.migrations.0002_append_only")
    with connection.cursor() as cursor:
        for statement in triggers.SQLITE_BACKWARD:
            cursor.execute(statement)
        call_command("flush", interactive=False, verbosity=0)
        for statement in triggers.SQLITE_FORWARD:
            cursor.execute(statement)


@pytest.fixture(autouse=True)
def short_lived_connections():
    """Consumers run their database work in pool threads, each with its own connection, kept
    between calls in production (``DB_CONN_MAX_AGE``). Here each closes after its call, so no
    thread outlives a test holding a connection (which would block dropping the test database)."""
    kept = connection.settings_dict["CONN_MAX_AGE"]
    connection.settings_dict["CONN_MAX_AGE"] = 0
    yield
    connection.settings_dict["CONN_MAX_AGE"] = kept


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test gets its own layer: no group outlives the event loop its consumers ran on
    (and its own per-user rate buckets)."""
    from games.consumers import _USER_BUCKETS

    channel_layers.backends.clear()
    _USER_BUCKETS.clear()
    yield
    channel_layers.backends.clear()
    _USER_BUCKETS.clear()


class Clock:
    """The server's clock in the tests: real time at the start, then moved by hand. Each reading
    is a millisecond later than the last, so writes stay in order."""

    def __init__(self) -> None:
        import time

        self.ms = int(time.time() * 1000)

    def __call__(self) -> int:
        self.ms += 1
        return self.ms

    def to(self, ms: int) -> None:
        """Make the next reading ``ms`` (never going back)."""
        self.ms = max(self.ms, ms - 1)


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    from games import services

    fake = Clock()
    monkeypatch.setattr(services, "now_ms", fake)
    return fake
