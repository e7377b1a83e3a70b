"""The bot detectors: timing too regular or too fast for a person, sessions longer than a
person plays, and accounts whose timing is the same machine's.

A player's timed actions are their draws and drops, timed from the start of their turn, and
their discards, timed from their draw. People vary: a quick draw, a long think before a hard
discard. A script's delays vary far less (a low coefficient of variation) or are shorter than a
person's reading of the table. The coefficient is taken in its robust form (the median absolute
deviation over the median, scaled to match the plain one for normally spread times), so a
script's rare odd delay does not hide it."""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence

from fairplay.figures import Finding, ratio, rounded, spread
from fairplay.tablelog import TableLog
from fairplay.thresholds import Thresholds


def longest_session_hours(moments: Sequence[int], gap_minutes: int) -> float:
    """The longest run of actions with no pause longer than ``gap_minutes``, in hours."""
    if not moments:
        return 0.0
    ordered = sorted(moments)
    gap = gap_minutes * 60_000
    longest, start = 0, ordered[0]
    for before, after in itertools.pairwise(ordered):
        if after - before > gap:
            longest, start = max(longest, before - start), after
    longest = max(longest, ordered[-1] - start)
    return longest / 3_600_000


def bot_timing(log: TableLog, t: Thresholds) -> tuple[list[Finding], list[Finding]]:
    """The ``bot_timing`` findings (one per player) and the ``bot_pattern`` findings (one per group
    of accounts with the same regular timing)."""
    shapes = {
        player: spread(times) for player, times in log.response_ms.items() if len(times) >= t.bot_min_actions
    }
    if not shapes:
        return [], []
    sessions = {
        player: longest_session_hours(log.acted_at_ms[player], t.bot_session_gap_minutes) for player in shapes
    }
    usual_median = statistics.median(shape[0] for shape in shapes.values())
    usual_cv = statistics.median(shape[3] for shape in shapes.values())
    usual_session = statistics.median(sessions.values())
    baselines = {
        "median_ms": rounded(usual_median, 0),
        "cv": rounded(usual_cv),
        "longest_session_hours": rounded(usual_session, 2),
    }
    findings = []
    regular = []
    for player, (median, mean, cv, robust) in shapes.items():
        why = {}
        if robust <= t.bot_max_cv:
            why["too_regular"] = ratio(usual_cv, robust)
            regular.append((median, robust, player))
        if median <= t.bot_fast_median_ms:
            why["too_fast"] = ratio(usual_median, median)
        if sessions[player] >= t.bot_max_session_hours:
            why["session_too_long"] = ratio(sessions[player], usual_session)
        if not why:
            continue
        findings.append(
            Finding(
                "bot_timing",
                (player,),
                max(why.values()),
                {
                    "timed_actions": len(log.response_ms[player]),
                    "median_ms": rounded(median, 0),
                    "mean_ms": rounded(mean, 0),
                    "cv": rounded(robust),
                    "plain_cv": rounded(cv),
                    "longest_session_hours": rounded(sessions[player], 2),
                    "reasons": {name: rounded(times, 1) for name, times in why.items()},
                    "baseline": baselines,
                },
            )
        )
    return findings, _same_machine(sorted(regular), usual_cv, baselines, t)


def _same_machine(
    regular: list[tuple[float, float, int]],
    usual_cv: float,
    baselines: dict[str, float | None],
    t: Thresholds,
) -> list[Finding]:
    """Regular accounts (sorted by median) whose medians lie within the spread of each other."""
    groups: list[list[tuple[float, float, int]]] = []
    for row in regular:
        if groups and row[0] <= groups[-1][0][0] * (1 + t.pattern_median_spread):
            groups[-1].append(row)
        else:
            groups.append([row])
    findings = []
    for group in groups:
        if len(group) < 2:
            continue
        worst_cv = max(cv for _, cv, _ in group)
        findings.append(
            Finding(
                "bot_pattern",
                tuple(sorted(player for _, _, player in group)),
                ratio(usual_cv, worst_cv),
                {
                    "accounts": len(group),
                    "median_ms": {str(p): rounded(m, 0) for m, _, p in group},
                    "cv": {str(p): rounded(cv) for _, cv, p in group},
                    "baseline": baselines,
                },
            )
        )
    return findings
