"""The toss, the seating and the dealer (R-TOSS-1, R-TOSS-2, R-TOSS-3).

Before the first deal of a game, and before any deal after a new player joined, every
player gets one toss card from a shuffled shoe without printed jokers. The highest card
plays first, the lowest plays last and deals. Identical cards (possible with two packs)
toss again between those players only, each re-toss from a seed derived from the game's
seed, so the whole toss can be re-derived once the seed is revealed.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from games.engine.cards import ACE, Card, shoe
from games.engine.shuffle import shuffled

TOSS_PACKS = 2
"""Packs in the toss shoe: as many as a 13-card table uses, so identical cards can happen."""


@dataclass(frozen=True, slots=True)
class TossCard:
    """One toss card shown to everyone: ``round`` 0 is the first toss, 1.. are re-tosses."""

    player: str
    card: Card
    round: int


@dataclass(frozen=True, slots=True)
class Toss:
    """The outcome of a toss: every card shown, and the seating it gives (R-TOSS-2)."""

    cards: tuple[TossCard, ...]
    seating: tuple[str, ...]
    """Highest toss card first (plays first) ... lowest last (plays last and deals)."""

    @property
    def dealer(self) -> str:
        return self.seating[-1]

    @property
    def first(self) -> str:
        """The player who plays first: the one seated after the dealer."""
        return self.seating[0]


def toss_strength(card: Card) -> tuple[int, int]:
    """How high a toss card is (R-TOSS-1): Ace high, then K Q J ... 2; ties by suit S > H > D > C."""
    if card.is_printed_joker:
        raise ValueError("printed jokers are not used in the toss")
    rank = 14 if card.rank == ACE else card.rank
    return (rank, 3 - card.suit)


def retoss_seed(seed: bytes, round: int) -> bytes:
    """The seed of re-toss ``round`` (1, 2, ...): derived from the game seed, so it verifies."""
    return hashlib.sha256(seed + b"retoss" + round.to_bytes(4, "big")).digest()


def toss(players: Sequence[str], seed: bytes, packs: int = TOSS_PACKS) -> Toss:
    """Toss for seats (R-TOSS-1, R-TOSS-2); deterministic from ``seed``.

    Each player, in the order given, gets the next card of the shuffled shoe. Players with
    identical cards toss again among themselves and keep their place relative to the rest.
    """
    names = tuple(players)
    if len(names) < 2:
        raise ValueError(f"a toss needs at least two players, not {len(names)}")
    if len(set(names)) != len(names):
        raise ValueError(f"every player tosses once: {', '.join(names)} repeats a name")
    shown: list[TossCard] = []
    retosses = itertools.count(1)
    toss_shoe = tuple(card for card in shoe(packs) if not card.is_printed_joker)

    def seat(group: tuple[str, ...], group_seed: bytes, round: int) -> list[str]:
        """Deal one card to each player of ``group``; seat them high to low, re-tossing ties."""
        cards = dict(zip(group, shuffled(toss_shoe, group_seed), strict=False))
        shown.extend(TossCard(player, cards[player], round) for player in group)
        order = sorted(group, key=lambda player: toss_strength(cards[player]), reverse=True)
        seating: list[str] = []
        for _, same_card in itertools.groupby(order, key=lambda player: cards[player]):
            tied = tuple(same_card)
            if len(tied) == 1:
                seating.extend(tied)
            else:
                retoss = next(retosses)
                seating.extend(seat(tied, retoss_seed(seed, retoss), retoss))
        return seating

    seating = seat(names, seed, 0)
    return Toss(cards=tuple(shown), seating=tuple(seating))


def next_dealer(
    previous_seating: Sequence[str], previous_dealer: str, previous_first: str, present: Collection[str]
) -> str:
    """The dealer of the next deal when nobody joined, so no re-toss (R-TOSS-3).

    The player who played first in the previous deal deals; if they left, the previous
    dealer stays. Leaving never re-seats: the seating keeps its order without those who left.
    **Decision**: if both have left, the deal goes to the nearest present player seated
    before the previous dealer (the dealer's seat moves back as little as it can).
    """
    seating = tuple(previous_seating)
    joined = [player for player in present if player not in seating]
    if joined:
        raise ValueError(f"{', '.join(sorted(joined))} joined the table: toss again (R-TOSS-1)")
    for name in (previous_dealer, previous_first):
        if name not in seating:
            raise ValueError(f"{name} was not seated in the previous deal")
    if not present:
        raise ValueError("nobody is left at the table")
    if previous_first in present:
        return previous_first
    dealer_seat = seating.index(previous_dealer)
    for back in range(len(seating)):
        candidate = seating[(dealer_seat - back) % len(seating)]
        if candidate in present:
            return candidate
    raise AssertionError("unreachable: present is a non-empty subset of the seating")


def seating_after_leaving(previous_seating: Sequence[str], present: Collection[str]) -> tuple[str, ...]:
    """The seating of the next deal without a re-toss: the same order, minus who left (R-TOSS-3)."""
    return tuple(player for player in previous_seating if player in present)
