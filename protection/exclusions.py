"""Breaks and self-exclusion (R-PROT-2, R-PROT-3): taken by the player, never shortened.

:func:`take` records one and tells the apps above (``protection.signals.money_play_stopped``):
games releases the player's seats at waiting money tables (their fees and holds back), lets
running pool games play to their end and stands the player up at 21-card tables after the
current deal. Nobody lifts one before its end: no function here does, and staff pages only
read them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format

from hotpath.statements import Prepared, instances
from protection.history import record
from protection.models import Exclusion, ExclusionKind
from protection.players import lock, uid
from protection.refusal import ProtectionError, Refusal
from protection.signals import money_play_stopped

#: What a player may choose, by key: (kind, length; None is for good).
CHOICES: dict[str, tuple[ExclusionKind, timedelta | None, str]] = {
    "break_1d": (ExclusionKind.BREAK, timedelta(hours=24), "A break of 24 hours"),
    "break_7d": (ExclusionKind.BREAK, timedelta(days=7), "A break of 7 days"),
    "break_30d": (ExclusionKind.BREAK, timedelta(days=30), "A break of 30 days"),
    "exclude_6m": (ExclusionKind.SELF_EXCLUSION, timedelta(days=183), "Self-exclusion for 6 months"),
    "exclude_forever": (ExclusionKind.SELF_EXCLUSION, None, "Self-exclusion for good"),
}


def when(moment: datetime | None) -> str:
    if moment is None:
        return "for good"
    return date_format(timezone.localtime(moment), "j M Y, H:i")


#: Every break and self-exclusion a player took (a handful at most), for :func:`in_force`.
TAKEN = Prepared(lambda user_id: Exclusion.objects.filter(user_id=user_id), arity=1)


def current(user: Any, *, now: datetime | None = None) -> Exclusion | None:
    """The break or self-exclusion in force now (the one that ends last), or None."""
    return in_force(instances(Exclusion, TAKEN.rows(uid(user))), now or timezone.now())


def in_force(taken: Iterable[Exclusion], now: datetime) -> Exclusion | None:
    """Of the exclusions ``taken`` (the rows of :data:`TAKEN`), the one in force at ``now``: one
    for good (no end) first, the latest taken; else the one that ends last."""
    active = [e for e in taken if e.starts_at <= now and (e.ends_at is None or e.ends_at > now)]
    if not active:
        return None
    return max(active, key=lambda e: (e.ends_at is None, e.ends_at or e.starts_at, e.starts_at, e.id))


def take(user: Any, choice: str, *, now: datetime | None = None) -> Exclusion:
    """The player takes the break or self-exclusion ``choice`` (a key of :data:`CHOICES`).

    Refused when it would end before one already in force (nothing is shortened)."""
    if choice not in CHOICES:
        raise ProtectionError(Refusal("bad_choice", "Choose one of the breaks or self-exclusions offered."))
    kind, length, label = CHOICES[choice]
    now = now or timezone.now()
    ends_at = None if length is None else now + length
    with transaction.atomic():
        lock(user)
        existing = current(user, now=now)
        if existing is not None and (
            existing.ends_at is None or (ends_at is not None and ends_at <= existing.ends_at)
        ):
            raise ProtectionError(
                Refusal(
                    "already_longer",
                    f"You already have a {existing.get_kind_display().lower()} until "
                    f"{when(existing.ends_at)}: it cannot be shortened.",
                )
            )
        exclusion = Exclusion.objects.create(user_id=uid(user), kind=kind, starts_at=now, ends_at=ends_at)
        record(
            user,
            f"{kind}_taken",
            choice=choice,
            label=label,
            ends_at=ends_at.isoformat() if ends_at else None,
        )
        money_play_stopped.send(sender=Exclusion, user_id=uid(user), reason=label.lower())
    return exclusion
