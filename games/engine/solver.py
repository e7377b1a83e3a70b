"""The exact solver (R-SHOW-5): the arrangement of a hand with the lowest losing score.

CONTRACT (implemented by the engine work; other modules code against these names):

    solve(variant, jokers, hand) -> Solution
        Solution(score: int, can_declare: bool, groups: tuple[tuple[Card, ...], ...])
        score:       the lowest losing score of any arrangement (R-SHOW-2 / R-21-4), capped
        can_declare: some arrangement is a valid declaration (R-DECL-2 / R-21-3)
        groups:      an arrangement achieving ``score`` (a valid declaration when
                     can_declare); cards of hand not in any group are left out, and
                     ``evaluate(variant, jokers, hand, groups).score == score``.

How it works (and why it is exact)
----------------------------------
Every arrangement's losing score is one of three formulas (``T`` is the points of the hand):
``T`` (no pure sequence), ``T - pure points`` (pure sequences only are excluded) and
``T - grouped points`` (every valid group is excluded, once the hand has its pure sequence and
second sequence, or three pure sequences on 21 cards). The lowest score is the lowest of:

* ``T``;
* ``T - best(pure)``: pure sequences and tunnelas never mix suits, so the most points they
  can cover is found suit by suit (:func:`_suit_pure`);
* ``T - best(all)`` with the sequence conditions met, found by a memoised search
  (:class:`_Search`) over the cards in rank-major order, bounded: only an arrangement that
  beats the other two formulas (and the cap) can matter, so a branch that cannot is left as
  soon as that shows. The lowest card left is either
  deadwood, or in a set of its rank, or the lowest natural card of a sequence of its suit, or
  a tunnela; a joker-type card that is lowest may instead be turned into a stand-in joker.
  Stand-ins are counted, not named (any joker can stand in for any card).

What keeps the search small on hands of many jokers and duplicates, whose low scores leave the
bound little to prune:

* Stand-ins decided early. A joker-type card that no pure sequence or tunnela of the hand can
  hold stands in from the start, and so do the printed jokers (unless three stay a tunnela);
  only the others are decided when the search reaches them, and a meld may borrow a stand-in
  only against those. Once the pure sequences needed are made every joker-type card left
  stands in (kept as itself it could only keep a sequence pure), so branches meet again.
* A branch ends as soon as its cards cannot make the pure sequences still needed (counted
  suit by suit) or its borrowed stand-ins cannot be paid.
* The 21-card declaration search runs after the deadwood search, on the same states: a state
  with deadwood (or at least some) cannot declare, and is not searched again.

Why short melds are enough: a sequence of 6 or more cards splits into two valid sequences of
3 to 5 (never fewer sequences, never less purity), except a 6-card pure sequence whose half
would be exactly the 21-card marriage run (R-MELD-8), which is searched as it is. A set with
a single natural card and two jokers does no better than a sequence of that card and the
same jokers. Jokers left over go into a group of their own (three or more) or into a group
that can take them; on 13 cards that is always possible once the hand holds two sequences.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from games.engine.cards import PRINTED_JOKER, Card, Jokers, check_copies, points
from games.engine.melds import (
    DECLARE_DUBLEES,
    DECLARE_JOKER_GROUP,
    DECLARE_PURE_21,
    DECLARE_TUNNELAS,
    LOSE_TWO_DUBLEES,
    LOSE_TWO_JOKER_GROUP,
    LOSE_TWO_SCORE,
    MAX_SEQUENCE,
)
from games.engine.variants import Variant

INF = 1 << 30
PJ_INDEX = 52
"""Card index: rank-major ``(rank - 1) * 4 + suit`` for 0..51, and 52 for the printed joker."""

_DEAD, _CONVERT, _SET, _PURE, _IMPURE, _TUNNELA = range(6)


@dataclass(frozen=True, slots=True)
class Solution:
    """The lowest losing score of a hand, whether it can declare, and an arrangement achieving both."""

    score: int
    can_declare: bool
    groups: tuple[tuple[Card, ...], ...]


def _index(card: Card) -> int:
    return PJ_INDEX if card.rank == 0 else (card.rank - 1) * 4 + card.suit


def _card(index: int) -> Card:
    return PRINTED_JOKER if index == PJ_INDEX else Card(index // 4 + 1, index % 4)


def _indices(delta: int) -> list[int]:
    """The card indices of a packed count vector, one entry per copy."""
    out: list[int] = []
    index = 0
    while delta:
        count = delta & 3
        out.extend([index] * count)
        delta >>= 2
        index += 1
    return out


_CARDS = tuple(_card(index) for index in range(53))


def _reach(index: int) -> int:
    """The packed-count mask of the cards a meld starting at card ``index`` can hold: every
    copy of its rank, and its suit five ranks up (an Ace also down from the King)."""
    if index == PJ_INDEX:
        return 3 << (2 * index)
    rank0, suit = index >> 2, index & 3
    mask = sum(3 << (2 * (rank0 * 4 + other)) for other in range(4))
    ranks = list(range(rank0 + 1, min(rank0 + 6, 13)))
    if rank0 == 0:
        ranks += [12, 11, 10, 9, 8]
    return mask | sum(3 << (2 * (rank * 4 + suit)) for rank in ranks)


_REACH = tuple(_reach(index) for index in range(53))


@dataclass(slots=True)
class _Tables:
    """Per-deal facts about each card index (cached: a deal has one set of jokers)."""

    points21: bool
    joker_type: list[bool]
    wild: list[bool]
    weight: list[int]
    marriage: int
    """The 21-card marriage run (lower, value and upper joker) as packed counts, or 0."""
    marriage_ranks: tuple[int, int, int, int]
    """Per suit: the marriage run as a rank bitmask (an Ace above the King is bit 14), or 0."""
    suit_weights: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=512)
def _tables(jokers: Jokers, points21: bool) -> _Tables:
    marriage = 0
    marriage_ranks = [0, 0, 0, 0]
    if points21 and jokers.value_joker and jokers.lower and jokers.upper:
        trio = (jokers.lower, jokers.value_joker, jokers.upper)
        for card in trio:
            marriage += 1 << (2 * _index(card))
        bits = {1 << card.rank for card in trio}
        if 1 << 1 in bits and 1 << 13 in bits:  # Q K A: the Ace sits above the King
            bits = {1 << 14 if bit == 1 << 1 else bit for bit in bits}
        marriage_ranks[jokers.value_joker.suit] = sum(bits)
    suit_weights = tuple(
        tuple([0] + [points(Card(rank, suit), jokers) for rank in range(1, 14)]) for suit in range(4)
    )
    return _Tables(
        points21=points21,
        joker_type=[jokers.is_joker(card) for card in _CARDS],
        wild=[jokers.is_wild(card) for card in _CARDS],
        weight=[points(card, jokers) for card in _CARDS],
        marriage=marriage,
        marriage_ranks=(marriage_ranks[0], marriage_ranks[1], marriage_ranks[2], marriage_ranks[3]),
        suit_weights=suit_weights,
    )


# --------------------------------------------------------------------------------------------
# Pure sequences suit by suit (the "only pure sequences are excluded" formula).


@lru_cache(maxsize=1 << 16)
def _suit_pure(counts: tuple[int, ...], weights: tuple[int, ...], marriage: int, points21: bool) -> int:
    """The most points pure sequences (and tunnelas) can cover in one suit.

    ``counts``/``weights`` are indexed by rank 1..13 (index 0 unused); ``marriage`` is a
    bitmask of ranks (bit 1 << rank, the Ace also as bit 1 << 14) forming the forbidden 21-card
    marriage run, or 0.
    """
    low = next((rank for rank in range(1, 14) if counts[rank]), 0)
    if not low:
        return 0
    best = 0
    for take, covered in _suit_pure_moves(counts, weights, marriage, points21, low):
        rest = list(counts)
        for rank, copies in take:
            rest[rank] -= copies
        best = max(best, covered + _suit_pure(tuple(rest), weights, marriage, points21))
    return best


def _suit_pure_moves(
    counts: tuple[int, ...], weights: tuple[int, ...], marriage: int, points21: bool, low: int
) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """Ways to use the lowest rank ``low`` of a suit: leave one copy, a tunnela, or a pure run."""
    moves: list[tuple[tuple[tuple[int, int], ...], int]] = [(((low, 1),), 0)]
    if points21 and counts[low] >= 3:
        moves.append((((low, 3),), 3 * weights[low]))
    longest = 6 if (points21 and marriage) else 5
    directions = [1] if low != 1 else [1, -1]
    for step in directions:
        ranks = [low]
        rank = low if step == 1 else 14
        while len(ranks) < longest:
            rank += step
            if rank < 2 or rank > 13 or not counts[rank]:
                break
            ranks.append(rank)
            if len(ranks) < 3:
                continue
            bits = [1 << (14 if (r == 1 and step == -1) else r) for r in ranks]
            if len(ranks) == 3 and sum(bits) == marriage:
                continue
            if len(ranks) == 6 and marriage not in (sum(bits[:3]), sum(bits[3:])):
                continue
            moves.append((tuple((r, 1) for r in ranks), sum(weights[r] for r in ranks)))
    return moves


def _suit_pure_plan(
    counts: tuple[int, ...], weights: tuple[int, ...], marriage: int, points21: bool
) -> list[list[int]]:
    """The groups (as lists of ranks) that achieve :func:`_suit_pure`."""
    plan: list[list[int]] = []
    while True:
        target = _suit_pure(counts, weights, marriage, points21)
        low = next((rank for rank in range(1, 14) if counts[rank]), 0)
        if not low or target == 0:
            return plan
        for take, covered in _suit_pure_moves(counts, weights, marriage, points21, low):
            rest = list(counts)
            for rank, copies in take:
                rest[rank] -= copies
            if covered + _suit_pure(tuple(rest), weights, marriage, points21) == target:
                if covered or len(take) > 1 or take[0][1] > 1:
                    plan.append([rank for rank, copies in take for _ in range(copies)])
                counts = tuple(rest)
                break


@lru_cache(maxsize=1 << 16)
def _suit_pure_count(counts: tuple[int, ...], marriage: int, points21: bool) -> int:
    """The most disjoint pure sequences (and tunnelas) one suit can make."""
    low = next((rank for rank in range(1, 14) if counts[rank]), 0)
    if not low:
        return 0
    zero = (0,) * 14
    best = 0
    for take, _ in _suit_pure_moves(counts, zero, marriage, points21, low):
        rest = list(counts)
        for rank, copies in take:
            rest[rank] -= copies
        gain = 0 if (len(take) == 1 and take[0][1] == 1) else 1
        best = max(best, gain + _suit_pure_count(tuple(rest), marriage, points21))
    return best


_SUIT_MASK = sum(3 << (8 * rank0) for rank0 in range(13))
"""The packed counts of suit 0's cards; shifted by ``2 * suit``, any suit's."""
_LOW_BITS = sum(1 << (2 * index) for index in range(53))
"""The low bit of every card index's packed count."""


@lru_cache(maxsize=1 << 16)
def _packed_pure_count(suit_counts: int, marriage: int, points21: bool) -> int:
    """:func:`_suit_pure_count` of one suit's packed counts (``(x >> 2 * suit) & _SUIT_MASK``)."""
    counts = (0, *((suit_counts >> (8 * rank0)) & 3 for rank0 in range(13)))
    return _suit_pure_count(counts, marriage, points21)


# --------------------------------------------------------------------------------------------
# The full search.


@dataclass(slots=True)
class _Meld:
    kind: int
    naturals: list[int]
    stand_ins: int


class _Search:
    """Memoised search over packed card counts (2 bits per card index, rank-major)."""

    def __init__(self, tables: _Tables, start: int, per_index: list[int]) -> None:
        self.points21 = tables.points21
        self.joker_type = tables.joker_type
        self.wild = tables.wild
        self.weight = tables.weight
        self.marriage = tables.marriage
        self.marriage_ranks = tables.marriage_ranks
        self.move_cache: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        self.start = start
        self.per_index = per_index
        self.origin = self.decl_origin = (start, 0, 0)
        """Where the search that found the best arrangement (declaration) began: see :meth:`fates`."""
        self.joker_mask = sum(3 << (2 * index) for index in range(53) if self.joker_type[index])
        self.lender_mask = self.joker_mask & ~(3 << (2 * PJ_INDEX))
        """The joker-type cards that may still turn into stand-ins when the search reaches them
        (printed jokers left in the search are a tunnela)."""
        self.wild_mask = sum(3 << (2 * index) for index in range(53) if self.wild[index])
        self.memo: dict[tuple[int, int, int, int, int], int] = {}
        self.pure_cache: dict[int, int] = {}
        self.choice: dict[tuple[int, int, int, int, int], tuple[int, int, int]] = {}
        self.decl_memo: dict[tuple[int, int, int, int, int], bool] = {}
        self.decl_choice: dict[tuple[int, int, int, int, int], tuple[int, int, int]] = {}

    # -- candidate melds for the lowest card ----------------------------------------------

    def moves(self, index: int, x: int) -> list[tuple[int, int, int]]:
        """(kind, packed cards taken, stand-ins used) for the lowest card ``index`` of ``x``."""
        # Only the cards the melds can reach matter: the other suits of this rank (sets) and
        # this suit's next five ranks (runs; for an Ace also its top ranks, Q K A).
        key = (index, x & _REACH[index])
        cached = self.move_cache.get(key)
        if cached is not None:
            return cached
        out = self._moves(index, x, index >> 2, index & 3)
        self.move_cache[key] = out
        return out

    def pure_possible(self, x: int) -> int:
        """The most disjoint pure sequences (tunnelas included) the cards of ``x`` can make."""
        found = self.pure_cache.get(x)
        if found is None:
            found = self.pure_cache[x] = self._pure_possible(x)
        return found

    def _pure_possible(self, x: int) -> int:
        points21 = self.points21
        marriage = self.marriage_ranks
        found = (
            _packed_pure_count(x & _SUIT_MASK, marriage[0], points21)
            + _packed_pure_count((x >> 2) & _SUIT_MASK, marriage[1], points21)
            + _packed_pure_count((x >> 4) & _SUIT_MASK, marriage[2], points21)
            + _packed_pure_count((x >> 6) & _SUIT_MASK, marriage[3], points21)
        )
        return found + 1 if points21 and x >> (2 * PJ_INDEX) >= 3 else found

    def short_of_pure(self, x: int, spare: int, pure: int) -> bool:
        """Whether the cards of ``x`` surely cannot make ``pure`` more pure sequences.

        With stand-ins borrowed (``spare`` below 0) that many of the joker-type cards left must
        stand in, and each joker-type card kept as itself adds at most one pure sequence.
        """
        found = self.pure_possible(x)
        if found >= pure and spare < 0:
            jokers = x & self.lender_mask
            found = min(found, self.pure_possible(x - jokers) + _card_count(jokers) + spare)
        return found < pure

    def settle(self, x: int) -> tuple[int, int, int]:
        """The cards of ``x`` without its joker-type cards, how many those are, and 1 if a wild
        card is among them.

        Once the pure sequences needed are made, a joker-type card does as well standing in as
        standing as itself (a sequence it would keep pure is as good impure, and it scores 0
        either way): every one left stands in at once, and the branches that kept different
        ones as themselves meet again.
        """
        jokers = x & self.joker_mask
        if not jokers:
            return x, 0, 0
        return x - jokers, _card_count(jokers), int(bool(jokers & self.wild_mask))

    def _count(self, x: int, index: int) -> int:
        return (x >> (2 * index)) & 3

    def _moves(self, index: int, x: int, rank0: int, suit: int) -> list[tuple[int, int, int]]:
        one = 1 << (2 * index)
        count = self._count(x, index)
        joker_type = self.joker_type[index]
        out: list[tuple[int, int, int]] = []
        if self.points21 and count >= 3:
            out.append((_TUNNELA, 3 * one, 0))
        if index == PJ_INDEX:
            return out  # printed jokers left in the search are a tunnela
        # Pure runs: upwards, and for an Ace also downwards from the top (Q K A).
        longest = 6 if self.marriage else 5
        ranks_up = list(range(rank0 + 1, 13))
        paths = [ranks_up] if rank0 else [ranks_up, [12, 11, 10, 9, 8]]
        for path in paths:
            run = [one]
            for rank in path:
                if len(run) == longest:
                    break
                other = rank * 4 + suit
                if not self._count(x, other):
                    break
                run.append(1 << (2 * other))
                if len(run) < 3:
                    continue
                taken = sum(run)
                if len(run) == 3 and taken == self.marriage:
                    continue
                if len(run) == 6 and self.marriage not in (sum(run[:3]), sum(run[3:])):
                    continue
                out.append((_PURE, taken, 0))
        if joker_type:
            out.append((_CONVERT, count * one, 0))  # every copy left at once, as with deadwood
            return out
        # Sets: other suits of this rank (lower suits of this rank are gone already).
        others = [
            1 << (2 * (rank0 * 4 + other))
            for other in range(suit + 1, 4)
            if self._count(x, rank0 * 4 + other) and not self.joker_type[rank0 * 4 + other]
        ]
        for a, first in enumerate(others):
            out.append((_SET, one + first, 1))
            for b in range(a + 1, len(others)):
                out.append((_SET, one + first + others[b], 0))
        if len(others) == 3:
            out.append((_SET, one + sum(others), 0))
        # Impure runs: this card is the lowest natural; naturals of the suit within 4 ranks.
        for path in paths:
            near = []
            for step, rank in enumerate(path[:4], start=1):
                other = rank * 4 + suit
                if self._count(x, other) and not self.joker_type[other]:
                    near.append((step, 1 << (2 * other)))
            for mask in range(1 << len(near)):
                if path is not ranks_up and mask == 0:
                    continue  # the Ace with two stand-ins was already offered going up
                taken = one
                top = 0
                size = 1
                for bit, (step, packed) in enumerate(near):
                    if mask >> bit & 1:
                        taken += packed
                        top = step
                        size += 1
                stand_ins = max(3, top + 1) - size
                if stand_ins >= 1:
                    out.append((_IMPURE, taken, stand_ins))
        # Deadwood: every copy left at once. Copies are alike, so the copies that go into
        # melds take their melds first, and the order (dead, then melded) is never searched.
        out.append((_DEAD, count * one, 0))
        return out

    # -- where the search starts -------------------------------------------------------------

    def fates(self) -> list[tuple[int, int, int]]:
        """Where the search starts: (cards, stand-ins, 1 if a wild card is among them).

        A joker-type card that no pure sequence or tunnela of the hand can hold stands in from
        the start, and so do the printed jokers, unless three of them (21 cards) stay a tunnela:
        the search then never borrows those. Only the jokers that might stand as themselves are
        decided when the search reaches them.
        """
        x, spare, wild_spare = self.start, 0, 0
        for index, count in enumerate(self.per_index[:PJ_INDEX]):
            if count and self.joker_type[index] and not self._may_stand_as_itself(index, count):
                x -= count << (2 * index)
                spare += count
                wild_spare |= self.wild[index]
        printed = self.per_index[PJ_INDEX]
        options = [(x - (printed << (2 * PJ_INDEX)), spare + printed, wild_spare)]
        if self.points21 and printed == 3:
            options.append((x, spare, wild_spare))
        return options

    def _may_stand_as_itself(self, index: int, count: int) -> bool:
        """Whether a tunnela or a three-card pure sequence of the hand can hold card ``index``."""
        if self.points21 and count == 3:
            return True
        rank, suit = index // 4 + 1, index % 4
        held = [0] + [self.per_index[(r - 1) * 4 + suit] for r in range(1, 14)] + [self.per_index[suit]]
        lows = range(max(1, rank - 2), min(rank, 12) + 1)
        if any(all(held[r] for r in range(low, low + 3)) for low in lows):
            return True
        return rank == 1 and bool(held[12] and held[13])  # Q K A

    def full(self, pure: int, seqs: int, limit: int) -> int:
        """Fewest deadwood points (see :meth:`deadwood`), below ``limit``, from every start."""
        best = limit
        for x, spare, wild_spare in self.fates():
            value = self.deadwood(x, spare, pure, seqs, wild_spare, best)
            if value < best:
                best = value
                self.origin = (x, spare, wild_spare)
                if not best:
                    break
        return best

    def declare(self) -> bool:
        """Whether some start declares with pure sequences (see :meth:`declares`)."""
        for x, spare, wild_spare in self.fates():
            if self.declares(x, spare, 0, 0, 0):
                self.decl_origin = (x, spare, wild_spare)
                return True
        return False

    # -- losing score: fewest deadwood points with the sequence conditions met --------------

    def deadwood(self, x: int, spare: int, pure: int, seqs: int, wild_spare: int, bound: int = INF) -> int:
        """Fewest deadwood points of ``x`` needing ``pure`` more pure and ``seqs`` more sequences.

        ``spare`` counts stand-in jokers in hand (negative: borrowed); ``wild_spare`` is 1 once a
        wild card has been turned into a stand-in (a group of them can be a sequence, R-MELD-6).

        Only answers below ``bound`` matter to the caller: a branch that cannot beat it is left
        as soon as that shows, and the answer is then some value at or above ``bound`` (kept as
        a lower bound, so a later call with a higher bound searches again). An answer below
        ``bound`` is exact.
        """
        if not x:
            if spare < 0:
                return INF
            if not pure and not seqs:
                return 0
            if not pure and seqs == 1 and spare >= 3 and wild_spare:
                return 0
            return INF
        key = (x, spare, pure, seqs, wild_spare)
        found = self.memo.get(key)
        if found is not None:
            if found >= 0:
                return found  # exact
            if -found >= bound:
                return -found  # at least this, and the caller needs less
        # Stand-ins may be borrowed (a meld takes a joker the search reaches later), up to the
        # joker-type cards left to pay for them.
        jokers = x & self.lender_mask
        left = spare + _card_count(jokers) if jokers else spare
        if found is None and (left < 0 or (pure and self.short_of_pure(x, spare, pure))):
            # Borrowed stand-ins that cannot be paid, or cards that cannot make the pure
            # sequences still needed: most branches of a hand with many jokers end here, long
            # before their last card.
            self.memo[key] = INF
            return INF
        index = ((x & -x).bit_length() - 1) >> 1
        best = bound
        choice = (0, 0, 0)
        copies = (x >> (2 * index)) & 3
        weight = self.weight[index] * copies
        seqs_after = seqs - 1 if seqs else 0
        moves = self.move_cache.get((index, x & _REACH[index])) or self.moves(index, x)
        for kind, taken, stand_ins in moves:
            if stand_ins > left:
                continue
            rest = x - taken
            if kind == _DEAD:
                if weight >= best:
                    continue
                value = weight + self.deadwood(rest, spare, pure, seqs, wild_spare, best - weight)
            elif kind == _CONVERT:
                value = self.deadwood(rest, spare + copies, pure, seqs, wild_spare | self.wild[index], best)
            elif kind == _IMPURE:
                value = self.deadwood(rest, spare - stand_ins, pure, seqs_after, wild_spare, best)
            elif kind == _SET:
                value = self.deadwood(rest, spare - stand_ins, pure, seqs, wild_spare, best)
            elif pure > 1:
                value = self.deadwood(rest, spare, pure - 1, seqs_after, wild_spare, best)
            elif pure:  # the last pure sequence needed: every joker-type card left stands in
                rest, more, wild = self.settle(rest)
                value = self.deadwood(rest, spare + more, 0, seqs_after, wild_spare | wild, best)
            else:
                value = self.deadwood(rest, spare, 0, seqs_after, wild_spare, best)
            if value < best:
                best = value
                choice = (kind, taken, stand_ins)
                if not best:
                    break
        if best < bound:
            self.memo[key] = best
            self.choice[key] = choice
            return best
        # Nothing below the bound: remember that much (negative marks a lower bound).
        self.memo[key] = -bound if bound < INF else INF
        return bound

    # -- 21-card declaration with pure sequences (R-21-3 a) -----------------------------------

    def declares(self, x: int, spare: int, runs: int, tunnelas: int, room: int) -> bool:
        """Whether ``x`` and ``spare`` stand-ins group completely with three pure sequences.

        ``runs``/``tunnelas`` count the pure sequences made so far (capped), ``room`` how many
        leftover jokers the groups made so far can still take (capped at 2).
        """
        if not x:
            if spare < 0 or runs + tunnelas < DECLARE_PURE_21:
                return False
            spare_run = runs >= 1 and runs + tunnelas > DECLARE_PURE_21
            return spare == 0 or spare >= 3 or room >= spare or spare_run
        key = (x, spare, runs, tunnelas, room)
        found = self.decl_memo.get(key)
        if found is not None:
            return found
        jokers = x & self.lender_mask
        left = spare + _card_count(jokers) if jokers else spare
        short = DECLARE_PURE_21 - runs - tunnelas
        # A declaration leaves no deadwood: where the deadwood search (run first, on the same
        # states) found some, or at least some, there is none to look for.
        need = max(short, 0)
        deadwood = self.memo.get((x, spare, need, 0, 0), 0) or self.memo.get((x, spare, need, 0, 1), 0)
        if deadwood or left < 0 or (short > 0 and self.short_of_pure(x, spare, short)):
            self.decl_memo[key] = False
            return False
        index = ((x & -x).bit_length() - 1) >> 1
        result = False
        choice = (0, 0, 0)
        for kind, taken, stand_ins in self.moves(index, x):
            if kind == _DEAD or stand_ins > left:
                continue
            rest = x - taken
            if kind == _CONVERT:
                ok = self.declares(rest, spare + _card_count(taken), runs, tunnelas, room)
            elif kind in (_PURE, _TUNNELA):
                more = 0
                if short == 1:  # the last pure sequence needed: every joker-type card left stands in
                    rest, more, _ = self.settle(rest)
                runs_now = min(runs + (kind == _PURE), 4)
                tunnelas_now = min(tunnelas + (kind == _TUNNELA), 4)
                ok = self.declares(rest, spare + more, runs_now, tunnelas_now, room)
            elif kind == _IMPURE:
                ok = self.declares(rest, spare - stand_ins, runs, tunnelas, 2)
            else:
                three = _card_count(taken) + stand_ins == 3
                ok = self.declares(rest, spare - stand_ins, runs, tunnelas, min(room + three, 2))
            if ok:
                result = True
                choice = (kind, taken, stand_ins)
                break
        self.decl_memo[key] = result
        self.decl_choice[key] = choice
        return result

    # -- following the choices back to melds ------------------------------------------------

    def path(
        self, pure: int, seqs: int, *, declare: bool = False
    ) -> tuple[list[_Meld], list[int], int, bool]:
        """Melds, stand-in cards and leftover stand-ins along the best choices from the start."""
        x, spare, wild_spare = self.decl_origin if declare else self.origin
        converted = _indices(self.start - x)
        runs = tunnelas = room = 0
        melds: list[_Meld] = []
        while x:
            index = ((x & -x).bit_length() - 1) >> 1
            if declare:
                kind, taken, stand_ins = self.decl_choice[(x, spare, runs, tunnelas, room)]
            else:
                kind, taken, stand_ins = self.choice[(x, spare, pure, seqs, wild_spare)]
            x -= taken
            if kind == _CONVERT:
                converted.extend(_indices(taken))
                spare += _card_count(taken)
                wild_spare |= self.wild[index]
                continue
            if kind != _DEAD:
                melds.append(_Meld(kind, _indices(taken), stand_ins))
            spare -= stand_ins
            if kind in (_PURE, _TUNNELA):
                if (runs + tunnelas + 1 == DECLARE_PURE_21) if declare else pure == 1:
                    settled, more, wild = self.settle(x)
                    converted.extend(_indices(x - settled))
                    x, spare, wild_spare = settled, spare + more, wild_spare | wild
                pure, seqs = max(pure - 1, 0), max(seqs - 1, 0)
                runs = min(runs + (kind == _PURE), 4)
                tunnelas = min(tunnelas + (kind == _TUNNELA), 4)
            elif kind == _IMPURE:
                seqs = max(seqs - 1, 0)
                room = 2
            elif kind == _SET and len(_indices(taken)) + stand_ins == 3:
                room = min(room + 1, 2)
        joker_sequence = bool(seqs) and not declare
        return melds, converted, spare, joker_sequence


def _card_count(packed: int) -> int:
    """How many cards a packed count vector holds (each 2-bit count is its low bit + 2 x its high bit)."""
    return (packed & _LOW_BITS).bit_count() + 2 * ((packed >> 1) & _LOW_BITS).bit_count()


# --------------------------------------------------------------------------------------------
# Putting it together.


def _stand_in_order(jokers: Jokers, indices: list[int]) -> list[Card]:
    """Stand-in jokers, printed jokers first so wild cards are kept for a group of jokers."""
    cards = [_card(index) for index in indices]
    return sorted(cards, key=lambda card: (jokers.is_wild(card), card))


def _build(melds: list[_Meld], stand_ins: list[Card]) -> tuple[list[tuple[int, list[Card]]], list[Card]]:
    """Melds as (kind, cards) with their stand-in jokers; returns also the jokers left over."""
    pool = list(stand_ins)
    built: list[tuple[int, list[Card]]] = []
    for meld in melds:
        cards = [_card(index) for index in meld.naturals]
        cards.extend(pool[: meld.stand_ins])
        del pool[: meld.stand_ins]
        built.append((meld.kind, cards))
    return built, pool


def clear_caches() -> None:
    """Forget the cached per-deal tables and per-suit results (benchmarks use it to time cold runs)."""
    _tables.cache_clear()
    _suit_pure.cache_clear()
    _suit_pure_count.cache_clear()
    _packed_pure_count.cache_clear()


def _same_groups(per_index: list[int], size: int) -> list[tuple[Card, ...]]:
    """Groups of ``size`` identical cards (tunnelas or dublees), as many as the hand holds."""
    return [(_CARDS[index],) * size for index, count in enumerate(per_index) for _ in range(count // size)]


def solve(variant: Variant, jokers: Jokers, hand: Iterable[Card], *, packs: int | None = None) -> Solution:
    """The lowest losing score of ``hand`` over every arrangement, and one arrangement achieving it.

    Exact (R-SHOW-5): see the module docstring. ``packs`` (default: the variant's) bounds how
    many copies of a card the hand may hold (a CardError otherwise).
    """
    cards = list(hand)
    check_copies(cards, variant.default_packs if packs is None else packs)
    points21 = variant.is_points21
    tables = _tables(jokers, points21)
    per_index = [0] * 53
    start = 0
    for card in cards:
        index = PJ_INDEX if card.rank == 0 else (card.rank - 1) * 4 + card.suit
        per_index[index] += 1
        start += 1 << (2 * index)
    weight = tables.weight
    joker_type = tables.joker_type
    total = sum(weight[index] * count for index, count in enumerate(per_index))
    joker_count = sum(count for index, count in enumerate(per_index) if joker_type[index])
    pairs = sum(count // 2 for count in per_index)

    # 21-card declarations that need no search (R-21-3 b, c, d).
    if points21:
        if sum(count // 3 for count in per_index) >= DECLARE_TUNNELAS:
            return Solution(0, True, tuple(_same_groups(per_index, 3)))
        if pairs >= DECLARE_DUBLEES:
            return Solution(0, True, tuple(_same_groups(per_index, 2)))
        if joker_count >= DECLARE_JOKER_GROUP:
            return Solution(0, True, (tuple(card for card in sorted(cards) if jokers.is_joker(card)),))

    # Only pure sequences excluded: suit by suit.
    suit_keys = [
        ((0, *per_index[suit:52:4]), tables.suit_weights[suit], tables.marriage_ranks[suit], points21)
        for suit in range(4)
    ]
    pure_best = sum(_suit_pure(*key) for key in suit_keys)
    pure_count = sum(_suit_pure_count(key[0], key[2], points21) for key in suit_keys)
    if points21 and per_index[PJ_INDEX] >= 3:
        pure_count += 1

    need_pure, need_seqs = (DECLARE_PURE_21, 0) if points21 else (1, 2)
    lose_two = points21 and (pairs >= LOSE_TWO_DUBLEES or joker_count >= LOSE_TWO_JOKER_GROUP)
    search = _Search(tables, start, per_index)
    full = INF
    if pure_count >= need_pure:
        # Only a full arrangement that beats the pure sequences' formula and the cap matters
        # (and, when the hand loses 2 anyway, only one scoring 0 or 1): the search leaves a
        # branch as soon as it cannot, and none at all means none here.
        limit = min(total - pure_best, variant.full_count) + 1
        if lose_two:
            limit = min(limit, LOSE_TWO_SCORE)
        full = search.full(need_pure, need_seqs, limit)
        if full >= limit:
            full = INF
    normal = min(total - pure_best, full)

    can_declare = full == 0 and (not points21 or search.declare())
    if can_declare:
        return Solution(0, True, tuple(_declaration(variant, jokers, search, need_pure, need_seqs)))

    score = normal
    if lose_two:
        score = min(score, LOSE_TWO_SCORE)
    score = min(score, variant.full_count)

    groups: list[tuple[Card, ...]] = []
    if score < normal and score == LOSE_TWO_SCORE:
        if pairs >= LOSE_TWO_DUBLEES:
            groups = _same_groups(per_index, 2)
        else:
            groups = [tuple(card for card in sorted(cards) if jokers.is_joker(card))]
    elif full == normal:
        groups = _full_arrangement(jokers, search, need_pure, need_seqs)
    elif pure_best:
        for suit, key in enumerate(suit_keys):
            for ranks in _suit_pure_plan(*key):
                groups.append(tuple(Card(rank, suit) for rank in ranks))
    return Solution(score, False, tuple(groups))


def _full_arrangement(jokers: Jokers, search: _Search, pure: int, seqs: int) -> list[tuple[Card, ...]]:
    """The groups of the best "every valid group excluded" arrangement (not a declaration)."""
    melds, converted, _, joker_sequence = search.path(pure, seqs)
    built, left = _build(melds, _stand_in_order(jokers, converted))
    if joker_sequence or len(left) >= 3:
        built.append((_SET, left))
    elif left:
        for kind, cards in built:
            if kind == _IMPURE and len(cards) + len(left) <= MAX_SEQUENCE:
                cards.extend(left)
                break
    return [tuple(cards) for _, cards in built if cards]


def _declaration(
    variant: Variant, jokers: Jokers, search: _Search, pure: int, seqs: int
) -> list[tuple[Card, ...]]:
    """A valid declaration (R-DECL-2 / R-21-3 a): the search's melds with every joker placed."""
    if variant.is_points21:
        melds, converted, _, _ = search.path(pure, seqs, declare=True)
    else:
        melds, converted, _, joker_sequence = search.path(pure, seqs)
        if joker_sequence:
            built, left = _build(melds, _stand_in_order(jokers, converted))
            built.append((_IMPURE, left))
            return [tuple(cards) for _, cards in built]
    built, left = _build(melds, _stand_in_order(jokers, converted))
    if not left:
        return [tuple(cards) for _, cards in built]
    if len(left) >= 3 and variant.is_points21:
        built.append((_SET, left))
        return [tuple(cards) for _, cards in built]
    # One or two (13-card: any number of) jokers go into a group that can take them.
    takers = [entry for entry in built if entry[0] == _IMPURE]
    pures = [entry for entry in built if entry[0] in (_PURE, _TUNNELA)]
    pure_runs = [entry for entry in built if entry[0] == _PURE]
    need = DECLARE_PURE_21 if variant.is_points21 else 1
    if not takers and pure_runs and len(pures) > need:
        takers = pure_runs[:1]
    if takers:
        takers[0][1].extend(left)
    else:
        sets = [entry for entry in built if entry[0] == _SET and len(entry[1]) == 3]
        for (_, cards), joker in zip(sets, left, strict=False):
            cards.append(joker)
    return [tuple(cards) for _, cards in built]
