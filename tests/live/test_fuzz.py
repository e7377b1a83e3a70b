"""Random and malformed frames never cause a server error and never change the table."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.client_actions import ACTIONS
from games.consumers import TableConsumer
from games.models import ActionReceipt, Table
from tests.live.support import Conn, make_user, run, seat

pytestmark = pytest.mark.usefixtures("live_db")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=15,
)
cards = st.sampled_from(["7H", "TS", "PJ", "AC", "1X", "", "7h", "10H", "ZZ"]) | json_values
fields = {
    "card": cards,
    "source": st.sampled_from(["closed", "open", "table"]) | json_values,
    "groups": st.lists(st.lists(cards, max_size=4), max_size=4) | json_values,
    "v": st.integers(min_value=-5, max_value=10**15) | json_values,
    "player": json_values,
    "at": json_values,
}
types = st.sampled_from([*ACTIONS, "ping", "pong", "resync", "timeout", "join", "snapshot"]) | json_values


def action_like(ids: st.SearchStrategy[Any]) -> st.SearchStrategy[str]:
    return st.fixed_dictionaries({"type": types}, optional={"id": ids, **fields}).map(json.dumps)


#: Anything at all, for a watcher (nothing a watcher sends can change the table).
any_frame = (
    st.text(max_size=300) | json_values.map(json.dumps) | action_like(st.text(max_size=70) | json_values)
)
#: For a seated player: malformed frames only (no valid id, or not an object at all).
bad_ids = (
    st.none()
    | st.integers()
    | st.just("")
    | st.text(min_size=65, max_size=80)
    | st.lists(st.text())
    | st.text(min_size=1, max_size=10).map(lambda text: text + "\x00")
)
malformed = st.text(max_size=300) | st.lists(json_values, max_size=3).map(json.dumps) | action_like(bad_ids)


@pytest.fixture
def table(monkeypatch):
    monkeypatch.setattr(TableConsumer, "rate", 10_000.0)
    monkeypatch.setattr(TableConsumer, "burst", 10_000)
    players = [make_user("alice"), make_user("bob")]
    return seat(players, seats=2), players[0], make_user("dave")


def check_frames(table_id: int, user: Any, frames: list[Any]) -> None:
    """Send the frames, then a ping: every answer up to the pong is a well-formed frame."""

    # Each example starts with a full per-user rate budget (the limits share one bucket among a
    # user's connections; the examples would otherwise drain it, which is not what this tests).
    from games.consumers import _USER_BUCKETS

    _USER_BUCKETS.clear()

    async def body():
        conn = await Conn.open(table_id, user)
        await conn.next()  # the snapshot
        for text in frames:
            await conn.send(text)
        await conn.send({"type": "ping"})
        answers = [await conn.next()]
        while answers[-1].get("type") != "pong":
            answers.append(await conn.next())
        for frame in answers:
            assert isinstance(frame, dict)
            assert frame.get("error") != "server_error", frame
            if "error" in frame:
                assert set(frame) == {"error", "message", "id"}
        await conn.close()

    run(body)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(watcher_frames=st.lists(any_frame, max_size=12), player_frames=st.lists(malformed, max_size=12))
def test_random_frames_get_answers_and_leave_the_table_as_it_was(table, watcher_frames, player_frames):
    table_row, alice, dave = table
    before = Table.objects.get(pk=table_row.pk)

    check_frames(before.pk, dave, watcher_frames)
    check_frames(before.pk, alice, player_frames)
    after = Table.objects.get(pk=table_row.pk)
    assert (after.version, after.state) == (before.version, before.state)
    assert not ActionReceipt.objects.filter(user=alice).exists(), "no malformed action reached the table"
