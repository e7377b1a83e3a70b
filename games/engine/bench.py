"""Benchmark of the exact solver: ``python -m games.engine.bench [--hands13 N] [--hands21 N]``.

Random hands from a fixed seed (``random.Random(2026)``): 13 cards from a 2-pack shoe and 21
cards from a 3-pack shoe, each with the next card as the cut. Prints hands per second and the
median, 99th-percentile and worst time per hand. Each hand is timed ``--repeat`` times and its
fastest kept: the solver's own cost, not a pause of a shared machine. With ``--cold`` the
solver's caches (per-deal joker tables and per-suit results, which a game shares between hands
and turns) are emptied before every hand.

``--search N`` then looks for the slowest hands: N hands of each size drawn to be hard (a few
suits, a short stretch of ranks, the printed jokers: many ways to group the same cards), the
slowest ``--keep`` of them timed again and reported apart. This script is the one module of
the engine that reads a clock; the engine itself never imports it.
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


def hard_deals(rng: random.Random, variant: Variant, count: int) -> list[tuple[list[Card], Jokers]]:
    """``count`` hands drawn to be slow to solve: most from one to three suits and a stretch of
    four to eight ranks (with the printed jokers), the rest at random; each with a random cut."""
    cards = list(shoe(variant.default_packs))
    size = variant.hand_size
    out = []
    for _ in range(count):
        suits = rng.sample(range(4), rng.randint(1, 3))
        low = rng.randint(1, 9)
        high = min(13, low + rng.randint(3, 7))
        near = [c for c in cards if c.rank == 0 or (c.suit in suits and low <= c.rank <= high)]
        hand = rng.sample(near, size) if len(near) >= size and rng.random() < 0.8 else rng.sample(cards, size)
        out.append((hand, Jokers.from_cut(rng.choice(cards), value_cards=variant.is_points21)))
    return out


def measure(
    variant: Variant, hands: Sequence[tuple[list[Card], Jokers]], *, cold: bool = False, repeat: int = 1
) -> list[float]:
    """Seconds taken by :func:`solve` on each hand: the fastest of ``repeat`` runs."""
    times = []
    for hand, jokers in hands:
        fastest = float("inf")
        for _ in range(repeat):
            if cold:
                clear_caches()
            start = time.perf_counter()
            solve(variant, jokers, hand)
            fastest = min(fastest, time.perf_counter() - start)
        times.append(fastest)
    return times


def slowest(
    variant: Variant, hands: Sequence[tuple[list[Card], Jokers]], keep: int, repeat: int
) -> list[float]:
    """The times of the ``keep`` slowest of ``hands``: all timed once, those timed again."""
    once = measure(variant, hands)
    ranked = sorted(range(len(hands)), key=lambda i: -once[i])[:keep]
    return measure(variant, [hands[i] for i in ranked], repeat=repeat)


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
    parser.add_argument("--repeat", type=int, default=3, help="times each hand; the fastest counts")
    parser.add_argument("--search", type=int, default=0, help="hard hands of each size to search")
    parser.add_argument("--keep", type=int, default=1000, help="the slowest searched hands reported")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    hands13 = deals(rng, POOL101, args.hands13)
    hands21 = deals(rng, POINTS21, args.hands21)
    label = " (cold)" if args.cold else ""
    if hands13:
        print(report(f"13 cards{label}", measure(POOL101, hands13, cold=args.cold, repeat=args.repeat)))
    if hands21:
        print(report(f"21 cards{label}", measure(POINTS21, hands21, cold=args.cold, repeat=args.repeat)))
    if args.search:
        for variant in (POOL101, POINTS21):
            hard = hard_deals(rng, variant, args.search)
            times = slowest(variant, hard, args.keep, args.repeat)
            print(report(f"{variant.hand_size} cards, the slowest of {args.search} searched", times))


if __name__ == "__main__":
    main()
