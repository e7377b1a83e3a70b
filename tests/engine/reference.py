"""A slow, exhaustive reference for the lowest losing score of a hand (test-only).

Written apart from ``games.engine.solver``: it shares nothing with it but ``classify``.

1. Every sub-multiset of the hand that could possibly be a group (its non-joker cards are all
   of one rank or all of one suit; anything else can never be a set, sequence, tunnela or
   dublee) is given to ``classify``; the valid ones are the candidate groups.
2. Every collection of disjoint candidate groups is searched: the lowest card left is either
   ungrouped or in some candidate group that fits in what is left. Collections are summed up
   per class (pure sequences, sequences, every card grouped) keeping, for each class, the
   most points covered by pure sequences and the most covered by all groups; memoised on the
   cards left. The rules then score each class.
3. Dublees, tunnelas and joker groups for R-21-3 b/c/d and the R-21-4 "loses 2" Decision are
   counted directly (pairs, triples and jokers in the hand).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from itertools import product

from games.engine.cards import Card, Jokers, points
from games.engine.melds import GroupKind, classify
from games.engine.variants import Variant

Class = tuple[int, int, bool]
"""(pure sequences, sequences, every card grouped so far), counts capped."""


def _sub_multisets(items: list[tuple[Card, int]]) -> list[tuple[Card, ...]]:
    out = []
    for choice in product(*(range(count + 1) for _, count in items)):
        out.append(tuple(card for (card, _), k in zip(items, choice, strict=True) for _ in range(k)))
    return out


def candidate_groups(
    variant: Variant, jokers: Jokers, hand: Iterable[Card]
) -> list[tuple[tuple[Card, ...], GroupKind]]:
    """Every valid group (by ``classify``) that fits in ``hand``, as sorted card tuples."""
    copies = Counter(hand)
    natural = [(card, count) for card, count in sorted(copies.items()) if not jokers.is_joker(card)]
    joker = [(card, count) for card, count in sorted(copies.items()) if jokers.is_joker(card)]
    families: set[tuple[Card, ...]] = {()}
    for suit in range(4):
        families.update(_sub_multisets([(c, n) for c, n in natural if c.suit == suit]))
    for rank in range(1, 14):
        families.update(_sub_multisets([(c, n) for c, n in natural if c.rank == rank]))
    joker_parts = _sub_multisets(joker)
    out = []
    seen = set()
    for part in families:
        for extra in joker_parts:
            group = tuple(sorted(part + extra))
            if len(group) < 2 or group in seen:
                continue
            seen.add(group)
            kind = classify(variant, jokers, group)
            if kind is not None:
                out.append((group, kind))
    return out


def reference_solve(variant: Variant, jokers: Jokers, hand: Iterable[Card]) -> tuple[int, bool]:
    """(lowest losing score, can declare) of ``hand``, exhaustively."""
    cards = sorted(hand)
    points21 = variant.is_points21
    copies = Counter(cards)
    joker_count = sum(1 for card in cards if jokers.is_joker(card))
    pairs = sum(count // 2 for count in copies.values())
    triples = sum(count // 3 for count in copies.values())
    if points21 and (triples >= 3 or pairs >= 8 or joker_count >= 8):
        return 0, True  # R-21-3 b, c, d: the rest need not be grouped
    # Jokers last: the search then places every natural card before any joker.
    order = sorted(set(cards), key=lambda card: (jokers.is_joker(card), card))
    position = {card: i for i, card in enumerate(order)}
    total = sum(points(card, jokers) for card in cards)
    pure_cap = 3 if points21 else 1
    seq_cap = 0 if points21 else 2

    # Multisets of cards are packed in an int, 4 bits per card of ``order``: a count (at most
    # 3) under a guard bit. ``left`` holds ``need`` when subtracting it clears no guard bit.
    def pack(group: Iterable[Card]) -> int:
        return sum(1 << (4 * position[card]) for card in group)

    guard = sum(8 << (4 * i) for i in range(len(order)))
    start = pack(cards)
    by_lowest: dict[int, list[tuple[int, bool, bool, int]]] = {}
    for group, kind in candidate_groups(variant, jokers, cards):
        if kind is GroupKind.DUBLEE:
            continue  # not a group for the losing count, nor for R-21-3 a
        lowest = min(position[card] for card in group)
        value = sum(points(card, jokers) for card in group)
        by_lowest.setdefault(lowest, []).append((pack(group), kind.is_pure, kind.is_sequence, value))

    @cache
    def search(left: int) -> dict[Class, tuple[int, int]]:
        if not left:
            return {(0, 0, True): (0, 0)}
        lowest = ((left & -left).bit_length() - 1) // 4
        result: dict[Class, tuple[int, int]] = {}

        def keep(cls: Class, covered_pure: int, covered_all: int) -> None:
            old = result.get(cls)
            if old is None:
                result[cls] = (covered_pure, covered_all)
            else:
                result[cls] = (max(old[0], covered_pure), max(old[1], covered_all))

        # The lowest card left ungrouped...
        for (p, s, _), (cp, ca) in search(left - (1 << (4 * lowest))).items():
            keep((p, s, False), cp, ca)
        # ... or in any candidate group that fits in what is left.
        for need, pure, sequence, value in by_lowest.get(lowest, []):
            if ((left | guard) - need) & guard != guard:
                continue
            for (p, s, complete), (cp, ca) in search(left - need).items():
                cls = (min(p + pure, pure_cap), min(s + sequence, seq_cap), complete)
                keep(cls, cp + (value if pure else 0), ca + value)
        return result

    classes = search(start)
    best = total
    can_declare = False
    for (p, s, complete), (cp, ca) in classes.items():
        if p == 0:
            score = total
        elif (points21 and p < 3) or (not points21 and s < 2):
            score = total - cp
        else:
            score = total - ca
            can_declare = can_declare or complete
        best = min(best, score)
    if points21 and (pairs >= 6 or joker_count >= 7):
        best = min(best, 2)  # R-21-4 Decision: six dublees, or seven jokers in one group
    if can_declare:
        return 0, True
    return min(best, variant.full_count), False
