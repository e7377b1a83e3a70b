"""The websocket protocol of docs/PROTOCOL.md, message by message, through the real ASGI app."""

from __future__ import annotations

import json

import pytest

from games import live, services
from games.consumers import (
    CLOSE_FLOOD,
    CLOSE_LOGIN_REQUIRED,
    CLOSE_NO_PONG,
    CLOSE_NO_TABLE,
    TableConsumer,
)
from games.engine import table as engine
from games.models import ActionReceipt, Table
from games.views_state import events_for, table_view
from tests.live.support import (
    Closed,
    Conn,
    db,
    deadline_ms,
    hand_of,
    make_user,
    play_deal,
    rig,
    run,
    seat,
    state,
    turn_of,
)

pytestmark = pytest.mark.usefixtures("live_db")


@pytest.fixture
def people(live_db):
    """alice, bob and carol play; dave watches."""
    return {name: make_user(name) for name in ("alice", "bob", "carol", "dave")}


def two_player_table(people):
    return seat([people["alice"], people["bob"]], seats=2, name="101 for two")


def on_turn(table_id, people):
    name = turn_of(table_id)
    return next(user for user in people.values() if str(user.pk) == name)


def other_player(table_id, people, players=("alice", "bob")):
    name = turn_of(table_id)
    return next(people[p] for p in players if str(people[p].pk) != name)


async def both_players(table_id, people):
    """The player on turn's connection and the other player's, each past its first snapshot,
    and the table's version then."""
    mover = await db(on_turn)(table_id, people)
    other = await db(other_player)(table_id, people)
    me, them = await Conn.open(table_id, mover), await Conn.open(table_id, other)
    start = (await me.next())["v"]
    await them.next()
    return me, them, start


def version(table_id):
    return Table.objects.get(pk=table_id).version


# --- connecting ---------------------------------------------------------------------------------


def test_it_refuses_a_visitor_who_is_not_logged_in(people):
    table = two_player_table(people)

    async def body():
        conn = await Conn.open(table.pk, None)
        frame = await conn.next()
        assert frame == {"error": "login_required", "message": "log in to play or watch a table", "id": None}
        with pytest.raises(Closed) as closed:
            await conn.next()
        assert closed.value.code == CLOSE_LOGIN_REQUIRED
        await conn.close()

    run(body)


@pytest.mark.parametrize("origin", ["http://evil.example", None])
def test_it_refuses_a_foreign_or_missing_origin(people, origin):
    table = two_player_table(people)

    async def body():
        conn = await Conn.open(table.pk, people["alice"], origin=origin)
        assert conn.close_code is not None, "the handshake is refused before any frame"
        await conn.close()

    run(body)


def test_it_closes_on_a_table_that_does_not_exist(people):
    async def body():
        conn = await Conn.open(999_999, people["alice"])
        assert (await conn.next())["error"] == "no_table"
        with pytest.raises(Closed) as closed:
            await conn.next()
        assert closed.value.code == CLOSE_NO_TABLE
        await conn.close()

    run(body)


def test_it_shows_a_player_their_hand_and_a_watcher_no_hand(people):
    table = two_player_table(people)
    alice, dave = people["alice"], people["dave"]

    async def body():
        player = await Conn.open(table.pk, alice)
        watcher = await Conn.open(table.pk, dave)
        mine, theirs = await player.next(), await watcher.next()
        assert mine["type"] == theirs["type"] == "snapshot"
        assert mine["v"] == theirs["v"] == await db(version)(table.pk)
        assert mine["table"]["deal"]["hand"] == await db(hand_of)(table.pk, alice)
        assert "hand" not in theirs["table"]["deal"]
        assert theirs["table"]["players"][0]["name"] in ("alice", "bob")
        await player.close()
        await watcher.close()

    run(body)


# --- heartbeats -------------------------------------------------------------------------------------


def test_it_answers_ping_with_pong(people, clock):
    table = two_player_table(people)

    async def body():
        conn = await Conn.open(table.pk, people["alice"])
        await conn.next()
        await conn.send({"type": "ping"})
        pong = await conn.next()
        assert pong["type"] == "pong"
        assert isinstance(pong["ms"], int)
        await conn.close()

    run(body)


def test_it_pings_a_quiet_client_and_closes_one_that_stops_answering(people, monkeypatch):
    monkeypatch.setattr(TableConsumer, "ping_after", 0.2)
    monkeypatch.setattr(TableConsumer, "pong_timeout", 0.3)
    table = two_player_table(people)

    async def body():
        conn = await Conn.open(table.pk, people["alice"])
        await conn.next()
        assert await conn.next(1.0) == {"type": "ping"}
        await conn.send({"type": "pong"})  # still there
        assert await conn.next(1.0) == {"type": "ping"}, "pinged again after another quiet spell"
        assert (await conn.next(1.0))["error"] == "no_pong"
        with pytest.raises(Closed) as closed:
            await conn.next(1.0)
        assert closed.value.code == CLOSE_NO_PONG
        await conn.close()

    run(body)


# --- actions ----------------------------------------------------------------------------------------


def test_it_applies_a_draw_and_a_discard_and_acks_after_their_events__R_TURN_1(people):
    table = two_player_table(people)

    async def body():
        me, them, start = await both_players(table.pk, people)
        other = await db(other_player)(table.pk, people)
        ack = await me.act("draw", source="closed")
        assert ack["v"] == start + 2, "drew (public) and drew_card (private)"
        drew, card = me.frames[-4:-2]
        assert drew == {"v": start + 1, "type": "drew", "data": drew["data"]}
        assert drew["data"]["source"] == "closed"
        assert card["type"] == "drew_card"
        assert me.frames[-2]["type"] == "snapshot"
        assert me.frames[-2]["v"] == ack["v"]
        hidden = await them.until(lambda f: f.get("v") == start + 2)
        assert hidden == {"v": start + 2}, "the card drawn is the drawer's alone"
        discard = card["data"]["card"]
        ack = await me.act("discard", card=discard)
        assert me.last_snapshot["table"]["deal"]["open_pile"][-1] == discard
        seen = await them.snapshot(ack["v"])
        assert seen["table"]["deal"]["turn"] == str(other.pk)
        await me.close()
        await them.close()

    run(body)


def test_it_drops_a_player_on_their_turn__R_DROP_1(people):
    table = two_player_table(people)

    async def body():
        mover = await db(on_turn)(table.pk, people)
        conn = await Conn.open(table.pk, mover)
        await conn.next()
        ack = await conn.act("drop")
        assert "ack" in ack
        dropped = [f for f in conn.frames if f.get("type") == "dropped"]
        assert dropped[0]["data"]["player"] == str(mover.pk)
        assert dropped[0]["data"]["outcome"] == "first_drop"
        assert any(f.get("type") == "deal_over" for f in conn.frames)
        await conn.close()

    run(body)


def test_it_takes_a_declaration_and_the_losers_show__R_DECL_2_R_SHOW_1(people):
    table = two_player_table(people)

    async def body():
        mover = await db(on_turn)(table.pk, people)
        other = await db(other_player)(table.pk, people)
        await db(rig)(table.pk, mover, "AS 2S 3S 4H 5H 6H 7D 8D 9D TC JC QC KC")
        me, them = await Conn.open(table.pk, mover), await Conn.open(table.pk, other)
        await me.next()
        await them.next()
        await me.act("draw", source="closed")
        drawn = next(f for f in me.frames if f.get("type") == "drew_card")["data"]["card"]
        assert "ack" in await me.act("finish", card=drawn)
        groups = [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["7D", "8D", "9D"], ["TC", "JC", "QC", "KC"]]
        assert "ack" in await me.act("declare", groups=groups)
        declared = await them.until(lambda f: f.get("type") == "declared")
        assert declared["data"]["player"] == str(mover.pk)
        their_hand = (await them.snapshot(declared["v"]))["table"]["deal"]["hand"]
        assert "ack" in await them.act("save_grouping", groups=[their_hand[:3]])
        saved = next(f for f in them.frames if f.get("type") == "grouping_saved")
        assert saved["data"]["groups"] == [their_hand[:3]]
        assert "ack" in await them.act("show", groups=[])
        over = await me.until(lambda f: f.get("type") == "deal_over")
        assert over["data"]["winner"] == str(mover.pk)
        await me.close()
        await them.close()

    run(body)


def test_it_takes_leave_auto_drop_and_im_back__R_DROP_4_R_MONEY_5(people):
    table = seat([people["alice"], people["bob"], people["carol"]])

    async def body():
        carol = await Conn.open(table.pk, people["carol"])
        await carol.next()
        assert "ack" in await carol.act("auto_drop")
        assert carol.last_snapshot["table"]["players"][_index(carol, "carol")]["auto_drop"] is True
        assert "ack" in await carol.act("im_back")
        assert carol.last_snapshot["table"]["players"][_index(carol, "carol")]["auto_drop"] is False
        assert "ack" in await carol.act("leave")
        left = next(f for f in carol.frames if f.get("type") == "left")
        assert left["data"] == {
            "player": str(people["carol"].pk),
            "forfeit": True,
            "reason": "left the game: the entry fee stays in the prize pool",
        }
        await carol.close()

    run(body)


def _index(conn, username):
    players = conn.last_snapshot["table"]["players"]
    return next(i for i, p in enumerate(players) if p["name"] == username)


def test_it_takes_a_rejoin__R_POOL_4(people, clock):
    users = [people["alice"], people["bob"], people["carol"]]
    table = seat(users)
    # Deal 1: alice wrong-shows (80), bob drops (20); deal 2: alice wrong again: eliminated.
    play_deal(table.pk, users, {"alice": "wrong", "bob": "drop"})
    clock.to(deadline_ms(table.pk))
    services.expire(table.pk, version(table.pk))
    now = play_deal(table.pk, users, {"alice": "wrong", "bob": "drop"})
    assert now.rejoin_open == (str(people["alice"].pk),)

    async def body():
        alice = await Conn.open(table.pk, people["alice"])
        assert (await alice.next())["table"]["rejoin_open"] == [str(people["alice"].pk)]
        ack = await alice.act("rejoin")
        rejoined = next(f for f in alice.frames if f.get("type") == "rejoined")
        assert rejoined["data"]["score"] == 41
        assert alice.last_snapshot["v"] == ack["v"]
        await alice.close()

    run(body)


@pytest.mark.parametrize("answer", ["split_accept", "split_decline"])
def test_it_takes_an_answer_to_a_split_offer__R_POOL_6(people, clock, answer):
    users = [people["alice"], people["bob"], people["carol"]]
    table = seat(users)
    play_deal(table.pk, users, {"alice": "wrong", "bob": "wrong"})
    clock.to(deadline_ms(table.pk))
    services.expire(table.pk, version(table.pk))
    now = play_deal(table.pk, users, {"alice": "wrong", "carol": "wrong"})
    assert now.split_offer

    async def body():
        bob = await Conn.open(table.pk, people["bob"])
        assert (await bob.next())["table"]["split_offer"]["players"] == [p.name for p in now.remaining]
        assert "ack" in await bob.act(answer)
        kind = "split_accepted" if answer == "split_accept" else "split_declined"
        assert any(f.get("type") == kind for f in bob.frames)
        await bob.close()

    run(body)


def test_it_answers_a_refused_action_with_an_error_frame(people):
    table = two_player_table(people)

    async def body():
        waiting = await db(other_player)(table.pk, people)
        conn = await Conn.open(table.pk, waiting)
        await conn.next()
        before = await db(version)(table.pk)
        answer = await conn.act("drop", client_id="not-mine")
        assert answer == {"error": "not_your_turn", "message": answer["message"], "id": "not-mine"}
        assert answer["message"]
        assert await db(version)(table.pk) == before
        watcher = await Conn.open(table.pk, people["dave"])
        await watcher.next()
        assert (await watcher.act("leave"))["error"] == "not_at_table"
        await conn.close()
        await watcher.close()

    run(body)


# --- action ids ------------------------------------------------------------------------------------


def test_it_never_applies_an_action_id_twice_even_after_a_reconnect(people):
    table = two_player_table(people)

    async def body():
        mover = await db(on_turn)(table.pk, people)
        waiting = await db(other_player)(table.pk, people)
        conn = await Conn.open(table.pk, mover)
        await conn.next()
        first = await conn.act("draw", client_id="d-1", source="closed")
        after = await db(version)(table.pk)
        again = await conn.act("draw", client_id="d-1", source="closed")
        assert again == first
        await conn.close()
        # The same id on a new connection (as after a reconnect, or on another server process).
        conn = await Conn.open(table.pk, mover)
        await conn.next()
        assert await conn.act("draw", client_id="d-1", source="open") == first
        assert await db(version)(table.pk) == after, "nothing applied twice"
        # A refused id stays refused, even once the same action would be allowed.
        other = await Conn.open(table.pk, waiting)
        await other.next()
        refused = await other.act("drop", client_id="x-1")
        assert refused["error"] == "not_your_turn"
        discard = (await db(hand_of)(table.pk, mover))[-1]
        await conn.act("discard", card=discard)
        assert await other.act("drop", client_id="x-1") == refused
        assert (await db(turn_of)(table.pk)) == str(waiting.pk), "the drop was not applied"
        await conn.close()
        await other.close()

    run(body)
    assert ActionReceipt.objects.filter(client_id="d-1").count() == 1


# --- resync ------------------------------------------------------------------------------------------


def test_it_sends_the_events_after_the_version_a_client_has(people):
    table = two_player_table(people)
    alice = people["alice"]

    async def body():
        since = await db(version)(table.pk)
        mover = await db(on_turn)(table.pk, people)
        await db(services.act)(table.pk, mover, {"type": "draw", "source": "closed"})
        now = await db(version)(table.pk)
        conn = await Conn.open(table.pk, alice, v=since)
        frames = [await conn.next() for _ in range(now - since + 1)]
        expected = await db(_events)(table.pk, alice, since)
        assert frames[:-1] == expected
        assert [f["v"] for f in frames[:-1]] == list(range(since + 1, now + 1))
        assert frames[-1]["type"] == "snapshot"
        assert frames[-1]["v"] == now
        # The same by a resync frame on an open connection.
        await conn.send({"type": "resync", "v": since})
        again = [await conn.next() for _ in range(now - since + 1)]
        assert again[:-1] == expected
        await conn.close()

    run(body)


def _events(table_id, user, after):
    return events_for(Table.objects.get(pk=table_id), user, after)


def test_it_sends_a_snapshot_to_a_client_too_far_behind_or_ahead(people, monkeypatch):
    monkeypatch.setattr(live, "MAX_REPLAY", 3)
    table = two_player_table(people)
    now = version(table.pk)
    assert now > 3

    async def body():
        for asked in (0, now - 4, now + 5):
            conn = await Conn.open(table.pk, people["alice"], v=asked)
            frame = await conn.next()
            assert (frame["type"], frame["v"]) == ("snapshot", now), asked
            await conn.send({"type": "resync", "v": asked})
            assert (await conn.next())["type"] == "snapshot"
            await conn.close()

    run(body)


def test_a_snapshot_plus_the_events_after_it_equals_a_fresh_snapshot(people, clock):
    """zulip's test: what a connected client holds at the end equals what a new one gets."""
    users = [people["alice"], people["bob"], people["carol"]]
    table = seat(users)

    async def body():
        conns = {u.username: await Conn.open(table.pk, u) for u in [*users, people["dave"]]}
        first = {name: (await conn.next())["v"] for name, conn in conns.items()}
        # A deal of turns, a wrong show and a drop, the pause running out, and the next deal.
        await db(play_deal)(table.pk, users, {"alice": "wrong", "bob": "drop"})
        clock.to(await db(deadline_ms)(table.pk))
        assert await db(services.expire)(table.pk, await db(version)(table.pk))
        end = await db(version)(table.pk)
        for name, conn in conns.items():
            user = people[name]
            last = await conn.snapshot(end)
            fresh = await db(_fresh)(table.pk, user)
            assert last["table"] == fresh, name
            got = conn.events()
            assert [f["v"] for f in got] == list(range(first[name] + 1, end + 1)), name
            assert got == await db(_events)(table.pk, user, first[name]), name
        # Closed only after every comparison: who is connected (games.presence) is live, not
        # versioned, so a close between two comparisons would change the later fresh snapshot.
        for conn in conns.values():
            await conn.close()

    run(body)


def _fresh(table_id, user):
    return table_view(Table.objects.select_related("template").get(pk=table_id), user)


# --- malformed frames, oversized frames, floods ---------------------------------------------------------


MALFORMED = [
    ("not json", "bad_json"),
    ("[1, 2]", "bad_frame"),
    ('"draw"', "bad_frame"),
    ("[" * 5000 + "]" * 5000, "bad_json"),
    (json.dumps({"type": "teleport", "id": "a"}), "unknown_type"),
    (json.dumps({"id": "a"}), "unknown_type"),
    (json.dumps({"type": "draw", "source": "closed"}), "bad_id"),
    (json.dumps({"type": "draw", "id": 7, "source": "closed"}), "bad_id"),
    (json.dumps({"type": "draw", "id": "x" * 65, "source": "closed"}), "bad_id"),
    (json.dumps({"type": "draw", "id": "a\u0000b", "source": "closed"}), "bad_id"),  # a NUL: not text
    (json.dumps({"type": "draw", "id": "a"}), "missing_source"),
    (json.dumps({"type": "draw", "id": "a", "source": "table"}), "bad_source"),
    (json.dumps({"type": "discard", "id": "a"}), "missing_card"),
    (json.dumps({"type": "discard", "id": "a", "card": "1X"}), "bad_card"),
    (json.dumps({"type": "discard", "id": "a", "card": ["7H"]}), "bad_card"),
    (json.dumps({"type": "declare", "id": "a", "groups": "7H 8H 9H"}), "bad_groups"),
    (json.dumps({"type": "show", "id": "a", "groups": [["7H", "ZZ"]]}), "bad_card"),
    (json.dumps({"type": "resync"}), "bad_version"),
    (json.dumps({"type": "resync", "v": -1}), "bad_version"),
    (json.dumps({"type": "resync", "v": True}), "bad_version"),
    (json.dumps({"type": "timeout", "id": "a"}), "unknown_type"),
]


def test_it_answers_malformed_frames_with_errors_and_changes_nothing(people, monkeypatch):
    monkeypatch.setattr(TableConsumer, "burst", 100)
    table = two_player_table(people)

    async def body():
        mover = await db(on_turn)(table.pk, people)
        conn = await Conn.open(table.pk, mover)
        await conn.next()
        before = await db(version)(table.pk)
        for text, code in MALFORMED:
            await conn.send(text)
            frame = await conn.next()
            assert frame.get("error") == code, (text[:60], frame)
            assert frame["message"]
        await conn.communicator.send_input({"type": "websocket.receive", "bytes": b"\x00\x01"})
        assert (await conn.next())["error"] == "bad_frame"
        await conn.send({"type": "ping"})
        assert (await conn.next())["type"] == "pong", "the connection is still open"
        assert await db(version)(table.pk) == before
        await conn.close()

    run(body)


def test_it_limits_the_rate_and_closes_a_flood(people, monkeypatch):
    monkeypatch.setattr(TableConsumer, "rate", 0.01)  # no token comes back during the test
    table = two_player_table(people)

    async def body():
        conn = await Conn.open(table.pk, people["alice"])
        await conn.next()
        for _ in range(TableConsumer.burst):
            await conn.send({"type": "ping"})
        await conn.send({"id": "too-fast", "type": "leave"})
        for _ in range(TableConsumer.flood_limit + 5):
            await conn.send({"type": "ping"})
        frames = []
        while conn.close_code is None:
            try:
                frames.append(await conn.next())
            except Closed:
                break
        assert conn.close_code == CLOSE_FLOOD
        pongs = [f for f in frames if f.get("type") == "pong"]
        errors = [f for f in frames if "error" in f]
        assert len(pongs) >= TableConsumer.burst
        assert errors[0]["error"] == "rate_limited"
        assert errors[0]["id"] == "too-fast", "a refused action is answered by its id"
        assert errors[-1]["error"] == "flood"
        await conn.close()

    run(body)
    assert Table.objects.get(pk=table.pk).state["players"][0]["status"] != "left", "nothing applied"
    assert not ActionReceipt.objects.filter(client_id="too-fast").exists(), "it may be sent again"


def test_the_receipt_and_the_action_commit_together(people, monkeypatch):
    """A failure after the action applied rolls both back: a retry of the id applies it once.
    The receipt's write fails in the database, in the round trip that also wrote the events
    and the table."""
    from django.db import DatabaseError

    table = two_player_table(people)
    mover = on_turn(table.pk, people)
    from games import client_actions

    def failing(rows):
        return "SELECT * FROM no_such_table", []

    with monkeypatch.context() as patched:
        patched.setattr(client_actions._INSERT_RECEIPT, "statement", failing)  # the receipt's write fails
        before = version(table.pk)
        with pytest.raises(DatabaseError):
            client_actions.perform(table.pk, mover, {"id": "r-1", "type": "draw", "source": "closed"})
    assert version(table.pk) == before
    assert not ActionReceipt.objects.filter(table_id=table.pk, client_id="r-1").exists()
    answer = client_actions.perform(table.pk, mover, {"id": "r-1", "type": "draw", "source": "closed"})
    assert answer == {"ack": "r-1", "v": before + 2}
    assert state(table.pk).phase is engine.Phase.PLAYING


def test_messages_reach_the_consumer_without_a_hop_to_the_sync_thread(people, monkeypatch):
    """Channels checks the database connections before each message it dispatches, in its one
    thread for sync code; this consumer makes that check in its database threads instead
    (games.consumers.TableConsumer.dispatch), so a move hops threads once, not three times.
    Django refuses any database use from the event loop itself, so none can slip in."""
    import channels.consumer

    hops = []

    async def counted():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    table = two_player_table(people)

    async def body():
        me, them, start = await both_players(table.pk, people)
        ack = await me.act("draw", source="closed")
        assert ack["v"] == start + 2
        assert (await them.until(lambda f: f.get("v") == start + 2)) == {"v": start + 2}
        await me.close()
        await them.close()

    run(body)
    assert hops == []
