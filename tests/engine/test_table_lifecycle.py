"""Each arrow of the table state machine in docs/TABLES.md, in order, with its timer: every
state but the two final ones has a deadline, and a Leave out of it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import table as t
from games.engine.actions import Drop
from games.engine.variants import POINTS21, POOL101

SEED = bytes(range(32))
SEED2 = bytes(range(1, 33))
RULES = t.Rules(seats=3, entry_fee=1000)


def state_name(state: t.TableState) -> str:
    return f"{state.phase.value}/{state.waiting_for}" if state.waiting_for else state.phase.value


def joined(names, variant=POOL101, rules=RULES):
    state = t.open_table(variant, rules, 0)
    for i, name in enumerate(names):
        state = t.apply(state, t.Join(name, i)).state
    return state


def dealt(names=("a", "b", "c"), variant=POOL101, rules=RULES):
    state = joined(names, variant, rules)
    if state.waiting_for == "countdown":
        state = t.apply(state, t.Timeout(state.deadline_ms)).state
    return t.apply(state, t.NextDeal(state.now_ms + 1, SEED, SEED2)).state


def turn_of(state):
    return state.deal.seats[state.deal.turn].player


def test_1_open_is_waiting_for_players_with_the_wait_timer():
    state = t.open_table(POOL101, RULES, 1000)
    assert state_name(state) == "waiting/players"
    assert state.deadline_ms == 1000 + RULES.wait_ms


def test_2_a_second_player_starts_the_countdown():
    state = joined(("a", "b"))
    assert state_name(state) == "waiting/countdown"
    assert state.deadline_ms == 1 + RULES.start_ms


def test_3_a_leave_below_two_players_stops_the_countdown():
    state = t.apply(joined(("a", "b")), t.Leave("b", 5)).state
    assert state_name(state) == "waiting/players"
    assert state.deadline_ms == 5 + RULES.wait_ms


def test_4_the_countdown_or_a_full_table_starts_the_deal():
    state = joined(("a", "b"))
    assert state_name(t.apply(state, t.Timeout(state.deadline_ms)).state) == "waiting/deal"
    assert state_name(joined(("a", "b", "c"))) == "waiting/deal", "full: the deal is due at once"
    assert state_name(dealt()) == "playing/move"


def test_5_nobody_comes_and_the_table_is_cancelled_and_refunded__R_MONEY_4():
    state = joined(("a",))
    progress = t.apply(state, t.Timeout(state.deadline_ms))
    assert state_name(progress.state) == "cancelled"
    assert progress.money == (t.RefundAll(),)
    assert progress.state.deadline_ms is None


def test_6_staff_cancel_a_waiting_table():
    progress = t.apply(joined(("a", "b")), t.Cancel(10, "a fault"))
    assert state_name(progress.state) == "cancelled"


def test_7_a_deal_ends_and_the_table_pauses_with_the_pause_timer():
    state = dealt()
    state = t.apply(state, Drop(turn_of(state), state.now_ms + 1)).state
    state = t.apply(state, Drop(turn_of(state), state.now_ms + 1)).state
    assert state_name(state) == "between/pause"
    assert state.deadline_ms == state.since_ms + RULES.between_ms


def test_7a_a_rejoin_offer_waits_for_decisions_with_the_rejoin_timer__R_POOL_4():
    state = dealt()
    dropper = turn_of(state)
    state = replace(
        state, players=tuple(replace(p, score=90 if p.name == dropper else 0) for p in state.players)
    )
    state = t.apply(state, Drop(dropper, state.now_ms + 1)).state
    state = t.apply(state, Drop(turn_of(state), state.now_ms + 1)).state
    assert state.rejoin_open == (dropper,)
    assert state_name(state) == "between/decisions"
    assert state.deadline_ms == state.since_ms + RULES.rejoin_ms


def test_7b_a_two_player_pause_has_the_between_timer():
    state = dealt(("a", "b"), rules=replace(RULES, seats=2))
    state = replace(state, players=tuple(replace(p, score=10) for p in state.players))
    state = t.apply(state, Drop(turn_of(state), state.now_ms + 1)).state
    assert state_name(state) == "between/pause"
    assert state.deadline_ms == state.since_ms + RULES.between_ms


def test_8_a_leave_mid_deal_that_leaves_one_player_finishes_the_game__R_MONEY_5():
    state = dealt(("a", "b"), rules=replace(RULES, seats=2))
    progress = t.apply(state, t.Leave("a", state.now_ms + 1))
    assert state_name(progress.state) == "finished"
    assert progress.state.deadline_ms is None


def test_9_the_end_of_the_pause_deals_again():
    state = dealt()
    state = t.apply(state, Drop(turn_of(state), state.now_ms + 1)).state
    state = t.apply(state, Drop(turn_of(state), state.now_ms + 1)).state
    state = t.apply(state, t.Timeout(state.deadline_ms)).state
    assert state_name(state) == "between/deal"
    assert state_name(t.apply(state, t.NextDeal(state.now_ms, SEED2, SEED)).state) == "playing/move"


def test_10_a_leave_between_deals_that_leaves_one_player_finishes_the_game__R_MONEY_5():
    state = dealt(("a", "b"), rules=replace(RULES, seats=2))
    state = t.apply(state, Drop(turn_of(state), state.now_ms + 1)).state
    progress = t.apply(state, t.Leave("a", state.now_ms + 1))
    assert state_name(progress.state) == "finished"
    assert [type(m) for m in progress.money] == [t.PayWinner]


def test_11_a_21_card_table_below_two_players_waits_again__R_21_9():
    rules = t.Rules(seats=2, point_value=10)
    state = dealt(("a", "b"), POINTS21, rules)
    state = t.apply(state, Drop(turn_of(state), state.now_ms + 1)).state
    state = t.apply(state, t.Leave("a", state.now_ms + 1)).state
    assert state_name(state) == "between/pause"
    state = t.apply(state, t.Timeout(state.deadline_ms)).state
    assert state_name(state) == "waiting/players"
    assert state.deadline_ms == state.opened_ms + rules.wait_ms


def test_12_a_player_joining_a_waiting_21_card_table_starts_it_again():
    rules = t.Rules(seats=2, point_value=10)
    state = dealt(("a", "b"), POINTS21, rules)
    state = t.apply(state, Drop(turn_of(state), state.now_ms + 1)).state
    state = t.apply(state, t.Leave("a", state.now_ms + 1)).state
    state = t.apply(state, t.Timeout(state.deadline_ms, funds=(("b", 10**6),))).state
    assert state_name(state) == "waiting/players"
    state = t.apply(state, t.Join("c", state.now_ms + 1)).state
    assert state_name(state) == "waiting/deal"
    progress = t.apply(state, t.NextDeal(state.now_ms + 1, SEED, SEED2))
    assert state_name(progress.state) == "playing/move"
    assert [e.type for e in progress.events].count("toss") == 1, "a new player: a new toss"


@pytest.mark.parametrize("name", ["waiting/players", "waiting/countdown", "playing/move", "between"])
def test_every_state_but_the_final_ones_has_a_deadline_and_a_leave(name):
    states = {
        "waiting/players": joined(("a",)),
        "waiting/countdown": joined(("a", "b")),
        "playing/move": dealt(),
    }
    between = dealt()
    between = t.apply(between, Drop(turn_of(between), between.now_ms + 1)).state
    states["between"] = t.apply(between, Drop(turn_of(between), between.now_ms + 1)).state
    state = states[name]
    assert state.deadline_ms is not None
    assert t.apply(state, t.Leave("a", state.deadline_ms)).state.player("a").status is t.Status.LEFT
