"""13-card points rummy in the pure engine (R-PTS-1..5): one deal a game, settled from the seats'
holds at the table's point value, deal after deal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import deal as deals
from games.engine import table as t
from games.engine.actions import Declare, Discard, Draw, Drop, Finish, IllegalAction, Show
from games.engine.cards import shoe
from games.engine.deal import Outcome
from games.engine.shuffle import shuffled
from games.engine.variants import POINTS13, POOL101
from tests.engine import table_support as support
from tests.engine.deal_support import LOSER_13, LOSER_GROUPS, LOSER_SCORE, WIN_13, WIN_GROUPS, build, groups
from tests.engine.table_support import SEED, SEED2, in_turn_order, play_out, turn_of

PV = 15  # paise a point


def seated(names=("a", "b"), **rules):
    rules.setdefault("point_value", PV)
    return support.seated(POINTS13, names, **rules)


def started(names=("a", "b"), **rules):
    rules.setdefault("point_value", PV)
    return support.started(POINTS13, names, **rules).state


def settlement(money):
    (settle,) = [m for m in money if isinstance(m, t.SettleDeal)]
    return settle


def rigged(state, hands, **kwargs):
    """The table's running deal replaced by one with these hands (seat order kept)."""
    seats = state.deal.players
    deal = build(dict(zip(seats, hands, strict=True)), variant=POINTS13, now_ms=state.now_ms, **kwargs)
    return replace(state, deal=deal)


# --- R-PTS-1 ----------------------------------------------------------------------------------


def test_two_players_play_with_one_pack_and_three_or_more_with_two__R_PTS_1():
    two = started(("a", "b")).deal
    assert two.packs == 1
    cards = sum(len(s.hand) for s in two.seats) + len(two.open_pile) + len(two.closed_pile) + 1
    assert cards == 53
    assert all(len(s.hand) == 13 for s in two.seats)
    three = started(("a", "b", "c")).deal
    assert three.packs == 2
    assert sum(len(s.hand) for s in three.seats) + len(three.open_pile) + len(three.closed_pile) + 1 == 106
    assert list(three.seats[0].hand) == list(shuffled(shoe(2), SEED)[:13])


def test_a_table_has_two_to_six_seats_and_needs_a_point_value__R_PTS_1():
    with pytest.raises(ValueError, match="seats"):
        t.Rules(seats=7, point_value=PV)
    with pytest.raises(ValueError, match="point value"):
        t.open_table(POINTS13, t.Rules(seats=2), 0)


# --- R-PTS-2 ----------------------------------------------------------------------------------


def test_the_scores_are_the_101_pools_numbers__R_PTS_2():
    for field in (
        "first_drop",
        "middle_drop",
        "full_count",
        "wrong_show",
        "show_timeout",
        "missed_moves_drop",
    ):
        assert getattr(POINTS13, field) == getattr(POOL101, field), field
    assert (POINTS13.first_drop, POINTS13.middle_drop, POINTS13.missed_moves_drop) == (20, 40, 40)
    assert (POINTS13.full_count, POINTS13.wrong_show, POINTS13.deal_show_max) == (80, 80, 40)


def test_a_first_drop_loses_20_and_a_middle_drop_40__R_PTS_2():
    state = started(("a", "b"))
    first, second = in_turn_order(state)
    _, money, _ = play_out(state, winner=second)
    assert settlement(money).transfers == ((first, second, 20),)
    state = started(("a", "b", "c"))
    mover = turn_of(state)
    state = t.apply(state, Draw(mover, "closed", state.now_ms + 1)).state
    state = t.apply(state, Discard(mover, state.deal.drawn, state.now_ms + 1)).state
    while turn_of(state) != mover:  # the others draw and discard once
        player = turn_of(state)
        state = t.apply(state, Draw(player, "closed", state.now_ms + 1)).state
        state = t.apply(state, Discard(player, state.deal.drawn, state.now_ms + 1)).state
    progress = t.apply(state, Drop(mover, state.now_ms + 1))
    (seat,) = [s for s in progress.state.deal.seats if s.player == mover]
    assert (seat.outcome, seat.score) == (Outcome.MIDDLE_DROP, 40)


def test_three_missed_moves_lose_40__R_PTS_2():
    state = started(("a", "b"))
    missing = turn_of(state)
    other = next(name for name in state.deal.players if name != missing)
    money = []
    while state.phase is t.Phase.PLAYING:
        if turn_of(state) == missing:
            progress = t.apply(state, t.Timeout(state.deadline_ms))
        else:
            state = t.apply(state, Draw(other, "closed", state.now_ms + 1)).state
            progress = t.apply(state, Discard(other, state.deal.drawn, state.now_ms + 1))
        state, money = progress.state, [*money, *progress.money]
    assert settlement(money).transfers == ((missing, other, 40),)


def test_a_wrong_show_loses_80_and_a_losing_hand_is_capped_at_80__R_PTS_2():
    state = started(("a", "b"))
    mover = turn_of(state)
    other = next(name for name in state.deal.players if name != mover)
    # The mover makes a wrong show: every card in one group.
    state = t.apply(state, Draw(mover, "closed", state.now_ms + 1)).state
    hand = state.deal.seats[state.deal.seat_of(mover)].hand
    state = t.apply(state, Finish(mover, hand[0], state.now_ms + 1)).state
    progress = t.apply(state, Declare(mover, (hand[1:],), state.now_ms + 1))
    assert settlement(progress.money).transfers == ((mover, other, 80),)
    # A losing hand of high cards counts 130 and is capped at the full count, 80. The loser
    # moves first, so their hand is no deal show (R-SHOW-3).
    state = started(("a", "b"))
    loser, winner = in_turn_order(state)
    heavy = "KH QH JH KD QD JD KC QC JC KS QS JS TD"
    hands = [WIN_13 if p == winner else heavy for p in state.deal.players]
    state = rigged(state, hands, closed_pile="2D 3D")
    state = t.apply(state, Draw(loser, "closed", state.now_ms + 1)).state
    state = t.apply(state, Discard(loser, state.deal.drawn, state.now_ms + 1)).state
    state = t.apply(state, Draw(winner, "closed", state.now_ms + 1)).state
    state = t.apply(state, Finish(winner, state.deal.drawn, state.now_ms + 1)).state
    state = t.apply(state, Declare(winner, groups(WIN_GROUPS), state.now_ms + 1)).state
    progress = t.apply(state, Show(loser, (), state.now_ms + 1))
    assert settlement(progress.money).transfers == ((loser, winner, 80),)


def test_a_deal_show_loses_half_the_hand_at_most_40__R_PTS_2():
    state = started(("a", "b"))
    winner, loser = turn_of(state), next(n for n in state.deal.players if n != turn_of(state))
    state = rigged(state, [WIN_13 if p == winner else LOSER_13 for p in state.deal.players], closed_pile="2D")
    state = t.apply(state, Draw(winner, "closed", state.now_ms + 1)).state
    state = t.apply(state, Finish(winner, deals.Card.parse("2D"), state.now_ms + 1)).state
    state = t.apply(state, Declare(winner, groups(WIN_GROUPS), state.now_ms + 1)).state
    progress = t.apply(state, Show(loser, groups(LOSER_GROUPS), state.now_ms + 1))
    assert settlement(progress.money).transfers == ((loser, winner, LOSER_SCORE // 2),)
    assert POINTS13.deal_show_max == 40


# --- R-PTS-3 ----------------------------------------------------------------------------------


def test_each_loser_pays_the_winner_and_the_rake_comes_off_the_gain_rounded_down__R_PTS_3():
    state = started(("a", "b", "c"), point_value=7, rake_percent=10)
    order = in_turn_order(state)
    droppers = set(order[:2])  # the first two to move drop (20 each); the third wins
    state, money, events = play_out(state)
    winner = order[2]
    assert sorted(settlement(money).transfers) == sorted((name, winner, 20) for name in droppers)
    gain = 40 * 7  # 280 paise
    rake = gain * 10 // 100  # 28
    held = {p.name: p.held for p in state.players}
    assert held[winner] == 80 * 7 + gain - rake
    assert all(held[name] == 80 * 7 - 20 * 7 for name in droppers)
    (settled,) = [e for e in events if e.type == "settled"]
    assert settled.data["net"] == {winner: 40, **dict.fromkeys(droppers, -20)}
    odd = started(("a", "b"), point_value=7, rake_percent=10)
    first = turn_of(odd)
    odd, _, _ = play_out(odd)  # 20 x 7 = 140: rake 14
    assert next(p.held for p in odd.players if p.name != first) == 80 * 7 + 140 - 14
    odd = started(("a", "b"), point_value=13, rake_percent=7)
    first = turn_of(odd)
    odd, _, _ = play_out(odd)  # 20 x 13 = 260: 7% is 18.2, rounded down to 18
    assert next(p.held for p in odd.players if p.name != first) == 80 * 13 + 260 - 18


# --- R-PTS-4 ----------------------------------------------------------------------------------


def test_joining_holds_80_points_and_the_seat_is_topped_back_up_between_deals__R_PTS_4():
    state, money = seated(("a", "b"))
    assert money == [t.HoldSeat("a", 80 * PV), t.HoldSeat("b", 80 * PV)]
    state = t.apply(state, t.NextDeal(1, SEED, SEED2)).state
    loser, winner = in_turn_order(state)
    state, _, _ = play_out(state)
    assert state.player(loser).held == 60 * PV
    progress = t.apply(state, t.Timeout(state.deadline_ms, funds=((loser, 10_000),)))
    assert progress.money == (t.TopUpSeat(loser, 20 * PV, 1),)
    assert progress.state.player(loser).held == 80 * PV
    (topped,) = [e for e in progress.events if e.type == "topped_up"]
    assert "below 80 points" in topped.data["reason"]
    assert progress.state.player(winner).held == 80 * PV + 20 * PV - 20 * PV * 10 // 100


def test_a_seat_the_wallet_cannot_top_up_stands_up_and_is_told_why__R_PTS_4():
    state = started(("a", "b", "c"))
    loser = turn_of(state)
    state, _, _ = play_out(state)
    others = tuple((p.name, 10**6) for p in state.seated if p.name != loser)
    progress = t.apply(state, t.Timeout(state.deadline_ms, funds=((loser, 5), *others)))
    assert t.ReleaseSeat(loser) in progress.money
    (stood,) = [e for e in progress.events if e.type == "stood_up"]
    assert stood.data["player"] == loser
    assert "wallet cannot top it up" in stood.data["reason"]
    assert progress.state.player(loser).status is t.Status.LEFT
    assert progress.state.waiting_for == "deal", "two players are still seated"


# --- R-PTS-5 ----------------------------------------------------------------------------------


def test_the_table_plays_deal_after_deal_after_a_5_s_pause__R_PTS_5():
    state = started(("a", "b"))
    for number in (1, 2, 3):
        assert state.deal_number == number
        state, _, _ = play_out(state)
        assert state.waiting_for == "pause"
        assert state.deadline_ms == state.since_ms + 5_000
        with pytest.raises(IllegalAction):
            t.apply(state, t.Timeout(state.deadline_ms - 1))
        funds = tuple((p.name, 10**6) for p in state.seated)
        state = t.apply(state, t.Timeout(state.deadline_ms, funds=funds)).state
        assert state.waiting_for == "deal"
        state = t.apply(state, t.NextDeal(state.now_ms + 1, SEED2, SEED)).state
    assert state.phase is t.Phase.PLAYING


def test_a_player_joins_between_deals_and_a_new_toss_seats_them__R_PTS_5():
    state = started(("a", "b"), seats=3)
    state, _, _ = play_out(state)
    progress = t.apply(state, t.Join("c", state.now_ms + 1))
    assert progress.money == (t.HoldSeat("c", 80 * PV),)
    state = progress.state
    funds = tuple((p.name, 10**6) for p in state.seated)
    state = t.apply(state, t.Timeout(state.deadline_ms, funds=funds)).state
    progress = t.apply(state, t.NextDeal(state.now_ms + 1, SEED2, SEED))
    assert [e.type for e in progress.events if e.type == "toss"] == ["toss"]
    assert set(progress.state.deal.players) == {"a", "b", "c"}
    assert progress.state.deal.packs == 2


def test_leaving_mid_deal_is_a_drop_settled_with_the_deal_and_the_last_one_wins__R_PTS_5():
    state = started(("a", "b", "c"))
    leaver = turn_of(state)
    progress = t.apply(state, t.Leave(leaver, state.now_ms + 1))
    assert t.ReleaseSeat(leaver) not in progress.money, "the seat pays the deal first"
    state = progress.state
    second = turn_of(state)
    progress = t.apply(state, t.Leave(second, state.now_ms + 1))
    last = next(n for n in ("a", "b", "c") if n not in (leaver, second))
    assert progress.state.phase is t.Phase.BETWEEN
    assert sorted(settlement(progress.money).transfers) == sorted([(leaver, last, 20), (second, last, 20)])
    assert t.ReleaseSeat(leaver) in progress.money
    assert t.ReleaseSeat(second) in progress.money
    funds = ((last, 10**6),)
    waiting = t.apply(progress.state, t.Timeout(progress.state.deadline_ms, funds=funds))
    assert waiting.state.phase is t.Phase.WAITING
    (told,) = [e for e in waiting.events if e.type == "waiting"]
    assert "fewer than two players" in told.data["reason"]


def test_a_player_may_leave_after_any_deal__R_PTS_5():
    state = started(("a", "b", "c"))
    leaving = in_turn_order(state)[-1]  # the deal's winner leaves with their gain
    state = t.apply(state, t.LeaveAfterDeal(leaving, True, state.now_ms + 1)).state
    state, money, _ = play_out(state, winner=leaving)
    assert state.player(leaving).status is t.Status.LEFT
    assert t.ReleaseSeat(leaving) in money


def test_there_is_no_rejoin_at_a_points_table():
    state = started(("a", "b"))
    with pytest.raises(IllegalAction) as refused:
        t.apply(state, t.Rejoin("a", state.now_ms + 1))
    assert refused.value.code == "rejoin_not_allowed"


def test_a_points_table_round_trips_through_json():
    state = started(("a", "b", "c"))
    assert t.TableState.from_json(state.to_json()) == state
    state, _, _ = play_out(state)
    assert t.TableState.from_json(state.to_json()) == state


def test_a_staff_void_drops_the_deal_and_returns_every_hold__R_MONEY_7():
    state = started(("a", "b"))
    progress = t.apply(state, t.Void(state.now_ms + 1, "a fault"))
    assert set(progress.money) == {t.ReleaseSeat("a"), t.ReleaseSeat("b")}
    assert not any(isinstance(m, t.SettleDeal) for m in progress.money)


def test_a_table_that_deals_for_ever_keeps_a_state_of_bounded_size():
    """Its state is read and written at every move: it keeps the last few deals in brief, the
    database keeps them all."""
    state = started(("a", "b"))
    sizes = []
    for _ in range(30):
        state, _, _ = play_out(state)
        funds = tuple((p.name, 10**6) for p in state.seated)
        state = t.apply(state, t.Timeout(state.deadline_ms, funds=funds)).state
        state = t.apply(state, t.NextDeal(state.now_ms + 1, SEED2, SEED)).state
        sizes.append(len(str(state.to_json())))
    assert len(state.history) == t.POINTS_HISTORY_KEPT
    assert state.history[-1]["number"] == 30
    assert max(sizes[15:]) < 1.2 * min(sizes[15:]), "no growth deal after deal"
