"""The player's "Responsible play" page: their limits and what is left of them (R-PROT-4,
R-PROT-5), a break or self-exclusion (R-PROT-2, R-PROT-3), and their identity check
(R-PROT-7). Every change goes through protection's own functions, which record it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedRequest
from protection import exclusions, kyc, limits, money_play
from protection.models import DocumentType, Exclusion, LimitKind
from protection.refusal import ProtectionError
from wallet.amounts import paise_from_rupees
from wallet.limits import PERIOD_WORDS, rooms


def _page(request: HttpRequest, errors: dict[str, str] | None = None) -> HttpResponse:
    used = {room.kind: room for room in rooms(request.user, tuple(LimitKind))}
    rows: list[dict[str, Any]] = []
    for found in limits.limits(request.user):
        room = used.get(found.kind)
        rows.append(
            {
                "kind": found.kind.value,
                "label": LimitKind(found.kind).label,
                "period": PERIOD_WORDS[found.kind][1],
                "limit": found,
                "left": None if room is None else room.left,
            }
        )
    context = {
        "rows": rows,
        "cooling_off_hours": int(limits.cooling_off().total_seconds() // 3600),
        "current": exclusions.current(request.user),
        "until": exclusions.when,
        "choices": [(key, label) for key, (_, _, label) in exclusions.CHOICES.items()],
        "identity": kyc.of(request.user),
        "documents": DocumentType.choices,
        "money_refusal": money_play.refusal(request.user),
        "errors": errors or {},
    }
    current = context["current"]
    if isinstance(current, Exclusion):
        context["current_until"] = exclusions.when(current.ends_at)
    return render(request, "wallet/responsible.html", context, status=400 if errors else 200)


@login_required
@require_GET
def page(request: AuthenticatedRequest) -> HttpResponse:
    return _page(request)


@login_required
@require_POST
def set_limit(request: AuthenticatedRequest) -> HttpResponse:
    kind = request.POST.get("kind", "")
    text = request.POST.get("amount", "").strip()
    try:
        amount = None if text == "" else paise_from_rupees(text)
        change = limits.set_limit(request.user, kind, amount)
    except ValueError as error:
        return _page(request, {"limits": str(error)})
    except ProtectionError as error:
        return _page(request, {"limits": error.message})
    if change.effective_at <= change.requested_at:
        messages.success(request, "Your limit is in force now.")
    else:
        messages.success(request, f"Your new limit takes effect on {exclusions.when(change.effective_at)}.")
    return redirect("wallet:responsible")


@login_required
@require_POST
def take_break(request: AuthenticatedRequest) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        return _page(request, {"break": "Tick the box to confirm: nobody can end it early, not even you."})
    try:
        taken = exclusions.take(request.user, request.POST.get("choice", ""))
    except ProtectionError as error:
        return _page(request, {"break": error.message})
    messages.success(request, f"Money play is closed to you until {exclusions.when(taken.ends_at)}.")
    return redirect("wallet:responsible")


@login_required
@require_POST
def verify_identity(request: AuthenticatedRequest) -> HttpResponse:
    try:
        kyc.submit(request.user, request.POST.get("document_type", ""), request.POST.get("number", ""))
    except ProtectionError as error:
        return _page(request, {"identity": error.message})
    messages.success(request, "Thank you: your identity check is waiting for review.")
    return redirect("wallet:responsible")
