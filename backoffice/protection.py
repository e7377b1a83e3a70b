"""Player protection for staff: the identity checks and the changes of region waiting for a
review (R-PROT-9: a verified player's move), oldest first, decided by risk staff with a reason
(never their own) and audited; and one page of the players with limits, breaks,
self-exclusions, a move cooling off or a check waiting, with every change recorded. Staff see
self-exclusions and breaks; nothing here, or anywhere, lifts or shortens one (R-PROT-3)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_POST

from accounts.regions import name_of
from backoffice import actions
from backoffice.access import staff_page
from backoffice.live import waited_words
from backoffice.models import AuditAction
from protection import exclusions, freezes, kyc, limits, residence
from protection.models import (
    DocumentType,
    Exclusion,
    KycStatus,
    LimitChange,
    LimitKind,
    ProtectionEvent,
    RegionChange,
    RegionChangeStatus,
    Verification,
)
from protection.refusal import ProtectionError
from wallet.errors import WalletError
from wallet.money import rupees

REVIEW = "backoffice.review_identity"
VIEW = "backoffice.view_protection"


@staff_page(VIEW, REVIEW)
def identity_queue(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    waiting = Verification.objects.filter(status=KycStatus.PENDING).select_related("user")
    rows = [
        {
            "check": check,
            "age": waited_words(now - check.submitted_at) if check.submitted_at else "",
            # One verified identity per person: the same document verified on another account.
            "verified_on": kyc.verified_elsewhere(check.user_id, check.document_hash),
        }
        for check in waiting.order_by("submitted_at", "id")[:200]
    ]
    moves = RegionChange.objects.filter(status=RegionChangeStatus.REVIEW).select_related("user")
    move_rows = [
        {
            "move": move,
            "was": name_of(move.was),
            "to": name_of(move.region),
            "age": waited_words(now - move.requested_at),
        }
        for move in moves.order_by("requested_at", "id")[:200]
    ]
    context = {"rows": rows, "moves": move_rows, "may_review": request.user.has_perm(REVIEW)}
    return render(request, "backoffice/identity.html", context)


@require_POST
@staff_page(REVIEW)
def decide_identity(request: HttpRequest, user_id: int) -> HttpResponse:
    verified = request.POST.get("decision") == "verify"
    try:
        actions.decide_identity(user_id, verified, request.POST.get("reason", ""), request.user)
    except (WalletError, ProtectionError) as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"Identity of player {user_id} {'verified' if verified else 'rejected'}.")
    return redirect("backoffice:identity")


def decide_move(change_id: int, approve: bool, reason: str, by_user: Any) -> RegionChange:
    """Approve or refuse a verified player's change of region (R-PROT-9): risk staff, with a
    reason (the player reads a refusal's), never their own; one audit row."""
    reason = actions.staff_reason(by_user, reason, REVIEW)
    with transaction.atomic():
        move = residence.decide(change_id, approve, by=by_user, reason=reason)
        actions.record(
            by_user,
            AuditAction.APPROVE_MOVE if approve else AuditAction.REFUSE_MOVE,
            f"user:{move.user_id}",
            reason,
            change=move.pk,
            was=move.was,
            region=move.region,
        )
    return move


@require_POST
@staff_page(REVIEW)
def decide_region(request: HttpRequest, change_id: int) -> HttpResponse:
    approve = request.POST.get("decision") == "approve"
    try:
        move = decide_move(change_id, approve, request.POST.get("reason", ""), request.user)
    except (WalletError, ProtectionError) as error:
        messages.error(request, error.message)
    else:
        done = "approved" if approve else "refused"
        messages.success(request, f"Move of player {move.user_id} to {name_of(move.region)} {done}.")
    return redirect("backoffice:identity")


def status_of(user: Any) -> dict[str, Any]:
    """A player's protection at a glance, for their back-office page."""
    current = exclusions.current(user)
    return {
        "exclusion": current,
        "exclusion_until": None if current is None else exclusions.when(current.ends_at),
        "limits": [
            {
                "label": found.kind.label,
                "amount": None if found.amount is None else rupees(found.amount),
                "pending": None if found.pending_at is None else found.pending,
                "pending_at": found.pending_at,
            }
            for found in limits.limits(user)
            if found.amount is not None or found.pending_at is not None
        ],
        "identity": Verification.objects.filter(user=user).first(),
        "freeze": freezes.current(user),
    }


def describe(event: ProtectionEvent) -> tuple[str, str]:
    """(who, what) of one change, in words: amounts in rupees, times local, no codes."""
    details = event.details or {}
    if event.by is not None:
        who = event.by.username
    elif event.kind in ("kyc_verified", "kyc_rejected"):
        who = "the identity provider"
    else:
        who = "the player"
    if event.kind.startswith("limit_"):
        kind = LimitKind(details.get("limit", LimitKind.DEPOSIT_DAY))
        amount, was = details.get("amount"), details.get("was")
        effective = parse_datetime(str(details.get("effective_at", "")))
        what = (
            f"{kind.label}: {rupees(amount) if amount else 'no limit'} "
            f"(was {rupees(was) if was else 'no limit'})"
            + (f", from {exclusions.when(effective)}" if effective else "")
        )
    elif event.kind.endswith("_taken"):
        ends = parse_datetime(str(details.get("ends_at") or ""))
        what = f"{details.get('label', '')}, until {exclusions.when(ends) if ends else 'for good'}"
    elif event.kind == "kyc_submitted":
        document = DocumentType(details.get("document_type", DocumentType.PAN)).label
        reference = details.get("provider_ref", "")
        what = f"{document} ending {details.get('last_four', '')} (provider's reference {reference})"
    elif event.kind.startswith("region_"):
        what = f"from {name_of(str(details.get('was', '')))} to {name_of(str(details.get('now', '')))}"
        opens = parse_datetime(str(details.get("opens_at") or ""))
        if opens is not None:
            what += f"; money play opens there on {exclusions.when(opens)}"
        if details.get("reason"):
            what += f" ({details['reason']})"
    else:
        what = str(details.get("reason", ""))
    return who, what


@staff_page(VIEW)
def report(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    active = (
        Exclusion.objects.filter(starts_at__lte=now)
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))
        .select_related("user")
        .order_by("ends_at", "-starts_at")
    )
    limited = (
        LimitChange.objects.filter(cancelled_at__isnull=True)
        .select_related("user")
        .order_by("user__username", "kind", "-effective_at")
    )
    seen: set[tuple[int, str]] = set()
    limit_rows = []
    for change in limited:
        if (change.user_id, change.kind) in seen:
            continue
        seen.add((change.user_id, change.kind))
        found = limits.limit(change.user_id, LimitKind(change.kind), now=now)
        if found.amount is None and found.pending_at is None:
            continue
        limit_rows.append({"user": change.user, "kind": change.get_kind_display(), "limit": found})
    moves = RegionChange.objects.filter(
        Q(status=RegionChangeStatus.REVIEW) | Q(status=RegionChangeStatus.APPLIED, opens_at__gt=now)
    ).select_related("user")
    context = {
        "exclusions": [{"exclusion": e, "until": exclusions.when(e.ends_at)} for e in active],
        "limits": limit_rows,
        "moves": [
            {"move": move, "was": name_of(move.was), "to": name_of(move.region)}
            for move in moves.order_by("requested_at", "id")
            if move.status == RegionChangeStatus.REVIEW or residence.wait_of(move.user_id, now=now)
        ],
        "pending_checks": Verification.objects.filter(status=KycStatus.PENDING).count(),
        "events": [
            (event, *describe(event)) for event in ProtectionEvent.objects.select_related("user", "by")[:100]
        ],
    }
    return render(request, "backoffice/protection.html", context)
