"""Benchmark of the exact solver: ``python -m games.engine.bench [--hands13 N] [--hands21 N]``.

Random hands from a fixed seed (``random.Random(2026)``): 13 cards from a 2-pack shoe and 21
cards from a 3-pack shoe, each with the next card as the cut. Prints hands per second and the
median and 99th-percentile time per hand. With ``--cold`` the solver's caches (per-deal joker
tables and per-suit results, which a game shares between hands and turns) are emptied before
every hand. This script is the one module of the engine that reads a clock; the engine itself
never imports it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from games.engine.cards import Card, Jokers, shoe
from games.engine.solver import clear_caches, solve
from games.engine.variants import POINTS21, POOL101, Variant

SEED = 2026


def deals(rng: random.Random, variant: Variant, count: int) -> list[tuple[list[Card], Jokers]]:
    """``count`` random (hand, jokers) pairs for ``variant``."""
    cards = list(shoe(variant.default_packs))
    out = []
    for _ in range(count):
        rng.shuffle(cards)
        hand = cards[: variant.hand_size]
        cut = cards[variant.hand_size]
        out.append((hand, Jokers.from_cut(cut, value_cards=variant.is_points21)))
    return out


def measure(
    variant: Variant, hands: Sequence[tuple[list[Card], Jokers]], *, cold: bool = False
) -> list[float]:
    """Seconds taken by :func:`solve` on each hand."""
    times = []
    for hand, jokers in hands:
        if cold:
            clear_caches()
        start = time.perf_counter()
        solve(variant, jokers, hand)
        times.append(time.perf_counter() - start)
    return times


def report(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{label}: {len(times)} hands, {len(times) / sum(times):,.0f} hands/s, "
        f"median {statistics.median(ordered) * 1e6:,.0f} us, p99 {p99 * 1e6:,.0f} us, "
        f"max {ordered[-1] * 1e6:,.0f} us"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Time the exact solver on random hands.")
    parser.add_argument("--hands13", type=int, default=3000, help="13-card hands (2-pack shoe)")
    parser.add_argument("--hands21", type=int, default=300, help="21-card hands (3-pack shoe)")
    parser.add_argument("--cold", action="store_true", help="empty the solver's caches before every hand")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    hands13 = deals(rng, POOL101, args.hands13)
    hands21 = deals(rng, POINTS21, args.hands21)
    label = " (cold)" if args.cold else ""
    if hands13:
        print(report(f"13 cards{label}", measure(POOL101, hands13, cold=args.cold)))
    if hands21:
        print(report(f"21 cards{label}", measure(POINTS21, hands21, cold=args.cold)))


if __name__ == "__main__":
    main()
