"""A detector's finding and the few plain statistics the detectors share."""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The longest key a case holds (``Case.key``).
KEY_LENGTH = 160


@dataclass
class Finding:
    """What a detector found about ``subjects`` (user ids): its score (the figure as times its
    baseline), the figures with their baselines and counts, and the finished deals it rests on."""

    kind: str
    subjects: tuple[int, ...]
    score: float
    figures: dict[str, Any]
    deals: list[tuple[int, int]] = field(default_factory=list)

    @property
    def key(self) -> str:
        """Stable for the kind and its players: a rerun updates the same case. A group too many
        to spell out in a case's key (160 characters) is named by a digest of its ids."""
        key = f"{self.kind}:{'-'.join(str(s) for s in self.subjects)}"
        if len(key) <= KEY_LENGTH:
            return key
        return f"{self.kind}:{hashlib.sha256(key.encode()).hexdigest()}"


def ratio(observed: float, expected: float) -> float:
    """``observed`` as times ``expected`` (infinite over a zero expectation with something seen)."""
    if expected <= 0:
        return math.inf if observed > 0 else 0.0
    return observed / expected


def z_above(observed: float, expected: float, variance: float) -> float:
    """How many standard deviations ``observed`` lies above ``expected``."""
    if variance <= 0:
        return math.inf if observed > expected else 0.0
    return (observed - expected) / math.sqrt(variance)


def bernoulli_z(successes: int, chances: Sequence[float]) -> tuple[float, float]:
    """The expected count of independent chances with these probabilities, and how many
    standard deviations ``successes`` lies above it."""
    expected = sum(chances)
    variance = sum(p * (1 - p) for p in chances)
    return expected, z_above(successes, expected, variance)


def at_most_chance(count: int, chances: Sequence[float]) -> float:
    """P(X <= count) for X the number of successes of independent chances with these
    probabilities (exact: the Poisson binomial distribution, built one chance at a time)."""
    below = [1.0]  # below[j]: the probability of exactly j successes so far
    for p in chances:
        grown = [0.0] * (len(below) + 1)
        for j, q in enumerate(below):
            grown[j] += q * (1 - p)
            grown[j + 1] += q * p
        below = grown[: count + 2]
    return min(1.0, sum(below[: count + 1]))


def poisson_tail(observed: int, expected: float) -> float:
    """P(X >= observed) for X Poisson with mean ``expected``: how likely luck alone gives this many."""
    if observed <= 0:
        return 1.0
    if expected <= 0:
        return 0.0
    # 1 - P(X <= observed - 1), summed in log space so large counts neither overflow nor vanish.
    term = -expected
    below = math.exp(term)
    for k in range(1, observed):
        term += math.log(expected) - math.log(k)
        below += math.exp(term)
    return max(0.0, 1.0 - below)


def spread(values: Iterable[float]) -> tuple[float, float, float, float]:
    """Median, mean, coefficient of variation (standard deviation over mean), and its robust
    form: 1.4826 times the median absolute deviation, over the median (the same figure for
    normally spread data, but a few odd values, a pause to answer the door, barely move it)."""
    data = list(values)
    mean = statistics.fmean(data)
    median = statistics.median(data)
    cv = statistics.pstdev(data) / mean if mean > 0 else 0.0
    mad = statistics.median(abs(v - median) for v in data)
    robust = 1.4826 * mad / median if median > 0 else 0.0
    return median, mean, cv, robust


def rounded(value: float, places: int = 3) -> float | None:
    """A figure for the evidence (JSON has no infinity)."""
    return None if math.isinf(value) or math.isnan(value) else round(value, places)
