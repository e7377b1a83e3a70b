"""The one check point of money play (R-PROT-1..3, R-PROT-9): may this player play for money now?

Every money path asks :func:`refusal` before money moves at a table or into the wallet: joins,
"play now", private tables and rejoins at money tables (``games.services``), deposits
(``wallet.cashier``), and the pages and API endpoints on them. Practice play (chips) never asks:
it is open everywhere. Withdrawals do not ask either: a player can always take their own money
out, on a break, self-excluded, or where money play has been switched off (R-PROT-1). The one
hold on withdrawals is the risk desk's freeze (``protection.freezes``), which the withdrawal
asks for itself.

It reads, in one round trip, the player's row as stored (their region now, whatever the caller
loaded before, and whether the risk desk froze their money), their breaks and self-exclusions,
and their latest move (``protection.residence``): after a move that opened money play, money
play waits until the move's ``opens_at``. The apps above add their own checks to the same round
trip (:func:`register`): fair play refuses a second account of a self-excluded person.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, QuerySet
from django.utils import timezone

from accounts.regions import UNDECLARED, name_of
from hotpath import statements
from protection import exclusions, freezes
from protection.models import Exclusion, ExclusionKind, RegionChange, RegionChangeStatus
from protection.players import uid
from protection.refusal import ProtectionError, Refusal

#: A player's latest move with the status given (``applied``), for :func:`opens_among`.
LATEST_MOVE = statements.Prepared(
    lambda user_id, status: (
        RegionChange.objects.filter(user_id=user_id, status=status)
        .order_by("-id")
        .values_list("opens_at", "region")[:1]
    ),
    arity=2,
)
APPLIED = RegionChangeStatus.APPLIED.value


def _player(user_id: int) -> QuerySet[Any, Any]:
    from accounts.models import User

    return (
        User.objects.filter(pk=user_id)
        .order_by()
        .values_list("is_bot", "region", freezes.in_force_of(OuterRef("pk")))
    )


#: Whether the player is a bot, their region as stored now, and whether the risk desk holds
#: their money (``protection.freezes``): one row, read in the check's one round trip.
PLAYER = statements.Prepared(_player, arity=1)


def opens_among(rows: Sequence[Sequence[Any]], now: datetime) -> tuple[datetime, str] | None:
    """From the rows of :data:`LATEST_MOVE`: when money play opens in the region moved to, and
    that region, while that is still ahead of ``now``; else None."""
    field = RegionChange._meta.get_field("opens_at")
    for value, region in rows:
        opens_at = statements.from_db(field, value)
        if opens_at is not None and opens_at > now:
            return opens_at, str(region)
    return None


@dataclass(frozen=True)
class Check:
    """A further check of money play from an app above: the statements it reads of a player,
    and its verdict from their results (after protection's own checks have passed)."""

    reads: Callable[[int], list[statements.Statement]]
    refusal: Callable[[Sequence[statements.Result], datetime], Refusal | None]
    #: How many statements ``reads`` gives (always the same number).
    size: int = 1


_checks: list[Check] = []


def register(check: Check) -> None:
    """Add a check (from an app's ``AppConfig.ready``); registering one twice adds it once."""
    if check not in _checks:
        _checks.append(check)


def unregister(check: Check) -> None:
    if check in _checks:
        _checks.remove(check)


def reads(user_id: int) -> list[statements.Statement]:
    """What :func:`refusal_among` needs of a player, to send in one round trip (with others:
    ``statements.execute_many``): their row, their exclusions, their latest move, then what
    each registered :class:`Check` reads."""
    found = [
        PLAYER.statement(user_id),
        exclusions.TAKEN.statement(user_id),
        LATEST_MOVE.statement(user_id, APPLIED),
    ]
    for check in _checks:
        found += check.reads(user_id)
    return found


def site_on() -> bool:
    """``MONEY_PLAY``: the operator's switch for the whole site."""
    return bool(getattr(settings, "MONEY_PLAY", settings.DEBUG))


def allowed_regions() -> list[str]:
    return [code.strip().upper() for code in getattr(settings, "MONEY_REGIONS", []) if code.strip()]


def region_allowed(region: str) -> bool:
    """Every region when ``MONEY_REGIONS`` is empty; else an exact code ("IN-KA") or its
    whole country ("GB" covers "GB-ENG"). An undeclared region matches no list."""
    allowed = allowed_regions()
    if not allowed:
        return True
    region = (region or UNDECLARED).upper()
    if region == UNDECLARED:
        return False
    return region in allowed or region.split("-", 1)[0] in allowed


def refusal(user: Any, *, now: datetime | None = None) -> Refusal | None:
    """None if ``user`` may play for money now, else why not."""
    if not site_on():
        return OFF
    return refusal_among(statements.execute_many(reads(uid(user))), now or timezone.now(), user)


OFF = Refusal("money_play_off", "Money play is not offered on this site. Practice tables are open.")


def refusal_among(results: Sequence[statements.Result], now: datetime, user: Any = None) -> Refusal | None:
    """:func:`refusal` from the results of :func:`reads`: the player as stored (their region read
    with the rest, under the caller's lock if it holds one, not as ``user`` was loaded before a
    move), their exclusion in force and the wait after their latest move."""
    player, taken, moved = results[:3]
    if player.rows:
        is_bot, region, frozen = player.rows[0]
    else:  # a player not saved (yet): as given
        is_bot, region, frozen = getattr(user, "is_bot", False), getattr(user, "region", ""), None
    if not site_on():
        return OFF
    if is_bot:
        return Refusal("bots_not_allowed", "Bots play only on practice tables.")
    if frozen is not None:
        return freezes.FROZEN
    region = str(region or UNDECLARED)
    if not region_allowed(region):
        if region == UNDECLARED:
            return Refusal(
                "region_undeclared",
                "Tell us where you live (your profile) before you play for money. Practice tables are open.",
            )
        return Refusal(
            "region_not_allowed",
            f"Money play is not offered in {name_of(region)}. Practice tables are open.",
        )
    found = exclusions.in_force(statements.instances(Exclusion, taken.rows), now)
    if found is not None:
        if found.kind == ExclusionKind.SELF_EXCLUSION:
            until = "for good" if found.ends_at is None else f"until {exclusions.when(found.ends_at)}"
            return Refusal("self_excluded", f"You have excluded yourself from money play {until}.")
        return Refusal(
            "on_a_break", f"You are taking a break from money play until {exclusions.when(found.ends_at)}."
        )
    wait = opens_among(moved.rows, now)
    if wait is not None:
        opens_at, moved_to = wait
        return Refusal(
            "region_cooling_off",
            f"Money play opens for you in {name_of(moved_to)} on {exclusions.when(opens_at)}: after a "
            "move it waits as a raised limit does. Practice tables are open.",
        )
    at = 3
    for check in list(_checks):
        found_by = check.refusal(results[at : at + check.size], now)
        if found_by is not None:
            return found_by
        at += check.size
    return None


def check(user: Any, *, now: datetime | None = None) -> None:
    """Raise :class:`ProtectionError` if ``user`` may not play for money now."""
    found = refusal(user, now=now)
    if found is not None:
        raise ProtectionError(found)
