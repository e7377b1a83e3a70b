"""Cards, packs, jokers and card points (R-CARD-1..3, R-DEAL-2, R-DEAL-3, R-21-2).

A card is a small immutable value. Identical cards from different packs compare equal:
the rules never depend on which pack a card came from (R-CARD-3), so a hand is simply a
multiset of cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

RANKS = "A23456789TJQK"
"""Rank characters; the rank number of a card is its index here plus one (A=1 ... K=13)."""
SUITS = "SHDC"
"""Suit characters in toss order, highest first: spades > hearts > diamonds > clubs."""
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

ACE = 1
KING = 13
PRINTED_JOKER_CODE = "PJ"


class CardError(ValueError):
    """Bad card input: an unknown card code, or more copies of a card than the packs hold."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1..13 (A..K) and ``suit`` 0..3 (S, H, D, C).

    The printed joker has rank 0 and suit 0. Cards order by (rank, suit).
    """

    rank: int
    suit: int

    PRINTED_JOKER: ClassVar[Card]

    def __post_init__(self) -> None:
        valid = (self.rank == 0 and self.suit == 0) or (1 <= self.rank <= 13 and 0 <= self.suit <= 3)
        if not valid:
            raise CardError(f"no such card: rank {self.rank}, suit {self.suit}")

    @classmethod
    def parse(cls, code: str) -> Card:
        """Parse ``7H``, ``TS``, ``AC`` or ``PJ`` (case-insensitive; ``10H`` is accepted too)."""
        known = _BY_CODE.get(code) if isinstance(code, str) else None
        if known is not None:  # the canonical codes, as every stored state writes them
            return known
        if not isinstance(code, str):
            raise CardError(f"a card code must be a string, not {type(code).__name__}")
        text = code.strip().upper()
        if text == PRINTED_JOKER_CODE:
            return PRINTED_JOKER
        if text.startswith("10"):
            text = "T" + text[2:]
        if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
            raise CardError(f"unknown card code {code!r}: expected rank+suit such as 7H, TS, AC, or PJ")
        return cls(RANKS.index(text[0]) + 1, SUITS.index(text[1]))

    @property
    def is_printed_joker(self) -> bool:
        return self.rank == 0

    @property
    def code(self) -> str:
        return _CODES[self.rank * 4 + self.suit]

    @property
    def suit_char(self) -> str:
        return "" if self.rank == 0 else SUITS[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


PRINTED_JOKER = Card(0, 0)
Card.PRINTED_JOKER = PRINTED_JOKER

#: Each card's code by ``rank * 4 + suit``, and each card by its canonical code: a stored
#: deal is hundreds of codes, read and written on every move.
_CODES: tuple[str, ...] = (
    PRINTED_JOKER_CODE,
    "",
    "",
    "",
    *(RANKS[rank - 1] + SUITS[suit] for rank in range(1, 14) for suit in range(4)),
)
_BY_CODE: dict[str, Card] = {PRINTED_JOKER_CODE: PRINTED_JOKER} | {
    RANKS[rank - 1] + SUITS[suit]: Card(rank, suit) for rank in range(1, 14) for suit in range(4)
}


def parse_cards(codes: Iterable[str]) -> list[Card]:
    """Parse a list of card codes; a bare string of space-separated codes is accepted too."""
    if isinstance(codes, str):
        codes = codes.split()
    return [Card.parse(code) for code in codes]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)


def one_pack() -> tuple[Card, ...]:
    """52 cards and one printed joker (R-CARD-1)."""
    return (*(Card(rank, suit) for suit in range(4) for rank in range(1, 14)), PRINTED_JOKER)


def shoe(packs: int) -> tuple[Card, ...]:
    """All the cards of ``packs`` packs, in a fixed (unshuffled) order (R-CARD-3)."""
    if packs < 1:
        raise CardError(f"a shoe needs at least one pack, not {packs}")
    return one_pack() * packs


def check_copies(cards: Iterable[Card], packs: int) -> None:
    """Raise :class:`CardError` if ``cards`` holds more copies of a card than ``packs`` packs do."""
    for card, count in Counter(cards).items():
        if count > packs:
            raise CardError(f"{count} copies of {card} but {packs} pack(s) hold only {packs}")


@dataclass(frozen=True, slots=True)
class Jokers:
    """Which cards are jokers in one deal, derived from the cut card.

    13-card tables (R-DEAL-2, R-DEAL-3): printed jokers and every card of the wild rank; a
    printed-joker cut makes the Aces wild. 21-card tables (R-21-2) add the value cards: the
    value joker (the cut card itself, or ``AS`` for a printed-joker cut), the upper joker
    (cut suit, one rank up; a King cut gives upper ``A``) and the lower joker (cut suit, one
    rank down; an Ace cut gives lower ``K``).
    """

    cut: Card
    wild_rank: int
    value_joker: Card | None = None
    upper: Card | None = None
    lower: Card | None = None

    @classmethod
    def from_cut(cls, cut: Card, *, value_cards: bool = False) -> Jokers:
        """The jokers of a deal; ``value_cards=True`` on 21-card tables."""
        base = Card(ACE, 0) if cut.is_printed_joker else cut
        wild_rank = base.rank
        if not value_cards:
            return cls(cut=cut, wild_rank=wild_rank)
        upper_rank = base.rank % 13 + 1
        lower_rank = (base.rank - 2) % 13 + 1
        return cls(
            cut=cut,
            wild_rank=wild_rank,
            value_joker=base,
            upper=Card(upper_rank, base.suit),
            lower=Card(lower_rank, base.suit),
        )

    def is_joker(self, card: Card) -> bool:
        """True for a printed joker, a card of the wild rank, or (21-card) an upper/lower joker."""
        return card.rank == 0 or card.rank == self.wild_rank or card == self.upper or card == self.lower

    def is_wild(self, card: Card) -> bool:
        """True for a joker that is a real card and so may also stand as itself (R-MELD-4)."""
        return card.rank != 0 and self.is_joker(card)


def points(card: Card, jokers: Jokers) -> int:
    """Points of a card (R-CARD-2): jokers 0; A, K, Q, J 10; 2..10 face value."""
    if jokers.is_joker(card):
        return 0
    if card.rank == ACE or card.rank >= 11:
        return 10
    return card.rank
