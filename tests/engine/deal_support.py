"""Helpers to script deals: build a state with chosen hands and piles, play actions in a row."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.engine.actions import Action, Grouping
from games.engine.cards import Card, Jokers, parse_cards
from games.engine.deal import DealState, Phase, Seat, Step, Timing, apply
from games.engine.events import Event
from games.engine.shuffle import commitment
from games.engine.variants import POOL101, Variant

SEED = bytes(range(32))
"""A fixed 32-byte seed for scripted deals."""
TIMING = Timing(move_ms=30_000, extra_ms=30_000, show_ms=30_000)

FILLER = "KS QS JS TS 8S 7S 6S 5S 4S 3S 2S AS KH QH JH TH 8H 7H 6H 5H"
"""Plain closed-pile cards (no 9s, so no jokers with the default 9C cut)."""

# Hands for a 9C cut (9s wild). WIN_13 is a valid declaration: two pure sequences and two sets.
WIN_13 = "AH 2H 3H 4S 5S 6S 7S 8D 9D TD KC KD KS"
WIN_GROUPS = "AH 2H 3H / 4S 5S 6S 7S / 8D 9D TD / KC KD KS"
# A loser: 2C 3C 4C and 5D 6D 7D are pure sequences; the other seven cards count 35.
LOSER_13 = "2C 3C 4C 5D 6D 7D 2S 3S 4H 5H 6C 7C 8H"
LOSER_GROUPS = "2C 3C 4C / 5D 6D 7D"
LOSER_SCORE = 35
LOSER_ONE_PURE_SCORE = 53
"""LOSER_13 grouped as 2C 3C 4C alone: with no second sequence only the pure one is excluded."""
LOSER_UNGROUPED_SCORE = 62
# A valid 21-card declaration for a 9C cut (9s, TC and 8C wild): seven pure groups, no jokers.
WIN_21_GROUPS = "AH 2H 3H / 4S 5S 6S / 2D 3D 4D / JH QH KH / KC KD KS / 5C 6C 7C / QS QD QC"
WIN_21 = WIN_21_GROUPS.replace(" /", "")
# Another loser with no sequence at all: every card counts, 62 in all.
LOOSE_13 = "2D 3S 4C 5H 6D 7S 8C 2H 3C 4D 5S 6C 7H"
LOOSE_SCORE = 62


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def groups(text: str) -> Grouping:
    """``"AH 2H 3H / 4S 5S 6S"`` as a grouping."""
    return tuple(cards(group) for group in text.split("/") if group.strip())


def build(
    hands: Mapping[str, str],
    *,
    variant: Variant = POOL101,
    cut: str = "9C",
    open_pile: str = "2C",
    closed_pile: str = FILLER,
    dealer: int | None = None,
    turn: int | None = None,
    now_ms: int = 0,
    timing: Timing = TIMING,
    seed: bytes = SEED,
    first_open_joker: bool | None = None,
    packs: int | None = None,
) -> DealState:
    """A deal in the play phase with the hands and piles given (dealt by hand, not from the seed).

    The dealer defaults to the last seat and the turn to the seat after the dealer. The first
    open card exception (R-TURN-2) is on when the open pile is one joker, unless told otherwise.
    """
    names = tuple(hands)
    dealer = len(names) - 1 if dealer is None else dealer
    turn = (dealer + 1) % len(names) if turn is None else turn
    cut_card = Card.parse(cut)
    open_cards = cards(open_pile)
    if first_open_joker is None:
        jokers = Jokers.from_cut(cut_card, value_cards=variant.is_points21)
        first_open_joker = len(open_cards) == 1 and jokers.is_joker(open_cards[0])
    return DealState(
        variant=variant,
        packs=variant.default_packs if packs is None else packs,
        timing=timing,
        seed=seed,
        commitment=commitment(seed),
        dealer=dealer,
        cut=cut_card,
        seats=tuple(
            Seat(player=name, hand=cards(hand), extra_ms=timing.extra_ms) for name, hand in hands.items()
        ),
        open_pile=open_cards,
        closed_pile=cards(closed_pile),
        phase=Phase.PLAY,
        turn=turn,
        since_ms=now_ms,
        now_ms=now_ms,
        first_open_joker=first_open_joker,
    )


def play(state: DealState, *actions: Action) -> tuple[DealState, list[Event]]:
    """Apply the actions in order; the last state and every event."""
    events: list[Event] = []
    for action in actions:
        step: Step = apply(state, action)
        state = step.state
        events.extend(step.events)
    return state, events


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.type == kind]


def only(events: list[Event], kind: str) -> Event:
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind!r} event, got {[event.type for event in events]}"
    return found[0]


def result_of(state: DealState, player: str) -> dict[str, Any]:
    """A player's line in the deal result, as JSON."""
    result = state.result
    assert result is not None, "the deal is not over"
    return next(line for line in result.to_json()["players"] if line["player"] == player)


# ---------------------------------------------------------------------------------------------
# Card identity tracking for the privacy property: identical cards from different packs are
# equal values, so a check by value alone could excuse a leaked card because the looker holds
# a copy of it. Each physical card gets an id; the ids follow the cards from state to state.

Location = tuple[str, int]
"""("hand", seat), ("open", 0), ("closed", 0), ("finish", 0) or ("cut", 0)."""


def locations(state: DealState) -> dict[Location, tuple[Card, ...]]:
    """Where every card of the shoe lies."""
    places: dict[Location, tuple[Card, ...]] = {
        ("hand", index): seat.hand for index, seat in enumerate(state.seats)
    }
    places[("open", 0)] = state.open_pile
    places[("closed", 0)] = state.closed_pile
    places[("finish", 0)] = () if state.finish_card is None else (state.finish_card,)
    places[("cut", 0)] = (state.cut,)
    return places


class CardIds:
    """Physical card ids per location, kept in step with a deal's states."""

    def __init__(self, state: DealState) -> None:
        self.value: dict[int, Card] = {}
        self.where: dict[Location, list[int]] = {}
        for place, held in locations(state).items():
            self.where[place] = []
            for card in held:
                card_id = len(self.value)
                self.value[card_id] = card
                self.where[place].append(card_id)

    def copy(self) -> CardIds:
        twin = object.__new__(CardIds)
        twin.value = self.value  # an id's card never changes
        twin.where = {place: list(ids) for place, ids in self.where.items()}
        return twin

    def follow(self, state: DealState) -> None:
        """Move the ids to where the new state has the cards: a card that stays keeps its id;
        the ids of cards that left a place go to the places that gained cards of that value."""
        target = locations(state)
        moving: dict[Card, list[int]] = {}
        for place, ids in self.where.items():
            need = Counter(target.get(place, ()))
            kept = []
            for card_id in ids:
                card = self.value[card_id]
                if need[card] > 0:
                    need[card] -= 1
                    kept.append(card_id)
                else:
                    moving.setdefault(card, []).append(card_id)
            self.where[place] = kept
        for place, held in target.items():
            have = Counter(self.value[card_id] for card_id in self.where.get(place, []))
            for card, count in (Counter(held) - have).items():
                for _ in range(count):
                    pool = moving.get(card)
                    assert pool, f"{card} appeared in {place} from nowhere"
                    self.where.setdefault(place, []).append(pool.pop())
        leftover = [card_id for pool in moving.values() for card_id in pool]
        assert not leftover, f"cards vanished: {[str(self.value[i]) for i in leftover]}"

    def seen_by(self, state: DealState, player: str | None) -> set[int]:
        """Ids a player may know of: the open pile, the cut and, for a player, their own hand
        and finish card. ``None`` means everyone: the public cards only."""
        ids = set(self.where[("open", 0)]) | set(self.where[("cut", 0)])
        if player is not None:
            index = state.seat_of(player)
            ids |= set(self.where[("hand", index)])
            if state.turn == index:
                ids |= set(self.where[("finish", 0)])
        return ids


def card_mentions(data: Any) -> Counter[Card]:
    """Every card code anywhere in JSON data, also inside text ("8D 8H: two of one suit").

    A list of codes counts each entry; a text counts each card it names once."""
    found: list[Card] = []
    _collect_cards(data, found)
    return Counter(found)


def _collect_cards(data: Any, found: list[Card]) -> None:
    if isinstance(data, dict):
        for value in data.values():
            _collect_cards(value, found)
    elif isinstance(data, list | tuple):
        for value in data:
            _collect_cards(value, found)
    elif isinstance(data, str):
        # A text may name a card more than once ("2H 2H QH: 2H twice"): count each card once.
        named: set[Card] = set()
        for word in data.replace(",", " ").replace(":", " ").split():
            if len(word) != 2 or word != word.upper():
                continue  # card codes are two capitals; "as" in a sentence is no card
            try:
                named.add(Card.parse(word))
            except ValueError:
                continue
        found.extend(named)
