"""The lifecycle tests use the live-play fixtures: committed transactions, a fresh channel
layer per test, timers off (tests/conftest.py) unless a test turns them on, and the server's clock by hand."""

from tests.live.conftest import (  # noqa: F401 - fixtures, re-exported for pytest
    Clock,
    clock,
    fresh_channel_layer,
    live_db,
    short_lived_connections,
)
