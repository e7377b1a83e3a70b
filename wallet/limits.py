"""What a player's own limits leave them (R-PROT-4): deposits per day, week and month, and
money staked at tables per day. The limits and their periods are protection's
(``protection.limits``); the sums are the ledger's.

Staked means what went from the wallet to a table in the period: entry fees, rejoin fees,
21-card seat holds and top-ups, less the fees given back by a cancelled or voided game (a
stake that never happened). Seat balances released after play are not subtracted: the limit
caps what is put at stake, not what is lost. Practice chips are never limited.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Sum
from django.utils import timezone

from protection.limits import DEPOSIT_KINDS, Limit, limits, period_start
from protection.models import LimitKind
from wallet.errors import Code, WalletError
from wallet.ledger import get_account, user_spec
from wallet.models import Currency, Deposit, Entry, JournalKind
from wallet.money import rupees

STAKES = (JournalKind.ENTRY_FEE, JournalKind.REJOIN_FEE, JournalKind.SEAT_HOLD)

PERIOD_WORDS = {
    LimitKind.DEPOSIT_DAY: ("daily deposit limit", "today"),
    LimitKind.DEPOSIT_WEEK: ("weekly deposit limit", "this week"),
    LimitKind.DEPOSIT_MONTH: ("monthly deposit limit", "this month"),
    LimitKind.STAKE_DAY: ("daily stake limit", "today"),
}


@dataclass(frozen=True)
class Room:
    kind: LimitKind
    limit: int
    used: int

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)

    def words(self) -> str:
        name, period = PERIOD_WORDS[self.kind]
        return f"Your {name} is {rupees(self.limit)}; {rupees(self.left)} is left {period}."


def deposited(user_id: int, since: datetime) -> int:
    """Confirmed and pending deposits since ``since`` (a pending one counts: it may still land)."""
    rows = Deposit.objects.filter(
        user_id=user_id, currency=Currency.INR, created_at__gte=since, status__in=["pending", "confirmed"]
    )
    return int(rows.aggregate(total=Sum("amount"))["total"] or 0)


def staked(user_id: int, since: datetime) -> int:
    account = get_account(user_spec(user_id, Currency.INR))
    if account is None:
        return 0
    entries = Entry.objects.filter(account=account, journal__created_at__gte=since)
    out = entries.filter(journal__kind__in=STAKES, amount__lt=0).aggregate(total=Sum("amount"))["total"] or 0
    back = entries.filter(journal__kind=JournalKind.REFUND, amount__gt=0).aggregate(total=Sum("amount"))
    return max(0, -int(out) - int(back["total"] or 0))


def rooms(
    user: Any,
    kinds: tuple[LimitKind, ...],
    *,
    now: datetime | None = None,
    found: Iterable[Limit] | None = None,
) -> list[Room]:
    """Each limit of ``kinds`` the player has, with what the period has used of it. ``found``:
    the player's limits of ``kinds`` already read (``protection.limits.limits_among``)."""
    now = now or timezone.now()
    uid = user if isinstance(user, int) else int(user.pk)
    out = []
    for found_limit in limits(uid, kinds, now=now) if found is None else found:
        if found_limit.amount is None:
            continue
        since = period_start(found_limit.kind, now)
        used = staked(uid, since) if found_limit.kind == LimitKind.STAKE_DAY else deposited(uid, since)
        out.append(Room(found_limit.kind, found_limit.amount, used))
    return out


def stake_left(user: Any, *, now: datetime | None = None) -> int | None:
    """What the daily stake limit leaves today, or None with no limit."""
    found = rooms(user, (LimitKind.STAKE_DAY,), now=now)
    return None if not found else found[0].left


def check_deposit(
    user: Any, amount: int, *, now: datetime | None = None, found: Iterable[Limit] | None = None
) -> None:
    """Refuse a deposit of ``amount`` that a deposit limit has no room for (``found``: the
    player's deposit limits, if already read)."""
    for room in rooms(user, DEPOSIT_KINDS, now=now, found=found):
        if amount > room.left:
            raise WalletError(Code.LIMIT_REACHED, f"{room.words()} Deposit {rupees(room.left)} or less.")


def check_stake(user: Any, amount: int, *, now: datetime | None = None) -> None:
    for room in rooms(user, (LimitKind.STAKE_DAY,), now=now):
        if amount > room.left:
            raise WalletError(Code.LIMIT_REACHED, f"{room.words()} This table needs {rupees(amount)}.")
