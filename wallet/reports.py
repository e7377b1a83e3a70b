"""Reports over the ledger, as plain functions returning rows (the commands write them as CSV).

Days are calendar days in ``settings.TIME_ZONE``. Amounts are paise.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass, fields
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import CharField, Count, F, Q, Sum, Value
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Coalesce, TruncDate

from accounts.text import csv_cell
from wallet.ledger import user_spec
from wallet.models import Account, AccountKind, Currency, Entry, JournalKind, Transfer

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


def _local_day() -> TruncDate:
    return TruncDate("journal__created_at", tzinfo=ZoneInfo(settings.TIME_ZONE))


#: What each journal is called on a player's statement: its kind's words (``JournalKind``),
#: but each way money comes back out of a pool in its own true words (R-MONEY-4, R-MONEY-7).
JOURNAL_WORDS = dict(JournalKind.choices)
REFUND_WORDS = {
    "left": "Entry fee back: you left before the game started",
    "cancelled": "Entry fee back: the game was cancelled before it started",
    "voided": "Fees back: the game was voided by the staff",
    "unregistered": "Buy-in back: you unregistered from the tournament",
}


def refund_cause(key: str, reason: str) -> str:
    """Why a refund journal gave money back: "left" (``refund_entry``, key ``leave:``: the player
    left a game before it started), "voided" (``refund_pool`` with a reason starting "voided":
    the staff voided a running game), else "cancelled" (``refund_pool`` of a game that never
    started), "unregistered" (key ``unregister:``: a tournament's buy-in given back before its
    start)."""
    if key.startswith("leave:"):
        return "left"
    if key.startswith("unregister:"):
        return "unregistered"
    if reason.startswith("voided"):
        return "voided"
    return "cancelled"


def journal_words(kind: str, key: str, reason: str = "") -> str:
    """The words a player reads for a journal on their statement."""
    if kind == JournalKind.REFUND:
        return REFUND_WORDS[refund_cause(key, reason)]
    return JOURNAL_WORDS.get(kind, kind)


@dataclass(frozen=True)
class StatementLine:
    created_at: datetime
    key: str
    kind: str
    amount: int
    balance: int
    version: int
    words: str
    """What the line is, as the player reads it (:func:`journal_words`)."""


def statement(user_id: int, currency: Currency = Currency.INR) -> list[StatementLine]:
    """Every movement of a user's wallet, oldest first, with the running balance after each."""
    spec = user_spec(user_id, currency)
    rows = (
        Entry.objects.filter(account__ref=spec.ref, account__currency=currency)
        .order_by("version")
        .values_list(
            "journal__created_at",
            "journal__key",
            "journal__kind",
            "amount",
            "balance_after",
            "version",
            "journal__meta__reason",
        )
    )
    return [
        StatementLine(created_at, key, kind, amount, balance, version, journal_words(kind, key, reason or ""))
        for created_at, key, kind, amount, balance, version, reason in rows
    ]


@dataclass(frozen=True)
class RakeLine:
    day: date
    variant: str
    rake: int


def rake_by_day(currency: Currency = Currency.INR) -> list[RakeLine]:
    """Rake taken per day and variant: the net of every entry on the house accounts.

    Reversals count on the day they were posted (they carry no variant: ``""``).
    """
    rows = (
        Entry.objects.filter(account__kind=AccountKind.HOUSE, account__currency=currency)
        .annotate(
            day=_local_day(),
            variant=Coalesce(
                KeyTextTransform("variant", "journal__meta"), Value(""), output_field=CharField()
            ),
        )
        .values("day", "variant")
        .annotate(rake=Sum("amount"))
        .order_by("day", "variant")
    )
    return [RakeLine(row["day"], row["variant"], row["rake"]) for row in rows]


@dataclass(frozen=True)
class PayoutLine:
    day: date
    kind: str
    payouts: int
    amount: int


def payouts_by_day(currency: Currency = Currency.INR) -> list[PayoutLine]:
    """Prizes and split payouts credited to players per day: how many payments, how much."""
    rows = (
        Entry.objects.filter(
            account__kind=AccountKind.USER,
            account__currency=currency,
            journal__kind__in=[JournalKind.PRIZE, JournalKind.SPLIT],
            amount__gt=0,
        )
        .annotate(day=_local_day(), kind=F("journal__kind"))
        .values("day", "kind")
        .annotate(payouts=Count("id"), total=Sum("amount"))
        .order_by("day", "kind")
    )
    return [PayoutLine(row["day"], row["kind"], row["payouts"], row["total"]) for row in rows]


@dataclass(frozen=True)
class HeldLine:
    kind: str
    ref: str
    owner_id: int | None
    balance: int


def held_in_play(currency: Currency = Currency.INR) -> list[HeldLine]:
    """Money sitting in open pools and on seats, account by account."""
    rows = (
        Account.objects.filter(
            kind__in=[AccountKind.POOL, AccountKind.SEAT], currency=currency, closed_at__isnull=True
        )
        .exclude(balance=0)
        .order_by("kind", "id")
        .values_list("kind", "ref", "owner_id", "balance")
    )
    return [HeldLine(*row) for row in rows]


def write_csv(out: SupportsWrite[str], rows: Sequence[Any], header: Iterable[str] | None = None) -> None:
    """Write dataclass rows as CSV with a header line (field names)."""
    writer = csv.writer(out, lineterminator="\n")
    if header is None and rows:
        header = [f.name for f in fields(rows[0])]
    if header is not None:
        writer.writerow(list(header))
    for row in rows:
        writer.writerow([csv_cell(value) for value in astuple(row)])


#: What the operator took in and paid out, each from the entries on one kind of account:
#: column -> (journal kinds whose entries count, a reversal counting as the kind it reverses;
#: the kind of account whose entries are summed). Rake is every entry on the house accounts.
TAKINGS: dict[str, tuple[set[str], str]] = {
    "entry_fees": ({JournalKind.ENTRY_FEE}, AccountKind.POOL),
    "rejoin_fees": ({JournalKind.REJOIN_FEE}, AccountKind.POOL),
    "prizes": ({JournalKind.PRIZE}, AccountKind.USER),
    "splits": ({JournalKind.SPLIT}, AccountKind.USER),
    "refunds": ({JournalKind.REFUND}, AccountKind.USER),
    "settlements": ({JournalKind.DEAL_SETTLEMENT}, AccountKind.SEAT),
    # What the house added to a tournament's pool to reach its guarantee (R-TOUR-5).
    "overlay": ({JournalKind.OVERLAY}, AccountKind.POOL),
}


@dataclass(frozen=True)
class TakingsLine:
    at: datetime
    meta: dict[str, Any]
    """The journal's meta, or for a correction the meta of the journal it corrects."""
    column: str
    """rake, or a key of :data:`TAKINGS`."""
    amount: int


def takings_lines(low: datetime, high: datetime, currency: str) -> list[TakingsLine]:
    """Every entry that counts in the takings between ``low`` and ``high``: fees paid into pools,
    prizes and splits paid out (after rake), refunds, what 21-card winners' seats received
    (before rake), and the rake. A reversal counts, negatively, as what it reverses."""
    rows = (
        Entry.objects.filter(
            account__currency=currency, journal__created_at__gte=low, journal__created_at__lt=high
        )
        .filter(
            Q(account__kind=AccountKind.HOUSE)
            | (Q(amount__gt=0) & ~Q(journal__kind=JournalKind.REVERSAL))
            | (Q(amount__lt=0) & Q(journal__kind=JournalKind.REVERSAL))
        )
        .values_list(
            "amount",
            "account__kind",
            "journal__kind",
            "journal__created_at",
            "journal__meta",
            "journal__reverses__kind",
            "journal__reverses__meta",
        )
    )
    lines = []
    for amount, account_kind, kind, at, meta, reversed_kind, reversed_meta in rows:
        meta = reversed_meta or meta or {}
        if account_kind == AccountKind.HOUSE:
            lines.append(TakingsLine(at, meta, "rake", amount))
            continue
        effective = reversed_kind if kind == JournalKind.REVERSAL else kind
        for column, (kinds, counted) in TAKINGS.items():
            if effective in kinds and account_kind == counted:
                lines.append(TakingsLine(at, meta, column, amount))
    return lines


#: The cash side of a day: the journal kinds whose transfers are summed.
CASHFLOW = {
    "deposits": JournalKind.DEPOSIT,
    "withdrawals_requested": JournalKind.WITHDRAWAL_HOLD,
    "withdrawals_paid": JournalKind.WITHDRAWAL_PAID,
    "withdrawals_rejected": JournalKind.WITHDRAWAL_RELEASED,
}


@dataclass(frozen=True)
class SummaryLine:
    what: str
    amount: int


def daily_summary(day: date, currency: Currency = Currency.INR) -> list[SummaryLine]:
    """One local day's takings and cash: fees, payouts, rake, refunds, settlements, deposits
    and withdrawals (``wallet_report daily``; the back office's takings report per template)."""
    zone = ZoneInfo(settings.TIME_ZONE)
    low = datetime.combine(day, time(), tzinfo=zone)
    high = low + timedelta(days=1)
    sums = dict.fromkeys(["rake", *TAKINGS], 0)
    for line in takings_lines(low, high, currency):
        sums[line.column] += line.amount
    for what, kind in CASHFLOW.items():
        total = Transfer.objects.filter(
            journal__kind=kind, currency=currency, journal__created_at__gte=low, journal__created_at__lt=high
        ).aggregate(total=Sum("amount"))["total"]
        sums[what] = int(total or 0)
    order = [*TAKINGS, "rake", *CASHFLOW]
    return [SummaryLine(what, sums[what]) for what in order]
