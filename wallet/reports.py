"""Reports over the ledger, as plain functions returning rows (the commands write them as CSV).

Days are calendar days in ``settings.TIME_ZONE``. Amounts are paise.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass, fields
from datetime import date, datetime
from typing import IO, Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import CharField, Count, F, Sum, Value
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Coalesce, TruncDate

from accounts.text import csv_cell
from wallet.ledger import user_spec
from wallet.models import Account, AccountKind, Currency, Entry, JournalKind


def _local_day() -> TruncDate:
    return TruncDate("journal__created_at", tzinfo=ZoneInfo(settings.TIME_ZONE))


@dataclass(frozen=True)
class StatementLine:
    created_at: datetime
    key: str
    kind: str
    amount: int
    balance: int
    version: int


def statement(user_id: int, currency: Currency = Currency.INR) -> list[StatementLine]:
    """Every movement of a user's wallet, oldest first, with the running balance after each."""
    spec = user_spec(user_id, currency)
    rows = (
        Entry.objects.filter(account__ref=spec.ref, account__currency=currency)
        .order_by("version")
        .values_list(
            "journal__created_at", "journal__key", "journal__kind", "amount", "balance_after", "version"
        )
    )
    return [StatementLine(*row) for row in rows]


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


def write_csv(out: IO[str], rows: Sequence[Any], header: Iterable[str] | None = None) -> None:
    """Write dataclass rows as CSV with a header line (field names)."""
    writer = csv.writer(out, lineterminator="\n")
    if header is None and rows:
        header = [f.name for f in fields(rows[0])]
    if header is not None:
        writer.writerow(list(header))
    for row in rows:
        writer.writerow([csv_cell(value) for value in astuple(row)])
