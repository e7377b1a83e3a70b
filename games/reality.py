"""Reality checks (R-PROT-6): how long a player has been in money play this session, and
their net result for it.

A session is money play with no gap longer than ``SESSION_GAP_MINUTES`` (15): the player's
seats at money tables, each from when they sat down to when they left (or the game ended, or
now), joined where the gaps between them are that short. The net result is what the tables
gave the wallet less what it put on them since the session began (fees, seat holds, prizes,
splits, refunds, seats released), plus what the player's open 21-card seats hold now.

The table page asks for it every minute (``games.views.reality_check``) and shows it after each
``REALITY_CHECK_MINUTES`` (60) of the session, with a way to leave after the deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Sum
from django.utils import timezone

from games.models import Seat, TableStatus
from wallet.ledger import balance_of, get_account, seat_spec, user_spec
from wallet.models import Currency, Entry, JournalKind

GAME_MONEY = (
    JournalKind.ENTRY_FEE,
    JournalKind.REJOIN_FEE,
    JournalKind.REFUND,
    JournalKind.PRIZE,
    JournalKind.SPLIT,
    JournalKind.SEAT_HOLD,
    JournalKind.SEAT_RELEASE,
)


@dataclass(frozen=True)
class Session:
    start: datetime | None
    """None: not in money play now."""
    minutes: int
    net: int
    """Paise: positive is a gain."""


def every() -> int:
    return int(getattr(settings, "REALITY_CHECK_MINUTES", 60))


def gap() -> timedelta:
    return timedelta(minutes=int(getattr(settings, "SESSION_GAP_MINUTES", 15)))


def session_of(user: Any, *, now: datetime | None = None) -> Session:
    now = now or timezone.now()
    since = now - timedelta(days=2)
    seats = (
        Seat.objects.filter(user=user, table__template__currency=Currency.INR)
        .exclude(left_at__lt=since)
        .select_related("table")
        .order_by("joined_at")
    )
    intervals = []
    open_seats = []
    for seat in seats:
        table = seat.table
        if seat.left_at is not None:
            end = seat.left_at
        elif table.status in (TableStatus.FINISHED, TableStatus.CANCELLED):
            end = table.updated_at
        else:
            end = now
            open_seats.append(seat)
        intervals.append((seat.joined_at, min(end, now)))
    start: datetime | None = None
    end_of_run: datetime | None = None
    for begin, end in intervals:
        if end_of_run is None or begin - end_of_run > gap():
            start, end_of_run = begin, end
        else:
            end_of_run = max(end_of_run, end)
    if start is None or end_of_run is None or now - end_of_run > gap():
        return Session(None, 0, 0)
    return Session(start, int((now - start).total_seconds() // 60), _net(user, start, open_seats))


def _net(user: Any, start: datetime, open_seats: list[Seat]) -> int:
    account = get_account(user_spec(int(user.pk), Currency.INR))
    moved = 0
    if account is not None:
        moved = int(
            Entry.objects.filter(
                account=account, journal__created_at__gte=start, journal__kind__in=GAME_MONEY
            ).aggregate(total=Sum("amount"))["total"]
            or 0
        )
    held = sum(balance_of(seat_spec(seat.seat_ref, int(user.pk), Currency.INR)) for seat in open_seats)
    return moved + held


def check(user: Any, *, now: datetime | None = None) -> dict[str, Any]:
    """What the table page needs: the session's minutes and net, and how many reality checks
    are due in it so far (one more each ``every()`` minutes)."""
    found = session_of(user, now=now)
    return {
        "in_session": found.start is not None,
        "session": None if found.start is None else found.start.isoformat(),
        "minutes": found.minutes,
        "net": found.net,
        "every": every(),
        "count": found.minutes // every(),
    }
