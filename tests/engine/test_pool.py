"""Pool progression, rejoin, splits and the deal-show score (R-POOL-1..8, R-SHOW-3, R-MONEY-1)."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.pool import (
    FEE_LIMIT,
    PoolError,
    RejoinCheck,
    auto_split_due,
    deal_show_score,
    drops_remaining,
    is_eliminated,
    manual_split_allowed,
    prize_pool,
    rejoin_check,
    split_payouts,
)
from games.engine.variants import POINTS21, POOL61, POOL101, POOL201, variant_named

SPLITS = Path(__file__).parent / "data" / "splits.jsonl"


def split_records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SPLITS.read_text().splitlines() if line.strip()]


# R-POOL-1


def test_prize_pool_is_every_entry_fee_and_rejoin_fee__R_POOL_1() -> None:
    assert prize_pool(entry_fee=2500, players=6) == 15000
    assert prize_pool(entry_fee=2500, players=2) == 5000
    assert prize_pool(entry_fee=2500, players=3, rejoins=2) == 12500  # R-POOL-4: a rejoin pays again


@pytest.mark.parametrize("players", [0, 1, 7])
def test_pool_game_has_two_to_six_players__R_POOL_1(players: int) -> None:
    with pytest.raises(PoolError, match="2 to 6 players"):
        prize_pool(entry_fee=2500, players=players)


# R-POOL-2, R-POOL-3


@pytest.mark.parametrize(
    ("variant", "last_safe"), [(POOL101, 100), (POOL201, 200), (POOL61, 60)], ids=lambda v: str(v)
)
def test_elimination_at_the_variant_score__R_POOL_2(variant: Any, last_safe: int) -> None:
    assert not is_eliminated(variant, last_safe)
    assert is_eliminated(variant, last_safe + 1)
    assert is_eliminated(variant, last_safe + 80)


def test_score_table_per_variant__R_POOL_3() -> None:
    table = {
        name: (v.elimination, v.first_drop, v.middle_drop, v.full_count, v.wrong_show, v.rejoin_limit)
        for name, v in (("101", POOL101), ("201", POOL201), ("61", POOL61))
    }
    assert table == {
        "101": (101, 20, 40, 80, 80, 79),
        "201": (201, 25, 50, 80, 80, 174),
        "61": (61, 15, 30, 60, 60, 44),
    }


def test_points21_is_not_a_pool_variant__R_POOL_2() -> None:
    with pytest.raises(PoolError, match="points21 is not a pool variant"):
        drops_remaining(POINTS21, 0)


# R-POOL-5


@pytest.mark.parametrize(
    ("variant", "score", "drops"),
    [
        (POOL101, 0, 5),
        (POOL101, 20, 4),
        (POOL101, 21, 3),
        (POOL101, 80, 1),
        (POOL101, 81, 0),
        (POOL101, 100, 0),
        (POOL101, 150, 0),
        (POOL201, 0, 8),
        (POOL201, 175, 1),
        (POOL201, 176, 0),
        (POOL61, 0, 4),
        (POOL61, 45, 1),
        (POOL61, 46, 0),
    ],
)
def test_drops_remaining__R_POOL_5(variant: Any, score: int, drops: int) -> None:
    assert drops_remaining(variant, score) == drops


@settings(deadline=None, max_examples=200)
@given(name=st.sampled_from(["pool101", "pool201", "pool61"]), score=st.integers(0, 300))
def test_taking_every_remaining_first_drop_keeps_the_player_in__R_POOL_5(name: str, score: int) -> None:
    variant = variant_named(name)
    drops = drops_remaining(variant, score)
    if not is_eliminated(variant, score):
        assert not is_eliminated(variant, score + drops * variant.first_drop)
        assert is_eliminated(variant, score + (drops + 1) * variant.first_drop)
    else:
        assert drops == 0


# R-POOL-4


def test_rejoin_at_highest_plus_one__R_POOL_4() -> None:
    check = rejoin_check(POOL101, entry_fee=2500, scores_in_game=[40, 71, 101])
    assert check == RejoinCheck(allowed=True, score=72, reason="")


@pytest.mark.parametrize(("variant", "limit"), [(POOL101, 79), (POOL201, 174), (POOL61, 44)])
def test_rejoin_limit_per_variant__R_POOL_4(variant: Any, limit: int) -> None:
    at_limit = rejoin_check(variant, entry_fee=2500, scores_in_game=[0, limit])
    assert (at_limit.allowed, at_limit.score) == (True, limit + 1)
    above = rejoin_check(variant, entry_fee=2500, scores_in_game=[0, limit + 1])
    assert (above.allowed, above.score) == (False, None)
    assert above.reason == f"the highest score in the game is {limit + 1}, above the rejoin limit of {limit}"


def test_no_rejoin_at_or_above_2000_rupees__R_POOL_4() -> None:
    assert rejoin_check(POOL101, entry_fee=FEE_LIMIT - 1, scores_in_game=[10, 20]).allowed
    refused = rejoin_check(POOL101, entry_fee=FEE_LIMIT, scores_in_game=[10, 20])
    assert not refused.allowed
    assert "entry fee" in refused.reason
    # a table may set its own limit
    assert rejoin_check(POOL101, entry_fee=FEE_LIMIT, rejoin_max_fee=500_000, scores_in_game=[10, 20]).allowed


def test_no_rejoin_once_the_game_has_ended__R_POOL_4() -> None:
    check = rejoin_check(POOL101, entry_fee=2500, scores_in_game=[30, 101, 120])
    assert check == RejoinCheck(allowed=False, score=None, reason="the game has ended")


# R-POOL-6


def test_manual_split_offered__R_POOL_6() -> None:
    assert manual_split_allowed(POOL101, entry_fee=2500, started=4, drops_left=[3, 1])
    assert manual_split_allowed(POOL101, entry_fee=FEE_LIMIT, started=3, drops_left=[0, 2])


@pytest.mark.parametrize(
    ("entry_fee", "started", "drops_left", "why"),
    [
        (FEE_LIMIT + 1, 4, [1, 1], "entry fee above Rs 2000"),
        (2500, 3, [1, 1, 1], "nobody has left"),
        (2500, 6, [1, 1, 1, 1], "four remain"),
        (2500, 4, [3, 0], "drops differ by 3"),
        (2500, 4, [5], "one player is a winner, not a split"),
    ],
)
def test_manual_split_not_offered__R_POOL_6(
    entry_fee: int, started: int, drops_left: list[int], why: str
) -> None:
    assert not manual_split_allowed(POOL101, entry_fee=entry_fee, started=started, drops_left=drops_left), why


# R-POOL-7


@pytest.mark.parametrize(
    ("drops_left", "due"),
    [
        ([0, 0, 1, 1], True),
        ([0, 0, 0, 0], True),
        ([0, 1, 1, 1], False),
        ([0, 0, 1, 2], False),
        ([0, 1, 1], True),
        ([1, 1, 1], False),
        ([0, 0, 2], False),
        ([1, 1], True),
        ([0, 1], True),
        ([2, 0], False),
        ([0, 0, 0, 0, 0], False),
    ],
)
def test_auto_split_conditions__R_POOL_7(drops_left: list[int], due: bool) -> None:
    assert auto_split_due(POOL101, entry_fee=FEE_LIMIT + 1, started=6, drops_left=drops_left) is due


def test_auto_split_needs_an_elimination_and_a_fee_above_2000__R_POOL_7() -> None:
    assert not auto_split_due(POOL201, entry_fee=500_000, started=2, drops_left=[0, 1])
    assert auto_split_due(POOL201, entry_fee=500_000, started=3, drops_left=[0, 1])
    assert not auto_split_due(POOL201, entry_fee=FEE_LIMIT, started=3, drops_left=[0, 1])


# R-POOL-8


def test_split_payout_rules_example__R_POOL_8() -> None:
    """Seed 003: pool Rs 150, entry Rs 25, drops 3/1/0 -> 75 + 16.67, 25 + 16.67, 16.66."""
    assert split_payouts(prize_pool=15000, entry_fee=2500, drops_left=[3, 1, 0]) == (9167, 4167, 1666)


def test_split_with_equal_drops_is_an_equal_share__R_POOL_8() -> None:
    assert split_payouts(prize_pool=10000, entry_fee=2500, drops_left=[2, 2, 2]) == (3334, 3333, 3333)
    assert split_payouts(prize_pool=10000, entry_fee=2500, drops_left=[0, 0]) == (5000, 5000)


def test_split_proportional_when_equalising_exceeds_pool__R_POOL_8() -> None:
    assert split_payouts(prize_pool=25000, entry_fee=10000, drops_left=[4, 2, 0]) == (16667, 8333, 0)
    assert split_payouts(prize_pool=7, entry_fee=10, drops_left=[0, 3, 3, 3]) == (0, 3, 2, 2)


@pytest.mark.parametrize("record", split_records(), ids=lambda r: r["name"])
def test_split_known_answers__R_POOL_5_R_POOL_6_R_POOL_7_R_POOL_8(record: dict[str, Any]) -> None:
    given_ = record["input"]
    expected = record["expected"]
    variant = variant_named(given_["variant"])
    drops = [drops_remaining(variant, score) for score in given_["scores"]]
    assert drops == expected["drops"]
    common = {"entry_fee": given_["entry_fee"], "started": given_["started"], "drops_left": drops}
    assert manual_split_allowed(variant, **common) is expected["manual_split"]
    assert auto_split_due(variant, **common) is expected["auto_split"]
    payouts = split_payouts(prize_pool=given_["prize_pool"], entry_fee=given_["entry_fee"], drops_left=drops)
    assert list(payouts) == expected["payouts"]
    assert sum(payouts) == given_["prize_pool"]


@settings(deadline=None, max_examples=300)
@given(
    prize_pool=st.integers(0, 10_000_000),
    entry_fee=st.integers(0, 1_000_000),
    drops_left=st.lists(st.integers(0, 8), min_size=1, max_size=6),
)
def test_split_is_exact_integer_paise__R_POOL_8_R_MONEY_1(
    prize_pool: int, entry_fee: int, drops_left: list[int]
) -> None:
    payouts = split_payouts(prize_pool=prize_pool, entry_fee=entry_fee, drops_left=drops_left)
    assert all(type(p) is int and p >= 0 for p in payouts)
    assert sum(payouts) == prize_pool
    assert len(payouts) == len(drops_left)
    # more drops remaining never earns less, and shares differ by at most the rounding paisa
    # beyond what the drops explain
    for a, b in pairwise(range(len(drops_left))):
        if drops_left[a] == drops_left[b]:
            assert abs(payouts[a] - payouts[b]) <= 1
    order = sorted(range(len(drops_left)), key=lambda seat: drops_left[seat])
    for low, high in pairwise(order):
        if drops_left[low] < drops_left[high]:
            assert payouts[high] >= payouts[low] - 1


def test_split_refuses_nonsense__R_POOL_8() -> None:
    with pytest.raises(PoolError, match="no players"):
        split_payouts(prize_pool=100, entry_fee=10, drops_left=[])
    with pytest.raises(PoolError, match="cannot be negative"):
        split_payouts(prize_pool=-1, entry_fee=10, drops_left=[1])
    with pytest.raises(PoolError, match="integer number of paise"):
        split_payouts(prize_pool=100.0, entry_fee=10, drops_left=[1])  # type: ignore[arg-type]
    with pytest.raises(PoolError, match="drops remaining"):
        split_payouts(prize_pool=100, entry_fee=10, drops_left=[-1, 2])


# R-SHOW-3 / R-21-6


@pytest.mark.parametrize(
    ("variant", "hand_score", "expected"),
    [
        (POOL101, 80, 40),
        (POOL101, 79, 39),
        (POOL101, 50, 25),
        (POOL101, 5, 2),
        (POOL101, 3, 2),
        (POOL101, 2, 2),
        (POOL101, 1, 1),
        (POOL101, 0, 0),
        (POOL201, 80, 40),
        (POOL61, 60, 30),
        (POOL61, 59, 29),
        (POINTS21, 120, 60),
        (POINTS21, 50, 25),
        (POINTS21, 4, 2),
    ],
)
def test_deal_show_score__R_SHOW_3_R_21_6(variant: Any, hand_score: int, expected: int) -> None:
    assert deal_show_score(variant, hand_score) == expected
