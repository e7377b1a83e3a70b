"""Who is connected: each seat's open websockets, shown in the snapshot (games.presence)."""

from __future__ import annotations

import pytest

from games.models import Seat
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
