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


class Layer:
    """A channel layer that notes what is sent to a group: (event, version)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int]] = []

    async def group_send(self, group: str, message: dict[str, object]) -> None:
        self.sent.append((str(message["event"]), int(message["v"])))  # type: ignore[call-overload]


@pytest.fixture
def layer(monkeypatch):  # type: ignore[no-untyped-def]
    from tournaments import live

    noted = Layer()
    monkeypatch.setattr(live, "get_channel_layer", lambda: noted)
    monkeypatch.setattr(live, "COALESCE_SECONDS", 0.2)
    monkeypatch.setattr(live, "_loop", None)
    return noted


def changed(version: int, event: str = "registered", tournament: int = 7):  # type: ignore[no-untyped-def]
    return services.Changed(tournament, version, "registering", event, {"players": version})


def test_a_burst_of_registrations_is_sent_once_as_its_latest_from_a_process_serving_pages(layer):
    """600 players registering were a call at every page for each: the process holds count-only
    changes and sends the latest once the burst is a fraction of a second old."""
    import asyncio

    from tournaments import live

    async def scenario() -> None:
        live.serving(asyncio.get_running_loop())
        for version in range(4, 10):  # from the database threads, as the hooks run
            await asyncio.to_thread(live.publish, changed(version))
        await asyncio.to_thread(live.publish, changed(3, tournament=8))
        assert layer.sent == []  # held
        await asyncio.sleep(0.4)
        assert sorted(layer.sent) == [("registered", 3), ("registered", 9)]
        await asyncio.to_thread(live.publish, changed(10, "unregistered"))
        await asyncio.sleep(0.4)
        assert layer.sent[2:] == [("unregistered", 10)]  # the next burst, held anew

    run(scenario)


def test_any_other_change_sends_the_held_count_first_and_then_itself_at_once(layer):
    import asyncio

    from tournaments import live

    async def scenario() -> None:
        live.serving(asyncio.get_running_loop())
        await asyncio.to_thread(live.publish, changed(4))
        await asyncio.to_thread(live.publish, changed(5))
        await asyncio.to_thread(live.publish, changed(6, "started"))
        assert layer.sent == [("registered", 5), ("started", 6)]
        await asyncio.sleep(0.4)
        assert layer.sent == [("registered", 5), ("started", 6)]  # nothing left to send

    run(scenario)


def test_a_process_serving_no_page_sends_each_change_at_once(layer):
    """A Celery worker (bots registering) has no loop of pages to hold changes for."""
    from tournaments import live

    live.publish(changed(4))
    live.publish(changed(5, "unregistered"))

    assert layer.sent == [("registered", 4), ("unregistered", 5)]
