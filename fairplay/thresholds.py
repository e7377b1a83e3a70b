"""Every threshold of the detectors, in one place: the defaults here, any of them overridden by
the setting ``FAIRPLAY_THRESHOLDS`` (a dict of the same names), read when a scan runs.

A pair or a player is flagged only when all of a detector's conditions hold: enough
opportunities (no single deal convicts), a figure this many times its population baseline, and
a count so far above the expected one that luck is not a credible answer (``min_z``: standard
deviations above the expected count, or the Poisson tail for seating). docs/FAIRPLAY.md
("Detection") says why each number is what it is.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from django.conf import settings


@dataclass(frozen=True)
class Thresholds:
    # Co-seating: tables shared, against what random seating gives players of that volume.
    co_seating_min_tables: int = 8
    co_seating_min_ratio: float = 8.0
    co_seating_max_chance: float = 1e-7
    # Soft play: the player's turns with only the partner left in the deal; the figure is how
    # many times fewer of them the player played on than players usually do.
    soft_play_min_turns: int = 8
    soft_play_min_ratio: float = 3.0
    soft_play_max_chance: float = 1e-6
    # Chip dumping: points deals both were dealt into.
    chip_dump_min_deals: int = 20
    chip_dump_min_ratio: float = 1.5
    # Discard feeding: the partner's draws right after the player's discard.
    feed_min_chances: int = 12
    feed_min_ratio: float = 2.0
    # Wins against one opponent: finished deals both were dealt into.
    win_rate_min_deals: int = 30
    win_rate_min_ratio: float = 1.8
    # Every z-score test above (how many standard deviations above the expected count).
    min_z: float = 5.0
    # Bots: timed actions (a draw, a drop or a discard, from the moment the player could act).
    bot_min_actions: int = 20
    bot_max_cv: float = 0.15
    bot_fast_median_ms: int = 350
    bot_session_gap_minutes: int = 20
    bot_max_session_hours: float = 14.0
    # Identical timing across accounts: medians within this share of each other.
    pattern_median_spread: float = 0.1
    # A case keeps at most this many deal ids (the count is always the full one).
    evidence_deals: int = 200


def thresholds(**overrides: Any) -> Thresholds:
    """The defaults, the setting's overrides, then ``overrides``; a name that is not a threshold
    is refused (a typo in the setting must not silently keep the default)."""
    names = {f.name for f in fields(Thresholds)}
    chosen = {**getattr(settings, "FAIRPLAY_THRESHOLDS", {}), **overrides}
    unknown = sorted(set(chosen) - names)
    if unknown:
        raise ValueError(f"FAIRPLAY_THRESHOLDS: unknown threshold(s) {', '.join(unknown)}")
    return replace(Thresholds(), **chosen)
