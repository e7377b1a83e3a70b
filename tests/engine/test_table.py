"""The pure table engine: seating, dealer rotation, deadlines, money intents, JSON."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import table as t
from games.engine.actions import Drop, IllegalAction
from games.engine.shuffle import commitment
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


def finish_deal(state):
    """Everyone but the last player drops; returns the progress of the last drop."""
    while True:
        deal = state.deal
        progress = t.apply(state, Drop(deal.seats[deal.turn].player, state.now_ms + 1))
        state = progress.state
        if state.phase is not t.Phase.PLAYING:
            return progress


def test_it_commits_to_the_toss_seed_and_reveals_it_after_the_deal__R_TOSS_1():
    state, _ = seated()
    progress = t.apply(state, t.NextDeal(10, SEED, SEED2))
    (tossed,) = [e for e in progress.events if e.type == "toss"]
    assert tossed.data["commitment"] == commitment(SEED2)
    assert progress.state.toss_seed == SEED2
    assert t.TableState.from_json(progress.state.to_json()) == progress.state
    assert not any(e.type == "toss_revealed" for e in progress.events)
    over = finish_deal(progress.state)
    revealed = {"seed": SEED2.hex(), "commitment": commitment(SEED2), "players": ["a", "b", "c"]}
    assert over.toss == revealed
    assert [e.data for e in over.events if e.type == "toss_revealed"] == [{"number": 1, **revealed}]
    assert over.state.history[-1]["toss"] == revealed
    assert over.state.toss_seed is None


def test_it_does_not_toss_for_a_21_card_player_who_joined_and_left__R_TOSS_3():
    state, _ = seated(names=("a", "b"), variant=POINTS21, point_value=10, entry_fee=0, seats=3)
    state = t.apply(state, t.Timeout(state.deadline_ms)).state  # the countdown
    state = t.apply(state, t.NextDeal(state.now_ms, SEED, SEED2)).state
    first = state.first
    state = t.apply(state, t.Join("c", state.now_ms)).state
    assert state.need_toss
    state = t.apply(state, t.Leave("c", state.now_ms)).state
    assert not state.need_toss
    state = finish_deal(state).state
    # Keep both seats at 200 points, as after a deal nobody lost (the drop here cost 30).
    players = tuple(replace(p, held=state.seat_hold) if p.name != "c" else p for p in state.players)
    state = t.apply(replace(state, players=players), t.Timeout(state.deadline_ms)).state
    progress = t.apply(state, t.NextDeal(state.now_ms, SEED2, SEED))
    assert not [e for e in progress.events if e.type == "toss"]
    assert progress.state.dealer == first
