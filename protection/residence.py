"""Where a player lives, and moving elsewhere (R-PROT-9).

A player asks to move on their profile (``accounts.signals.region_change_asked``, answered by
:func:`asked`); staff decide the moves that wait for them (:func:`decide`). A move

- to a region where money play is closed applies at once, and ends the player's money play at
  once as a break does (``money_play_stopped``: seats at money tables that have not started
  are given back);
- from a closed region to an open one applies, but money play opens only after the
  cooling-off period of a raised limit (``LIMIT_COOLING_OFF_HOURS``); a move between open
  regions keeps any such wait still running, so no chain of moves opens money play sooner;
- once the player's identity is verified (R-PROT-7), unless it closes money play, waits for a
  staff review instead of applying: the identity's document says where the player lives, and
  a reviewer compares. Approved, it applies as above (its wait counted from the request);
  refused, the player stays where they were and reads the reason.

The money-play check point (``protection.money_play.refusal``) reads the latest applied move
(``money_play.LATEST_MOVE``): until its ``opens_at``, money play is refused with the time it opens. Every
move, request and decision is in the protection history.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts import regions
from accounts.models import User
from protection import kyc
from protection.exclusions import when
from protection.history import record
from protection.limits import cooling_off
from protection.models import RegionChange, RegionChangeStatus
from protection.money_play import LATEST_MOVE, opens_among, region_allowed
from protection.players import lock, uid
from protection.refusal import ProtectionError, Refusal
from protection.signals import money_play_stopped


def wait_of(user: Any, *, now: datetime | None = None) -> tuple[datetime, str] | None:
    return opens_among(LATEST_MOVE.rows(uid(user), RegionChangeStatus.APPLIED.value), now or timezone.now())


def _region_of(user_id: int) -> str:
    return str(User.objects.filter(pk=user_id).values_list("region", flat=True).get())


def ask(user: Any, region: str, *, now: datetime | None = None) -> RegionChange:
    """The player asks to live in ``region``: applied, or waiting for a staff review (see the
    module's docstring). A move still waiting for review is replaced."""
    region = regions.normalise(region or "")
    if not regions.is_region(region):
        raise ProtectionError(
            Refusal("bad_region", 'Choose where you live: an ISO 3166-2 region code such as "IN-KA".')
        )
    now = now or timezone.now()
    with transaction.atomic():
        lock(user)
        was = _region_of(uid(user))
        if region == was:
            raise ProtectionError(Refusal("same_region", f"You live in {regions.name_of(region)} already."))
        RegionChange.objects.filter(user_id=uid(user), status=RegionChangeStatus.REVIEW).update(
            status=RegionChangeStatus.WITHDRAWN, decided_at=now
        )
        if region_allowed(region) and kyc.verified(user):
            change = RegionChange.objects.create(
                user_id=uid(user), was=was, region=region, status=RegionChangeStatus.REVIEW, requested_at=now
            )
            record(user, "region_review_asked", was=was, now=region)
            return change
        return _apply(RegionChange(user_id=uid(user), was=was, region=region, requested_at=now), now=now)


def _apply(change: RegionChange, *, now: datetime, by: Any = None, reason: str = "") -> RegionChange:
    """Move the player (inside the caller's transaction, under their lock): ``User.region``,
    then :func:`_moved`."""
    was = _region_of(change.user_id)
    User.objects.filter(pk=change.user_id).update(region=change.region)
    return _moved(change, was=was, now=now, by=by, reason=reason)


def _moved(
    change: RegionChange, *, was: str, now: datetime, by: Any = None, reason: str = ""
) -> RegionChange:
    """The move applied, with the time money play opens in the new region; the history; and the
    end of money play when the new region is closed."""
    opens_at = now
    if region_allowed(change.region):
        if not region_allowed(was):  # it opens money play: the cooling-off of a raised limit
            opens_at = max(opens_at, change.requested_at + cooling_off())
        running = wait_of(change.user_id, now=now)  # a wait still running is never cut short
        if running is not None:
            opens_at = max(opens_at, running[0])
    change.was, change.status, change.opens_at = was, RegionChangeStatus.APPLIED, opens_at
    if by is not None:
        change.decided_at, change.decided_by_id, change.reason = now, uid(by), reason
    change.save()
    record(
        change.user_id,
        "region_changed",
        by=by,
        was=was,
        now=change.region,
        opens_at=opens_at.isoformat() if opens_at > now else None,
        reason=reason,
    )
    if not region_allowed(change.region):
        money_play_stopped.send(
            sender=RegionChange, user_id=change.user_id, reason=f"a move to {regions.name_of(change.region)}"
        )
    return change


def edited(user_id: int, *, was: str, region: str) -> RegionChange:
    """A region saved on the user elsewhere (the admin's user page): the same move, applied by
    that save, with the same wait before money play opens."""
    now = timezone.now()
    with transaction.atomic():
        lock(user_id)
        RegionChange.objects.filter(user_id=user_id, status=RegionChangeStatus.REVIEW).update(
            status=RegionChangeStatus.WITHDRAWN, decided_at=now
        )
        return _moved(RegionChange(user_id=user_id, region=region, requested_at=now), was=was, now=now)


def decide(
    change_id: int, approve: bool, *, by: Any, reason: str, now: datetime | None = None
) -> RegionChange:
    """A reviewer approves (the move applies, as :func:`ask` would have) or refuses (the player
    stays) a move waiting for review. The reviewer may not be the player; staff permissions and
    the reason's presence are the back office's to check."""
    now = now or timezone.now()
    found = RegionChange.objects.filter(pk=change_id).values_list("user_id", flat=True).first()
    if found is None:
        raise ProtectionError(Refusal("not_found", "There is no such change of region."))
    if uid(by) == found:
        raise ProtectionError(Refusal("own_review", "You cannot review your own change of region."))
    with transaction.atomic():
        lock(found)
        change = RegionChange.objects.select_for_update().get(pk=change_id)
        if change.status != RegionChangeStatus.REVIEW:
            raise ProtectionError(
                Refusal("not_waiting", "This change of region is not waiting for a review any more.")
            )
        if approve:
            return _apply(change, now=now, by=by, reason=reason)
        change.status, change.decided_at, change.decided_by_id = RegionChangeStatus.REFUSED, now, uid(by)
        change.reason = reason
        change.save()
        record(found, "region_refused", by=by, was=change.was, now=change.region, reason=reason)
    return change


# --- what the player reads (accounts.signals) ---------------------------------------------------


def asked(sender: Any, *, user: Any, region: str, **kwargs: Any) -> str:
    """``accounts.signals.region_change_asked``: move the player, and say what happened."""
    try:
        change = ask(user, region)
    except ProtectionError as error:
        return error.message
    user.region = _region_of(uid(user))
    name = regions.name_of(change.region)
    if change.status == RegionChangeStatus.REVIEW:
        until = (
            "your region stays undeclared"
            if change.was == regions.UNDECLARED
            else f"you live in {regions.name_of(change.was)}"
        )
        return (
            f"Your move to {name} waits for a staff review, as your identity is verified; until then {until}."
        )
    if not region_allowed(change.region):
        return f"You now live in {name}, where money play is not offered. Practice tables are open."
    if change.opens_at is not None and change.opens_at > change.requested_at:
        return f"You now live in {name}. {_opens(change)}"
    return f"You now live in {name}."


def _opens(change: RegionChange) -> str:
    hours = int(cooling_off().total_seconds() // 3600)
    return (
        f"Money play opens for you there on {when(change.opens_at)}: after a move it waits "
        f"{hours} hours, as a raised limit does."
    )


def waiting(sender: Any, *, user: Any, **kwargs: Any) -> str | None:
    """``accounts.signals.region_change_waiting``: what still waits on the player's region."""
    moves = RegionChange.objects.filter(user_id=uid(user))
    latest = moves.exclude(status=RegionChangeStatus.WITHDRAWN).first()
    if latest is None:
        return None
    name = regions.name_of(latest.region)
    if latest.status == RegionChangeStatus.REVIEW:
        return f"Your move to {name} waits for a staff review."
    if latest.status == RegionChangeStatus.REFUSED:
        return f"Your move to {name} was refused: {latest.reason}"
    if latest.opens_at is not None and latest.opens_at > timezone.now() and region_allowed(latest.region):
        return _opens(latest)
    return None
