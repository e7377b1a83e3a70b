"""Tournaments in the back office: create one from a preset (its settings fixed at creation,
R-TOUR-1, R-MONEY-6), list them with their money (buy-ins taken, rake, overlay paid by the
house, prizes paid), and cancel or void one with four eyes (R-MONEY-7, R-TOUR-6): one staff
member asks with the reason the players will read, a different one confirms; or the asker
withdraws the request, or a different member declines it, each with a reason, and nothing is
done. Each step is in the audit log, written in the step's transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.db.models import Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_POST

from accounts.text import visible
from backoffice.access import staff_page
from backoffice.actions import record
from backoffice.models import AuditAction, Closed
from tournaments import services
from tournaments.models import StaffRequest, Tournament
from tournaments.presets import PRESETS
from tournaments.services import TournamentError
from tournaments.words import STAFF_REQUESTS, status_words
from wallet.money import money

VIEW = "tournaments.view_tournament"
CREATE = "tournaments.add_tournament"
END = "backoffice.void_game"


def money_of(t: Tournament) -> dict[str, str]:
    """A tournament's money in words: buy-ins taken (net of any given back), rake, overlay,
    prizes paid."""
    taken = t.registrations.filter(status="registered").aggregate(total=Sum("buy_in"))["total"] or 0
    paid = t.registrations.aggregate(total=Sum("prize"))["total"] or 0
    return {
        "buy_ins": money(int(taken), t.currency),
        "rake": money(t.rake, t.currency),
        "overlay": money(t.overlay, t.currency),
        "prizes": money(int(paid), t.currency),
    }


@staff_page(VIEW, CREATE)
def tournaments(request: HttpRequest) -> HttpResponse:
    rows = []
    for t in Tournament.objects.order_by("-created_at", "-id")[:100]:
        rows.append(
            {
                "t": t,
                "status": status_words(t.status),
                "players": t.registrations.filter(Q(status="registered") | Q(status="refunded")).count(),
                "money": money_of(t),
            }
        )
    context: dict[str, Any] = {
        "rows": rows,
        "presets": PRESETS,
        "pending": StaffRequest.waiting().select_related("tournament", "requested_by"),
        "closed": StaffRequest.objects.filter(closed_at__isnull=False)
        .select_related("tournament", "requested_by", "closed_by")
        .order_by("-closed_at", "-id")[:20],
        "what": STAFF_REQUESTS,
        "may_create": request.user.has_perm(CREATE),
        "may_end": request.user.has_perm(END),
    }
    return render(request, "backoffice/tournaments.html", context)


def _when(text: str) -> datetime | None:
    text = (text or "").strip()
    if not text:
        return None
    moment = parse_datetime(text)
    if moment is None:
        raise TournamentError(
            "bad_settings", "give the start as a date and time (2026-12-01 20:00), or leave it empty"
        )
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def _act(request: HttpRequest, step: Any) -> HttpResponse:
    try:
        step()
    except TournamentError as error:
        messages.error(request, error.message)
    return redirect("backoffice:tournaments")


@require_POST
@staff_page(CREATE)
def create(request: HttpRequest) -> HttpResponse:
    def step() -> None:
        preset = PRESETS.get(request.POST.get("preset", ""))
        if preset is None:
            raise TournamentError("bad_settings", "choose one of the kinds of tournament offered")
        start_at = _when(request.POST.get("start_at", ""))
        if start_at is not None and start_at <= timezone.now():
            raise TournamentError("bad_settings", "a scheduled start is in the future")
        with transaction.atomic():
            t = services.create(
                name=visible(request.POST.get("name", "")),
                start_at=start_at,
                by=request.user,
                **preset.settings(),
            )
            record(
                request.user,
                AuditAction.CREATE_TOURNAMENT,
                t.ref,
                preset.label,
                preset=request.POST["preset"],
            )
        messages.success(request, f"{t.name} is announced.")

    return _act(request, step)


@require_POST
@staff_page(END)
def ask(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def step() -> None:
        what = request.POST.get("what", "")
        reason = visible(request.POST.get("reason", ""))
        with transaction.atomic():
            asked = services.request(tournament_id, what, reason, request.user)
            record(
                request.user,
                AuditAction.REQUEST_TOURNAMENT_END,
                f"tournament:{tournament_id}",
                reason,
                what=what,
                request=asked.pk,
            )
        messages.success(request, f"Tournament {tournament_id}: the {what} waits for a second staff member.")

    return _act(request, step)


@require_POST
@staff_page(END)
def confirm(request: HttpRequest, request_id: int) -> HttpResponse:
    def step() -> None:
        reason = visible(request.POST.get("reason", ""))
        if not reason:
            raise TournamentError("reason_required", "say why you confirm")
        with transaction.atomic():
            t = services.confirm(request_id, request.user)
            asked = StaffRequest.objects.get(pk=request_id)
            record(
                request.user,
                AuditAction.END_TOURNAMENT,
                t.ref,
                reason,
                request=request_id,
                what=asked.step,
                requested_by=asked.requested_by_id,
                requested_reason=asked.reason,
            )
        messages.success(
            request, f"{t.name} is {status_words(t.status).lower()}: every buy-in is back with its player."
        )

    return _act(request, step)


@require_POST
@staff_page(END)
def close(request: HttpRequest, request_id: int, how: Closed) -> HttpResponse:
    """Withdraw (the asker) or decline (another member) a waiting request, with a reason and an
    audit row in the same transaction; the tournament is left as it is."""

    def step() -> None:
        reason = visible(request.POST.get("reason", ""))
        withdrawn = how == Closed.WITHDRAWN
        with transaction.atomic():
            if withdrawn:
                closed = services.withdraw(request_id, reason, request.user)
            else:
                closed = services.decline(request_id, reason, request.user)
            record(
                request.user,
                AuditAction(closed.withdraw_action if withdrawn else closed.decline_action),
                closed.target,
                closed.close_reason,
                request=closed.pk,
                what=closed.step,
                requested_by=closed.requested_by_id,
                requested_reason=closed.reason,
            )
        name = closed.tournament.name
        if withdrawn:
            messages.success(request, f"Your request to {closed.step} {name} is withdrawn: nothing is done.")
        else:
            messages.success(request, f"The request to {closed.step} {name} is declined: nothing is done.")

    return _act(request, step)
