"""The protection tests that play over websockets use the live-play fixtures."""

from tests.live.conftest import (  # noqa: F401 - fixtures, re-exported for pytest
    Clock,
    clock,
    fresh_channel_layer,
    live_db,
    short_lived_connections,
)
