"""The staff reports: each a function of a date range (and a currency) returning a :class:`Report`.

A report has one main table (``columns``, ``rows``, ``totals``: what the page shows first and
the CSV download holds), a few smaller ``breakdowns``, and a chart (inline SVG). They read the
ledger (built on :mod:`wallet.reports`, with the extra grouping the back office needs: by
template, by pool game, by day over a range) and the games tables; they never write.

Days are calendar days in ``settings.TIME_ZONE``; the range includes both ends. Money is
integer paise. A reversal counts on the day it was posted, against the variant and template
of the journal it reverses.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.safestring import SafeString

from accounts.models import User
from backoffice import charts
from games.models import Deal, Seat, Table, TableEvent
from games.words import word
from wallet import reports as wallet_reports
from wallet.models import (
    Account,
    AccountKind,
    Currency,
    Deposit,
    Entry,
    Journal,
    JournalKind,
    ReconcileRun,
    Transfer,
    Withdrawal,
)
from wallet.reconcile import reconcile, summary

MAX_DAYS = 366


#: One row of a report: column key -> value (a day, a name, an amount in paise).
Row = dict[str, Any]


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    money: bool = False
    total: bool = False
    """Summed into the totals row."""
    words: str = ""
    """A table of games.words (``"variant"``): the page shows its words for the code; the CSV
    keeps the code, which stays the same when the words change."""


@dataclass(frozen=True)
class Breakdown:
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]]


@dataclass
class Report:
    slug: str
    title: str
    start: date
    end: date
    currency: str
    columns: list[Column]
    rows: list[dict[str, Any]]
    chart: SafeString
    breakdowns: list[Breakdown] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    status: str = ""
    """Only the reconciliation: "ok" or "problems"."""
    totals: dict[str, Any] = field(default_factory=dict)
    """The totals row: every column marked ``total`` summed over the rows, then these (a count
    that is not a sum, such as the players seen over the range)."""

    def __post_init__(self) -> None:
        self.totals = {**_totals(self.columns, self.rows), **self.totals}

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


def _totals(columns: list[Column], rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {c.key: sum(int(row[c.key] or 0) for row in rows) for c in columns if c.total}


# --- days and tables ------------------------------------------------------------------------


def default_range(today: date | None = None) -> tuple[date, date]:
    """The last 30 days up to today (local)."""
    today = today or timezone.localdate()
    return today - timedelta(days=29), today


def quick_ranges(today: date | None = None) -> list[tuple[str, date, date]]:
    """The ranges staff ask for most, as (label, start, end): today, this week (Monday on),
    the last 7 days, this month and the last 30 days."""
    today = today or timezone.localdate()
    return [
        ("Today", today, today),
        ("This week", today - timedelta(days=today.weekday()), today),
        ("Last 7 days", today - timedelta(days=6), today),
        ("This month", today.replace(day=1), today),
        ("Last 30 days", *default_range(today)),
    ]


def bounds(start: date, end: date) -> tuple[datetime, datetime]:
    """The range as aware datetimes: from the start of ``start`` to the start of the day after ``end``."""
    zone = timezone.get_current_timezone()
    low = datetime.combine(start, time.min, tzinfo=zone)
    high = datetime.combine(end + timedelta(days=1), time.min, tzinfo=zone)
    return low, high


def days(start: date, end: date) -> list[date]:
    return [start + timedelta(days=n) for n in range((end - start).days + 1)]


def day_names(labels: list[date]) -> list[str]:
    """A chart's days as its axis shows them ("07 Nov")."""
    return [d.strftime("%d %b") for d in labels]


def local_day(moment: datetime) -> date:
    return timezone.localdate(moment)


def table_id_of(meta: dict[str, Any] | None) -> int | None:
    """The games table a journal belongs to, from its meta (``pool:table:<id>``, ``table:<id>``)."""
    if not meta:
        return None
    for key in ("pool", "table"):
        ref = str(meta.get(key) or "")
        if ref.startswith("pool:table:"):
            ref = ref[len("pool:") :]
        if ref.startswith("table:") and ref[len("table:") :].isdigit():
            return int(ref[len("table:") :])
    return None


def templates_of(table_ids: Iterable[int | None]) -> dict[int, tuple[str, str]]:
    """{table id: (template name, variant)} for the given tables, in one query."""
    ids = {tid for tid in table_ids if tid is not None}
    rows = Table.objects.filter(pk__in=ids).values_list("pk", "template__name", "template__variant")
    return {pk: (name, variant) for pk, name, variant in rows}


# --- rake -----------------------------------------------------------------------------------

RAKE_COLUMNS = [
    Column("day", "Day"),
    Column("variant", "Variant", words="variant"),
    Column("template", "Template"),
    Column("rake", "Rake", money=True, total=True),
]


def rake(start: date, end: date, currency: str = Currency.INR) -> Report:
    """Rake taken per day, variant and template: the net of every entry on the house accounts."""
    low, high = bounds(start, end)
    entries = list(
        Entry.objects.filter(
            account__kind=AccountKind.HOUSE,
            account__currency=currency,
            journal__created_at__gte=low,
            journal__created_at__lt=high,
        ).values_list("amount", "journal__created_at", "journal__meta", "journal__reverses__meta")
    )
    metas = [reversed_meta or meta or {} for _, _, meta, reversed_meta in entries]
    tables = templates_of(table_id_of(meta) for meta in metas)
    groups: dict[tuple[date, str, str], int] = defaultdict(int)
    for (amount, created_at, _, _), meta in zip(entries, metas, strict=True):
        template, variant = tables.get(table_id_of(meta) or -1, ("", ""))
        groups[(local_day(created_at), meta.get("variant") or variant or "", template)] += amount
    rows: list[Row] = [
        {"day": day, "variant": variant, "template": template, "rake": amount}
        for (day, variant, template), amount in sorted(groups.items())
    ]
    by_variant: dict[str, int] = defaultdict(int)
    by_template: dict[str, int] = defaultdict(int)
    by_day: dict[date, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        by_variant[row["variant"]] += row["rake"]
        by_template[row["template"]] += row["rake"]
        by_day[row["day"]][row["variant"]] += row["rake"]
    labels = days(start, end)
    chart = charts.bars(
        "Rake per day by variant",
        day_names(labels),
        [
            charts.Series(word("variant", v) if v else "(none)", [by_day[d][v] for d in labels])
            for v in sorted(by_variant)
        ],
        money=currency,
    )
    return Report(
        slug="rake",
        title="Rake by day, variant and template",
        start=start,
        end=end,
        currency=currency,
        columns=RAKE_COLUMNS,
        rows=rows,
        chart=chart,
        breakdowns=[
            Breakdown(
                "By variant",
                [Column("variant", "Variant", words="variant"), Column("rake", "Rake", money=True)],
                [{"variant": k, "rake": v} for k, v in sorted(by_variant.items())],
            ),
            Breakdown(
                "By template",
                [Column("template", "Template"), Column("rake", "Rake", money=True)],
                [{"template": k, "rake": v} for k, v in sorted(by_template.items())],
            ),
        ],
        notes=["Pool games pay their rake once, at the payout; 21-card tables after every deal."],
    )


# --- prize pools ----------------------------------------------------------------------------

PAYOUT_COLUMNS = [
    Column("day", "Day"),
    Column("kind", "Paid as"),
    Column("pool", "Pool game"),
    Column("variant", "Variant", words="variant"),
    Column("template", "Template"),
    Column("players_paid", "Players paid", total=True),
    Column("prize_pool", "Prize pool", money=True, total=True),
    Column("paid", "Paid to players", money=True, total=True),
    Column("rake", "Rake", money=True, total=True),
    Column("reversed", "Reversed"),
]


def payouts(start: date, end: date, currency: str = Currency.INR) -> Report:
    """Every pool game paid out in the range: to a winner or split, the pool, the rake."""
    low, high = bounds(start, end)
    legs = Transfer.objects.filter(
        currency=currency,
        journal__kind__in=[JournalKind.PRIZE, JournalKind.SPLIT],
        journal__created_at__gte=low,
        journal__created_at__lt=high,
    ).values_list(
        "journal_id",
        "journal__kind",
        "journal__created_at",
        "journal__meta",
        "credit__kind",
        "amount",
        "journal__reversed_by__id",
    )
    games: dict[int, dict[str, Any]] = {}
    for journal_id, kind, created_at, meta, credit_kind, amount, reversal in legs:
        game = games.setdefault(
            journal_id,
            {
                "day": local_day(created_at),
                "kind": kind,
                "pool": (meta or {}).get("pool", ""),
                "meta": meta or {},
                "players_paid": 0,
                "prize_pool": 0,
                "paid": 0,
                "rake": 0,
                "reversed": "yes" if reversal else "no",
            },
        )
        game["prize_pool"] += amount
        if credit_kind == AccountKind.USER:
            game["paid"] += amount
            game["players_paid"] += 1
        elif credit_kind == AccountKind.HOUSE:
            game["rake"] += amount
    tables = templates_of(table_id_of(g["meta"]) for g in games.values())
    rows: list[Row] = []
    for _, game in sorted(games.items(), key=lambda item: (item[1]["day"], item[0])):
        meta = game.pop("meta")
        template, variant = tables.get(table_id_of(meta) or -1, ("", ""))
        rows.append({**game, "variant": meta.get("variant") or variant, "template": template})
    rows = [{c.key: row[c.key] for c in PAYOUT_COLUMNS} for row in rows]
    by_kind = {
        kind: {
            "kind": str(kind),
            "games": sum(1 for r in rows if r["kind"] == kind),
            "paid": sum(r["paid"] for r in rows if r["kind"] == kind),
            "rake": sum(r["rake"] for r in rows if r["kind"] == kind),
        }
        for kind in (JournalKind.PRIZE, JournalKind.SPLIT)
    }
    labels = days(start, end)
    chart = charts.bars(
        "Prize pools paid per day",
        day_names(labels),
        [
            charts.Series(
                "to winners",
                [sum(r["paid"] for r in rows if r["day"] == d and r["kind"] == "prize") for d in labels],
            ),
            charts.Series(
                "splits",
                [sum(r["paid"] for r in rows if r["day"] == d and r["kind"] == "split") for d in labels],
            ),
            charts.Series("rake", [sum(r["rake"] for r in rows if r["day"] == d) for d in labels]),
        ],
        money=currency,
    )
    totals = {"games": len(rows)}
    return Report(
        slug="payouts",
        title="Prize pools paid and split",
        start=start,
        end=end,
        currency=currency,
        columns=PAYOUT_COLUMNS,
        rows=rows,
        totals=totals,
        chart=chart,
        breakdowns=[
            Breakdown(
                "Winner or split",
                [
                    Column("kind", "Paid as"),
                    Column("games", "Games"),
                    Column("paid", "Paid", money=True),
                    Column("rake", "Rake", money=True),
                ],
                list(by_kind.values()),
            )
        ],
        notes=[
            "A reversed payout still shows here on the day it was paid; its reversal is a journal of its own."
        ],
    )


# --- deposits and withdrawals ---------------------------------------------------------------

CASH_KINDS = {
    "deposits": JournalKind.DEPOSIT,
    "withdrawals_requested": JournalKind.WITHDRAWAL_HOLD,
    "withdrawals_paid": JournalKind.WITHDRAWAL_PAID,
    "withdrawals_rejected": JournalKind.WITHDRAWAL_RELEASED,
    "chips_topups": JournalKind.CHIPS_TOPUP,
}
CASH_COLUMNS = [
    Column("day", "Day"),
    Column("deposits_count", "Deposits", total=True),
    Column("deposits", "Deposited", money=True, total=True),
    Column("withdrawals_requested", "Withdrawals requested", money=True, total=True),
    Column("withdrawals_paid_count", "Withdrawals paid", total=True),
    Column("withdrawals_paid", "Paid out", money=True, total=True),
    Column("withdrawals_rejected", "Rejected (back to wallets)", money=True, total=True),
    Column("chips_topups", "Chips top-ups", money=True, total=True),
    Column("net_in", "Net cash in", money=True, total=True),
]


def cashflow(start: date, end: date, currency: str = Currency.INR) -> Report:
    """Money in and out per day: confirmed deposits, withdrawals requested, paid and rejected."""
    low, high = bounds(start, end)
    sums = (
        Transfer.objects.filter(
            currency=currency,
            journal__kind__in=list(CASH_KINDS.values()),
            journal__created_at__gte=low,
            journal__created_at__lt=high,
        )
        .values_list("journal__created_at", "journal__kind", "amount")
        .order_by("journal__created_at")
    )
    per_day: dict[date, dict[str, int]] = {d: defaultdict(int) for d in days(start, end)}
    names: dict[str, str] = {str(kind): name for name, kind in CASH_KINDS.items()}
    for created_at, kind, amount in sums:
        sums_of_day = per_day[local_day(created_at)]
        sums_of_day[names[kind]] += amount
        sums_of_day[f"{names[kind]}_count"] += 1
    rows: list[Row] = []
    for day, values in per_day.items():
        if not values:
            continue
        row: Row = {"day": day, **{c.key: values.get(c.key, 0) for c in CASH_COLUMNS[1:-1]}}
        row["net_in"] = row["deposits"] - row["withdrawals_paid"]
        rows.append(row)
    pending_deposits = Deposit.objects.filter(status=Deposit.Status.PENDING, currency=currency).aggregate(
        n=Count("id"), total=Sum("amount")
    )
    waiting = Withdrawal.objects.filter(status=Withdrawal.Status.REQUESTED, currency=currency).aggregate(
        n=Count("id"), total=Sum("amount")
    )
    labels = days(start, end)
    by_day: dict[date, Row] = {row["day"]: row for row in rows}
    chart = charts.bars(
        "Deposits in and withdrawals paid out per day",
        day_names(labels),
        [
            charts.Series("deposited", [by_day.get(d, {}).get("deposits", 0) for d in labels]),
            charts.Series("paid out", [-by_day.get(d, {}).get("withdrawals_paid", 0) for d in labels]),
        ],
        money=currency,
    )
    return Report(
        slug="cashflow",
        title="Deposits and withdrawals",
        start=start,
        end=end,
        currency=currency,
        columns=CASH_COLUMNS,
        rows=rows,
        chart=chart,
        breakdowns=[
            Breakdown(
                "Waiting now",
                [Column("what", "What"), Column("count", "How many"), Column("amount", "Amount", money=True)],
                [
                    {
                        "what": "deposits pending at the provider",
                        "count": pending_deposits["n"],
                        "amount": pending_deposits["total"] or 0,
                    },
                    {
                        "what": "withdrawals waiting for approval",
                        "count": waiting["n"],
                        "amount": waiting["total"] or 0,
                    },
                ],
            )
        ],
        notes=["Amounts are ledger postings on the day they were posted; a failed deposit posts nothing."],
    )


# --- money held in play ---------------------------------------------------------------------

HELD_COLUMNS = [
    Column("kind", "Held in"),
    Column("ref", "Account"),
    Column("template", "Template"),
    Column("owner", "Player"),
    Column("balance", "Held", money=True, total=True),
]


def held(start: date, end: date, currency: str = Currency.INR) -> Report:
    """Money in open pools and on 21-card seats now, account by account; the chart shows the
    total held at the end of each day of the range."""
    lines = wallet_reports.held_in_play(Currency(currency))
    seat_ids = [int(line.ref.split(":")[1]) for line in lines if line.kind == AccountKind.SEAT]
    seat_tables = dict(Seat.objects.filter(pk__in=seat_ids).values_list("pk", "table_id"))
    table_of = {
        line.ref: (
            seat_tables.get(int(line.ref.split(":")[1]))
            if line.kind == AccountKind.SEAT
            else table_id_of({"pool": line.ref})
        )
        for line in lines
    }
    tables = templates_of(table_of.values())
    owners = dict(User.objects.filter(pk__in={line.owner_id for line in lines}).values_list("pk", "username"))
    rows: list[Row] = [
        {
            "kind": line.kind,
            "ref": line.ref,
            "template": tables.get(table_of[line.ref] or -1, ("", ""))[0],
            "owner": owners.get(line.owner_id, "") if line.owner_id else "",
            "balance": line.balance,
        }
        for line in lines
    ]
    low, high = bounds(start, end)
    in_play = Q(account__kind__in=[AccountKind.POOL, AccountKind.SEAT], account__currency=currency)
    opening = {
        kind: total or 0
        for kind, total in Entry.objects.filter(in_play, journal__created_at__lt=low)
        .values_list("account__kind")
        .annotate(total=Sum("amount"))
        .values_list("account__kind", "total")
    }
    moves: dict[tuple[date, str], int] = defaultdict(int)
    for created_at, kind, amount in Entry.objects.filter(
        in_play, journal__created_at__gte=low, journal__created_at__lt=high
    ).values_list("journal__created_at", "account__kind", "amount"):
        moves[(local_day(created_at), kind)] += amount
    labels = days(start, end)
    series = []
    for kind, name in ((AccountKind.POOL, "pools"), (AccountKind.SEAT, "seats")):
        running = opening.get(kind, 0)
        values = []
        for day in labels:
            running += moves.get((day, kind), 0)
            values.append(running)
        series.append(charts.Series(name, values))
    chart = charts.lines("Money held at the end of each day", day_names(labels), series, money=currency)
    return Report(
        slug="held",
        title="Money held in open pools and seats",
        start=start,
        end=end,
        currency=currency,
        columns=HELD_COLUMNS,
        rows=rows,
        chart=chart,
        breakdowns=[
            Breakdown(
                "By kind, now",
                [
                    Column("kind", "Held in"),
                    Column("accounts", "Accounts"),
                    Column("balance", "Held", money=True),
                ],
                [
                    {
                        "kind": str(kind),
                        "accounts": sum(1 for r in rows if r["kind"] == kind),
                        "balance": sum(r["balance"] for r in rows if r["kind"] == kind),
                    }
                    for kind in (AccountKind.POOL, AccountKind.SEAT)
                ],
            ),
            Breakdown(
                "Held at the end of each day",
                [
                    Column("day", "Day"),
                    Column("pools", "Pools", money=True),
                    Column("seats", "Seats", money=True),
                ],
                [
                    {"day": day, "pools": series[0].values[i], "seats": series[1].values[i]}
                    for i, day in enumerate(labels)
                ],
            ),
        ],
        notes=["The table lists the accounts holding money now; the range moves the chart only."],
    )


# --- activity -------------------------------------------------------------------------------

ACTIVITY_COLUMNS = [
    Column("day", "Day"),
    Column("tables_active", "Tables active"),
    Column("tables_opened", "Tables opened", total=True),
    Column("deals_started", "Deals started", total=True),
    Column("deals_finished", "Deals finished", total=True),
    Column("players", "Players"),
]


def activity(start: date, end: date, currency: str = Currency.INR) -> Report:
    """Tables and players per day: a table is active on a day it logged an event; its players
    that day are those whose seat was open then."""
    low, high = bounds(start, end)
    active: dict[date, set[int]] = defaultdict(set)
    for table_id, created_at in (
        TableEvent.objects.filter(
            created_at__gte=low, created_at__lt=high, table__template__currency=currency
        )
        .values_list("table_id", "created_at")
        .order_by()
    ):
        active[local_day(created_at)].add(table_id)
    all_tables = set().union(*active.values()) if active else set()
    seats = list(
        Seat.objects.filter(table_id__in=all_tables, joined_at__lt=high).values_list(
            "table_id", "user_id", "joined_at", "left_at"
        )
    )

    def count_by_day(moments: Iterable[datetime | None]) -> dict[date, int]:
        counted: dict[date, int] = defaultdict(int)
        for moment in moments:
            if moment is not None:
                counted[local_day(moment)] += 1
        return counted

    opened = count_by_day(
        Table.objects.filter(
            created_at__gte=low, created_at__lt=high, template__currency=currency
        ).values_list("created_at", flat=True)
    )
    started = count_by_day(
        Deal.objects.filter(
            started_at__gte=low, started_at__lt=high, table__template__currency=currency
        ).values_list("started_at", flat=True)
    )
    finished = count_by_day(
        Deal.objects.filter(
            finished_at__gte=low, finished_at__lt=high, table__template__currency=currency
        ).values_list("finished_at", flat=True)
    )
    rows: list[Row] = []
    everyone: set[int] = set()
    labels = days(start, end)
    for day in labels:
        day_low, day_high = bounds(day, day)
        players = {
            user_id
            for table_id, user_id, joined_at, left_at in seats
            if table_id in active[day] and joined_at < day_high and (left_at is None or left_at >= day_low)
        }
        everyone |= players
        row = {
            "day": day,
            "tables_active": len(active[day]),
            "tables_opened": opened.get(day, 0),
            "deals_started": started.get(day, 0),
            "deals_finished": finished.get(day, 0),
            "players": len(players),
        }
        if any(row[c.key] for c in ACTIVITY_COLUMNS[1:]):
            rows.append(row)
    totals = {"tables_active": len(all_tables), "players": len(everyone)}
    by_day: dict[date, Row] = {row["day"]: row for row in rows}
    chart = charts.lines(
        "Active tables and players per day",
        day_names(labels),
        [
            charts.Series("tables", [by_day.get(d, {}).get("tables_active", 0) for d in labels]),
            charts.Series("players", [by_day.get(d, {}).get("players", 0) for d in labels]),
        ],
    )
    return Report(
        slug="activity",
        title="Active tables and players over time",
        start=start,
        end=end,
        currency=currency,
        columns=ACTIVITY_COLUMNS,
        rows=rows,
        totals=totals,
        chart=chart,
        notes=["Totals of tables active and players count each table or player once over the range."],
    )


# --- reconciliation -------------------------------------------------------------------------

RECONCILE_COLUMNS = [
    Column("currency", "Currency"),
    Column("kind", "Account kind"),
    Column("accounts", "Accounts", total=True),
    Column("balance", "Balance", money=True, total=True),
]


def reconciliation(start: date, end: date, currency: str = "") -> Report:
    """The auditor's verdict (``wallet.reconcile``) and the balances it sums, per kind of account;
    the chart shows the journals posted per day of the range."""
    problems = reconcile()
    rows: list[Row] = [
        {"currency": cur, "kind": kind, "accounts": n, "balance": total or 0}
        for cur, kind, n, total in Account.objects.values_list("currency", "kind")
        .annotate(n=Count("id"), total=Sum("balance"))
        .values_list("currency", "kind", "n", "total")
        .order_by("currency", "kind")
    ]
    low, high = bounds(start, end)
    posted: dict[date, int] = defaultdict(int)
    for created_at in Journal.objects.filter(created_at__gte=low, created_at__lt=high).values_list(
        "created_at", flat=True
    ):
        posted[local_day(created_at)] += 1
    labels = days(start, end)
    chart = charts.bars(
        "Journals posted per day",
        day_names(labels),
        [charts.Series("journals", [posted.get(d, 0) for d in labels])],
    )
    counts = summary()
    runs = list(ReconcileRun.objects.order_by("-at", "-id")[:10])
    return Report(
        slug="reconcile",
        title="Reconciliation",
        start=start,
        end=end,
        currency=currency or "all",
        columns=RECONCILE_COLUMNS,
        rows=rows,
        chart=chart,
        breakdowns=[
            Breakdown(
                "Differences found",
                [Column("problem", "Difference")],
                [{"problem": problem} for problem in problems],
            ),
            Breakdown(
                "Ledger size",
                [Column("what", "What"), Column("count", "How many")],
                [{"what": key, "count": value} for key, value in counts.items()],
            ),
            Breakdown(
                "Per currency (must be zero)",
                [Column("currency", "Currency"), Column("balance", "Sum of balances", money=True)],
                [
                    {"currency": cur, "balance": sum(r["balance"] for r in rows if r["currency"] == cur)}
                    for cur in sorted({r["currency"] for r in rows})
                ],
            ),
            Breakdown(
                "Last scheduled runs (hourly, and at start-up)",
                [
                    Column("at", "When"),
                    Column("trigger", "Run by"),
                    Column("verdict", "Verdict"),
                    Column("problems", "Differences"),
                    Column("figures", "Figures"),
                ],
                [
                    {
                        "at": timezone.localtime(run.at).strftime("%d %b %Y, %H:%M"),
                        "trigger": run.trigger,
                        "verdict": "ok" if run.ok else "problems",
                        "problems": len(run.problems),
                        "figures": ", ".join(f"{n} {name}" for name, n in run.figures.items()),
                    }
                    for run in runs
                ],
            ),
        ],
        notes=[
            (
                f"Last scheduled run: {timezone.localtime(runs[0].at):%d %b %Y, %H:%M}, "
                f"{'ok' if runs[0].ok else 'PROBLEMS'} ({len(runs[0].problems)} differences)."
                if runs
                else "No scheduled run yet: the verdict above is this page's own check."
            ),
            "Every balance is recomputed from the entries, versions must be contiguous, and each "
            "currency must sum to zero; the verdict covers the whole ledger, not only the range.",
        ],
        status="ok" if not problems else "problems",
    )


TAKINGS_COLUMNS = [
    Column("day", "Day"),
    Column("variant", "Variant", words="variant"),
    Column("template", "Template"),
    Column("entry_fees", "Entry fees", money=True, total=True),
    Column("rejoin_fees", "Rejoin fees", money=True, total=True),
    Column("prizes", "Prizes paid", money=True, total=True),
    Column("splits", "Splits paid", money=True, total=True),
    Column("rake", "Rake", money=True, total=True),
    Column("refunds", "Refunds", money=True, total=True),
    Column("settlements", "21-card settlements", money=True, total=True),
]


def takings(start: date, end: date, currency: str = Currency.INR) -> Report:
    """Per day, variant and template: entry and rejoin fees paid in, prizes and splits paid
    out, rake, refunds (cancelled and voided games) and 21-card settlements (paid to the
    winners' seats before rake). Corrections count against what they correct."""
    low, high = bounds(start, end)
    lines = wallet_reports.takings_lines(low, high, currency)
    tables = templates_of(table_id_of(line.meta) for line in lines)
    groups: dict[tuple[date, str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for line in lines:
        template, variant = tables.get(table_id_of(line.meta) or -1, ("", ""))
        group = groups[(local_day(line.at), line.meta.get("variant") or variant or "", template)]
        group[line.column] += line.amount
    keys = [c.key for c in TAKINGS_COLUMNS[3:]]
    rows: list[Row] = [
        {"day": day, "variant": variant, "template": template, **{k: sums.get(k, 0) for k in keys}}
        for (day, variant, template), sums in sorted(groups.items())
        if any(sums.values())
    ]

    def by(field_name: str) -> list[dict[str, Any]]:
        out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for row in rows:
            for k in keys:
                out[row[field_name]][k] += row[k]
        return [{field_name: name, **{k: out[name][k] for k in keys}} for name in sorted(out)]

    labels = days(start, end)
    per_day: dict[date, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        for k in ("entry_fees", "rake"):
            per_day[row["day"]][k] += row[k]
        per_day[row["day"]]["paid"] += row["prizes"] + row["splits"]
    chart = charts.bars(
        "Fees in, prizes paid and rake per day",
        day_names(labels),
        [
            charts.Series("entry fees", [per_day[d]["entry_fees"] for d in labels]),
            charts.Series("prizes and splits", [per_day[d]["paid"] for d in labels]),
            charts.Series("rake", [per_day[d]["rake"] for d in labels]),
        ],
        money=currency,
    )
    money_columns = list(TAKINGS_COLUMNS[3:])
    return Report(
        slug="takings",
        title="Takings: fees, payouts, rake, refunds and settlements",
        start=start,
        end=end,
        currency=currency,
        columns=TAKINGS_COLUMNS,
        rows=rows,
        chart=chart,
        breakdowns=[
            Breakdown(
                "By variant", [Column("variant", "Variant", words="variant"), *money_columns], by("variant")
            ),
            Breakdown("By template", [Column("template", "Template"), *money_columns], by("template")),
        ],
        notes=[
            "Fees are what players paid into pools; prizes and splits what the pools paid out "
            "after rake; refunds give fees back (a cancelled or voided game); 21-card settlements "
            "are what winners' seats received before rake. A correction counts against the day "
            "of the correction."
        ],
    )


REPORTS: dict[str, tuple[str, Callable[[date, date, str], Report]]] = {
    "takings": ("Takings: fees, payouts, rake, refunds and settlements", takings),
    "rake": ("Rake by day, variant and template", rake),
    "payouts": ("Prize pools paid and split", payouts),
    "cashflow": ("Deposits and withdrawals", cashflow),
    "held": ("Money held in open pools and seats", held),
    "activity": ("Active tables and players over time", activity),
    "reconcile": ("Reconciliation status", reconciliation),
}
