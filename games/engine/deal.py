"""One deal as an immutable state, and the rules that move it on (R-DEAL-*, R-TURN-*, R-DROP-*,
R-DECL-*, R-SHOW-*, R-21-*).

``start_deal`` shuffles and deals; ``apply(state, action)`` returns a :class:`Step`: the new
state and the events to publish. Nothing is mutated: a refused action raises an
:class:`~games.engine.actions.ActionError` and the old state stands. Deadlines are data:
``state.deadline_ms`` says until when the deal waits for ``state.waiting_for``; after it, a
:class:`~games.engine.actions.Timeout` applies the missed move, wrong show or show timeout.

How the cards lie (so a revealed seed re-derives the whole deal, R-DEAL-5): the shoe of
``packs`` packs is shuffled with :func:`games.engine.shuffle.shuffled`; seat 0 gets the first
``hand_size`` cards, seat 1 the next, and so on; the next card is the cut, the next starts
the open pile, the rest is the closed pile, top first. The open pile's top is its last card.
The cut card stays face up beside the piles and is never drawn. Reshuffle ``k`` (k = 1, 2, ...)
of the open pile into the closed pile (R-TURN-4) shuffles the open pile without its top, bottom
first, with the seed ``reshuffle_seed(seed, k)``.

Decisions beyond RULES.md:

- A missed move after drawing (R-TURN-6): the drawn card goes onto the open pile, face up,
  whichever pile it came from, so the hand is as it was before the turn. Putting a closed-pile
  card back on the closed pile would tell the player the next player's card.
- A missed move empties the player's extra-time bank (it ran out) and counts as a turn had
  (R-TURN-7): a player who missed their first turn is no longer in for a deal show (R-SHOW-3),
  and a drop after it is a middle drop (R-DROP-1, R-DROP-2).
- The open-pile joker exception (R-TURN-2) lasts for the first turn of the deal only: it ends
  with that turn (a draw, discard, drop or missed move), whoever is next.
- Leaving the table during a deal (:func:`leave`, R-MONEY-5) is a drop, first or middle by the
  player's turns, even after drawing (the drawn card goes back on the open pile, as after a
  missed move) and even out of turn. A declarer who leaves before declaring has not sent a
  grouping in time: a wrong show (R-DECL-1). A player who leaves after another's valid
  declaration is scored as a show not sent in time (R-SHOW-1).
- Finishing with the card just taken from the open pile is allowed: the finish slot is not the
  open pile (R-TURN-3 is about discards).
- A saved grouping (R-SHOW-1) counts as it stands on the hand at the show deadline: cards the
  player no longer holds are left out of its groups, cards drawn since are ungrouped.
- A player on auto drop (R-DROP-4) is still dealt a hand, so the order of the cards does not
  depend on who is on auto drop. A deal with everyone on auto drop is refused (ValueError).
- A Timeout applies the one deadline that has passed; the next wait (the next turn) starts at
  the Timeout's time, so a sweep that comes late never shortens the next player's turn.
- A player who never arranged a grouping gets the show-timeout score even if they never had
  a turn (R-SHOW-1 is applied as written; the deal-show halving is for shown hands).
- Privacy until the result: the finish card stays hidden in the finish slot (on a wrong show
  it goes face up to the open pile); declared and shown groupings are not published, and the
  reason of a wrong show (which may name cards) is told only to the declarer; the result
  reveals every hand, grouping and the seed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from games.engine import points21
from games.engine.actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    Finish,
    Grouping,
    IllegalAction,
    InvalidAction,
    SaveGrouping,
    Show,
    Source,
    Timeout,
    check_action,
    groups_to_json,
)
from games.engine.cards import Card, Jokers, shoe
from games.engine.events import Event
from games.engine.melds import evaluate
from games.engine.plain import fields_of
from games.engine.pool import deal_show_score
from games.engine.shuffle import commitment, seed_from_hex, seed_hex, shuffled
from games.engine.variants import Variant

MISSED_MOVES_TO_DROP = 3
"""Missed moves in a row that drop a player (R-TURN-6)."""
MIN_PLAYERS = 2
MAX_PLAYERS = 6


class Phase(StrEnum):
    PLAY = "play"
    """The turn player draws and discards, drops, or finishes."""
    DECLARING = "declaring"
    """A card is in the finish slot; the declarer groups the rest (R-DECL-1)."""
    SHOW = "show"
    """A valid declaration; the other players still in group their hands (R-SHOW-1)."""
    OVER = "over"


class Outcome(StrEnum):
    """How a player's deal ended."""

    WON = "won"
    LOST_SHOW = "lost_show"
    DEAL_SHOW = "deal_show"
    FIRST_DROP = "first_drop"
    MIDDLE_DROP = "middle_drop"
    MISSED_MOVES = "missed_moves"
    WRONG_SHOW = "wrong_show"
    SHOW_TIMEOUT = "show_timeout"

    @property
    def dropped(self) -> bool:
        """Dropped players pay their drop score and take no part in the value exchange (R-21-7)."""
        return self in (Outcome.FIRST_DROP, Outcome.MIDDLE_DROP, Outcome.MISSED_MOVES)


@dataclass(frozen=True, slots=True)
class Timing:
    """Table settings in milliseconds (R-TURN-5, R-SHOW-1)."""

    move_ms: int = 30_000
    extra_ms: int = 30_000
    """The per-deal extra-time bank of each player."""
    show_ms: int = 30_000
    """Time to group a hand: the declarer after finishing (plus their bank), the others after a
    valid declaration."""

    def __post_init__(self) -> None:
        for name in ("move_ms", "extra_ms", "show_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number of milliseconds, at least 0, not {value!r}")


DEFAULT_TIMING = Timing()


@dataclass(frozen=True, slots=True)
class Seat:
    """One player in a deal."""

    player: str
    hand: tuple[Card, ...]
    extra_ms: int
    """Extra time left in the bank (R-TURN-5)."""
    outcome: Outcome | None = None
    """None while the player is still in the deal (playing, or yet to show)."""
    score: int | None = None
    missed: int = 0
    """Missed moves in a row (R-TURN-6)."""
    turns: int = 0
    """Turns that have ended, by a discard, a finish or a missed move (R-SHOW-3)."""
    has_drawn: bool = False
    """Drew a card in this deal: a drop is now a middle drop (R-DROP-1, R-DROP-2)."""
    saved: Grouping | None = None
    """The last grouping the player arranged (R-SHOW-1)."""
    grouping: Grouping | None = None
    """The grouping that counted: declared, shown, or the saved one at the show deadline."""

    @property
    def in_deal(self) -> bool:
        return self.outcome is None


@dataclass(frozen=True, slots=True)
class DealState:
    """Everything about a deal. Public facts and secrets alike: use :func:`player_view` to show it."""

    variant: Variant
    packs: int
    timing: Timing
    seed: bytes
    """Secret until the deal is over (R-DEAL-5)."""
    commitment: str
    dealer: int
    cut: Card
    seats: tuple[Seat, ...]
    open_pile: tuple[Card, ...]
    """Face up; the last card is the top."""
    closed_pile: tuple[Card, ...]
    """Face down; the first card is the top."""
    phase: Phase
    turn: int
    """The seat to play; the declarer in DECLARING and SHOW; the winner once OVER."""
    since_ms: int
    """When the current wait began: the turn, the finish, or the declaration."""
    now_ms: int
    """The time of the last action applied; actions may not go back before it."""
    drawn: Card | None = None
    """The card the turn player drew this turn, None before drawing."""
    drawn_from: Source | None = None
    first_open_joker: bool = False
    """The first open card is a joker and the deal's first turn is on: it may be picked (R-TURN-2)."""
    finish_card: Card | None = None
    reshuffles: int = 0

    @property
    def jokers(self) -> Jokers:
        return Jokers.from_cut(self.cut, value_cards=self.variant.is_points21)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.player for seat in self.seats)

    @property
    def deadline_ms(self) -> int | None:
        """Until when the deal waits for :attr:`waiting_for`; None once it is over."""
        if self.phase is Phase.OVER:
            return None
        if self.phase is Phase.SHOW:
            return self.since_ms + self.timing.show_ms
        bank = self.seats[self.turn].extra_ms
        if self.phase is Phase.PLAY:
            return self.since_ms + self.timing.move_ms + bank
        return self.since_ms + self.timing.show_ms + bank

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The players the deal waits for until :attr:`deadline_ms`."""
        if self.phase is Phase.OVER:
            return ()
        if self.phase is Phase.SHOW:
            return tuple(seat.player for seat in self.seats if seat.in_deal)
        return (self.seats[self.turn].player,)

    @property
    def winner(self) -> str | None:
        for seat in self.seats:
            if seat.outcome is Outcome.WON:
                return seat.player
        return None

    @property
    def result(self) -> DealResult | None:
        """The deal result once the deal is over."""
        return deal_result(self) if self.phase is Phase.OVER else None

    def seat_of(self, player: str) -> int:
        """The seat index of ``player``; :class:`IllegalAction` ``not_in_deal`` otherwise."""
        for index, seat in enumerate(self.seats):
            if seat.player == player:
                return index
        raise IllegalAction("not_in_deal", f"{player} is not playing in this deal")

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON types; :meth:`from_json` reads it back equal."""
        return {
            "variant": self.variant.to_json(),
            "packs": self.packs,
            "timing": fields_of(self.timing),
            "seed": seed_hex(self.seed),
            "commitment": self.commitment,
            "dealer": self.dealer,
            "cut": self.cut.code,
            "seats": [_seat_to_json(seat) for seat in self.seats],
            "open_pile": _codes(self.open_pile),
            "closed_pile": _codes(self.closed_pile),
            "phase": self.phase.value,
            "turn": self.turn,
            "since_ms": self.since_ms,
            "now_ms": self.now_ms,
            "drawn": _code(self.drawn),
            "drawn_from": self.drawn_from,
            "first_open_joker": self.first_open_joker,
            "finish_card": _code(self.finish_card),
            "reshuffles": self.reshuffles,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealState:
        """The state written by :meth:`to_json`; ValueError (or KeyError) if it is not one."""
        drawn_from = data["drawn_from"]
        if drawn_from not in (None, "closed", "open"):
            raise ValueError(f"drawn_from must be 'closed', 'open' or null, not {drawn_from!r}")
        return cls(
            variant=Variant.from_json(data["variant"]),
            packs=int(data["packs"]),
            timing=Timing(**data["timing"]),
            seed=seed_from_hex(data["seed"]),
            commitment=str(data["commitment"]),
            dealer=int(data["dealer"]),
            cut=Card.parse(data["cut"]),
            seats=tuple(_seat_from_json(seat) for seat in data["seats"]),
            open_pile=_cards(data["open_pile"]),
            closed_pile=_cards(data["closed_pile"]),
            phase=Phase(data["phase"]),
            turn=int(data["turn"]),
            since_ms=int(data["since_ms"]),
            now_ms=int(data["now_ms"]),
            drawn=_card_or_none(data["drawn"]),
            drawn_from=drawn_from,
            first_open_joker=bool(data["first_open_joker"]),
            finish_card=_card_or_none(data["finish_card"]),
            reshuffles=int(data["reshuffles"]),
        )


@dataclass(frozen=True, slots=True)
class Step:
    """What an action did: the new state, and the events to publish in order."""

    state: DealState
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's end of the deal."""

    player: str
    outcome: Outcome
    score: int
    """The deal score (pool) or the loss to the winner (21-card); the winner 0 (R-SHOW-4)."""
    hand: tuple[Card, ...]
    grouping: Grouping | None
    value: int | None = None
    """21-card: value points (R-21-5); None for a dropped player or on pool tables."""
    net: int | None = None
    """Points tables: the player's total for the deal, all included (R-21-7, R-PTS-3); None on
    pool and deals tables."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """Points tables: ``payer`` pays ``payee`` ``points`` (R-21-7, R-PTS-3)."""

    payer: str
    payee: str
    points: int


@dataclass(frozen=True, slots=True)
class DealResult:
    winner: str
    seed: bytes
    finish_card: Card | None
    """The winner's finish card, if they won by declaring."""
    players: tuple[PlayerResult, ...]
    transfers: tuple[Transfer, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "seed": seed_hex(self.seed),
            "finish_card": _code(self.finish_card),
            "players": [
                {
                    "player": result.player,
                    "outcome": result.outcome.value,
                    "score": result.score,
                    "hand": _codes(result.hand),
                    "grouping": None if result.grouping is None else groups_to_json(result.grouping),
                    "value": result.value,
                    "net": result.net,
                }
                for result in self.players
            ],
            "transfers": [
                {"payer": transfer.payer, "payee": transfer.payee, "points": transfer.points}
                for transfer in self.transfers
            ],
        }


# ---------------------------------------------------------------------------------------------
# Starting a deal


def reshuffle_seed(seed: bytes, count: int) -> bytes:
    """The seed of the ``count``-th reshuffle of the open pile (R-TURN-4), derived from the deal seed."""
    return hashlib.sha256(seed + b"reshuffle" + count.to_bytes(4, "big")).digest()


def start_deal(
    variant: Variant,
    players: Sequence[str],
    dealer: int,
    seed: bytes,
    now_ms: int,
    timing: Timing = DEFAULT_TIMING,
    auto_drop: frozenset[str] = frozenset(),
    packs: int | None = None,
) -> Step:
    """Shuffle and deal (R-DEAL-1..5); players on auto drop leave at once (R-DROP-4).

    ``players`` are in seat order; play starts with the seat after ``dealer`` (R-TOSS-3).
    """
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"a deal has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    if len(set(names)) != len(names) or not all(isinstance(name, str) and name for name in names):
        raise ValueError(f"every player needs a name of their own: {names!r}")
    if not 0 <= dealer < len(names):
        raise ValueError(f"the dealer is a seat from 0 to {len(names) - 1}, not {dealer}")
    unknown = set(auto_drop) - set(names)
    if unknown:
        raise ValueError(f"not at this table, so not on auto drop: {', '.join(sorted(unknown))}")
    if set(auto_drop) >= set(names):
        raise ValueError("every player is on auto drop: there is nobody to play the deal")
    packs = variant.packs_for(len(names)) if packs is None else packs
    variant.check_packs(packs, len(names))
    deck = shuffled(shoe(packs), seed)
    size = variant.hand_size
    dealt = len(names) * size
    hands = [deck[seat * size : (seat + 1) * size] for seat in range(len(names))]
    cut, first_open, closed = deck[dealt], deck[dealt + 1], deck[dealt + 2 :]
    jokers = Jokers.from_cut(cut, value_cards=variant.is_points21)
    state = DealState(
        variant=variant,
        packs=packs,
        timing=timing,
        seed=bytes(seed),
        commitment=commitment(seed),
        dealer=dealer,
        cut=cut,
        seats=tuple(
            Seat(player=name, hand=hand, extra_ms=timing.extra_ms)
            for name, hand in zip(names, hands, strict=True)
        ),
        open_pile=(first_open,),
        closed_pile=closed,
        phase=Phase.PLAY,
        turn=dealer,
        since_ms=now_ms,
        now_ms=now_ms,
        first_open_joker=jokers.is_joker(first_open),
    )
    events = [
        Event(
            "deal_started",
            {
                "variant": variant.name,
                "players": list(names),
                "dealer": names[dealer],
                "commitment": state.commitment,
                "packs": packs,
                "hand_size": size,
                "cut": cut.code,
                "open_pile": [first_open.code],
                "closed_count": len(closed),
            },
        )
    ]
    events.extend(Event("dealt", {"hand": _codes(seat.hand)}, to=seat.player) for seat in state.seats)
    for index, seat in enumerate(state.seats):
        if seat.player in auto_drop:
            state = _with_seat(
                state, index, replace(seat, outcome=Outcome.FIRST_DROP, score=variant.first_drop)
            )
            events.append(_dropped_event(state.seats[index], auto=True))
    if _in_deal_count(state) == 1:
        return _last_one_wins(state, now_ms, events)
    return _next_turn(state, dealer, now_ms, events, first=True)


# ---------------------------------------------------------------------------------------------
# The actions


def apply(state: DealState, action: Action) -> Step:
    """Apply one action; :class:`InvalidAction` or :class:`IllegalAction` if it cannot be."""
    check_action(action)
    if isinstance(action, Timeout):
        return expire(state, action)
    if isinstance(action, Draw):
        return draw(state, action)
    if isinstance(action, Discard):
        return discard(state, action)
    if isinstance(action, Drop):
        return drop(state, action)
    if isinstance(action, Finish):
        return finish(state, action)
    if isinstance(action, Declare):
        return declare(state, action)
    if isinstance(action, Show):
        return show(state, action)
    return save_grouping(state, action)


def draw(state: DealState, action: Draw) -> Step:
    """Draw the top card of the closed or open pile (R-TURN-1, R-TURN-2, R-TURN-4)."""
    index = _on_turn(state, action.player, action.at, "draw")
    if state.drawn is not None:
        raise IllegalAction("already_drawn", "you have already drawn a card this turn: discard one now")
    events: list[Event] = []
    open_pile, closed_pile, reshuffles = state.open_pile, state.closed_pile, state.reshuffles
    if action.source == "open":
        if not open_pile:
            raise IllegalAction("open_pile_empty", "the open pile is empty: draw from the closed pile")
        card = open_pile[-1]
        if state.jokers.is_joker(card) and not state.first_open_joker:
            raise IllegalAction(
                "joker_on_open_pile", f"{card} is a joker: a joker on the open pile cannot be picked"
            )
        open_pile = open_pile[:-1]
    else:
        if not closed_pile:
            if len(open_pile) < 2:
                raise IllegalAction(
                    "closed_pile_empty", "the closed pile is empty and there is nothing to reshuffle"
                )
            reshuffles += 1
            closed_pile = shuffled(open_pile[:-1], reshuffle_seed(state.seed, reshuffles))
            open_pile = open_pile[-1:]
            events.append(
                Event("reshuffled", {"closed_count": len(closed_pile), "open_pile": _codes(open_pile)})
            )
        card, closed_pile = closed_pile[0], closed_pile[1:]
    seat = state.seats[index]
    state = replace(
        _with_seat(state, index, replace(seat, hand=(*seat.hand, card), has_drawn=True)),
        open_pile=open_pile,
        closed_pile=closed_pile,
        reshuffles=reshuffles,
        drawn=card,
        drawn_from=action.source,
        first_open_joker=False,
        now_ms=action.at,
    )
    public: dict[str, Any] = {"player": action.player, "source": action.source}
    if action.source == "open":
        public["card"] = card.code
    public["closed_count"] = len(closed_pile)
    events.append(Event("drew", public))
    if action.source == "closed":
        events.append(Event("drew_card", {"card": card.code}, to=action.player))
    return Step(state, tuple(events))


def discard(state: DealState, action: Discard) -> Step:
    """Discard onto the open pile and end the turn (R-TURN-1, R-TURN-3, R-TURN-5)."""
    index = _on_turn(state, action.player, action.at, "discard")
    card = action.card
    seat = _after_drawing(state, index, card, "discard")
    if state.drawn_from == "open" and card == state.drawn:
        raise IllegalAction(
            "open_card_discard", f"you took {card} from the open pile: you cannot discard it this turn"
        )
    seat = replace(
        _spend_extra(seat, action.at, state.since_ms + state.timing.move_ms),
        hand=_without(seat.hand, card),
        turns=seat.turns + 1,
        missed=0,
    )
    state = replace(
        _with_seat(state, index, seat),
        open_pile=(*state.open_pile, card),
        drawn=None,
        drawn_from=None,
        now_ms=action.at,
    )
    return _next_turn(
        state, index, action.at, [Event("discarded", {"player": action.player, "card": card.code})]
    )


def drop(state: DealState, action: Drop) -> Step:
    """Drop out of the deal on one's turn, before drawing (R-DROP-1, R-DROP-2, R-DROP-3)."""
    index = _on_turn(state, action.player, action.at, "drop")
    if state.drawn is not None:
        raise IllegalAction("drop_after_draw", "you can drop only on your turn before drawing a card")
    seat = _dropped(state, state.seats[index])
    state = replace(_with_seat(state, index, seat), now_ms=action.at)
    return _after_leaving(state, index, action.at, [_dropped_event(seat)])


def _dropped(state: DealState, seat: Seat) -> Seat:
    """The seat dropped: a first drop only on the player's first turn before drawing; a missed
    turn is a turn had (R-DROP-1, R-DROP-2, R-TURN-7)."""
    if seat.has_drawn or seat.turns > 0:
        return replace(seat, outcome=Outcome.MIDDLE_DROP, score=state.variant.middle_drop)
    return replace(seat, outcome=Outcome.FIRST_DROP, score=state.variant.first_drop)


def leave(state: DealState, player: str, at: int) -> Step:
    """``player`` leaves the table during the deal (R-MONEY-5): a drop now, in turn or not;
    the declarer's wrong show (R-DECL-1); after a valid declaration, a show not sent (R-SHOW-1).
    """
    index = state.seat_of(player)
    seat = state.seats[index]
    if state.phase is Phase.OVER:
        raise IllegalAction("deal_over", "the deal is over")
    _check_clock(state, at)
    if not seat.in_deal:
        return Step(replace(state, now_ms=at), ())
    if state.phase is Phase.SHOW:
        if seat.saved is None:
            scored = replace(seat, outcome=Outcome.SHOW_TIMEOUT, score=state.variant.show_timeout)
        else:
            scored = _shown(state, seat, fit_grouping(seat.saved, seat.hand))
        state = replace(_with_seat(state, index, scored), now_ms=at)
        events = [Event("show_timed_out", {"players": [player]})]
        if _in_deal_count(state) == 0:
            return _close(state, at, events)
        return Step(state, tuple(events))
    if state.phase is Phase.DECLARING and index == state.turn:
        return _wrong_show(state, index, None, "you left the table before declaring", at)
    open_pile = state.open_pile
    if index == state.turn and state.drawn is not None:
        seat = replace(seat, hand=_without(seat.hand, state.drawn))
        open_pile = (*open_pile, state.drawn)
        state = replace(state, drawn=None, drawn_from=None)
    seat = _dropped(state, seat)
    state = replace(_with_seat(state, index, seat), open_pile=open_pile, now_ms=at)
    events = [_dropped_event(seat)]
    if index == state.turn and state.phase is Phase.PLAY:
        return _after_leaving(state, index, at, events)
    if _in_deal_count(state) == 1:  # the one left in wins, the declarer too (R-MONEY-5)
        return _last_one_wins(state, at, events)
    return Step(state, tuple(events))


def end_show(state: DealState, at: int) -> Step:
    """Close the show now (the game ended with one player left, R-MONEY-5): whoever has not
    shown is scored as at the show deadline (R-SHOW-1)."""
    if state.phase is not Phase.SHOW:
        raise IllegalAction("not_show_time", "nobody has declared: there is nothing to show yet")
    return _end_show(state, at)


def finish(state: DealState, action: Finish) -> Step:
    """Put a card in the finish slot; the declaration is due within the show time (R-DECL-1)."""
    index = _on_turn(state, action.player, action.at, "finish")
    seat = _after_drawing(state, index, action.card, "finish")
    seat = replace(
        _spend_extra(seat, action.at, state.since_ms + state.timing.move_ms),
        hand=_without(seat.hand, action.card),
        turns=seat.turns + 1,
        missed=0,
    )
    state = replace(
        _with_seat(state, index, seat),
        phase=Phase.DECLARING,
        finish_card=action.card,
        drawn=None,
        drawn_from=None,
        since_ms=action.at,
        now_ms=action.at,
    )
    return Step(state, (Event("finished", {"player": action.player, "deadline_ms": state.deadline_ms}),))


def declare(state: DealState, action: Declare) -> Step:
    """The declarer's grouping: a valid one wins, an invalid one is a wrong show (R-DECL-1..3)."""
    index = _active_seat(state, action.player, action.at)
    if state.phase is not Phase.DECLARING:
        raise IllegalAction("not_declaring", "put a card in the finish slot before you declare")
    if index != state.turn:
        raise IllegalAction("not_declarer", f"{state.seats[state.turn].player} is declaring, not you")
    seat = state.seats[index]
    _check_holds(seat.hand, action.groups)
    evaluation = evaluate(state.variant, state.jokers, seat.hand, action.groups, packs=state.packs)
    seat = _spend_extra(seat, action.at, state.since_ms + state.timing.show_ms)
    state = replace(_with_seat(state, index, seat), now_ms=action.at)
    if not evaluation.valid:
        return _wrong_show(state, index, action.groups, evaluation.reason, action.at)
    seat = replace(seat, outcome=Outcome.WON, score=0, grouping=action.groups)
    state = replace(_with_seat(state, index, seat), phase=Phase.SHOW, since_ms=action.at)
    return Step(state, (Event("declared", {"player": action.player, "deadline_ms": state.deadline_ms}),))


def show(state: DealState, action: Show) -> Step:
    """A loser's grouping after a valid declaration (R-SHOW-1..4)."""
    index = _active_seat(state, action.player, action.at)
    if state.phase is not Phase.SHOW:
        raise IllegalAction("not_show_time", "nobody has declared: there is nothing to show yet")
    seat = state.seats[index]
    _check_holds(seat.hand, action.groups)
    state = replace(_with_seat(state, index, _shown(state, seat, action.groups)), now_ms=action.at)
    events = [Event("shown", {"player": action.player})]
    if _in_deal_count(state) == 0:
        return _close(state, action.at, events)
    return Step(state, tuple(events))


def save_grouping(state: DealState, action: SaveGrouping) -> Step:
    """Remember the player's arrangement; private (R-SHOW-1 disconnection protection)."""
    index = _active_seat(state, action.player, action.at)
    seat = state.seats[index]
    _check_holds(seat.hand, action.groups)
    state = replace(_with_seat(state, index, replace(seat, saved=action.groups)), now_ms=action.at)
    return Step(
        state, (Event("grouping_saved", {"groups": groups_to_json(action.groups)}, to=action.player),)
    )


def expire(state: DealState, action: Timeout) -> Step:
    """Apply the deadline that has passed: a missed move (R-TURN-6), a declaration not sent
    (R-DECL-1), or the end of the show (R-SHOW-1)."""
    deadline = state.deadline_ms
    if deadline is None:
        raise IllegalAction("deal_over", "the deal is over")
    _check_clock(state, action.at)
    if action.at < deadline:
        raise IllegalAction(
            "not_expired", f"the deadline is at {deadline} ms, not yet reached at {action.at} ms"
        )
    if state.phase is Phase.PLAY:
        return _miss_move(state, action.at)
    if state.phase is Phase.DECLARING:
        return _wrong_show(state, state.turn, None, "no grouping was sent in time", action.at)
    return _end_show(state, action.at)


# ---------------------------------------------------------------------------------------------
# What follows an action


def _miss_move(state: DealState, at: int) -> Step:
    index = state.turn
    seat = state.seats[index]
    open_pile = state.open_pile
    hand = seat.hand
    if state.drawn is not None:
        hand = _without(hand, state.drawn)
        open_pile = (*open_pile, state.drawn)
    missed = seat.missed + 1
    seat = replace(seat, hand=hand, extra_ms=0, missed=missed, turns=seat.turns + 1)
    events = [
        Event(
            "missed_move",
            {"player": seat.player, "missed": missed, "returned": _code(state.drawn)},
        )
    ]
    if missed >= MISSED_MOVES_TO_DROP:
        seat = replace(seat, outcome=Outcome.MISSED_MOVES, score=state.variant.missed_moves_drop)
        events.append(_dropped_event(seat))
    state = replace(
        _with_seat(state, index, seat), open_pile=open_pile, drawn=None, drawn_from=None, now_ms=at
    )
    if seat.outcome is not None:
        return _after_leaving(state, index, at, events)
    return _next_turn(state, index, at, events)


def _wrong_show(state: DealState, index: int, groups: Grouping | None, reason: str, at: int) -> Step:
    """R-DECL-3: the declarer leaves with the wrong-show score; the finish card goes to the open pile."""
    seat = state.seats[index]
    seat = replace(seat, outcome=Outcome.WRONG_SHOW, score=state.variant.wrong_show, grouping=groups)
    card = state.finish_card
    open_pile = state.open_pile if card is None else (*state.open_pile, card)
    state = replace(
        _with_seat(state, index, seat), open_pile=open_pile, finish_card=None, phase=Phase.PLAY, now_ms=at
    )
    # The reason may name the declarer's cards, so only the declarer is told it before the end.
    events = [
        Event("wrong_show", {"player": seat.player, "score": seat.score, "card": _code(card)}),
        Event("wrong_show_reason", {"reason": reason}, to=seat.player),
    ]
    return _after_leaving(state, index, at, events)


def _end_show(state: DealState, at: int) -> Step:
    """R-SHOW-1: a player who did not show is scored on their saved grouping, or gets the
    show-timeout score if they never arranged one."""
    late: list[str] = []
    for index, seat in enumerate(state.seats):
        if not seat.in_deal:
            continue
        late.append(seat.player)
        if seat.saved is None:
            scored = replace(seat, outcome=Outcome.SHOW_TIMEOUT, score=state.variant.show_timeout)
        else:
            scored = _shown(state, seat, fit_grouping(seat.saved, seat.hand))
        state = _with_seat(state, index, scored)
    return _close(replace(state, now_ms=at), at, [Event("show_timed_out", {"players": late})])


def _shown(state: DealState, seat: Seat, groups: Grouping) -> Seat:
    """A loser's score for a grouping (R-SHOW-2); a deal show if they never had a turn (R-SHOW-3)."""
    score = evaluate(state.variant, state.jokers, seat.hand, groups, packs=state.packs).score
    if seat.turns == 0:
        return replace(
            seat, outcome=Outcome.DEAL_SHOW, score=deal_show_score(state.variant, score), grouping=groups
        )
    return replace(seat, outcome=Outcome.LOST_SHOW, score=score, grouping=groups)


def _after_leaving(state: DealState, index: int, at: int, events: list[Event]) -> Step:
    """The turn player left the deal: the last one in wins (R-TURN-6, R-DECL-3), or play goes on."""
    if _in_deal_count(state) == 1:
        return _last_one_wins(state, at, events)
    return _next_turn(state, index, at, events)


def _next_turn(state: DealState, after: int, at: int, events: list[Event], *, first: bool = False) -> Step:
    """Start the turn of the next player still in the deal after seat ``after``. Any turn but
    the deal's first ends the open-joker exception (R-TURN-2)."""
    count = len(state.seats)
    index = next(
        (after + step) % count for step in range(1, count + 1) if state.seats[(after + step) % count].in_deal
    )
    state = replace(
        state,
        phase=Phase.PLAY,
        turn=index,
        since_ms=at,
        drawn=None,
        drawn_from=None,
        now_ms=at,
        first_open_joker=state.first_open_joker and first,
    )
    events.append(Event("turn", {"player": state.seats[index].player, "deadline_ms": state.deadline_ms}))
    return Step(state, tuple(events))


def _last_one_wins(state: DealState, at: int, events: list[Event]) -> Step:
    index = next(index for index, seat in enumerate(state.seats) if seat.in_deal)
    state = _with_seat(state, index, replace(state.seats[index], outcome=Outcome.WON, score=0))
    return _close(replace(state, turn=index), at, events)


def _close(state: DealState, at: int, events: list[Event]) -> Step:
    winner = next(index for index, seat in enumerate(state.seats) if seat.outcome is Outcome.WON)
    state = replace(state, phase=Phase.OVER, turn=winner, since_ms=at, now_ms=at, drawn=None, drawn_from=None)
    events.append(Event("deal_over", deal_result(state).to_json()))
    return Step(state, tuple(events))


# ---------------------------------------------------------------------------------------------
# The result


def deal_result(state: DealState) -> DealResult:
    """Who won and each player's score (R-SHOW-2..4); on points tables also the settlement
    (R-PTS-3; on 21-card tables with the value points, R-21-5..7). Only for a deal that is over."""
    if state.phase is not Phase.OVER:
        raise ValueError("the deal is not over yet")
    winner = state.winner
    if winner is None:
        raise ValueError("a finished deal has a winner")
    results = [_player_result(seat) for seat in state.seats]
    transfers: tuple[Transfer, ...] = ()
    if state.variant.is_points and not state.variant.is_points21:
        # R-PTS-3: each loser pays the winner their score.
        transfers = tuple(Transfer(r.player, winner, r.score) for r in results if r.player != winner)
        total = sum(t.points for t in transfers)
        results = [replace(r, net=total if r.player == winner else -r.score) for r in results]
    elif state.variant.is_points21:
        jokers = state.jokers
        values = [
            None if result.outcome.dropped else points21.value_cards(result.hand, jokers).points
            for result in results
        ]
        settlement = points21.settle(
            [
                points21.PlayerResult(
                    winner=result.outcome is Outcome.WON,
                    loss=result.score,
                    dropped=result.outcome.dropped,
                    value=value or 0,
                )
                for result, value in zip(results, values, strict=True)
            ],
            variant=state.variant,
        )
        results = [
            replace(result, value=value, net=net)
            for result, value, net in zip(results, values, settlement.net, strict=True)
        ]
        transfers = tuple(
            Transfer(state.seats[t.payer].player, state.seats[t.payee].player, t.points)
            for t in settlement.transfers
        )
    return DealResult(
        winner=winner,
        seed=state.seed,
        finish_card=state.finish_card,
        players=tuple(results),
        transfers=transfers,
    )


def _player_result(seat: Seat) -> PlayerResult:
    if seat.outcome is None or seat.score is None:
        raise ValueError(f"{seat.player} has no result yet")
    return PlayerResult(
        player=seat.player, outcome=seat.outcome, score=seat.score, hand=seat.hand, grouping=seat.grouping
    )


# ---------------------------------------------------------------------------------------------
# Views for players and bots


def legal_actions(state: DealState, player: str, at: int | None = None) -> tuple[Action, ...]:
    """The moves ``player`` may make at ``at`` (default: the state's time), groupings excluded:
    draws, discards, a drop, finishes. Empty when it is not their turn to play."""
    when = state.now_ms if at is None else at
    if state.phase is not Phase.PLAY or state.seats[state.turn].player != player:
        return ()
    deadline = state.deadline_ms
    if when < state.now_ms or (deadline is not None and when > deadline):
        return ()
    if state.drawn is None:
        actions: list[Action] = []
        if state.closed_pile or len(state.open_pile) > 1:
            actions.append(Draw(player, "closed", when))
        if state.open_pile and (state.first_open_joker or not state.jokers.is_joker(state.open_pile[-1])):
            actions.append(Draw(player, "open", when))
        actions.append(Drop(player, when))
        return tuple(actions)
    cards = sorted(set(state.seats[state.turn].hand))
    discards = [
        Discard(player, card, when)
        for card in cards
        if not (state.drawn_from == "open" and card == state.drawn)
    ]
    return (*discards, *(Finish(player, card, when) for card in cards))


def player_view(state: DealState, player: str) -> dict[str, Any]:
    """What ``player`` may see, as plain JSON: their own hand and saved grouping, the open pile,
    every player's card count and standing; never another player's cards or the closed order."""
    me = state.seat_of(player)
    seat = state.seats[me]
    view: dict[str, Any] = {
        "player": player,
        "variant": state.variant.name,
        "phase": state.phase.value,
        "players": [
            {
                "player": other.player,
                "cards": len(other.hand),
                "status": "in" if other.outcome is None else other.outcome.value,
                "score": other.score,
                "extra_ms": other.extra_ms,
                "missed": other.missed,
            }
            for other in state.seats
        ],
        "dealer": state.seats[state.dealer].player,
        "turn": state.seats[state.turn].player,
        "waiting_for": list(state.waiting_for),
        "deadline_ms": state.deadline_ms,
        "now_ms": state.now_ms,
        "commitment": state.commitment,
        "cut": state.cut.code,
        "open_pile": _codes(state.open_pile),
        "closed_count": len(state.closed_pile),
        "hand": _codes(seat.hand),
        "saved_grouping": None if seat.saved is None else groups_to_json(fit_grouping(seat.saved, seat.hand)),
        "extra_ms": seat.extra_ms,
        "drawn": state.drawn is not None and state.turn == me,
        "finish_slot": state.finish_card is not None,
        "my_finish_card": _code(state.finish_card) if state.turn == me else None,
        "result": None,
    }
    if state.phase is Phase.OVER:
        view["result"] = deal_result(state).to_json()
    return view


# ---------------------------------------------------------------------------------------------
# Checks and small helpers


def _check_clock(state: DealState, at: int) -> None:
    if at < state.now_ms:
        raise InvalidAction(
            "time_went_back",
            f"the action is dated {at} ms, before the deal's last action at {state.now_ms} ms",
        )


def _active_seat(state: DealState, player: str, at: int) -> int:
    """The seat of a player still in a running deal, acting in time."""
    if state.phase is Phase.OVER:
        raise IllegalAction("deal_over", "the deal is over")
    _check_clock(state, at)
    index = state.seat_of(player)
    outcome = state.seats[index].outcome
    if outcome is Outcome.WON:
        raise IllegalAction("already_declared", "you have declared: wait for the others to show")
    if outcome in (Outcome.LOST_SHOW, Outcome.DEAL_SHOW):
        raise IllegalAction("already_shown", "you have already shown your cards")
    if outcome is not None:
        raise IllegalAction("out_of_deal", "you are out of this deal")
    deadline = state.deadline_ms
    if player in state.waiting_for and deadline is not None and at > deadline:
        raise IllegalAction("time_up", "your time is up")
    return index


def _on_turn(state: DealState, player: str, at: int, verb: str) -> int:
    """The seat of the turn player in the play phase; refuses anyone else."""
    index = _active_seat(state, player, at)
    if state.phase is Phase.DECLARING:
        raise IllegalAction(
            "declaring", f"you cannot {verb} now: {state.seats[state.turn].player} is declaring"
        )
    if state.phase is Phase.SHOW:
        raise IllegalAction("show_time", f"you cannot {verb} now: a player has declared, show your cards")
    if index != state.turn:
        raise IllegalAction("not_your_turn", f"it is {state.seats[state.turn].player}'s turn, not yours")
    return index


def _after_drawing(state: DealState, index: int, card: Card, verb: str) -> Seat:
    seat = state.seats[index]
    if state.drawn is None:
        raise IllegalAction("must_draw_first", f"draw a card before you {verb}")
    if card not in seat.hand:
        raise IllegalAction("card_not_in_hand", f"you do not hold {card}")
    return seat


def _check_holds(hand: Sequence[Card], groups: Grouping) -> None:
    """Refuse a grouping with a card (or more copies of it) that the hand does not hold."""
    held = Counter(hand)
    used = Counter(card for group in groups for card in group)
    for card, count in used.items():
        if count > held[card]:
            have = f"only {held[card]}" if held[card] else "none"
            raise IllegalAction("card_not_in_hand", f"your groups use {count} x {card} but you hold {have}")


def fit_grouping(groups: Grouping, hand: Sequence[Card]) -> Grouping:
    """A saved grouping as it stands on the hand now: cards no longer held drop out of it."""
    left = Counter(hand)
    fitted: list[tuple[Card, ...]] = []
    for group in groups:
        kept = []
        for card in group:
            if left[card] > 0:
                left[card] -= 1
                kept.append(card)
        if kept:
            fitted.append(tuple(kept))
    return tuple(fitted)


def _spend_extra(seat: Seat, at: int, allowed_until: int) -> Seat:
    """R-TURN-5: time past ``allowed_until`` comes out of the extra-time bank."""
    late = at - allowed_until
    if late <= 0:
        return seat
    return replace(seat, extra_ms=max(0, seat.extra_ms - late))


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def _with_seat(state: DealState, index: int, seat: Seat) -> DealState:
    return replace(state, seats=(*state.seats[:index], seat, *state.seats[index + 1 :]))


def _in_deal_count(state: DealState) -> int:
    return sum(1 for seat in state.seats if seat.in_deal)


def _dropped_event(seat: Seat, *, auto: bool = False) -> Event:
    assert seat.outcome is not None
    return Event(
        "dropped", {"player": seat.player, "outcome": seat.outcome.value, "score": seat.score, "auto": auto}
    )


def _code(card: Card | None) -> str | None:
    return None if card is None else card.code


def _codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def _cards(codes: Iterable[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)


def _card_or_none(code: str | None) -> Card | None:
    return None if code is None else Card.parse(code)


def _groups(data: Any) -> Grouping | None:
    return None if data is None else tuple(_cards(group) for group in data)


def _seat_to_json(seat: Seat) -> dict[str, Any]:
    return {
        "player": seat.player,
        "hand": _codes(seat.hand),
        "extra_ms": seat.extra_ms,
        "outcome": None if seat.outcome is None else seat.outcome.value,
        "score": seat.score,
        "missed": seat.missed,
        "turns": seat.turns,
        "has_drawn": seat.has_drawn,
        "saved": None if seat.saved is None else groups_to_json(seat.saved),
        "grouping": None if seat.grouping is None else groups_to_json(seat.grouping),
    }


def _seat_from_json(data: Mapping[str, Any]) -> Seat:
    return Seat(
        player=str(data["player"]),
        hand=_cards(data["hand"]),
        extra_ms=int(data["extra_ms"]),
        outcome=None if data["outcome"] is None else Outcome(data["outcome"]),
        score=None if data["score"] is None else int(data["score"]),
        missed=int(data["missed"]),
        turns=int(data["turns"]),
        has_drawn=bool(data["has_drawn"]),
        saved=_groups(data["saved"]),
        grouping=_groups(data["grouping"]),
    )
