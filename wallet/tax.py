"""Tax withheld from net winnings at withdrawal (R-PROT-8): configurable, off by default.

Over the financial year so far (from ``TAX_YEAR_FIRST_MONTH``, April by default, in the site's
time zone), net winnings are the withdrawals (the one being asked for included; rejected and
returned ones not) less the deposits less the wallet's balance when the year began. While they
are at or under ``TAX_THRESHOLD`` nothing is withheld; above it the tax due is
``TAX_RATE_BASIS_POINTS`` / 10,000 of the part over the threshold, rounded down to the paisa,
less what the year's withdrawals already had withheld. Only the part over: taxing the whole
once over the line would make one small withdrawal owe more tax than it carries (a cliff a
player could not withdraw past); with the part over, each withdrawal's tax is at most the rate
of its own amount. India's section 194BA has no threshold (set ``TAX_THRESHOLD=0``, the
default), where both readings agree.

The tax is its own journal (wallet -> tax account, ``tax_withheld``), posted with the
withdrawal's hold in one transaction, so the player's statement shows it as a line of its own;
the withdrawal pays out what was asked for less the tax. A rejected (or bank-returned)
withdrawal gives its tax back (``tax_returned``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Sum
from django.utils import timezone

from wallet.ledger import get_account, user_spec
from wallet.models import Currency, Deposit, Entry, Withdrawal

COUNTED = (Withdrawal.Status.REQUESTED, Withdrawal.Status.PAID)


def on() -> bool:
    return bool(getattr(settings, "TAX_WITHHOLDING", False))


def year_start(now: datetime | None = None) -> datetime:
    """The start of the financial year holding ``now``, local midnight on the first day."""
    first = int(getattr(settings, "TAX_YEAR_FIRST_MONTH", 4))
    if not 1 <= first <= 12:
        raise ValueError("TAX_YEAR_FIRST_MONTH must be 1 to 12")
    local = timezone.localtime(now or timezone.now())
    year = local.year if local.month >= first else local.year - 1
    return local.replace(year=year, month=first, day=1, hour=0, minute=0, second=0, microsecond=0)


@dataclass(frozen=True)
class Year:
    """One player's financial year so far, in paise."""

    start: datetime
    opening_balance: int
    deposits: int
    withdrawals: int
    """Asked for (paid out plus tax), rejected and returned ones left out."""
    tax_withheld: int

    @property
    def net_winnings(self) -> int:
        return self.withdrawals - self.deposits - self.opening_balance


def year_of(user_id: int, now: datetime | None = None) -> Year:
    start = year_start(now)
    account = get_account(user_spec(user_id, Currency.INR))
    opening = 0
    if account is not None:
        last = (
            Entry.objects.filter(account=account, journal__created_at__lt=start)
            .order_by("-version")
            .values_list("balance_after", flat=True)
            .first()
        )
        opening = int(last or 0)
    deposits = Deposit.objects.filter(
        user_id=user_id, currency=Currency.INR, status=Deposit.Status.CONFIRMED, created_at__gte=start
    ).aggregate(total=Sum("amount"))["total"]
    counted = Withdrawal.objects.filter(
        user_id=user_id, currency=Currency.INR, status__in=COUNTED, created_at__gte=start
    ).aggregate(paid=Sum("amount"), tax=Sum("tax_withheld"))
    tax = int(counted["tax"] or 0)
    return Year(start, opening, int(deposits or 0), int(counted["paid"] or 0) + tax, tax)


def due(user_id: int, amount: int, now: datetime | None = None) -> int:
    """The tax to withhold from a withdrawal of ``amount`` now (0 when withholding is off)."""
    if not on():
        return 0
    year = year_of(user_id, now)
    taxable = year.net_winnings + amount - int(getattr(settings, "TAX_THRESHOLD", 0))
    if taxable <= 0:
        return 0
    rate = int(getattr(settings, "TAX_RATE_BASIS_POINTS", 0))
    return max(0, taxable * rate // 10_000 - year.tax_withheld)
