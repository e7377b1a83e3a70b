"""The pure table engine: seating, dealer rotation, deadlines, money intents, JSON."""

from __future__ import annotations

import pytest

from games.engine import table as t
from games.engine.actions import Drop, IllegalAction
from games.engine.toss import toss
from games.engine.variants import POINTS21, POOL101

SEED = bytes(range(32))
SEED2 = bytes(range(1, 33))


def seated(names=("a", "b", "c"), variant=POOL101, **rules):
    rules.setdefault("seats", len(names))
    rules.setdefault("entry_fee", 1000)
    state = t.open_table(variant, t.Rules(**rules), 0)
    money = []
    for i, name in enumerate(names):
        progress = t.apply(state, t.Join(name, i))
        state = progress.state
        money.extend(progress.money)
    return state, money


def test_it_charges_each_entry_and_is_ready_when_full__R_POOL_1():
    state, money = seated()
    assert money == [t.ChargeEntry(n, 1000) for n in "abc"]
    assert state.waiting_for == "deal"
    assert state.prize_pool == 3000


def test_it_tosses_for_seats_then_rotates_the_dealer__R_TOSS_1_R_TOSS_2_R_TOSS_3():
    state, _ = seated()
    state = t.apply(state, t.NextDeal(10, SEED, SEED2)).state
    tossed = toss(["a", "b", "c"], SEED2)
    assert state.seating == tossed.seating
    assert state.dealer == tossed.dealer
    first = state.first
    while state.phase is t.Phase.PLAYING:  # everyone but the last drops
        deal = state.deal
        state = t.apply(state, Drop(deal.seats[deal.turn].player, state.now_ms + 1)).state
    state = t.apply(state, t.Timeout(state.deadline_ms)).state
    state = t.apply(state, t.NextDeal(state.now_ms, SEED2, SEED)).state
    assert state.dealer == first, "who played first deals next"


def test_it_refuses_a_timeout_before_its_deadline():
    state, _ = seated(names=("a", "b"), seats=3)
    assert state.waiting_for == "countdown"
    with pytest.raises(IllegalAction) as error:
        t.apply(state, t.Timeout(state.deadline_ms - 1))
    assert error.value.code == "not_expired"
    assert t.apply(state, t.Timeout(state.deadline_ms)).state.waiting_for == "deal"


def test_it_round_trips_through_json():
    state, _ = seated()
    state = t.apply(state, t.NextDeal(10, SEED, SEED2)).state
    assert t.TableState.from_json(state.to_json()) == state


def test_it_holds_200_points_for_a_21_card_seat__R_21_8():
    _state, money = seated(names=("a", "b"), variant=POINTS21, point_value=10, entry_fee=0)
    assert money == [t.HoldSeat("a", 2000), t.HoldSeat("b", 2000)]


def test_it_refunds_everyone_when_nobody_else_comes__R_MONEY_4():
    state, _ = seated(names=("a",), seats=3)
    progress = t.apply(state, t.Timeout(state.deadline_ms))
    assert progress.money == (t.RefundAll(),)
    assert progress.state.phase is t.Phase.CANCELLED
