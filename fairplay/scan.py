"""The detection scan: read a window of the tables' log, run every detector, and open or update
a case for each finding (``open_case`` with the finding's stable key, so a rerun updates the
same case). Run by the schedule (``fairplay.tasks.scan``, or inside daphne in the embedded
mode) and on demand (``manage.py fairplay_scan``)."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from fairplay import pairs, tablelog, timing
from fairplay.cases import open_case
from fairplay.figures import Finding
from fairplay.headlines import desk_evidence
from fairplay.tablelog import TableLog
from fairplay.thresholds import Thresholds, thresholds
from games.models import Deal

PAIR_DETECTORS: tuple[Callable[[TableLog, Thresholds], list[Finding]], ...] = (
    pairs.co_seating,
    pairs.soft_play,
    pairs.chip_dumping,
    pairs.discard_feeding,
    pairs.win_rate,
)


@dataclass
class ScanReport:
    since: datetime
    until: datetime
    events: int = 0
    deals: int = 0
    players: int = 0
    findings: list[Finding] = field(default_factory=list)
    cases: list[int] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def seconds_per_10k_deals(self) -> float:
        return sum(self.seconds.values()) * 10_000 / max(self.deals, 1)

    def lines(self) -> list[str]:
        kinds = Counter(f.kind for f in self.findings)
        total = sum(self.seconds.values())
        return [
            f"fairplay scan: {self.since:%Y-%m-%d %H:%M} to {self.until:%Y-%m-%d %H:%M} UTC",
            f"read: {self.events} events, {self.deals} finished deals, {self.players} players",
            "findings: " + (", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())) or "none"),
            f"cases opened or updated: {len(self.cases)}",
            "time: "
            + ", ".join(f"{name} {s:.2f} s" for name, s in self.seconds.items())
            + f"; {total:.2f} s in all, {self.seconds_per_10k_deals:.2f} s per 10,000 deals",
        ]


def detect(log: TableLog, t: Thresholds) -> list[Finding]:
    """Every detector's findings over one read of the log."""
    findings = [finding for detector in PAIR_DETECTORS for finding in detector(log, t)]
    bots, patterns = timing.bot_timing(log, t)
    return [*findings, *bots, *patterns]


def scan(since: datetime, until: datetime, *, file_cases: bool = True, **overrides: float) -> ScanReport:
    """Scan the window ``[since, until)``; with ``file_cases``, open or update the cases."""
    t = thresholds(**overrides)
    report = ScanReport(since, until)
    started = time.perf_counter()
    log = tablelog.read(since, until)
    report.seconds["read"] = time.perf_counter() - started
    report.events, report.deals = log.events, len(log.deals)
    report.players = len({p for deal in log.deals for p in deal.players})
    started = time.perf_counter()
    report.findings = detect(log, t)
    report.seconds["detect"] = time.perf_counter() - started
    if file_cases:
        started = time.perf_counter()
        report.cases = file_findings(report.findings, since, until, t)
        report.seconds["cases"] = time.perf_counter() - started
    return report


def file_findings(findings: list[Finding], since: datetime, until: datetime, t: Thresholds) -> list[int]:
    """A case per finding, its evidence the figures and the ids of the finished deals it rests on."""
    wanted = {key for f in findings for key in f.deals[: t.evidence_deals]}
    ids: dict[tuple[int, int], int] = {}
    by_table: dict[int, set[int]] = defaultdict(set)
    for table, number in wanted:
        by_table[table].add(number)
    if by_table:
        rows = Deal.objects.filter(table_id__in=by_table, finished_at__isnull=False).values_list(
            "table_id", "number", "pk"
        )
        ids = {(table, number): pk for table, number, pk in rows if number in by_table[table]}
    cases = []
    for finding in findings:
        evidence = {
            "window": {"since": since.isoformat(), "until": until.isoformat()},
            **desk_evidence(finding),
            "deals": [ids[key] for key in finding.deals[: t.evidence_deals] if key in ids],
            "deals_count": len(finding.deals),
        }
        case = open_case(
            finding.kind, finding.subjects, evidence, score=round(min(finding.score, 1e6), 2), key=finding.key
        )
        cases.append(case.pk)
    return cases
