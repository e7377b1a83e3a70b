"""Who is connected: each seat's open websockets, shown in the snapshot (games.presence)."""

from __future__ import annotations

import pytest

from games.models import Seat, Table
from tests.live.support import Conn, db, make_user, run, seat

pytestmark = pytest.mark.usefixtures("live_db")


def connected(snapshot, name):  # type: ignore[no-untyped-def]
    return next(p["connected"] for p in snapshot["table"]["players"] if p["name"] == name)


def connections(table_id, user):  # type: ignore[no-untyped-def]
    return Seat.objects.get(table_id=table_id, user=user, left_at__isnull=True).connections


def test_a_player_is_connected_while_a_socket_is_open_and_offline_after():
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")

    async def body():
        a = await Conn.open(table.pk, alice)
        first = await a.next()
        # The player's own first snapshot already counts them in; bob has no socket.
        assert connected(first, "alice") is True
        assert connected(first, "bob") is False
        b = await Conn.open(table.pk, bob)
        assert connected(await b.next(), "bob") is True
        second = await Conn.open(table.pk, alice)  # a second tab
        await second.next()
        assert await db(connections)(table.pk, alice) == 2
        await second.close()
        assert await db(connections)(table.pk, alice) == 1
        await b.close()
        assert await db(connections)(table.pk, bob) == 0
        await a.close()
        assert await db(connections)(table.pk, alice) == 0

    run(body)


def test_a_player_coming_and_going_is_pushed_to_the_table_with_no_new_version():
    """The table hears at once that a seated player went offline or came back, as a frame of
    its own: the table is not written, its version does not move. A second tab of the same
    player, and a watcher, change nobody's presence, so nothing is pushed for them."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    table = seat([alice, bob], seats=2, name="101 for two")

    async def body():
        a = await Conn.open(table.pk, alice)
        version = (await a.next())["v"]
        b = await Conn.open(table.pk, bob)
        await b.next()
        assert await a.next() == {"type": "presence", "player": str(bob.pk), "connected": True}
        watcher = await Conn.open(table.pk, carol)
        await watcher.next()
        second = await Conn.open(table.pk, bob)  # bob's second tab
        await second.next()
        await second.close()
        assert await a.quiet(0.3) == [], "a watcher and a second tab change nobody's presence"
        await b.close()
        offline = {"type": "presence", "player": str(bob.pk), "connected": False}
        assert await a.next() == offline
        assert await watcher.until(lambda f: f.get("type") == "presence") == offline
        assert await db(lambda: Table.objects.get(pk=table.pk).version)() == version
        await a.close()
        await watcher.close()

    run(body)
