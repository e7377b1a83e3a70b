"""Pool rummy progression: elimination, drops remaining, rejoin and splits (R-POOL-1..8).

Pure functions on integers: scores are points, money is integer paise (R-MONEY-1). Also the
deal-show score (R-SHOW-3, R-21-6), which both 13-card pool and 21-card tables use.

Fee limits are table settings; the defaults are the rules' ₹2000 = 200000 paise:
rejoin needs an entry fee *below* it (R-POOL-4), a manual split an entry fee *at most* it
(R-POOL-6), an auto split an entry fee *above* it (R-POOL-7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.variants import Variant

FEE_LIMIT = 200_000
"""₹2000 in paise: the entry fee that separates rejoin/manual-split tables from auto-split ones."""
MIN_PLAYERS = 2
MAX_PLAYERS = 6


class PoolError(ValueError):
    """Input that no pool game can have: a non-pool variant, a negative fee, no players..."""


def _elimination(variant: Variant) -> int:
    if variant.elimination is None:
        raise PoolError(f"{variant.name} is not a pool variant: it has no elimination score")
    return variant.elimination


def _check_amount(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PoolError(f"{name} must be an integer number of paise, not {value!r}")
    if value < 0:
        raise PoolError(f"{name} cannot be negative: {value}")


def _check_drops(drops_left: Sequence[int]) -> None:
    if not drops_left:
        raise PoolError("no players: drops_left is empty")
    for drops in drops_left:
        if isinstance(drops, bool) or not isinstance(drops, int) or drops < 0:
            raise PoolError(f"drops remaining must be whole numbers from 0 up, not {drops!r}")


def prize_pool(*, entry_fee: int, players: int, rejoins: int = 0) -> int:
    """The prize pool before rake: every entry fee and rejoin fee (R-POOL-1, R-POOL-4, R-MONEY-2).

    A pool game has 2 to 6 players, each paying the entry fee; each rejoin pays it again.
    """
    _check_amount("entry_fee", entry_fee)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PoolError(f"a pool game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if rejoins < 0:
        raise PoolError(f"rejoins cannot be negative: {rejoins}")
    return entry_fee * (players + rejoins)


def is_eliminated(variant: Variant, score: int) -> bool:
    """A player whose total has reached the elimination score is out (R-POOL-2)."""
    return score >= _elimination(variant)


def drops_remaining(variant: Variant, score: int) -> int:
    """How many more first drops keep the player in the game (R-POOL-5), never below 0.

    ``floor((elimination - 1 - score) / first_drop)``: 101 pool at 0 points has 5, at 80 has 1,
    at 81 has 0.
    """
    return max(0, (_elimination(variant) - 1 - score) // variant.first_drop)


@dataclass(frozen=True, slots=True)
class RejoinCheck:
    """Whether an eliminated player may rejoin (R-POOL-4), and at what score."""

    allowed: bool
    score: int | None
    """The score the player restarts at (highest remaining + 1) when allowed, else None."""
    reason: str
    """Empty when allowed; otherwise why not, in plain words."""


def rejoin_check(
    variant: Variant, *, entry_fee: int, rejoin_max_fee: int = FEE_LIMIT, scores_in_game: Sequence[int]
) -> RejoinCheck:
    """May an eliminated player rejoin now (R-POOL-4)?

    ``scores_in_game`` are the totals of the players at the table; those that reached the
    elimination score are left out, so passing every seat's total is fine. The rejoin needs
    ``entry_fee < rejoin_max_fee``, a game still running (two or more players not eliminated)
    and the highest remaining score at most the variant's rejoin limit. The rejoin time and
    the payment of the fee are the caller's business.
    """
    _check_amount("entry_fee", entry_fee)
    limit = variant.rejoin_limit
    elimination = _elimination(variant)
    if limit is None:
        raise PoolError(f"{variant.name} has no rejoin")
    remaining = [score for score in scores_in_game if score < elimination]
    if entry_fee >= rejoin_max_fee:
        return RejoinCheck(
            False, None, f"no rejoin on tables whose entry fee is {rejoin_max_fee} paise or more"
        )
    if len(remaining) < MIN_PLAYERS:
        return RejoinCheck(False, None, "the game has ended")
    highest = max(remaining)
    if highest > limit:
        return RejoinCheck(
            False, None, f"the highest score in the game is {highest}, above the rejoin limit of {limit}"
        )
    return RejoinCheck(True, highest + 1, "")


def manual_split_allowed(
    variant: Variant, *, entry_fee: int, started: int, drops_left: Sequence[int], fee_limit: int = FEE_LIMIT
) -> bool:
    """Is a manual split offered (R-POOL-6)? It then needs every remaining player to accept.

    Entry fee at most ``fee_limit``; fewer players remain than started; fewer than 4 (and at
    least 2) remain; highest and lowest drops remaining differ by at most 2.
    """
    _elimination(variant)
    _check_amount("entry_fee", entry_fee)
    _check_drops(drops_left)
    remaining = len(drops_left)
    return (
        entry_fee <= fee_limit
        and MIN_PLAYERS <= remaining < started
        and remaining < 4
        and max(drops_left) - min(drops_left) <= 2
    )


def auto_split_due(
    variant: Variant, *, entry_fee: int, started: int, drops_left: Sequence[int], fee_limit: int = FEE_LIMIT
) -> bool:
    """Does the game end in an automatic split now (R-POOL-7)? Checked after every deal.

    Entry fee above ``fee_limit`` and someone eliminated (fewer remain than started), then:
    4 remain: at least two have 0 drops left and the others 0 or 1; 3 remain: at least one
    has 0 and the others 0 or 1; 2 remain: both have 0 or 1. Never with 5 or more remaining.
    """
    _elimination(variant)
    _check_amount("entry_fee", entry_fee)
    _check_drops(drops_left)
    remaining = len(drops_left)
    if entry_fee <= fee_limit or not remaining < started:
        return False
    if any(drops > 1 for drops in drops_left):
        return False
    zeros = sum(1 for drops in drops_left if drops == 0)
    needed_zeros = {2: 0, 3: 1, 4: 2}.get(remaining)
    return needed_zeros is not None and zeros >= needed_zeros


def _share(amount: int, weights: Sequence[int]) -> list[int]:
    """``amount`` split in proportion to ``weights`` (floors), the remaining paise one each to
    the seats with a non-zero weight, first seats first. Sums exactly to ``amount``."""
    total = sum(weights)
    shares = [amount * weight // total for weight in weights]
    left = amount - sum(shares)
    for seat, weight in enumerate(weights):
        if left == 0:
            break
        if weight:
            shares[seat] += 1
            left -= 1
    return shares


def split_payouts(*, prize_pool: int, entry_fee: int, drops_left: Sequence[int]) -> tuple[int, ...]:
    """Each remaining player's share of a split pool, in paise, in seat order (R-POOL-8).

    ``prize_pool`` is the pool after rake. First each player gets
    ``(drops remaining - lowest drops remaining) * entry_fee``; the rest is shared equally, the
    remainder paise one each to the first seats. When every player has the same drops
    remaining this is simply an equal split. If the equalising payments alone exceed the pool,
    the pool is divided in proportion to them instead (the player(s) with the lowest drops get
    nothing) and the remainder paise go one each, in seat order, to the players with a share.
    The payouts always add up to ``prize_pool`` exactly.

    Example: pool 15000, entry 2500, drops 3/1/0 -> 7500 + 1667, 2500 + 1667, 1666.
    """
    _check_amount("prize_pool", prize_pool)
    _check_amount("entry_fee", entry_fee)
    _check_drops(drops_left)
    lowest = min(drops_left)
    equalising = [(drops - lowest) * entry_fee for drops in drops_left]
    if sum(equalising) > prize_pool:
        return tuple(_share(prize_pool, equalising))
    rest = _share(prize_pool - sum(equalising), [1] * len(drops_left))
    return tuple(first + second for first, second in zip(equalising, rest, strict=True))


def deal_show_score(variant: Variant, hand_score: int) -> int:
    """A deal-show loser's score (R-SHOW-3, R-21-6): a loser who had not had a first turn.

    Half the hand score rounded down, at least 2 and at most ``variant.deal_show_max`` (40 in
    101/201, 30 in 61, 60 in 21-card); a hand score below 2 stays as it is.
    """
    if hand_score < 0:
        raise ValueError(f"a hand score cannot be negative: {hand_score}")
    if hand_score < 2:
        return hand_score
    return min(max(hand_score // 2, 2), variant.deal_show_max)
