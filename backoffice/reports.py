"""The staff reports, each declared in one form (:mod:`backoffice.report_form`): its columns,
one query, its chart, breakdowns and notes. ``reports.rake(start, end, currency)`` runs one.

They read the ledger (built on :mod:`wallet.reports`, with the grouping the back office needs:
by template, by pool game, by day over a range) and the games tables; they never write. Days
are calendar days in ``settings.TIME_ZONE``; the range includes both ends. Money is integer
hundredths (paise, or hundredths of a chip). A reversal counts on the day it was posted,
against the variant and template of the journal it reverses.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import date, timedelta
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.safestring import SafeString

from accounts.models import User
from backoffice import charts
from backoffice.columns import COUNT, MONEY, Column
from backoffice.report_form import (
    By,
    Declared,
    Found,
    Line,
    Listing,
    PerDay,
    Period,
    Report,
    Row,
    day_names,
    local_day,
)
from games.models import Deal, Seat, Table, TableEvent
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


# --- ranges, tables -------------------------------------------------------------------------


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


def filed(metas: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(variant, template) of each journal meta: the variant it names, else its table's."""
    tables = templates_of(table_id_of(meta) for meta in metas)
    out = []
    for meta in metas:
        template, variant = tables.get(table_id_of(meta) or -1, ("", ""))
        out.append((meta.get("variant") or variant or "", template))
    return out


DAY = Column("day", "Day")
VARIANT = Column("variant", "Variant", words="variant")
TEMPLATE = Column("template", "Template")


# --- rake -----------------------------------------------------------------------------------


def rake_rows(period: Period) -> list[Row]:
    """The net of every entry on the house accounts, per day, variant and template."""
    low, high = period.bounds
    entries = list(
        Entry.objects.filter(
            account__kind=AccountKind.HOUSE,
            account__currency=period.currency,
            journal__created_at__gte=low,
            journal__created_at__lt=high,
        ).values_list("amount", "journal__created_at", "journal__meta", "journal__reverses__meta")
    )
    metas = [reversed_meta or meta or {} for _, _, meta, reversed_meta in entries]
    groups: dict[tuple[date, str, str], int] = defaultdict(int)
    for (amount, created_at, _, _), (variant, template) in zip(entries, filed(metas), strict=True):
        groups[(local_day(created_at), variant, template)] += amount
    return [
        {"day": day, "variant": variant, "template": template, "rake": amount}
        for (day, variant, template), amount in sorted(groups.items())
    ]


RAKE = Column("rake", "Rake", MONEY)
rake_report = Declared(
    slug="rake",
    title="Rake by day, variant and template",
    columns=(DAY, VARIANT, TEMPLATE, RAKE),
    query=rake_rows,
    chart=PerDay("Rake per day by variant", split="variant", value="rake", split_words="variant"),
    breakdowns=(By("By variant", VARIANT, (RAKE,)), By("By template", TEMPLATE, (RAKE,))),
    notes=("Pool games pay their rake once, at the payout; 21-card tables after every deal.",),
)


# --- prize pools ----------------------------------------------------------------------------


def payout_rows(period: Period) -> Found:
    """One row per pool game paid out (to a winner or split): the pool, what players got, the rake."""
    low, high = period.bounds
    legs = Transfer.objects.filter(
        currency=period.currency,
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
    games: dict[int, Row] = {}
    metas: dict[int, dict[str, Any]] = {}
    for journal_id, kind, created_at, meta, credit_kind, amount, reversal in legs:
        metas[journal_id] = meta or {}
        game = games.setdefault(
            journal_id,
            {
                "day": local_day(created_at),
                "kind": kind,
                "pool": (meta or {}).get("pool", ""),
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
    order = sorted(games, key=lambda pk: (games[pk]["day"], pk))
    rows = []
    for pk, (variant, template) in zip(order, filed([metas[pk] for pk in order]), strict=True):
        row = {**games[pk], "variant": variant, "template": template}
        rows.append({c.key: row[c.key] for c in payouts_report.columns})
    return Found(rows, totals={"games": len(rows)})


PAID_AS = Column("kind", "Paid as")
PAID = Column("paid", "Paid to players", MONEY)
payouts_report = Declared(
    slug="payouts",
    title="Prize pools paid and split",
    columns=(
        DAY,
        PAID_AS,
        Column("pool", "Pool game"),
        VARIANT,
        TEMPLATE,
        Column("players_paid", "Players paid", COUNT),
        Column("prize_pool", "Prize pool", MONEY),
        PAID,
        RAKE,
        Column("reversed", "Reversed"),
    ),
    query=payout_rows,
    chart=PerDay(
        "Prize pools paid per day",
        lines=(
            Line("to winners", ("paid",), where=(("kind", "prize"),)),
            Line("splits", ("paid",), where=(("kind", "split"),)),
            Line("rake", ("rake",)),
        ),
    ),
    breakdowns=(
        By(
            "Winner or split",
            PAID_AS,
            (Column("paid", "Paid", MONEY), RAKE),
            count=Column("games", "Games", COUNT),
            groups=(JournalKind.PRIZE, JournalKind.SPLIT),
        ),
    ),
    notes=(
        "A reversed payout still shows here on the day it was paid; its reversal is a journal of its own.",
    ),
)


# --- deposits and withdrawals ---------------------------------------------------------------

CASH_KINDS = {
    "deposits": JournalKind.DEPOSIT,
    "withdrawals_requested": JournalKind.WITHDRAWAL_HOLD,
    "withdrawals_paid": JournalKind.WITHDRAWAL_PAID,
    "withdrawals_rejected": JournalKind.WITHDRAWAL_RELEASED,
    "chips_topups": JournalKind.CHIPS_TOPUP,
}


def cash_rows(period: Period) -> list[Row]:
    """Per day: confirmed deposits, withdrawals requested, paid and rejected, chips top-ups."""
    low, high = period.bounds
    sums = (
        Transfer.objects.filter(
            currency=period.currency,
            journal__kind__in=list(CASH_KINDS.values()),
            journal__created_at__gte=low,
            journal__created_at__lt=high,
        )
        .values_list("journal__created_at", "journal__kind", "amount")
        .order_by("journal__created_at")
    )
    per_day: dict[date, dict[str, int]] = {d: defaultdict(int) for d in period.days}
    names = {str(kind): name for name, kind in CASH_KINDS.items()}
    for created_at, kind, amount in sums:
        sums_of_day = per_day[local_day(created_at)]
        sums_of_day[names[kind]] += amount
        sums_of_day[f"{names[kind]}_count"] += 1
    rows = []
    for day, values in per_day.items():
        if values:
            row: Row = {"day": day, **{c.key: values.get(c.key, 0) for c in cashflow_report.columns[1:-1]}}
            rows.append({**row, "net_in": row["deposits"] - row["withdrawals_paid"]})
    return rows


def waiting_now(period: Period, found: Found) -> list[Row]:
    """Deposits pending at the provider and withdrawals waiting for approval, now."""
    rows = []
    for what, waiting in (
        ("deposits pending at the provider", Deposit.objects.filter(status=Deposit.Status.PENDING)),
        ("withdrawals waiting for approval", Withdrawal.objects.filter(status=Withdrawal.Status.REQUESTED)),
    ):
        now = waiting.filter(currency=period.currency).aggregate(n=Count("id"), total=Sum("amount"))
        rows.append({"what": what, "count": now["n"], "amount": now["total"] or 0})
    return rows


cashflow_report = Declared(
    slug="cashflow",
    title="Deposits and withdrawals",
    columns=(
        DAY,
        Column("deposits_count", "Deposits", COUNT),
        Column("deposits", "Deposited", MONEY),
        Column("withdrawals_requested", "Withdrawals requested", MONEY),
        Column("withdrawals_paid_count", "Withdrawals paid", COUNT),
        Column("withdrawals_paid", "Paid out", MONEY),
        Column("withdrawals_rejected", "Rejected (back to wallets)", MONEY),
        Column("chips_topups", "Chips top-ups", MONEY),
        Column("net_in", "Net cash in", MONEY),
    ),
    query=cash_rows,
    chart=PerDay(
        "Deposits in and withdrawals paid out per day",
        lines=(Line("deposited", ("deposits",)), Line("paid out", ("withdrawals_paid",), sign=-1)),
    ),
    breakdowns=(
        Listing(
            "Waiting now",
            (Column("what", "What"), Column("count", "How many", COUNT), Column("amount", "Amount", MONEY)),
            waiting_now,
        ),
    ),
    notes=("Amounts are ledger postings on the day they were posted; a failed deposit posts nothing.",),
)


# --- money held in play ---------------------------------------------------------------------


def held_rows(period: Period) -> list[Row]:
    """Money in open pools and on 21-card seats now, account by account (a snapshot of now:
    what is at stake is the present)."""
    lines = wallet_reports.held_in_play(Currency(period.currency))
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
    return [
        {
            "kind": line.kind,
            "ref": line.ref,
            "template": tables.get(table_of[line.ref] or -1, ("", ""))[0],
            "owner": owners.get(line.owner_id, "") if line.owner_id else "",
            "balance": line.balance,
        }
        for line in lines
    ]


def held_by_day(period: Period) -> list[charts.Series]:
    """Pools' and seats' money at the end of each day: the opening balance and each day's movements."""
    low, high = period.bounds
    in_play = Q(account__kind__in=[AccountKind.POOL, AccountKind.SEAT], account__currency=period.currency)
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
    series = []
    for kind, name in ((AccountKind.POOL, "pools"), (AccountKind.SEAT, "seats")):
        running = opening.get(kind, 0)
        values = []
        for day in period.days:
            running += moves.get((day, kind), 0)
            values.append(running)
        series.append(charts.Series(name, values))
    return series


def held_chart(period: Period, found: Found) -> SafeString:
    series = held_by_day(period)
    return charts.lines(
        "Money held at the end of each day", day_names(period.days), series, money=period.currency
    )


def held_each_day(period: Period, found: Found) -> list[Row]:
    pools, seats = held_by_day(period)
    return [{"day": d, "pools": pools.values[i], "seats": seats.values[i]} for i, d in enumerate(period.days)]


HELD = Column("balance", "Held", MONEY)
HELD_IN = Column("kind", "Held in")
held_report = Declared(
    slug="held",
    title="Money held in open pools and seats",
    columns=(HELD_IN, Column("ref", "Account"), TEMPLATE, Column("owner", "Player"), HELD),
    query=held_rows,
    chart=held_chart,
    breakdowns=(
        By(
            "By kind, now",
            HELD_IN,
            (HELD,),
            count=Column("accounts", "Accounts", COUNT),
            groups=(AccountKind.POOL, AccountKind.SEAT),
        ),
        Listing(
            "Held at the end of each day",
            (DAY, Column("pools", "Pools", MONEY), Column("seats", "Seats", MONEY)),
            held_each_day,
        ),
    ),
    notes=("The table lists the accounts holding money now; the range moves the chart only.",),
)


# --- activity -------------------------------------------------------------------------------


def activity_rows(period: Period) -> Found:
    """Tables and players per day: a table is active on a day it logged an event; its players
    that day are those whose seat was open then. The totals of tables and players count each
    once over the range."""
    low, high = period.bounds
    currency = period.currency
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

    def per_day(moments: Iterable[Any]) -> dict[date, int]:
        counted: dict[date, int] = defaultdict(int)
        for moment in moments:
            if moment is not None:
                counted[local_day(moment)] += 1
        return counted

    in_range = {"template__currency": currency}
    opened = per_day(
        Table.objects.filter(created_at__gte=low, created_at__lt=high, **in_range).values_list(
            "created_at", flat=True
        )
    )
    deals = Deal.objects.filter(table__template__currency=currency)
    started = per_day(
        deals.filter(started_at__gte=low, started_at__lt=high).values_list("started_at", flat=True)
    )
    finished = per_day(
        deals.filter(finished_at__gte=low, finished_at__lt=high).values_list("finished_at", flat=True)
    )
    rows: list[Row] = []
    everyone: set[int] = set()
    for day in period.days:
        day_low, day_high = Period(day, day, currency).bounds
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
        if any(row[c.key] for c in activity_report.columns[1:]):
            rows.append(row)
    return Found(rows, totals={"tables_active": len(all_tables), "players": len(everyone)})


activity_report = Declared(
    slug="activity",
    title="Active tables and players over time",
    columns=(
        DAY,
        Column("tables_active", "Tables active", COUNT, summed=False),
        Column("tables_opened", "Tables opened", COUNT),
        Column("deals_started", "Deals started", COUNT),
        Column("deals_finished", "Deals finished", COUNT),
        Column("players", "Players", COUNT, summed=False),
    ),
    query=activity_rows,
    chart=PerDay(
        "Active tables and players per day",
        lines=(Line("tables", ("tables_active",)), Line("players", ("players",))),
        drawn="lines",
        money=False,
    ),
    notes=("Totals of tables active and players count each table or player once over the range.",),
)


# --- reconciliation -------------------------------------------------------------------------


def reconcile_rows(period: Period) -> Found:
    """The balances per currency and kind of account, and the auditor's verdict on the whole
    ledger (``wallet.reconcile``)."""
    problems = reconcile()
    rows: list[Row] = [
        {"currency": cur, "kind": kind, "accounts": n, "balance": total or 0}
        for cur, kind, n, total in Account.objects.values_list("currency", "kind")
        .annotate(n=Count("id"), total=Sum("balance"))
        .values_list("currency", "kind", "n", "total")
        .order_by("currency", "kind")
    ]
    runs = list(ReconcileRun.objects.order_by("-at", "-id")[:10])
    return Found(
        rows, extra={"problems": problems, "runs": runs}, status="ok" if not problems else "problems"
    )


def journals_chart(period: Period, found: Found) -> SafeString:
    low, high = period.bounds
    posted: dict[date, int] = defaultdict(int)
    for created_at in Journal.objects.filter(created_at__gte=low, created_at__lt=high).values_list(
        "created_at", flat=True
    ):
        posted[local_day(created_at)] += 1
    labels = period.days
    return charts.bars(
        "Journals posted per day",
        day_names(labels),
        [charts.Series("journals", [posted.get(d, 0) for d in labels])],
    )


def last_runs(period: Period, found: Found) -> list[Row]:
    return [
        {
            "at": timezone.localtime(run.at).strftime("%d %b %Y, %H:%M"),
            "trigger": run.trigger,
            "verdict": "ok" if run.ok else "problems",
            "problems": len(run.problems),
            "figures": ", ".join(f"{n} {name}" for name, n in run.figures.items()),
        }
        for run in found.extra["runs"]
    ]


def reconcile_notes(period: Period, found: Found) -> list[str]:
    runs = found.extra["runs"]
    last = (
        f"Last scheduled run: {timezone.localtime(runs[0].at):%d %b %Y, %H:%M}, "
        f"{'ok' if runs[0].ok else 'PROBLEMS'} ({len(runs[0].problems)} differences)."
        if runs
        else "No scheduled run yet: the verdict above is this page's own check."
    )
    return [
        last,
        "Every balance is recomputed from the entries, versions must be contiguous, and each "
        "currency must sum to zero; the verdict covers the whole ledger, not only the range.",
    ]


CURRENCY = Column("currency", "Currency")
reconcile_report = Declared(
    slug="reconcile",
    title="Reconciliation",
    menu="Reconciliation status",
    columns=(
        CURRENCY,
        Column("kind", "Account kind"),
        Column("accounts", "Accounts", COUNT),
        Column("balance", "Balance", MONEY),
    ),
    query=reconcile_rows,
    chart=journals_chart,
    breakdowns=(
        Listing(
            "Differences found",
            (Column("problem", "Difference"),),
            lambda period, found: [{"problem": problem} for problem in found.extra["problems"]],
        ),
        Listing(
            "Ledger size",
            (Column("what", "What"), Column("count", "How many", COUNT)),
            lambda period, found: [{"what": key, "count": value} for key, value in summary().items()],
        ),
        By("Per currency (must be zero)", CURRENCY, (Column("balance", "Sum of balances", MONEY),)),
        Listing(
            "Last scheduled runs (hourly, and at start-up)",
            (
                Column("at", "When"),
                Column("trigger", "Run by"),
                Column("verdict", "Verdict"),
                Column("problems", "Differences", COUNT),
                Column("figures", "Figures"),
            ),
            last_runs,
        ),
    ),
    notes=reconcile_notes,
    mixed=True,
)


# --- takings --------------------------------------------------------------------------------

TAKINGS = (
    Column("entry_fees", "Entry fees", MONEY),
    Column("rejoin_fees", "Rejoin fees", MONEY),
    Column("prizes", "Prizes paid", MONEY),
    Column("splits", "Splits paid", MONEY),
    RAKE,
    Column("refunds", "Refunds", MONEY),
    Column("settlements", "Points settlements", MONEY),
    Column("overlay", "Overlay paid by the house", MONEY),
)


def takings_rows(period: Period) -> list[Row]:
    """Per day, variant and template, the sums of ``wallet.reports.takings_lines``."""
    low, high = period.bounds
    lines = wallet_reports.takings_lines(low, high, period.currency)
    groups: dict[tuple[date, str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for line, (variant, template) in zip(lines, filed([line.meta for line in lines]), strict=True):
        groups[(local_day(line.at), variant, template)][line.column] += line.amount
    return [
        {"day": day, "variant": variant, "template": template, **{c.key: sums.get(c.key, 0) for c in TAKINGS}}
        for (day, variant, template), sums in sorted(groups.items())
        if any(sums.values())
    ]


takings_report = Declared(
    slug="takings",
    title="Takings: fees, payouts, rake, refunds and settlements",
    columns=(DAY, VARIANT, TEMPLATE, *TAKINGS),
    query=takings_rows,
    chart=PerDay(
        "Fees in, prizes paid and rake per day",
        lines=(
            Line("entry fees", ("entry_fees",)),
            Line("prizes and splits", ("prizes", "splits")),
            Line("rake", ("rake",)),
        ),
    ),
    breakdowns=(By("By variant", VARIANT, TAKINGS), By("By template", TEMPLATE, TAKINGS)),
    notes=(
        "Fees are what players paid into pools; prizes and splits what the pools paid out "
        "after rake; refunds give fees back (a cancelled or voided game); points settlements "
        "are what winners' seats received before rake; the overlay is what the house added "
        "to a tournament's prize pool to reach its guarantee (its buy-ins count as entry fees, "
        "its variant is the tournament). A correction counts against the day of the correction.",
    ),
)


#: Every report, in the order of the reports' list: slug -> (its name there, run it).
REPORTS: dict[str, tuple[str, Callable[[date, date, str], Report]]] = {
    r.slug: (r.menu or r.title, r.run)
    for r in (
        takings_report,
        rake_report,
        payouts_report,
        cashflow_report,
        held_report,
        activity_report,
        reconcile_report,
    )
}

takings = takings_report.run
rake = rake_report.run
payouts = payouts_report.run
cashflow = cashflow_report.run
held = held_report.run
activity = activity_report.run
reconciliation = reconcile_report.run
