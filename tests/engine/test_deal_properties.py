"""Random deals (Hypothesis): whatever the players do, the cards are all there, nobody sees a card
they may not, the state survives JSON, and a deal of players who keep timing out ends.

Moves come from ``legal_actions`` (bots' view), plus groupings, saved groupings, timeouts and
junk actions that must be refused cleanly. Half the deals are rigged so that one player holds a
winning hand, so valid declarations and the show (R-SHOW-1..4) are reached often.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine.actions import (
    Action,
    ActionError,
    Declare,
    Discard,
    Draw,
    Drop,
    Finish,
    Grouping,
    SaveGrouping,
    Show,
    Timeout,
)
from games.engine.cards import Card, Jokers, shoe
from games.engine.deal import DealState, Outcome, Phase, Step, apply, legal_actions, player_view, start_deal
from games.engine.events import Event
from games.engine.shuffle import shuffled
from games.engine.variants import POINTS21, POOL61, POOL101, POOL201, Variant
from tests.engine.deal_support import (
    WIN_13,
    WIN_21,
    WIN_21_GROUPS,
    WIN_GROUPS,
    CardIds,
    card_mentions,
    cards,
    groups,
)

NAMES = ("asha", "bala", "chet", "dev", "esha", "farid")
WINNING = {13: (WIN_13, WIN_GROUPS), 21: (WIN_21, WIN_21_GROUPS)}
RANDOM_STEPS = 120


def rigged(state: DealState) -> DealState:
    """The same deal re-laid so that the first player holds a winning hand (cut 9C): after any
    draw they can finish with the drawn card and declare. The shoe stays complete."""
    hand_text, _ = WINNING[state.variant.hand_size]
    winning = cards(hand_text)
    rest = Counter(shoe(state.packs))
    rest.subtract([*winning, Card.parse("9C")])
    others = shuffled(tuple(sorted(rest.elements())), state.seed)
    first = state.turn
    size = state.variant.hand_size
    seats = []
    taken = 0
    for index, seat in enumerate(state.seats):
        if index == first:
            seats.append(replace(seat, hand=winning))
        else:
            seats.append(replace(seat, hand=others[taken : taken + size]))
            taken += size
    open_card = others[taken]
    jokers = Jokers.from_cut(Card.parse("9C"), value_cards=state.variant.is_points21)
    return replace(
        state,
        seats=tuple(seats),
        cut=Card.parse("9C"),
        open_pile=(open_card,),
        closed_pile=others[taken + 1 :],
        first_open_joker=jokers.is_joker(open_card),
    )


def random_grouping(data: st.DataObject, hand: tuple[Card, ...]) -> Grouping:
    order = list(data.draw(st.permutations(hand), label="arrangement"))
    grouping = []
    for _ in range(data.draw(st.integers(0, len(order) // 3), label="groups")):
        size = data.draw(st.sampled_from((3, 3, 4)))
        if len(order) < size:
            break
        grouping.append(tuple(order[:size]))
        order = order[size:]
    return tuple(grouping)


def declaration(data: st.DataObject, state: DealState) -> Grouping:
    """The winning grouping if the declarer holds it, else a random one (a wrong show, mostly)."""
    hand = state.seats[state.turn].hand
    _, grouping_text = WINNING[state.variant.hand_size]
    winning = groups(grouping_text)
    if (
        Counter(card for group in winning for card in group) == Counter(hand)
        and data.draw(st.integers(0, 3)) < 3
    ):
        return winning
    return random_grouping(data, hand)


def wins_without(state: DealState, card: Card) -> bool:
    """The turn player's hand without ``card`` is the rigged winning hand."""
    hand = Counter(state.seats[state.turn].hand)
    hand[card] -= 1
    return +hand == Counter(cards(WINNING[state.variant.hand_size][0]))


def choose(data: st.DataObject, state: DealState) -> Action:
    deadline = state.deadline_ms
    assert deadline is not None
    kind = data.draw(st.sampled_from(("move",) * 9 + ("timeout", "save", "junk")), label="kind")
    if kind == "timeout":
        return Timeout(max(deadline, state.now_ms) + data.draw(st.integers(0, 3_000)))
    at = data.draw(st.integers(state.now_ms, max(state.now_ms, deadline)), label="at")
    if kind == "save":
        player = data.draw(st.sampled_from(state.players))
        return SaveGrouping(player, random_grouping(data, state.seats[state.seat_of(player)].hand), at)
    if kind == "junk":
        return junk(data, state, at)
    if state.phase is Phase.PLAY:
        player = state.seats[state.turn].player
        legal = legal_actions(state, player, at)
        assert legal, "the turn player always has a move in time"
        if state.drawn is not None and wins_without(state, state.drawn):
            return Finish(player, state.drawn, at)
        # Rarer choices first: a drop (before drawing) or a finish (after), one time in ten.
        rare = [action for action in legal if isinstance(action, Drop | Finish)]
        common = [action for action in legal if not isinstance(action, Drop | Finish)]
        if rare and data.draw(st.integers(0, 9)) == 9:
            return data.draw(st.sampled_from(rare))
        return data.draw(st.sampled_from(common))
    if state.phase is Phase.DECLARING:
        return Declare(state.seats[state.turn].player, declaration(data, state), at)
    player = data.draw(st.sampled_from(state.waiting_for))
    return Show(player, random_grouping(data, state.seats[state.seat_of(player)].hand), at)


def junk(data: st.DataObject, state: DealState, at: int) -> Action:
    """Any action at all: most are refused, and must be refused with an ActionError."""
    player = data.draw(st.sampled_from((*state.players, "zoya")))
    card = data.draw(st.sampled_from(shoe(1)))
    at = data.draw(st.sampled_from((at, at + 10**6, max(0, state.now_ms - 1))))
    return data.draw(
        st.sampled_from(
            (
                Draw(player, "closed", at),
                Draw(player, "open", at),
                Discard(player, card, at),
                Finish(player, card, at),
                Drop(player, at),
                Declare(player, ((card, card, card),), at),
                Show(player, (), at),
                Timeout(at),
            )
        )
    )


def check_step(
    before: DealState, ids_before: CardIds, after: DealState, ids_after: CardIds, step: Step
) -> None:
    # Every card of the shoe is somewhere, once (hands, open, closed, finish slot and the cut).
    everything = [card for seat in after.seats for card in seat.hand]
    everything += [*after.open_pile, *after.closed_pile, after.cut]
    if after.finish_card is not None:
        everything.append(after.finish_card)
    assert Counter(everything) == Counter(shoe(after.packs))
    # The state survives JSON.
    assert DealState.from_json(json.loads(json.dumps(after.to_json()))) == after
    # Deadlines are data.
    assert (after.deadline_ms is None) == (after.phase is Phase.OVER)
    for position, published in enumerate(step.events):
        check_event(published, position == len(step.events) - 1, before, ids_before, after, ids_after)
    for player in after.players:
        check_view(after, ids_after, player)
    if after.phase is Phase.OVER:
        check_result(after)


def check_event(
    event: Event, last: bool, before: DealState, ids_before: CardIds, after: DealState, ids_after: CardIds
) -> None:
    json.dumps(event.to_json())
    assert event.to is None or event.to in after.players
    if event.type == "deal_over":
        assert last
        assert event.to is None
        assert after.phase is Phase.OVER
        assert event.data["seed"] == after.seed.hex()
        return
    assert after.seed.hex() not in json.dumps(event.data)
    allowed = ids_before.seen_by(before, event.to) | ids_after.seen_by(after, event.to)
    budget = Counter(ids_after.value[card_id] for card_id in allowed)
    over = card_mentions(event.data) - budget
    assert not over, f"{event} shows {dict(over)} to {event.to or 'everyone'}"


def check_view(state: DealState, ids: CardIds, player: str) -> None:
    view = player_view(state, player)
    assert json.loads(json.dumps(view)) == view
    assert "closed_pile" not in view
    assert view["closed_count"] == len(state.closed_pile)
    if state.phase is Phase.OVER:
        return
    saved = view.pop("saved_grouping")
    budget = Counter(ids.value[card_id] for card_id in ids.seen_by(state, player))
    over = card_mentions(view) - budget
    assert not over, f"{player}'s view shows {dict(over)}"
    hand = Counter(state.seats[state.seat_of(player)].hand)
    assert not card_mentions(saved) - hand


def check_result(state: DealState) -> None:
    result = state.result
    assert result is not None
    assert [line.outcome for line in result.players].count(Outcome.WON) == 1
    variant = state.variant
    worst = max(variant.full_count, variant.wrong_show, variant.show_timeout, variant.middle_drop)
    for line in result.players:
        assert (line.score == 0) if line.outcome is Outcome.WON else (0 <= line.score <= worst)
    if variant.is_points21:
        nets = [line.net for line in result.players]
        assert all(net is not None for net in nets)
        assert sum(net for net in nets if net is not None) == 0
        assert all(net is None or net >= -(variant.max_loss or 0) for net in nets)
        assert sum(t.points for t in result.transfers if t.payee == result.winner) >= 0


def draw_and_discard(data: st.DataObject, state: DealState) -> Action:
    """Only draws and discards (and now and then a missed move), so the closed pile runs out."""
    assert state.phase is Phase.PLAY
    assert state.deadline_ms is not None
    if data.draw(st.integers(0, 14)) == 14:
        return Timeout(state.deadline_ms)
    player = state.seats[state.turn].player
    legal = legal_actions(state, player, state.now_ms)
    return data.draw(st.sampled_from([action for action in legal if isinstance(action, Draw | Discard)]))


def play_out(
    data: st.DataObject,
    step: Step,
    rig: bool = False,
    chooser: Callable[[st.DataObject, DealState], Action] | None = None,
    steps: tuple[int, int] = (RANDOM_STEPS // 4, RANDOM_STEPS),
) -> tuple[DealState, DealState]:
    """Random steps, then nothing but timeouts: the deal must end within a bound (R-TURN-6).

    Returns the state after the random steps and the final state."""
    state = step.state
    ids = CardIds(state)
    check_step(state, ids, state, ids, step)
    if rig and state.phase is Phase.PLAY:
        state = rigged(state)
        ids = CardIds(state)
    for _ in range(data.draw(st.integers(*steps), label="random steps")):
        if state.phase is Phase.OVER:
            break
        action = (chooser or choose)(data, state)
        try:
            step = apply(state, action)
        except ActionError:
            continue
        ids_before = ids.copy()
        ids.follow(step.state)
        check_step(state, ids_before, step.state, ids, step)
        state = step.state
        event(f"reached {state.phase.value}")
    after_random = state
    bound = 3 * len(state.seats) + 2
    for _ in range(bound):
        if state.phase is Phase.OVER:
            break
        assert state.deadline_ms is not None
        step = apply(state, Timeout(max(state.deadline_ms, state.now_ms)))
        ids_before = ids.copy()
        ids.follow(step.state)
        check_step(state, ids_before, step.state, ids, step)
        state = step.state
    assert state.phase is Phase.OVER, f"the deal did not end after {bound} timeouts"
    result = state.result
    assert result is not None
    for line in result.players:
        event(f"{state.variant.name}: {line.outcome.value}")
    if state.reshuffles:
        event("reshuffled")
    return after_random, state


@st.composite
def deals(draw: st.DrawFn, variant: Variant) -> Step:
    """A freshly started deal with a random table size, dealer, seed and auto drops."""
    count = draw(st.integers(2, 6))
    players = NAMES[:count]
    seed = draw(st.binary(min_size=16, max_size=32))
    dealer = draw(st.integers(0, count - 1))
    auto_drop = draw(
        st.one_of(st.just(frozenset()), st.frozensets(st.sampled_from(players), max_size=count - 1))
    )
    now = draw(st.integers(0, 10**12))
    packs = draw(st.sampled_from((1, 2))) if count == 2 and not variant.is_points21 else None
    return start_deal(variant, players, dealer, seed, now_ms=now, auto_drop=auto_drop, packs=packs)


ALL_VARIANTS = pytest.mark.parametrize("variant", [POOL101, POOL201, POOL61, POINTS21], ids=lambda v: v.name)
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]


@ALL_VARIANTS
@settings(deadline=None, max_examples=40, suppress_health_check=HEALTH)
@given(data=st.data())
def test_random_deals_keep_every_card_private_and_countable__R_DEAL_5_R_TURN_1(
    variant: Variant, data: st.DataObject
):
    step = data.draw(deals(variant), label="deal")
    play_out(data, step, rig=data.draw(st.booleans(), label="rigged"))


@ALL_VARIANTS
@settings(deadline=None, max_examples=10, suppress_health_check=HEALTH)
@given(data=st.data())
def test_players_who_only_time_out_are_dropped_until_one_wins__R_TURN_6(
    variant: Variant, data: st.DataObject
):
    step = data.draw(deals(variant), label="deal")
    state = step.state
    count = 0
    while state.phase is not Phase.OVER:
        assert state.deadline_ms is not None
        state = apply(state, Timeout(state.deadline_ms)).state
        count += 1
        assert count <= 3 * len(state.seats)
    start = step.state
    in_at_start = [seat.player for seat in start.seats if seat.outcome in (None, Outcome.WON)]
    result = state.result
    assert result is not None
    # Everyone misses in turn; the first to play is the first to miss a third time, so the
    # player still in who plays last in a round is the one left.
    turn_order = [start.seats[(start.turn + k) % len(start.seats)].player for k in range(len(start.seats))]
    assert result.winner == [player for player in turn_order if player in in_at_start][-1]
    for line in result.players:
        if line.player != result.winner and line.player in in_at_start:
            assert line.outcome is Outcome.MISSED_MOVES
            assert line.score == state.variant.missed_moves_drop


@settings(deadline=None, max_examples=15, suppress_health_check=HEALTH)
@given(seed=st.binary(min_size=16, max_size=16), data=st.data())
def test_reshuffles_keep_every_card_private_and_countable__R_TURN_4(seed: bytes, data: st.DataObject):
    step = start_deal(POOL101, ("asha", "bala"), 1, seed, now_ms=0, packs=1)
    state, _ = play_out(data, step, chooser=draw_and_discard, steps=(150, 200))
    # 150 steps hold at least 25 closed draws unless a player missed three moves in a row.
    assert state.reshuffles >= 1 or state.phase is Phase.OVER
    event(f"reshuffles: {state.reshuffles}")
