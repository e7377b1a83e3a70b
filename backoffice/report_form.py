"""The one form of a staff report: columns, one query, and what is derived from its rows.

A report is declared (:class:`Declared`): its columns (labels and kinds: text, money in the
report's currency, or a count), one query from the period to the rows, a chart, breakdowns
and notes. Running it (:meth:`Declared.run`) gives a :class:`Report`: the totals row is the
money and count columns summed (and any total the query gives that is not a sum), a per-day
chart sums row columns per day, a breakdown groups the rows by one column. The page, the CSV
and the staff API read the same columns.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.utils import timezone
from django.utils.safestring import SafeString

from backoffice import charts
from backoffice.columns import MIXED, Column, totals, unit_of
from games.words import word
from wallet.models import Currency

#: One row of a report: column key -> value (a day, a name, an amount in hundredths, a count).
Row = dict[str, Any]


@dataclass(frozen=True)
class Period:
    """The range a report covers (both ends included, calendar days in ``TIME_ZONE``) and its currency."""

    start: date
    end: date
    currency: str

    @property
    def bounds(self) -> tuple[datetime, datetime]:
        """From the start of ``start`` to the start of the day after ``end``, as aware datetimes."""
        zone = timezone.get_current_timezone()
        low = datetime.combine(self.start, time.min, tzinfo=zone)
        high = datetime.combine(self.end + timedelta(days=1), time.min, tzinfo=zone)
        return low, high

    @property
    def days(self) -> list[date]:
        return [self.start + timedelta(days=n) for n in range((self.end - self.start).days + 1)]


def local_day(moment: datetime) -> date:
    return timezone.localdate(moment)


def day_names(labels: list[date]) -> list[str]:
    """A chart's days as its axis shows them ("07 Nov")."""
    return [d.strftime("%d %b") for d in labels]


@dataclass
class Found:
    """What a report's query found: its rows, any total that is not a sum of them, and what
    its chart or a breakdown needs from the same reading (``extra``)."""

    rows: list[Row]
    totals: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    status: str = ""


@dataclass(frozen=True)
class Breakdown:
    title: str
    columns: list[Column]
    rows: list[Row]


@dataclass(frozen=True)
class Line:
    """One series of a per-day chart: the sum of ``columns`` over the rows of each day, of the
    rows whose ``where`` columns hold the values given, times ``sign``."""

    name: str
    columns: tuple[str, ...]
    where: tuple[tuple[str, str], ...] = ()
    sign: int = 1

    def value(self, row: Row) -> int:
        if any(row.get(key) != value for key, value in self.where):
            return 0
        return self.sign * sum(int(row.get(c) or 0) for c in self.columns)


@dataclass(frozen=True)
class PerDay:
    """A chart of the rows per day: one bar (or point) per day of the period, a segment per
    :class:`Line`, or, with ``split``, one per value of that column (its words) summing ``value``."""

    title: str
    lines: tuple[Line, ...] = ()
    split: str = ""
    value: str = ""
    split_words: str = ""
    drawn: str = "bars"
    money: bool = True

    def draw(self, period: Period, found: Found) -> SafeString:
        labels = period.days
        series = []
        if self.split:
            per_day: dict[date, dict[str, int]] = defaultdict(lambda: defaultdict(int))
            for row in found.rows:
                per_day[row["day"]][row[self.split]] += row[self.value]
            for key in sorted({row[self.split] for row in found.rows}):
                name = (word(self.split_words, key) if self.split_words else key) if key else "(none)"
                series.append(charts.Series(name, [per_day[d][key] for d in labels]))
        else:
            for line in self.lines:
                sums: dict[date, int] = defaultdict(int)
                for row in found.rows:
                    sums[row["day"]] += line.value(row)
                series.append(charts.Series(line.name, [sums[d] for d in labels]))
        draw = charts.lines if self.drawn == "lines" else charts.bars
        if self.money:
            return draw(self.title, day_names(labels), series, money=period.currency)
        return draw(self.title, day_names(labels), series)


@dataclass(frozen=True)
class By:
    """A breakdown: the rows grouped by the column ``key``, the ``sums`` columns summed, and
    with ``count`` how many rows each group has. The groups are ``groups`` in that order
    (each shown, even empty), else every value found, sorted."""

    title: str
    key: Column
    sums: tuple[Column, ...]
    count: Column | None = None
    groups: tuple[str, ...] = ()

    def of(self, period: Period, found: Found) -> Breakdown:
        names = list(self.groups) or sorted({row[self.key.key] for row in found.rows})
        rows = []
        for name in names:
            mine = [row for row in found.rows if row[self.key.key] == name]
            row: Row = {self.key.key: str(name)}
            if self.count is not None:
                row[self.count.key] = len(mine)
            row.update({c.key: sum(r[c.key] for r in mine) for c in self.sums})
            rows.append(row)
        columns = [self.key, *([self.count] if self.count else []), *self.sums]
        return Breakdown(self.title, columns, rows)


@dataclass(frozen=True)
class Listing:
    """A breakdown of its own: its columns, and its rows read or computed from the period and
    what the query found (what waits now, the ledger's size)."""

    title: str
    columns: tuple[Column, ...]
    rows: Callable[[Period, Found], list[Row]]

    def of(self, period: Period, found: Found) -> Breakdown:
        return Breakdown(self.title, list(self.columns), self.rows(period, found))


#: A chart from the rows per day, or drawn from the period and what the query found.
Chart = PerDay | Callable[[Period, Found], SafeString]
Notes = Sequence[str] | Callable[[Period, Found], list[str]]


@dataclass
class Report:
    """A report run over a period: the main table (columns, rows, totals), breakdowns, chart, notes."""

    slug: str
    title: str
    start: date
    end: date
    currency: str
    columns: list[Column]
    rows: list[Row]
    chart: SafeString
    breakdowns: list[Breakdown] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    status: str = ""
    """Only the reconciliation: "ok" or "problems"."""
    mixed: bool = False
    """The rows carry their own currency (rupees and chips in one table)."""
    totals: dict[str, Any] = field(default_factory=dict)
    """The totals row: every column marked ``total`` summed over the rows, then these (a count
    that is not a sum, such as the players seen over the range)."""

    def __post_init__(self) -> None:
        self.totals = {**totals(self.columns, self.rows), **self.totals}

    @property
    def unit(self) -> str:
        """What its amounts are in: "paise", "hundredths of a chip", or both."""
        return unit_of(MIXED if self.mixed else self.currency)

    def to_json(self) -> dict[str, Any]:
        return {
            "report": self.slug,
            "title": self.title,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "currency": self.currency,
            "columns": [{"key": c.key, "label": c.label, "money": c.money} for c in self.columns],
            "rows": [_plain(row) for row in self.rows],
            "totals": _plain(self.totals),
            "breakdowns": [
                {"title": b.title, "rows": [_plain(row) for row in b.rows]} for b in self.breakdowns
            ],
            "notes": list(self.notes),
            "status": self.status,
        }


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value.isoformat() if isinstance(value, date) else value for key, value in row.items()}


@dataclass(frozen=True)
class Declared:
    """A report as declared: run it over a range and a currency for its :class:`Report`."""

    slug: str
    title: str
    columns: tuple[Column, ...]
    query: Callable[[Period], Found | list[Row]]
    """The one query: the period to the rows (and, in a :class:`Found`, any total not a sum)."""
    chart: Chart
    breakdowns: tuple[By | Listing, ...] = ()
    notes: Notes = ()
    menu: str = ""
    """Its name in the reports' list, when not its title."""
    mixed: bool = False
    """The rows carry their own currency (a ``currency`` column): the report is of both."""

    def run(self, start: date, end: date, currency: str = Currency.INR) -> Report:
        period = Period(start, end, currency)
        found = self.query(period)
        if not isinstance(found, Found):
            found = Found(found)
        chart = (
            self.chart.draw(period, found) if isinstance(self.chart, PerDay) else self.chart(period, found)
        )
        notes = self.notes(period, found) if callable(self.notes) else list(self.notes)
        return Report(
            slug=self.slug,
            title=self.title,
            start=start,
            end=end,
            currency=(currency or "all") if self.mixed else currency,
            mixed=self.mixed,
            columns=list(self.columns),
            rows=found.rows,
            chart=chart,
            breakdowns=[part.of(period, found) for part in self.breakdowns],
            notes=notes,
            status=found.status,
            totals=found.totals,
        )
