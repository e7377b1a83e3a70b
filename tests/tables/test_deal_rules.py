"""Deal rules seen through the table: missed moves, deal show, auto drop and I'm back, privacy."""

from __future__ import annotations

import pytest

from games import services
from games.engine import table as engine
from games.engine.cards import parse_cards
from games.engine.melds import evaluate
from games.engine.pool import deal_show_score
from games.engine.variants import POOL101
from games.errors import GameError
from games.models import Table, TableEvent
from games.views_state import events_for, table_view
from tests.tables.support import (
    Clock,
    pass_deadline,
    play_deal,
    play_turn,
    seat_all,
    state,
    template,
    turn_player,
)

pytestmark = pytest.mark.django_db


def test_it_drops_a_player_after_three_missed_moves__R_TURN_6(alice, bob):
    clock = Clock()
    users = {str(alice.pk): alice, str(bob.pk): bob}
    table = seat_all(template(seats=2), [alice, bob], clock)
    sleeper = turn_player(table)
    other = next(u for n, u in users.items() if n != sleeper)
    for missed in range(3):
        assert turn_player(table) == sleeper
        assert pass_deadline(table, clock)
        if missed < 2:
            play_turn(table, other, clock)
    now = state(table)
    assert now.player(sleeper).score == POOL101.missed_moves_drop
    assert now.history[-1]["winner"] == str(other.pk)


def test_it_refuses_a_timeout_before_the_deadline_and_a_stale_one(alice, bob):
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    version = Table.objects.get(pk=table.pk).version
    assert not services.expire(table.pk, version, at=clock())  # not due
    assert pass_deadline(table, clock)
    assert not services.expire(table.pk, version, at=clock.ms + 10**9)  # stale version


def rig(table: Table, name: str, codes: str) -> None:
    table.refresh_from_db()
    data = table.state
    for seat in data["deal"]["seats"]:
        if seat["player"] == name:
            seat["hand"] = codes.split()
    Table.objects.filter(pk=table.pk).update(state=data)


def test_it_scores_a_deal_show__R_SHOW_3(alice, bob):
    clock = Clock()
    users = {str(alice.pk): alice, str(bob.pk): bob}
    table = seat_all(template(seats=2), [alice, bob], clock)
    first = turn_player(table)
    other = next(u for n, u in users.items() if n != first)
    rig(table, first, "AS 2S 3S 4H 5H 6H 7D 8D 9D TC JC QC KC")
    services.act(table.pk, users[first], {"type": "draw", "source": "closed"}, at=clock())
    drawn = state(table).deal.drawn.code
    services.act(table.pk, users[first], {"type": "finish", "card": drawn}, at=clock())
    groups = [["AS", "2S", "3S"], ["4H", "5H", "6H"], ["7D", "8D", "9D"], ["TC", "JC", "QC", "KC"]]
    services.act(table.pk, users[first], {"type": "declare", "groups": groups}, at=clock())
    deal = state(table).deal
    hand = deal.seats[deal.seat_of(str(other.pk))].hand
    services.act(table.pk, other, {"type": "show", "groups": []}, at=clock())
    now = state(table)
    full = evaluate(POOL101, deal.jokers, hand, ()).score
    assert now.player(str(other.pk)).score == deal_show_score(POOL101, full)
    assert now.player(first).score == 0


def test_it_auto_drops_until_im_back__R_DROP_4(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    services.set_auto_drop(table.pk, alice, at=clock())
    play_deal(table, users, {bob: "wrong", carol: "drop"}, clock)  # alice plays this deal as usual
    pass_deadline(table, clock)
    dropped = TableEvent.objects.filter(table=table, type="dropped", data__player=str(alice.pk))
    assert [e.data["auto"] for e in dropped] == [True]
    assert state(table).deal.seats[state(table).deal.seat_of(str(alice.pk))].outcome.value == "first_drop"
    services.im_back(table.pk, alice, at=clock())  # takes effect from the next deal
    play_deal(table, users, {bob: "drop"}, clock)
    pass_deadline(table, clock)
    deal = state(table).deal
    assert deal.seats[deal.seat_of(str(alice.pk))].in_deal
    assert state(table).player(str(alice.pk)).score == 20


def test_it_shows_a_player_only_their_own_cards(alice, bob):
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    table.refresh_from_db()
    view = table_view(table, alice)
    deal = state(table).deal
    assert view["deal"]["hand"] == [c.code for c in deal.seats[deal.seat_of(str(alice.pk))].hand]
    bob_cards = {c.code for c in deal.seats[deal.seat_of(str(bob.pk))].hand}
    assert "closed_pile" not in view["deal"]
    events = events_for(table, alice, 0)
    assert [e["v"] for e in events] == list(range(1, table.version + 1))
    for event in events:
        if event.get("type") == "dealt":
            assert set(event["data"]["hand"]) != bob_cards
    hidden = [e for e in events if set(e) == {"v"}]
    assert hidden, "bob's private deal event keeps its version with no content"
    with pytest.raises(GameError) as error:
        services.act(
            table.pk, alice if turn_player(table) != str(alice.pk) else bob, {"type": "drop"}, at=clock()
        )
    assert error.value.code == "not_your_turn"
    parse_cards(view["deal"]["hand"])
    assert engine.Phase(view["phase"]) is engine.Phase.PLAYING
