"""Turns through the service layer (R-TURN-1..5; R-TURN-6 is in test_deal_rules)."""

from __future__ import annotations

import pytest

from games import services
from games.errors import GameError
from games.models import Table, TableEvent
from games.views_state import events_for
from tests.tables.support import (
    Clock,
    check_privacy,
    check_so_far,
    hand_of,
    in_turn_order,
    pass_deadline,
    rig,
    scripted,
    seat_all,
    state,
    template,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def two_players(alice, bob, clock):
    table = seat_all(template(seats=2, name="101 for two"), [alice, bob], clock)
    return table, *in_turn_order(table, [alice, bob])


def refused(code, call):
    with pytest.raises(GameError) as error:
        call()
    assert error.value.code == code, error.value.message


def draw(table, user, source, at):
    services.act(table.pk, user, {"type": "draw", "source": source}, at=at)


def discard(table, user, card, at):
    services.act(table.pk, user, {"type": "discard", "card": card}, at=at)


def test_it_draws_one_card_then_discards_one__R_TURN_1(alice, bob):
    clock = Clock()
    table, first, second = two_players(alice, bob, clock)
    card = hand_of(table, first)[0]
    refused("must_draw_first", lambda: discard(table, first, card, clock()))
    refused("not_your_turn", lambda: draw(table, second, "closed", clock()))
    closed_top = state(table).deal.closed_pile[0].code
    draw(table, first, "closed", clock())
    assert len(hand_of(table, first)) == 14
    assert closed_top in hand_of(table, first)
    refused("already_drawn", lambda: draw(table, first, "open", clock()))
    drew = TableEvent.objects.filter(table=table, type="drew").last()
    assert "card" not in drew.data, "a closed card is not shown to the others"
    private = TableEvent.objects.get(table=table, type="drew_card")
    assert (private.user_id, private.data["card"]) == (first.pk, closed_top)
    assert events_for(table, second, private.version - 1)[0] == {"v": private.version}
    discard(table, first, card, clock())
    assert len(hand_of(table, first)) == 13
    assert state(table).deal.open_pile[-1].code == card
    assert in_turn_order(table, [alice, bob])[0] == second
    draw(table, second, "open", clock())
    assert card in hand_of(table, second)
    assert TableEvent.objects.filter(table=table, type="drew").last().data["card"] == card
    check_privacy(table, [alice, bob])


def test_it_refuses_a_joker_from_the_open_pile_except_the_first_open_card__R_TURN_2(alice, bob):
    clock = Clock()
    table, first, second = two_players(alice, bob, clock)
    rig(table, {first: "9S 2C 3C 4C 6D 7D 8D JH QH KH 2S 5S 7S"}, cut="9C", open_top="9H")
    draw(table, first, "open", clock())  # the first open card is a joker: it may be picked
    assert "9H" in hand_of(table, first)
    discard(table, first, "9S", clock())  # a wild 9 onto the open pile
    refused("joker_on_open_pile", lambda: draw(table, second, "open", clock()))
    draw(table, second, "closed", clock())
    check_so_far(table, [alice, bob])


def test_it_refuses_to_discard_the_card_taken_from_the_open_pile__R_TURN_3(alice, bob):
    clock = Clock()
    table, first, _second = two_players(alice, bob, clock)
    rig(table, cut="9C", open_top="KD")
    draw(table, first, "open", clock())
    refused("open_card_discard", lambda: discard(table, first, "KD", clock()))
    other = next(c for c in hand_of(table, first) if c != "KD")
    discard(table, first, other, clock())
    assert state(table).deal.open_pile[-1].code == other
    check_so_far(table, [alice, bob])


def test_it_reshuffles_the_open_pile_into_a_new_closed_pile__R_TURN_4(alice, bob):
    clock = Clock()
    table, first, second = two_players(alice, bob, clock)
    table.refresh_from_db()
    data = table.state
    deal = data["deal"]
    deal["open_pile"] = deal["closed_pile"][1:] + deal["open_pile"]  # one card left to draw
    deal["closed_pile"] = deal["closed_pile"][:1]
    Table.objects.filter(pk=table.pk).update(state=data)
    draw(table, first, "closed", clock())
    top = hand_of(table, first)[0]
    discard(table, first, top, clock())
    before = len(state(table).deal.open_pile)
    draw(table, second, "closed", clock())
    reshuffled = TableEvent.objects.get(table=table, type="reshuffled").data
    assert reshuffled == {"closed_count": before - 1, "open_pile": [top]}
    now = state(table).deal
    assert [c.code for c in now.open_pile] == [top], "the top card stays on the open pile"
    assert len(now.closed_pile) == before - 2, "the new closed pile, less the card just drawn"
    cut = 1
    in_play = sum(len(s.hand) for s in now.seats) + len(now.open_pile) + len(now.closed_pile) + cut
    assert in_play == 106, "every card of the two packs is still in play"
    check_so_far(table, [alice, bob])


def test_it_spends_the_extra_time_bank_after_the_move_time__R_TURN_5(alice, bob):
    clock = Clock()
    table, first, second = two_players(alice, bob, clock)
    start = state(table).deal.since_ms
    assert state(table).deadline_ms == start + 30_000 + 30_000
    draw(table, first, "closed", start + 40_000)  # 10 s into the extra time
    discard(table, first, hand_of(table, first)[0], start + 41_000)
    assert state(table).deal.seats[state(table).deal.seat_of(str(first.pk))].extra_ms == 19_000
    second_start = state(table).deal.since_ms
    refused("time_up", lambda: draw(table, second, "closed", second_start + 60_001))
    assert pass_deadline(table, clock)  # the second player's move is missed
    now = state(table)
    assert now.deal.seats[now.deal.seat_of(str(second.pk))].missed == 1
    assert now.deadline_ms == now.deal.since_ms + 30_000 + 19_000, "the bank is per deal, not per turn"
    check_so_far(table, [alice, bob])
