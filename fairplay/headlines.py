"""A detector's finding in the words the risk desk reads: each figure beside its baseline, the
counts, and the rest of the detail (``fairplay.evidence`` documents the shape).

A detector keeps its figures as it computes them (``Finding.figures``, a flat mapping); this
module names, for each kind of finding, which of them are the figure and its baseline, so that
staff read "Discards taken from the partner: 31, where 4.2 is usual (7.4× usual)" rather than a
table of internal names. The raw figures stay in the case too, under ``detail``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairplay.figures import Finding

#: Per kind: (figure's name, value key, baseline key). A baseline key may name a key of the
#: figures' ``baseline`` mapping (``baseline.cv``).
HEADLINES: dict[str, list[tuple[str, str, str]]] = {
    "co_seating": [("tables_together", "tables_together", "expected_tables")],
    "soft_play": [("played_on_alone_with_partner", "played_on", "expected_to_play_on")],
    "chip_dumping": [("points_passed_per_deal", "net_points_per_deal", "baseline_points_per_deal")],
    "discard_feeding": [("discards_taken_from_partner", "taken_from_open_pile", "expected")],
    "win_rate": [("wins_against_opponent", "wins", "expected_wins")],
    "bot_timing": [
        ("move_time_spread", "cv", "baseline.cv"),
        ("median_move_ms", "median_ms", "baseline.median_ms"),
        ("longest_session_hours", "longest_session_hours", "baseline.longest_session_hours"),
    ],
}

#: Figures that name players: shown with the case's players, never as counts.
PLAYERS = {"player", "partner", "payer", "payee", "discarder", "taker", "winner", "against"}


def _lookup(figures: Mapping[str, Any], key: str) -> Any:
    found: Any = figures
    for part in key.split("."):
        if not isinstance(found, Mapping):
            return None
        found = found.get(part)
    return found


def desk_evidence(finding: Finding) -> dict[str, Any]:
    """The ``figures``, ``counts`` and ``detail`` of the case a finding files."""
    raw = finding.figures
    figures = []
    for name, value_key, baseline_key in HEADLINES.get(finding.kind, []):
        value, baseline = _lookup(raw, value_key), _lookup(raw, baseline_key)
        if isinstance(value, int | float) and isinstance(baseline, int | float):
            figures.append({"name": name, "value": value, "baseline": baseline})
    counts = {
        key: value
        for key, value in raw.items()
        if isinstance(value, int) and not isinstance(value, bool) and key not in PLAYERS
    }
    return {"figures": figures, "counts": counts, "detail": dict(raw)}
