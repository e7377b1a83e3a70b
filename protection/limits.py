"""Limits the player sets (R-PROT-4) and their cooling-off period (R-PROT-5).

A limit is lowered (or first set) at once; raised or removed only after
``LIMIT_COOLING_OFF_HOURS`` (default 24): the change waits, shown with the time it takes
effect, and a later change cancels one still waiting. The limit in force at a moment is the
latest change already effective then, so nothing has to run when a raise comes due.

The periods are calendar periods in the site's time zone (``TIME_ZONE``): today, this week from
Monday, this month. A player reads "₹500 a day" as "₹500 today", and a calendar day cannot be
worked around by waiting a few hours, as a rolling window's edge can. The wallet counts what was
deposited or staked in them (``wallet.limits``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from hotpath.statements import Prepared, instances
from protection.history import record
from protection.models import LimitChange, LimitKind
from protection.players import lock, uid
from protection.refusal import ProtectionError, Refusal

DEPOSIT_KINDS = (LimitKind.DEPOSIT_DAY, LimitKind.DEPOSIT_WEEK, LimitKind.DEPOSIT_MONTH)


@dataclass(frozen=True)
class Limit:
    kind: LimitKind
    amount: int | None
    """In force now, paise; None: no limit."""
    pending: int | None = None
    pending_at: datetime | None = None
    """A raise (or removal: ``pending`` None with a ``pending_at``) waiting for its time."""


def cooling_off() -> timedelta:
    return timedelta(hours=int(getattr(settings, "LIMIT_COOLING_OFF_HOURS", 24)))


def period_start(kind: LimitKind, now: datetime) -> datetime:
    """The start of ``kind``'s calendar period holding ``now``, in the site's time zone."""
    local = timezone.localtime(now)
    day = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if kind == LimitKind.DEPOSIT_WEEK:
        return day - timedelta(days=day.weekday())
    if kind == LimitKind.DEPOSIT_MONTH:
        return day.replace(day=1)
    return day


def limit(user: Any, kind: LimitKind, *, now: datetime | None = None) -> Limit:
    return limits(user, (kind,), now=now)[0]


def limits(
    user: Any, kinds: tuple[LimitKind, ...] = tuple(LimitKind), *, now: datetime | None = None
) -> list[Limit]:
    """Each of ``kinds`` as it stands at ``now``, in that order, from one read of the player's
    changes not cancelled (a handful at most): the latest one in force, and the latest
    requested one still waiting."""
    changes = instances(LimitChange, CHANGES.rows(uid(user)))
    return limits_among(changes, kinds, now or timezone.now())


#: A player's limit changes not cancelled, oldest first (a handful at most), for :func:`limits_among`.
CHANGES = Prepared(
    lambda user_id: LimitChange.objects.filter(user_id=user_id, cancelled_at__isnull=True).order_by("id"),
    arity=1,
)


def limits_among(changes: Iterable[LimitChange], kinds: tuple[LimitKind, ...], now: datetime) -> list[Limit]:
    """:func:`limits` from the rows of :data:`CHANGES`."""
    in_force: dict[str, LimitChange] = {}
    waiting: dict[str, LimitChange] = {}
    for change in changes:
        if change.kind not in kinds:
            continue
        if change.effective_at <= now:
            best = in_force.get(change.kind)
            if best is None or change.effective_at >= best.effective_at:
                in_force[change.kind] = change
        else:
            best = waiting.get(change.kind)
            if best is None or change.requested_at >= best.requested_at:
                waiting[change.kind] = change
    out = []
    for kind in kinds:
        force, wait = in_force.get(kind), waiting.get(kind)
        out.append(
            Limit(
                kind=kind,
                amount=None if force is None else force.amount,
                pending=None if wait is None else wait.amount,
                pending_at=None if wait is None else wait.effective_at,
            )
        )
    return out


#: The largest amount the database can keep (a signed 64-bit integer). The site's own entry
#: points take far less (the API's PaiseField, the forms' rupee parser: ₹1 crore at most).
_LARGEST = 2**63 - 1


def set_limit(user: Any, kind: str, amount: int | None, *, now: datetime | None = None) -> LimitChange:
    """Set ``kind`` to ``amount`` paise (None: no limit). Lower: at once; higher: after cooling off."""
    if kind not in LimitKind.values:
        raise ProtectionError(Refusal("bad_limit", "Choose one of the limits offered."))
    if amount is not None and (
        isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= _LARGEST
    ):
        raise ProtectionError(Refusal("bad_amount", "A limit is a whole amount above ₹0, or no limit."))
    now = now or timezone.now()
    with transaction.atomic():
        lock(user)
        current = limit(user, LimitKind(kind), now=now).amount
        lowers = amount is not None and (current is None or amount <= current)
        effective_at = now if lowers else now + cooling_off()
        LimitChange.objects.filter(
            user_id=uid(user), kind=kind, effective_at__gt=now, cancelled_at__isnull=True
        ).update(cancelled_at=now)
        change = LimitChange.objects.create(
            user_id=uid(user), kind=kind, amount=amount, requested_at=now, effective_at=effective_at
        )
        record(
            user,
            "limit_lowered" if lowers else "limit_raise_requested",
            limit=kind,
            amount=amount,
            was=current,
            effective_at=effective_at.isoformat(),
        )
    return change
