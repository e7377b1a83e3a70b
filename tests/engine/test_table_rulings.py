"""The table engine's rulings (R-POOL-4, R-POOL-7, R-21-9, R-MONEY-5) and its lifecycle
(leave after this deal, announcements with reasons), pure: no database, no wallet."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import deal as deals
from games.engine import table as t
from games.engine.actions import Discard, Draw, Drop, IllegalAction, SaveGrouping
from games.engine.variants import POINTS21, POOL101

SEED = bytes(range(32))
SEED2 = bytes(range(1, 33))


def started(names=("a", "b", "c"), variant=POOL101, scores=None, **rules):
    """A table of ``names`` whose first deal has just started; pool totals set to ``scores``."""
    rules.setdefault("seats", len(names))
    rules.setdefault("entry_fee", 1000)
    state = t.open_table(variant, t.Rules(**rules), 0)
    for i, name in enumerate(names):
        state = t.apply(state, t.Join(name, i)).state
    if state.waiting_for == "countdown":
        state = t.apply(state, t.Timeout(state.deadline_ms)).state
    state = t.apply(state, t.NextDeal(state.now_ms + 1, SEED, SEED2)).state
    if scores:
        state = replace(state, players=tuple(replace(p, score=scores.get(p.name, 0)) for p in state.players))
    return state


def turn_of(state):
    return state.deal.seats[state.deal.turn].player


def drop_until_over(state, order):
    """The players in ``order`` drop on their turns, the others play on, until the deal ends."""
    money, events = [], []
    while state.phase is t.Phase.PLAYING:
        player = turn_of(state)
        if player not in order:  # plays on: draws from the closed pile and discards that card
            state = t.apply(state, Draw(player, "closed", state.now_ms + 1)).state
            progress = t.apply(state, Discard(player, state.deal.drawn, state.now_ms + 1))
        else:
            progress = t.apply(state, Drop(player, state.now_ms + 1))
        state = progress.state
        money.extend(progress.money)
        events.extend(progress.events)
    return state, money, events


def of_type(events, kind):
    return [e for e in events if e.type == kind]


# --- R-POOL-4 ---------------------------------------------------------------------------------


def test_players_eliminated_in_one_deal_get_the_same_restart_score__R_POOL_4():
    state = started(("a", "b", "c", "d"), scores={"a": 30, "b": 10, "c": 85, "d": 90})
    state, _, events = drop_until_over(state, {"a", "c", "d"})
    assert {p.name for p in state.players if p.status is t.Status.ELIMINATED} == {"c", "d"}
    (offer,) = of_type(events, "rejoin_offered")
    assert offer.data["score"] == 51
    for name in ("d", "c"):  # whatever the order
        state = t.apply(state, t.Rejoin(name, state.now_ms + 1)).state
    assert {p.name: p.score for p in state.players} == {"a": 50, "b": 10, "c": 51, "d": 51}


def test_the_second_rejoin_is_not_refused_at_a_highest_score_of_79__R_POOL_4():
    """a ends the deal on 79: both eliminated players were offered 80 and both get it."""
    state = started(("a", "b", "c", "d"), scores={"a": 59, "b": 10, "c": 85, "d": 90})
    state, _, _ = drop_until_over(state, {"a", "c", "d"})
    assert state.player("a").score == 79
    money = []
    for name in ("c", "d"):
        progress = t.apply(state, t.Rejoin(name, state.now_ms + 1))
        state, money = progress.state, [*money, *progress.money]
    assert state.player("c").score == state.player("d").score == 80
    assert money == [t.ChargeRejoin("c", 1000, 1), t.ChargeRejoin("d", 1000, 1)]
    assert state.prize_pool == 6000


# --- R-POOL-7 ---------------------------------------------------------------------------------


def test_a_player_who_left_counts_as_out_for_the_auto_split__R_POOL_7():
    """Nobody is eliminated; a leaves mid-deal; at the end of the deal b and c both have at most
    one drop left: the automatic split is due because a counts as out."""
    state = started(entry_fee=250_000, scores={"a": 0, "b": 61, "c": 61})
    state = t.apply(state, t.Leave("a", state.now_ms + 1)).state
    assert state.phase is t.Phase.PLAYING
    dropper = turn_of(state)
    progress = t.apply(state, Drop(dropper, state.now_ms + 1))
    assert progress.state.phase is t.Phase.FINISHED
    (split,) = [m for m in progress.money if isinstance(m, t.PaySplit)]
    assert set(split.players) == {"b", "c"}
    assert sum(split.amounts) == 750_000 - 75_000
    assert of_type(progress.events, "game_over")[0].data["split"] == "auto"


def test_a_leave_between_deals_brings_the_auto_split_at_once__R_POOL_7():
    """Nobody is out after the deal, so no split; then a leaves in the pause: b and c, with at
    most one drop left each, split at once."""
    state = started(entry_fee=250_000, scores={"a": 0, "b": 70, "c": 70})
    state, money, _ = drop_until_over(state, {"a", "b", "c"})
    assert state.phase is t.Phase.BETWEEN
    assert not money
    assert all(d <= 1 for d in state.drops_left([state.player("b"), state.player("c")]))
    progress = t.apply(state, t.Leave("a", state.now_ms + 1))
    assert progress.state.phase is t.Phase.FINISHED
    assert [type(m) for m in progress.money] == [t.PaySplit]
    assert progress.money[0].players == tuple(p.name for p in state.players if p.name != "a")


# --- R-MONEY-5 --------------------------------------------------------------------------------


def test_leaving_mid_deal_is_a_drop_and_the_last_player_wins_at_once__R_MONEY_5():
    state = started(("a", "b"))
    leaver = turn_of(state)
    other = ({"a", "b"} - {leaver}).pop()
    progress = t.apply(state, t.Leave(leaver, state.now_ms + 1))
    assert progress.state.phase is t.Phase.FINISHED
    assert progress.state.winner == other
    assert progress.money == (t.PayWinner(other, 1800),)
    (dropped,) = of_type(progress.events, "dropped")
    assert dropped.data["player"] == leaver
    assert dropped.data["outcome"] == "first_drop"
    assert of_type(progress.events, "left")[0].data["forfeit"] is True


def test_when_everyone_leaves_the_last_one_wins_and_nothing_is_refunded__R_MONEY_5():
    state = started(("a", "b", "c"))
    money = []
    for name in ("b", "c", "a"):
        if state.phase is not t.Phase.PLAYING:
            break
        progress = t.apply(state, t.Leave(name, state.now_ms + 1))
        state, money = progress.state, [*money, *progress.money]
    assert state.phase is t.Phase.FINISHED
    assert state.winner == "a"
    assert money == [t.PayWinner("a", 2700)], "the rake is taken, no fee comes back"
    with pytest.raises(IllegalAction):
        t.apply(state, t.Leave("a", state.now_ms + 1))


def test_the_last_player_in_the_game_wins_even_mid_show__R_MONEY_5():
    """a declares; b has a saved grouping; a leaves during the show: b is the only one left in
    the game and wins it at once, whatever the show would have scored."""
    state = started(("a", "b"), scores={"a": 0, "b": 90})
    deal = state.deal
    seats = list(deal.seats)
    # The declarer (the turn player) is put straight into the show phase with a valid win.
    turn = deal.turn
    declarer = seats[turn].player
    other = ({"a", "b"} - {declarer}).pop()
    seats[turn] = replace(seats[turn], outcome=deals.Outcome.WON, score=0)
    deal = replace(deal, seats=tuple(seats), phase=deals.Phase.SHOW, since_ms=state.now_ms)
    state = replace(state, deal=deal)
    state = t.apply(state, SaveGrouping(other, (), state.now_ms + 1)).state
    progress = t.apply(state, t.Leave(declarer, state.now_ms + 1))
    assert progress.state.phase is t.Phase.FINISHED
    assert progress.state.winner == other
    assert progress.money == (t.PayWinner(other, 1800),)
    assert progress.deal_over is not None, "the deal is closed for its record"


def test_when_the_deal_winner_left_and_everyone_else_is_eliminated_the_lowest_total_wins__R_MONEY_5():
    state = started(("a", "b", "c"), scores={"a": 0, "b": 90, "c": 95})
    deal = state.deal
    seats = list(deal.seats)
    index = {s.player: i for i, s in enumerate(seats)}
    seats[index["a"]] = replace(seats[index["a"]], outcome=deals.Outcome.WON, score=0)
    state = replace(
        state, deal=replace(deal, seats=tuple(seats), phase=deals.Phase.SHOW, since_ms=state.now_ms)
    )
    state = t.apply(state, t.Leave("a", state.now_ms + 1)).state
    assert state.phase is t.Phase.PLAYING, "b and c are still in the game"
    progress = t.apply(state, t.Timeout(state.deadline_ms))  # neither shows: 80 each
    assert progress.state.phase is t.Phase.FINISHED
    assert progress.state.winner == "b", "170 is the lowest total"
    assert progress.money == (t.PayWinner("b", 2700),)


# --- R-21-9 -----------------------------------------------------------------------------------


def points21(names=("a", "b")):
    return started(names, variant=POINTS21, point_value=10, entry_fee=0)


def after_a_drop(state):
    """The turn player drops (30 points): their seat falls below 200 points."""
    dropper = turn_of(state)
    state = t.apply(state, Drop(dropper, state.now_ms + 1)).state
    assert state.phase is t.Phase.BETWEEN
    return state, dropper


def test_a_21_card_seat_is_topped_up_from_the_wallet_between_deals__R_21_9():
    state, dropper = after_a_drop(points21())
    assert state.player(dropper).held == 1700
    progress = t.apply(state, t.Timeout(state.deadline_ms, funds=((dropper, 300),)))
    assert t.TopUpSeat(dropper, 300, 1) in progress.money
    (topped,) = of_type(progress.events, "topped_up")
    assert topped.data["player"] == dropper
    assert topped.data["amount"] == 300
    assert "topped up from the wallet" in topped.data["reason"]
    assert progress.state.player(dropper).held == 2000
    assert progress.state.waiting_for == "deal", "the next deal is due"


def test_only_a_player_whose_wallet_cannot_cover_the_top_up_is_stood_up__R_21_9():
    state = points21(("a", "b", "c"))
    dropper = turn_of(state)
    state = t.apply(state, Drop(dropper, state.now_ms + 1)).state
    second = turn_of(state)
    state = t.apply(state, Drop(second, state.now_ms + 1)).state
    assert state.phase is t.Phase.BETWEEN
    progress = t.apply(state, t.Timeout(state.deadline_ms, funds=((dropper, 299), (second, 300))))
    assert t.TopUpSeat(second, 300, 1) in progress.money
    assert t.ReleaseSeat(dropper) in progress.money
    (stood,) = of_type(progress.events, "stood_up")
    assert stood.data["player"] == dropper
    assert "wallet cannot top it up" in stood.data["reason"]
    assert progress.state.player(dropper).status is t.Status.LEFT
    assert progress.state.waiting_for == "deal", "two players are still seated"


def test_a_top_up_over_the_players_stake_limit_stands_them_up_after_the_deal__R_PROT_4():
    state, dropper = after_a_drop(points21())
    progress = t.apply(state, t.Timeout(state.deadline_ms, funds=((dropper, 299),), limited=(dropper,)))
    assert t.ReleaseSeat(dropper) in progress.money
    assert not [m for m in progress.money if isinstance(m, t.TopUpSeat)]
    (stood,) = of_type(progress.events, "stood_up")
    assert stood.data["player"] == dropper
    assert "daily stake limit" in stood.data["reason"]
    assert progress.state.player(dropper).status is t.Status.LEFT


def test_a_table_left_with_one_player_waits_and_says_why__R_21_9():
    state, _dropper = after_a_drop(points21())
    progress = t.apply(state, t.Timeout(state.deadline_ms))
    assert progress.state.phase is t.Phase.WAITING
    (waiting,) = of_type(progress.events, "waiting")
    assert "fewer than two players" in waiting.data["reason"]
    assert waiting.data["deadline_ms"] == progress.state.deadline_ms
    # Nobody comes: the table is cancelled at its deadline and the seat released.
    last = t.apply(progress.state, t.Timeout(progress.state.deadline_ms))
    assert last.state.phase is t.Phase.CANCELLED
    assert last.money == tuple(t.ReleaseSeat(p.name) for p in progress.state.seated)


def test_winners_keep_their_gains_on_the_seat_until_they_leave__R_21_9():
    state, dropper = after_a_drop(points21())
    winner = ({"a", "b"} - {dropper}).pop()
    state = t.apply(state, t.Timeout(state.deadline_ms, funds=((dropper, 10_000),))).state
    assert state.player(winner).held == 2000 + 300 - 30
    state = t.apply(state, t.NextDeal(state.now_ms + 1, SEED2, SEED)).state
    assert state.player(winner).held == 2270, "the gain stays on the seat"
    progress = t.apply(state, t.Leave(winner, state.now_ms + 1))
    kinds = [type(m) for m in progress.money]
    assert kinds == [t.SettleDeal, t.ReleaseSeat]


# --- leave after this deal --------------------------------------------------------------------


def test_a_player_who_asks_leaves_when_the_deal_ends_pool():
    state = started(("a", "b", "c"))
    state = t.apply(state, t.LeaveAfterDeal("a", True, state.now_ms + 1)).state
    assert state.player("a").leaving
    assert state.player("a").status is t.Status.IN
    state, _money, events = drop_until_over(state, {"a", "b", "c"})
    assert state.phase is t.Phase.BETWEEN
    assert state.player("a").status is t.Status.LEFT
    (left,) = of_type(events, "left")
    assert left.data["forfeit"] is True
    assert not state.player("a").leaving


def test_a_21_card_player_who_asks_is_released_after_the_settlement():
    state = points21(("a", "b", "c"))
    leaver = next(p.name for p in state.players if p.name != turn_of(state))
    state = t.apply(state, t.LeaveAfterDeal(leaver, True, state.now_ms + 1)).state
    progress = t.apply(state, Drop(turn_of(state), state.now_ms + 1))
    while progress.state.phase is t.Phase.PLAYING:
        progress = t.apply(progress.state, Drop(turn_of(progress.state), progress.state.now_ms + 1))
    kinds = [type(m) for m in progress.money]
    assert kinds.index(t.SettleDeal) < kinds.index(t.ReleaseSeat)
    assert progress.state.player(leaver).status is t.Status.LEFT


def test_leave_after_this_deal_can_be_taken_back():
    state = started(("a", "b", "c"))
    state = t.apply(state, t.LeaveAfterDeal("a", True, state.now_ms + 1)).state
    progress = t.apply(state, t.LeaveAfterDeal("a", False, state.now_ms + 1))
    assert not progress.state.player("a").leaving
    assert of_type(progress.events, "staying")[0].data["reason"] == "will stay after this deal"


def test_leave_after_this_deal_needs_a_running_deal():
    state = t.open_table(POOL101, t.Rules(seats=3, entry_fee=1000), 0)
    state = t.apply(state, t.Join("a", 1)).state
    with pytest.raises(IllegalAction) as error:
        t.apply(state, t.LeaveAfterDeal("a", True, 2))
    assert error.value.code == "no_deal"


def test_leaving_a_waiting_table_refunds_at_once_and_stops_the_countdown__R_MONEY_4():
    state = t.open_table(POOL101, t.Rules(seats=3, entry_fee=1000), 0)
    for i, name in enumerate(("a", "b")):
        state = t.apply(state, t.Join(name, i)).state
    assert state.waiting_for == "countdown"
    progress = t.apply(state, t.Leave("b", 5))
    assert progress.money == (t.RefundEntry("b", 1000),)
    assert progress.state.waiting_for == "players"
    assert [e.type for e in progress.events] == ["left", "waiting"]
    assert "back in the wallet" in progress.events[0].data["reason"]
    assert progress.state.deadline_ms == 5 + progress.state.rules.wait_ms
