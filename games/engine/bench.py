"""Benchmark of the exact solver: ``python -m games.engine.bench [--hands13 N] [--hands21 N]``.

Random hands from a fixed seed (``random.Random(2026)``): 13 cards from a 2-pack shoe and 21
cards from a 3-pack shoe, each with the next card as the cut. Prints hands per second and the
median and 99th-percentile time per hand. This script is the one module of the engine that
reads a clock; the engine itself never imports it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from games.engine.cards import Card, Jokers, shoe
from games.engine.solver import solve
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


def measure(variant: Variant, hands: Sequence[tuple[list[Card], Jokers]]) -> list[float]:
    """Seconds taken by :func:`solve` on each hand."""
    times = []
    for hand, jokers in hands:
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
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    hands13 = deals(rng, POOL101, args.hands13)
    hands21 = deals(rng, POINTS21, args.hands21)
    if hands13:
        print(report("13 cards", measure(POOL101, hands13)))
    if hands21:
        print(report("21 cards", measure(POINTS21, hands21)))


if __name__ == "__main__":
    main()
