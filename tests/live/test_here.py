"""A write reaches the connections of its own server process at the table straight from the
event loop (games.here), ahead of the channel layer's copy, which they drop as already sent."""

from __future__ import annotations

from typing import Any

import pytest

from games import here, live
from tests.live.support import Conn, db, make_user, run, seat, turn_of

pytestmark = pytest.mark.usefixtures("live_db")


def _players(table_id: int, users: list[Any]) -> tuple[Any, Any]:
    mover = next(user for user in users if str(user.pk) == turn_of(table_id))
    return mover, next(user for user in users if user is not mover)


def test_a_move_reaches_the_other_player_here_without_the_channel_layer(settings, monkeypatch):
    """The layer carries nothing of the move (and no missed-message check runs): the other
    player still gets the move's event and snapshot, from this process."""
    settings.LIVE_CHECK_SECONDS = 0
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two, here")

    async def body() -> None:
        mover, other = await db(_players)(table.pk, [alice, bob])
        acting, watching = await Conn.open(table.pk, mover), await Conn.open(table.pk, other)
        since = (await acting.snapshot())["v"]
        await watching.snapshot(since)

        async def nowhere(message: dict[str, Any]) -> None:
            return None

        monkeypatch.setattr(live, "send_to_group", nowhere)
        answer = await acting.act("draw", source="closed")
        now = answer["v"]
        assert now > since
        drew = await watching.until(lambda frame: frame.get("type") == "drew", timeout=2)
        assert since < drew["v"] <= now
        assert (await watching.snapshot(now, timeout=2))["v"] == now
        await acting.close()
        await watching.close()

    run(body)


def test_the_layers_copy_is_dropped_so_each_version_is_sent_once(settings):
    settings.LIVE_CHECK_SECONDS = 0
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two, once")

    async def body() -> None:
        mover, other = await db(_players)(table.pk, [alice, bob])
        acting, watching = await Conn.open(table.pk, mover), await Conn.open(table.pk, other)
        since = (await acting.snapshot())["v"]
        await watching.snapshot(since)
        now = (await acting.act("draw", source="closed"))["v"]
        got = await watching.quiet(0.5)
        versioned = [frame for frame in got if "v" in frame]  # (not a presence frame)
        events = [frame["v"] for frame in versioned if frame.get("type") != "snapshot"]
        assert events == list(range(since + 1, now + 1)), "each version once, in order"
        assert [frame["v"] for frame in versioned if frame.get("type") == "snapshot"] == [now]
        assert len(here.tables()[table.pk]) == 2
        await acting.close()
        await watching.close()
        assert table.pk not in here.tables(), "a connection leaves its table's set on disconnect"

    run(body)
