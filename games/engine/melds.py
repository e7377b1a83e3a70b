"""Melds and declarations (R-MELD-*, R-DECL-2, R-21-3, R-SHOW-2, R-21-4).

CONTRACT (implemented by the engine work; other modules code against these names):

    classify(variant, jokers, group) -> GroupKind | None   # None: not a valid group, see why()
    evaluate(variant, jokers, hand, groups) -> Evaluation
        hand:   the player's cards after the finish card is set aside (13 or 21)
        groups: the player's grouping; every card of a group must be in hand (as a multiset);
                cards of hand not in any group are ungrouped.
        Evaluation(valid: bool, score: int, reason: str)
            valid:  the grouping is a valid declaration (R-DECL-2 / R-21-3)
            score:  the losing score of this grouping (R-SHOW-2 / R-21-4), capped
            reason: "" when valid, else plain words, e.g. "no pure sequence" or
                    "8D 8H 8H: two cards of one suit in a set"
    Raises CardError if groups hold a card that is not in hand (more copies than held).

Reading a group: a wild card (a joker that is a real card) may stand as itself or in for
any card; a printed joker only stands in. A group that could be read several ways takes its
best reading: pure sequence > tunnela > sequence > set > all-joker group (R-MELD-6).

Decisions taken here where RULES.md leaves room:

- A group made only of jokers that holds a wild card reads as a sequence (R-MELD-6: the wild
  card stands as itself), so ``9H 9S PJ`` (9s wild) can be a 13-card hand's second sequence.
- 21-card: three identical wild cards (``8S 8S 8S`` with 8s wild) are a tunnela like three
  printed jokers; two are a dublee.
- R-21-3 a: only sequences, sets and groups of jokers complete a declaration with three pure
  sequences; a dublee does not. R-21-3 b/c/d: the rest need not be grouped, and any other
  groups are not judged. R-21-3 d and the R-21-4 seven-joker Decision count a group made only
  of jokers. Dublees are counted as two-card groups (a tunnela is not a dublee).
- Reasons name every problem found, joined by "; ". Empty groups are ignored. The hand size
  is not checked here (the deal owns it); the rules apply to whatever cards are given.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine.cards import ACE, KING, Card, CardError, Jokers, check_copies, format_cards, points
from games.engine.variants import Variant

MAX_SEQUENCE = 13
"""A sequence holds at most 13 cards: A..K or 2..A (R-MELD-1)."""
MAX_SET = 4
"""A set holds at most four cards, one of each suit (R-MELD-5)."""
DECLARE_PURE_21 = 3
"""21-card: pure sequences (tunnelas count) to declare and to exclude every group (R-21-3a, R-21-4)."""
DECLARE_TUNNELAS = 3
DECLARE_DUBLEES = 8
DECLARE_JOKER_GROUP = 8
LOSE_TWO_DUBLEES = 6
"""21-card Decision (R-21-4): a loser showing this many dublees scores at most 2."""
LOSE_TWO_JOKER_GROUP = 7
"""21-card Decision (R-21-4): a loser showing this many jokers in one group scores at most 2."""
LOSE_TWO_SCORE = 2


class GroupKind(enum.Enum):
    """What a valid group is, in its best reading."""

    PURE_SEQUENCE = "pure sequence"
    SEQUENCE = "sequence"
    """An impure sequence: at least one card stands in as a joker (R-MELD-2)."""
    SET = "set"
    JOKERS = "jokers"
    """A group made only of jokers that no card can read as a sequence; it counts as a set (R-MELD-6)."""
    TUNNELA = "tunnela"
    """21-card only: three identical cards; counts as a pure sequence (R-MELD-7)."""
    DUBLEE = "dublee"
    """21-card only: two identical cards; not a group for the losing count (R-MELD-7, R-21-4)."""

    @property
    def is_pure(self) -> bool:
        """A pure sequence, or a tunnela, which counts as one (R-MELD-3, R-MELD-7)."""
        return self is GroupKind.PURE_SEQUENCE or self is GroupKind.TUNNELA

    @property
    def is_sequence(self) -> bool:
        """Pure or impure sequence (a tunnela counts as a pure sequence)."""
        return self is GroupKind.SEQUENCE or self.is_pure


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The verdict on one grouping of a hand: a valid declaration, and its losing score."""

    valid: bool
    score: int
    reason: str


def _ace_spans(ranks: Sequence[int]) -> tuple[int, int]:
    """The rank span of ``ranks`` with the Ace low, and with the Ace high."""
    low = max(ranks) - min(ranks) + 1
    high_ranks = [KING + 1 if rank == ACE else rank for rank in ranks]
    high = max(high_ranks) - min(high_ranks) + 1
    return low, high


def _run_fits(cards: Sequence[Card], length: int) -> bool:
    """Cards of one suit and distinct ranks that fit in a run of ``length`` (Ace low or high)."""
    if len({card.suit for card in cards}) != 1:
        return False
    ranks = [card.rank for card in cards]
    if len(set(ranks)) != len(ranks):
        return False
    low, high = _ace_spans(ranks)
    return min(low, high) <= length


def is_marriage_run(jokers: Jokers, cards: Sequence[Card]) -> bool:
    """Exactly the lower, value and upper joker: never a valid sequence on 21-card tables (R-MELD-8)."""
    if jokers.value_joker is None or jokers.lower is None or jokers.upper is None or len(cards) != 3:
        return False
    return sorted(cards) == sorted((jokers.lower, jokers.value_joker, jokers.upper))


def _reading(variant: Variant, jokers: Jokers, cards: Sequence[Card]) -> GroupKind | None:
    count = len(cards)
    if count == 0:
        return None
    points21 = variant.is_points21
    identical = all(card == cards[0] for card in cards)
    if count == 2:
        return GroupKind.DUBLEE if points21 and identical else None
    if count < 3:
        return None
    marriage = points21 and is_marriage_run(jokers, cards)
    if (
        count <= MAX_SEQUENCE
        and not marriage
        and not any(card.is_printed_joker for card in cards)
        and _run_fits(cards, count)
        and min(_ace_spans([card.rank for card in cards])) == count
    ):
        return GroupKind.PURE_SEQUENCE
    if points21 and count == 3 and identical:
        return GroupKind.TUNNELA
    naturals = [card for card in cards if not jokers.is_joker(card)]
    if count <= MAX_SEQUENCE and not marriage:
        if naturals and _run_fits(naturals, count):
            return GroupKind.SEQUENCE
        # An all-joker group with a wild card: the wild card stands as itself (R-MELD-6).
        if not naturals and any(jokers.is_wild(card) for card in cards):
            return GroupKind.SEQUENCE
    if (
        naturals
        and count <= MAX_SET
        and len({card.rank for card in naturals}) == 1
        and len({card.suit for card in naturals}) == len(naturals)
    ):
        return GroupKind.SET
    if not naturals:
        return GroupKind.JOKERS
    return None


def classify(variant: Variant, jokers: Jokers, group: Iterable[Card]) -> GroupKind | None:
    """The best reading of ``group`` (R-MELD-1..8), or None when it is not a valid group (see :func:`why`)."""
    return _reading(variant, jokers, tuple(group))


def _circular_fit(cards: Sequence[Card], length: int) -> bool:
    """Whether the cards would fit a run of ``length`` if ranks wrapped round K-A-2."""
    ranks = sorted({card.rank for card in cards})
    for start in ranks:
        span = max((rank - start) % KING for rank in ranks) + 1
        if span <= length:
            return True
    return False


def _problem(variant: Variant, jokers: Jokers, cards: Sequence[Card]) -> str:
    """Why a group that :func:`classify` refuses is not valid, in plain words (without the cards)."""
    count = len(cards)
    points21 = variant.is_points21
    naturals = [card for card in cards if not jokers.is_joker(card)]
    if count == 1:
        return "a single card is not a group"
    if count == 2:
        if not points21:
            return "a group needs at least 3 cards"
        if naturals and len(naturals) < count and len(set(cards)) > 1:
            return "jokers never complete a dublee"
        return "two cards make a group only as a dublee of two identical cards"
    if points21 and count == 3 and len(set(naturals)) == 1 and len(naturals) == 2:
        return "jokers never complete a tunnela, and a set has no two cards of one suit"
    ranks = {card.rank for card in naturals}
    suits = {card.suit for card in naturals}
    if len(ranks) == 1 and len(suits) > 1:
        if len(suits) < len(naturals):
            return "two cards of one suit in a set"
        return f"a set holds at most {MAX_SET} cards"
    if len(suits) == 1:
        if len(ranks) < len(naturals):
            repeated = next(card for card, seen in Counter(naturals).items() if seen > 1)
            if len(ranks) == 1:
                return "two cards of one suit in a set"
            return f"{repeated} twice in a sequence"
        if count > MAX_SEQUENCE:
            return f"a sequence holds at most {MAX_SEQUENCE} cards"
        if any(card.rank == ACE for card in naturals) and _circular_fit(naturals, count):
            return "not a sequence: Ace is low or high, never both"
        needed = min(_ace_spans([card.rank for card in naturals])) - len(naturals)
        stand_ins = count - len(naturals)
        if stand_ins == 0:
            return "not a sequence: the ranks are not consecutive"
        return f"not a sequence: the gaps need {needed} joker(s) but the group has {stand_ins}"
    return "neither a set (one rank, different suits) nor a sequence (one suit, running ranks)"


def why(variant: Variant, jokers: Jokers, group: Iterable[Card]) -> str:
    """Why ``group`` is not a valid group, e.g. ``"8D 8H 8H: two cards of one suit in a set"``.

    Returns "" for a valid group.
    """
    cards = tuple(group)
    if not cards:
        return "an empty group"
    if _reading(variant, jokers, cards) is not None:
        return ""
    return f"{format_cards(cards)}: {_problem(variant, jokers, cards)}"


def _check_groups(hand: Sequence[Card], groups: Sequence[Sequence[Card]]) -> list[Card]:
    """Raise CardError unless the groups fit in the hand as a multiset; return the ungrouped cards."""
    left = Counter(hand)
    for group in groups:
        for card in group:
            if not isinstance(card, Card):
                raise CardError(f"a group holds {card!r}, which is not a Card")
            if left[card] == 0:
                held = Counter(hand)[card]
                if held == 0:
                    raise CardError(f"{card} is grouped but is not in the hand")
                used = sum(group_card == card for group_ in groups for group_card in group_)
                raise CardError(f"{card} is grouped {used} times but the hand holds it {held} time(s)")
            left[card] -= 1
    return list(left.elements())


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def evaluate(
    variant: Variant,
    jokers: Jokers,
    hand: Iterable[Card],
    groups: Iterable[Iterable[Card]],
    *,
    packs: int | None = None,
) -> Evaluation:
    """Judge a grouping of ``hand``: a valid declaration (R-DECL-2 / R-21-3) and its losing score.

    The losing score follows R-SHOW-2 (13-card) or R-21-4 (21-card) and is capped at the
    variant's full count; a valid declaration scores 0 (R-SHOW-4). ``packs`` (default: the
    variant's) bounds how many copies of a card a hand may hold. Empty groups are ignored.
    Raises CardError for a grouped card that the hand does not hold (or holds fewer times).
    """
    cards = tuple(hand)
    for card in cards:
        if not isinstance(card, Card):
            raise CardError(f"the hand holds {card!r}, which is not a Card")
    check_copies(cards, variant.default_packs if packs is None else packs)
    grouped = [tuple(group) for group in groups]
    grouped = [group for group in grouped if group]
    ungrouped = _check_groups(cards, grouped)
    kinds = [_reading(variant, jokers, group) for group in grouped]

    total = sum(points(card, jokers) for card in cards)
    pure_points = sum(
        points(card, jokers)
        for group, kind in zip(grouped, kinds, strict=True)
        if kind and kind.is_pure
        for card in group
    )
    counted = [
        (group, kind)
        for group, kind in zip(grouped, kinds, strict=True)
        if kind and kind is not GroupKind.DUBLEE
    ]
    group_points = sum(points(card, jokers) for group, _ in counted for card in group)
    pures = sum(1 for kind in kinds if kind and kind.is_pure)
    sequences = sum(1 for kind in kinds if kind and kind.is_sequence)
    problems = [
        why(variant, jokers, group) for group, kind in zip(grouped, kinds, strict=True) if kind is None
    ]

    if variant.is_points21:
        if pures == 0:
            score = total
        elif pures < DECLARE_PURE_21:
            score = total - pure_points
        else:
            score = total - group_points
        dublees = sum(1 for kind in kinds if kind is GroupKind.DUBLEE)
        tunnelas = sum(1 for kind in kinds if kind is GroupKind.TUNNELA)
        joker_group = max(
            (len(group) for group in grouped if all(jokers.is_joker(card) for card in group)), default=0
        )
        if dublees >= LOSE_TWO_DUBLEES or joker_group >= LOSE_TWO_JOKER_GROUP:
            score = min(score, LOSE_TWO_SCORE)
        valid = (
            tunnelas >= DECLARE_TUNNELAS or dublees >= DECLARE_DUBLEES or joker_group >= DECLARE_JOKER_GROUP
        )
        if not valid:
            for group, kind in zip(grouped, kinds, strict=True):
                if kind is GroupKind.DUBLEE:
                    problems.append(
                        f"{format_cards(group)}: a dublee completes a declaration only with "
                        f"{DECLARE_DUBLEES} dublees"
                    )
            if ungrouped:
                problems.append(
                    f"ungrouped cards: {format_cards(sorted(ungrouped))}; every card must be in a group"
                )
            if pures < DECLARE_PURE_21:
                have = "no pure sequence" if pures == 0 else f"only {_plural(pures, 'pure sequence')}"
                problems.append(
                    f"{have} (tunnelas count); a declaration needs three, or three tunnelas, "
                    f"eight dublees or eight jokers in one group"
                )
            valid = not problems
    else:
        if pures == 0:
            score = total
        elif sequences < 2:
            score = total - pure_points
        else:
            score = total - group_points
        if ungrouped:
            problems.append(
                f"ungrouped cards: {format_cards(sorted(ungrouped))}; every card must be in a group"
            )
        if pures == 0:
            problems.append("no pure sequence")
        elif sequences < 2:
            problems.append("only one sequence; a declaration needs two")
        valid = not problems
    if valid:
        return Evaluation(valid=True, score=0, reason="")
    return Evaluation(valid=False, score=min(score, variant.full_count), reason="; ".join(problems))
