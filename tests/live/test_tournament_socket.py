"""A tournament's page socket (/ws/tournaments/<id>/): each committed change reaches the pages
open on that tournament only, and a round's seating tells each seated player their table."""

from __future__ import annotations

import pytest

from tests.live.support import Closed, Conn, db, make_user, run
from tournaments import services, views_state


def open_tournament(name: str = "Socket cup"):  # type: ignore[no-untyped-def]
    return services.create(
        name=name, buy_in=5_00, min_players=6, max_players=6, table_size=3, qualify=1, bots_allowed=True
    )


def test_it_refuses_a_visitor_who_is_not_logged_in(live_db):
    async def scenario() -> None:
        tournament = await db(open_tournament)()
        conn = await Conn.open(0, None, path=f"/ws/tournaments/{tournament.pk}/")
        frame = await conn.next()
        assert frame["error"] == "login_required"
        with pytest.raises(Closed) as closed:
            await conn.next()
        assert closed.value.code == 4401

    run(scenario)


def test_registrations_and_the_round_seating_reach_the_page_and_each_player_their_table(live_db):
    """R-TOUR-3: when the sit-and-go fills, round 1 is seated and each player's page gets
    their table; another tournament's changes are not heard."""

    async def scenario() -> None:
        alice, bob = await db(make_user)("alice"), await db(make_user)("bob")
        tournament = await db(open_tournament)()
        other = await db(open_tournament)("Other cup")
        await db(services.register)(tournament.pk, alice)
        conn = await Conn.open(0, alice, path=f"/ws/tournaments/{tournament.pk}/")
        hello = await conn.next()
        assert hello == {"type": "tournament", "v": 3, "status": "registering", "table": None}
        await db(services.register)(other.pk, bob)
        await db(services.register)(tournament.pk, bob)
        changed = await conn.next()
        assert changed == {
            "type": "changed",
            "v": 4,
            "status": "registering",
            "event": "registered",
            "data": {"player": bob.pk, "players": 2},
        }
        await db(services.fill_with_bots)(tournament.pk)
        seated = await conn.until(lambda frame: frame["type"] == "seated")
        table = await db(views_state.current_table)(tournament.pk, alice)
        assert table is not None
        assert seated == {"type": "seated", "round": 1, "table": table}
        changes = [frame for frame in conn.frames if frame["type"] == "changed"]
        # The bots' four registrations, in a burst, reach the page as the latest of them.
        assert [(f["event"], f["data"].get("players")) for f in changes] == [
            ("registered", 2),
            ("registered", 6),
            ("started", 6),
            ("round_seated", 6),
        ]
        await conn.close()

    run(scenario)


def test_a_change_older_than_one_the_page_has_is_dropped(live_db):
    """Two processes, or a held count and the change after it, may deliver out of order: the
    page never gets a version older than one it has."""
    from channels.layers import get_channel_layer

    from tournaments import live

    async def scenario() -> None:
        alice = await db(make_user)("alice")
        tournament = await db(open_tournament)()
        await db(services.register)(tournament.pk, alice)
        conn = await Conn.open(0, alice, path=f"/ws/tournaments/{tournament.pk}/")
        hello = await conn.next()
        layer = get_channel_layer()
        group = await db(live.group_name)(tournament.pk)

        def change(version: int, event: str) -> dict[str, object]:
            return {
                "type": live.CHANGED_MESSAGE,
                "tournament": tournament.pk,
                "v": version,
                "status": "registering",
                "event": event,
                "data": {"players": version},
            }

        await layer.group_send(group, change(hello["v"] + 2, "cancelled"))
        await layer.group_send(group, change(hello["v"] + 1, "registered"))
        await layer.group_send(group, change(hello["v"], "started"))
        first = await conn.next()
        assert (first["v"], first["event"]) == (hello["v"] + 2, "cancelled")
        with pytest.raises(TimeoutError):
            await conn.next(timeout=1.5)
        await conn.close()

    run(scenario)
