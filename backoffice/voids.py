"""The void of a running game (R-MONEY-7), four eyes: one staff member asks, with the reason the
players will read; a second one confirms, and only then is the game voided. Both steps are in
the audit log (``backoffice.actions.request_void`` / ``confirm_void``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from backoffice import actions
from backoffice.models import VoidRequest
from games.errors import GameError
from games.models import Table
from wallet.errors import WalletError


def _staff_who_may_void(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not (
        request.user.is_active and request.user.is_staff and request.user.has_perm("backoffice.void_game")
    ):
        raise PermissionDenied("Your staff role does not include voiding games.")
    return None


def voids(request: HttpRequest) -> HttpResponse:
    """The running games, the voids waiting for a second staff member, and the last voids."""
    refused = _staff_who_may_void(request)
    if refused is not None:
        return refused
    context: dict[str, Any] = {
        "running": Table.objects.filter(status="playing")
        .select_related("template")
        .order_by("updated_at")[:200],
        "pending": VoidRequest.objects.filter(confirmed_at__isnull=True).select_related(
            "table__template", "requested_by"
        ),
        "done": VoidRequest.objects.filter(confirmed_at__isnull=False)
        .select_related("table__template", "requested_by", "confirmed_by")
        .order_by("-confirmed_at")[:20],
    }
    return render(request, "backoffice/voids.html", context)


def _act(request: HttpRequest, step: Any) -> HttpResponse:
    refused = _staff_who_may_void(request)
    if refused is not None:
        return refused
    try:
        step()
    except (GameError, WalletError) as error:
        messages.error(request, error.message)
    except (Table.DoesNotExist, VoidRequest.DoesNotExist):
        messages.error(request, "There is no such table or request.")
    return redirect("backoffice:voids")


@require_POST
def request_void(request: HttpRequest) -> HttpResponse:
    table = request.POST.get("table", "")

    def step() -> None:
        if not table.isdigit():
            raise GameError("no_table", "Give the table's number.")
        actions.request_void(int(table), request.POST.get("reason", ""), request.user)
        messages.success(request, f"Table {table}: the void waits for a second staff member.")

    return _act(request, step)


@require_POST
def confirm_void(request: HttpRequest, request_id: int) -> HttpResponse:
    def step() -> None:
        table = actions.confirm_void(request_id, request.POST.get("reason", ""), request.user)
        messages.success(request, f"Table {table.pk} is voided: every fee and hold is back with its player.")

    return _act(request, step)
