"""The detectors measured against planted cheats: a simulation with cheating pairs and bots
among honest players (``games.simulate`` with ``games.planted``), a scan of its log, and per
kind what was planted, what was found, and what was flagged that was not planted.

Run on an empty database (``manage.py fairplay_proof``): the scan reads every table's log in
the simulated window, so the tables of an earlier run would count too."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from fairplay.figures import Finding
from fairplay.scan import ScanReport, scan
from games.simulate import START_MS, Simulator, Summary

#: A planted kind and the case kind that should find it.
CASE_OF = {
    "soft_play": "soft_play",
    "chip_dump": "chip_dumping",
    "feed": "discard_feeding",
    "regular_bot": "bot_timing",
}


@dataclass
class Row:
    kind: str
    case_kind: str
    planted: int
    found: int
    flagged: int
    honest_flagged: int

    @property
    def precision(self) -> float | None:
        return self.found / self.flagged if self.flagged else None

    @property
    def recall(self) -> float | None:
        return self.found / self.planted if self.planted else None


@dataclass
class Proof:
    summary: Summary
    report: ScanReport
    rows: list[Row] = field(default_factory=list)
    honest: list[Finding] = field(default_factory=list)
    """Findings naming only honest players: the false positives that matter most."""

    def lines(self) -> list[str]:
        def share(value: float | None) -> str:
            return "-" if value is None else f"{value:.2f}"

        out = [
            "kind | case | planted | found | flagged, not planted (honest only) | precision | recall",
            *(
                f"{r.kind} | {r.case_kind} | {r.planted} | {r.found} | {r.flagged - r.found} "
                f"({r.honest_flagged}) | {share(r.precision)} | {share(r.recall)}"
                for r in self.rows
            ),
            f"findings naming only honest players: {len(self.honest)}",
        ]
        out.extend(f"  {f.kind} {f.subjects} score {f.score:.1f}" for f in self.honest)
        return out


def judge(summary: Summary, report: ScanReport) -> Proof:
    """Compare the scan's findings with what the simulation planted."""
    proof = Proof(summary, report)
    cheaters = {player for _, ids in summary.planted for player in ids}
    flagged: dict[str, set[tuple[int, ...]]] = {}
    for finding in report.findings:
        flagged.setdefault(finding.kind, set()).add(finding.subjects)
        if not set(finding.subjects) & cheaters:
            proof.honest.append(finding)
    pairs = {tuple(sorted(ids)) for kind, ids in summary.planted if kind != "regular_bot"}
    bots = {ids for kind, ids in summary.planted if kind == "regular_bot"}
    for kind, case_kind in (*CASE_OF.items(), ("any pair", "co_seating")):
        truth = (
            pairs if kind == "any pair" else {tuple(sorted(ids)) for k, ids in summary.planted if k == kind}
        )
        seen = flagged.get(case_kind, set())
        proof.rows.append(
            Row(
                kind,
                case_kind,
                len(truth),
                len(truth & seen),
                len(seen),
                len({s for s in seen if not set(s) & cheaters}),
            )
        )
    bot_groups = flagged.get("bot_pattern", set())
    proof.rows.append(
        Row(
            "regular_bot (as a group)",
            "bot_pattern",
            1 if len(bots) > 1 else 0,
            sum(1 for group in bot_groups if {(p,) for p in group} <= bots),
            len(bot_groups),
            len({g for g in bot_groups if not set(g) & cheaters}),
        )
    )
    return proof


def run(games: int, variant: str, seed: int, *, players: int, cheats: dict[str, int]) -> Proof:
    """Simulate with the planted cheats, scan the simulated window, and judge."""
    simulator = Simulator(seed, players=players, cheats=cheats)
    summary = simulator.run(games, (variant,) if variant != "all" else _all())
    since = datetime.fromtimestamp(START_MS / 1000, tz=UTC)
    until = datetime.fromtimestamp(simulator.clock / 1000, tz=UTC) + timedelta(seconds=1)
    return judge(summary, scan(since, until))


def _all() -> tuple[str, ...]:
    from games.simulate import VARIANTS

    return VARIANTS
