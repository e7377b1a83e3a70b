"""Deals rummy in the pure engine (R-DEALS-1..6): entry fees into a prize pool, a fixed number of
deals played for game chips, the most chips winning, ties broken by a tie-breaker deal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import table as t
from games.engine.actions import Declare, Draw, Finish, IllegalAction
from games.engine.toss import next_dealer, toss
from games.engine.variants import DEALS, DEALS_CHOICES, POINTS13
from tests.engine import table_support as support
from tests.engine.table_support import SEED, SEED2, in_turn_order, play_out, turn_of

FEE = 5000


def seated(names=("a", "b"), deals=2, **rules):
    rules.setdefault("entry_fee", FEE)
    return support.seated(DEALS, names, deals=deals, **rules)


def started(names=("a", "b"), deals=2, **rules):
    rules.setdefault("entry_fee", FEE)
    return support.started(DEALS, names, deals=deals, **rules)


def next_deal(state):
    """The pause after a deal, then the next deal."""
    state = t.apply(state, t.Timeout(state.deadline_ms)).state
    assert state.waiting_for == "deal"
    return t.apply(state, t.NextDeal(state.now_ms + 1, SEED2, SEED)).state


def chips(state):
    return {p.name: p.chips for p in state.players}


# --- R-DEALS-1 --------------------------------------------------------------------------------


def test_fees_form_the_prize_pool_and_a_table_plays_2_3_or_6_deals__R_DEALS_1():
    state, money = seated(("a", "b", "c"), deals=3)
    assert money == [t.ChargeEntry(name, FEE) for name in "abc"]
    assert state.prize_pool == 3 * FEE
    assert DEALS_CHOICES == (2, 3, 6)
    for deals in (0, 1, 7):
        with pytest.raises(ValueError, match="deals"):
            t.open_table(DEALS, t.Rules(seats=2, entry_fee=FEE, deals=deals), 0)
    with pytest.raises(ValueError, match="seats"):
        t.Rules(seats=7, entry_fee=FEE, deals=2)


def test_the_game_ends_after_its_deals_and_the_rake_is_taken_once__R_DEALS_1():
    state = started(("a", "b"), deals=3, rake_percent=10).state
    money = []
    for number in (1, 2, 3):
        assert state.deal_number == number
        state, paid, _ = play_out(state, "a")
        money.extend(paid)
        if number < 3:
            assert state.phase is t.Phase.BETWEEN
            state = next_deal(state)
    assert state.phase is t.Phase.FINISHED
    prize = 2 * FEE - 2 * FEE * 10 // 100
    assert money == [t.PayWinner("a", prize)], "one payout, the rake once, no other money"


# --- R-DEALS-2 --------------------------------------------------------------------------------


def test_each_player_starts_with_80_chips_a_deal_and_chips_never_touch_money__R_DEALS_2():
    for deals in DEALS_CHOICES:
        progress = started(("a", "b", "c"), deals=deals)
        assert chips(progress.state) == dict.fromkeys("abc", 80 * deals)
        (began,) = [e for e in progress.events if e.type == "game_started"]
        assert (began.data["deals"], began.data["chips"]) == (deals, 80 * deals)
    state = started(("a", "b"), deals=2).state
    state, money, _ = play_out(state, "a")
    assert money == [], "a deal moves chips, never money"
    assert not any(isinstance(m, t.SettleDeal | t.HoldSeat | t.TopUpSeat) for m in money)


# --- R-DEALS-3 --------------------------------------------------------------------------------


def test_each_losers_score_moves_in_chips_to_the_winner__R_DEALS_3():
    state = started(("a", "b", "c"), deals=2).state
    winner = in_turn_order(state)[-1]
    state, _, events = play_out(state, winner)
    assert chips(state) == {name: 160 + (40 if name == winner else -20) for name in "abc"}
    (moved,) = [e for e in events if e.type == "chips_moved"]
    assert moved.data["moved"] == {name: (40 if name == winner else -20) for name in "abc"}
    assert moved.data["chips"] == chips(state)
    assert state.history[-1]["chips"] == chips(state)


def test_a_player_pays_at_most_the_chips_they_hold_and_stays_in_at_0__R_DEALS_3():
    state = started(("a", "b"), deals=2).state
    mover, other = in_turn_order(state)
    state = replace(
        state, players=tuple(replace(p, chips=30 if p.name == mover else 290) for p in state.players)
    )
    # The mover makes a wrong show (80): they hold only 30.
    state = t.apply(state, Draw(mover, "closed", state.now_ms + 1)).state
    hand = state.deal.seats[state.deal.seat_of(mover)].hand
    state = t.apply(state, Finish(mover, hand[0], state.now_ms + 1)).state
    state = t.apply(state, Declare(mover, (hand[1:],), state.now_ms + 1)).state
    assert chips(state) == {mover: 0, other: 320}
    assert state.player(mover).status is t.Status.IN
    state = next_deal(state)
    assert mover in state.deal.players, "a player at 0 chips is dealt in"


# --- R-DEALS-4 --------------------------------------------------------------------------------


def test_after_the_last_deal_the_most_chips_wins_the_pool_less_the_rake__R_DEALS_4():
    state = started(("a", "b", "c"), deals=2, rake_percent=10).state
    state, _, _ = play_out(state, "a")
    state = next_deal(state)
    standing = {"a": 160, "b": 170, "c": 150}
    state = replace(state, players=tuple(replace(p, chips=standing[p.name]) for p in state.players))
    state, money, events = play_out(state, "b")
    assert chips(state) == {"a": 140, "b": 210, "c": 130}
    assert state.winner == "b"
    assert money == [t.PayWinner("b", 3 * FEE - 3 * FEE * 10 // 100)]
    (over,) = [e for e in events if e.type == "game_over"]
    assert over.data["chips"] == chips(state)


def test_players_tied_for_the_most_play_a_tie_breaker_among_themselves_until_one_leads__R_DEALS_4():
    state = started(("a", "b", "c"), deals=2).state
    state, _, _ = play_out(state, "a")  # a 200, b 140, c 140
    state = next_deal(state)
    state = replace(
        state, players=tuple(replace(p, chips={"a": 200, "b": 200, "c": 80}[p.name]) for p in state.players)
    )
    # Deal 2: c wins; a and b each pay 20: a 180, b 180, c 120. Tied for the most.
    state, money, events = play_out(state, "c")
    assert money == []
    (tie,) = [e for e in events if e.type == "tie_breaker"]
    assert tie.data["players"] == ["a", "b"] or set(tie.data["players"]) == {"a", "b"}
    assert tie.data["chips"] == 180
    assert set(state.tie_break) == {"a", "b"}
    assert state.phase is t.Phase.BETWEEN
    state = next_deal(state)
    assert set(state.deal.players) == {"a", "b"}, "only the tied play the tie-breaker"
    assert state.deal_number == 3
    state, money, _ = play_out(state, "b")
    assert chips(state) == {"a": 160, "b": 200, "c": 120}
    assert state.winner == "b"
    assert [type(m) for m in money] == [t.PayWinner]


def test_a_tie_breaker_that_ends_level_is_played_again__R_DEALS_4():
    """A tie-breaker whose loser pays nothing (they hold no chips) leaves the tie as it was."""
    level = started(("a", "b"), deals=2).state
    level = replace(
        level, deal_number=2, tie_break=("a", "b"), players=tuple(replace(p, chips=0) for p in level.players)
    )
    level, money, events = play_out(level, "a")
    assert chips(level) == {"a": 0, "b": 0}
    assert level.phase is t.Phase.BETWEEN
    assert money == []
    assert set(level.tie_break) == {"a", "b"}
    (again,) = [e for e in events if e.type == "tie_breaker"]
    assert again.data["reason"].startswith("still tied"), "players are told the tie stands"
    assert set(next_deal(level).deal.players) == {"a", "b"}


# --- R-DEALS-5 --------------------------------------------------------------------------------


def test_there_is_no_rejoin_and_no_split__R_DEALS_5():
    state = started(("a", "b", "c"), deals=2).state
    with pytest.raises(IllegalAction) as refused:
        t.apply(state, t.Rejoin("a", state.now_ms + 1))
    assert refused.value.code == "rejoin_not_allowed"
    state, _, events = play_out(state, "a")
    assert not [e for e in events if e.type in ("split_offered", "rejoin_offered")]
    with pytest.raises(IllegalAction) as refused:
        t.apply(state, t.AnswerSplit("a", True, state.now_ms + 1))
    assert refused.value.code == "no_split_offer"


def test_a_player_who_leaves_is_out_their_fee_stays_and_the_last_one_wins_at_once__R_DEALS_5():
    state = started(("a", "b", "c"), deals=3).state
    leaver = turn_of(state)
    progress = t.apply(state, t.Leave(leaver, state.now_ms + 1))
    assert progress.money == ()
    (left,) = [e for e in progress.events if e.type == "left"]
    assert left.data["forfeit"] is True
    state = progress.state
    assert state.prize_pool == 3 * FEE
    second = turn_of(state)
    progress = t.apply(state, t.Leave(second, state.now_ms + 1))
    last = next(n for n in "abc" if n not in (leaver, second))
    assert progress.state.phase is t.Phase.FINISHED
    assert progress.money == (t.PayWinner(last, 3 * FEE - 3 * FEE * 10 // 100),)


def test_a_player_who_left_cannot_win_even_with_the_most_chips__R_DEALS_5():
    state = started(("a", "b", "c"), deals=2).state
    state, _, _ = play_out(state, "a")  # a 200
    state = t.apply(state, t.Leave("a", state.now_ms + 1)).state  # between deals
    state = next_deal(state)
    assert "a" not in state.deal.players
    state, money, _ = play_out(state, "b")
    assert state.winner == "b"
    assert chips(state)["a"] == 200
    assert money == [t.PayWinner("b", 3 * FEE - 3 * FEE * 10 // 100)]


def test_leaving_before_the_start_refunds_the_fee__R_DEALS_5():
    state, _ = seated(("a", "b"), deals=2, seats=3)
    progress = t.apply(state, t.Leave("a", state.now_ms + 1))
    assert progress.money == (t.RefundEntry("a", FEE),)


# --- R-DEALS-6 --------------------------------------------------------------------------------


def test_seating_toss_and_dealer_rotation_are_pool_rummys__R_DEALS_6():
    progress = started(("a", "b", "c"), deals=3)
    state = progress.state
    tossed = toss(["a", "b", "c"], SEED2)
    assert state.seating == tossed.seating
    assert state.dealer == tossed.dealer
    first, seating, dealer = state.first, state.seating, state.dealer
    state, _, _ = play_out(state, in_turn_order(state)[-1])
    state = next_deal(state)
    assert state.dealer == next_dealer(seating, dealer, first, list(seating)) == first


def test_a_deals_table_round_trips_through_json_with_its_chips_and_tie_break():
    state = started(("a", "b", "c"), deals=2).state
    state = replace(state, tie_break=("a", "b"))
    assert t.TableState.from_json(state.to_json()) == state


def test_a_staff_void_refunds_every_fee_and_takes_no_rake__R_MONEY_7():
    state = started(("a", "b"), deals=2).state
    progress = t.apply(state, t.Void(state.now_ms + 1, "a fault"))
    assert progress.money == (t.RefundAll(voided=True),)


def test_the_deals_variant_scores_as_points_rummy__R_DEALS_3():
    for field in (
        "first_drop",
        "middle_drop",
        "full_count",
        "wrong_show",
        "show_timeout",
        "missed_moves_drop",
    ):
        assert getattr(DEALS, field) == getattr(POINTS13, field), field


# --- a tournament round's table (R-TOUR-3) ------------------------------------------------------


def test_a_free_table_moves_no_money_and_decides_the_players_who_go_through__R_TOUR_3():
    progress = started(("a", "b", "c", "d"), deals=4, entry_fee=0, qualify=2)
    assert progress.money == ()
    state = progress.state
    assert chips(state) == dict.fromkeys("abcd", 320), "80 x as many deals as players seated"
    money = []
    for number in range(1, 5):
        state, paid, events = play_out(state, "abcd"[number - 1])  # each wins one deal
        money.extend(paid)
        if number < 4:
            state = next_deal(state)
    assert money == [], "the tournament pays, not the table"
    # Each won once (+60) and lost three times (-20 each): all level at the cut.
    assert chips(state) == dict.fromkeys("abcd", 320)
    (tie,) = [e for e in events if e.type == "tie_breaker"]
    assert set(tie.data["players"]) == set("abcd")
    assert "cut" in tie.data["reason"]


def test_a_tie_at_the_cut_is_broken_among_the_tied_only__R_TOUR_3():
    state = started(("a", "b", "c", "d"), deals=4, entry_fee=0, qualify=2).state
    standing = {"a": 400, "b": 300, "c": 300, "d": 200}
    state = replace(
        state, deal_number=4, players=tuple(replace(p, chips=standing[p.name]) for p in state.players)
    )
    state, _, events = play_out(state, "d")  # d wins: a, b, c pay 20 each; d 260
    assert chips(state) == {"a": 380, "b": 280, "c": 280, "d": 260}
    (tie,) = [e for e in events if e.type == "tie_breaker"]
    assert set(tie.data["players"]) == {"b", "c"}
    assert tie.data["chips"] == 280
    assert state.phase is t.Phase.BETWEEN
    assert state.qualified == ()
    # a is through already, d is out; b and c play for the last place.
    assert set(next_deal(state).deal.players) == {"b", "c"}


def test_the_game_ends_with_the_qualified_most_chips_first__R_TOUR_3():
    state = started(("a", "b", "c"), deals=3, entry_fee=0, qualify=2).state
    standing = {"a": 300, "b": 200, "c": 220}
    state = replace(
        state, deal_number=3, players=tuple(replace(p, chips=standing[p.name]) for p in state.players)
    )
    progress_state, money, events = play_out(state, "a")
    assert progress_state.phase is t.Phase.FINISHED
    assert progress_state.qualified == ("a", "c")
    assert money == []
    (over,) = [e for e in events if e.type == "game_over"]
    assert over.data["qualified"] == ["a", "c"]
    assert t.TableState.from_json(progress_state.to_json()) == progress_state


def test_a_game_decides_fewer_players_than_it_seats():
    with pytest.raises(ValueError, match="decides"):
        t.open_table(DEALS, t.Rules(seats=2, entry_fee=0, deals=2, qualify=2), 0)
    with pytest.raises(ValueError, match="decides"):
        t.open_table(POINTS13, t.Rules(seats=3, point_value=10, qualify=2), 0)
