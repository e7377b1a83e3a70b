"""The void of a running game (R-MONEY-7), four eyes: one staff member asks, with the reason the
players will read; a second one confirms, and only then is the game voided. Until then the
member who asked may withdraw the request, or another member may decline it, each with a
reason, and the game goes on. Every step is in the audit log (``backoffice.actions``:
``request_void``, ``confirm_void``, ``close_request``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from backoffice import actions
from backoffice.access import staff_page
from backoffice.models import Closed, VoidRequest
from games.errors import GameError
from games.models import Table
from wallet.errors import WalletError

VOID = "backoffice.void_game"


@staff_page(VOID)
def voids(request: HttpRequest) -> HttpResponse:
    """The running games, the voids waiting for a second staff member, and the last voids."""
    context: dict[str, Any] = {
        "running": Table.objects.filter(status="playing")
        .select_related("template")
        .order_by("updated_at")[:200],
        "pending": VoidRequest.waiting().select_related("table__template", "requested_by"),
        "done": VoidRequest.objects.filter(confirmed_at__isnull=False)
        .select_related("table__template", "requested_by", "confirmed_by")
        .order_by("-confirmed_at")[:20],
        "closed": VoidRequest.objects.filter(closed_at__isnull=False)
        .select_related("table__template", "requested_by", "closed_by")
        .order_by("-closed_at")[:20],
    }
    return render(request, "backoffice/voids.html", context)


def _act(request: HttpRequest, step: Any) -> HttpResponse:
    try:
        step()
    except (GameError, WalletError) as error:
        messages.error(request, error.message)
    except (Table.DoesNotExist, VoidRequest.DoesNotExist):
        messages.error(request, "There is no such table or request.")
    return redirect("backoffice:voids")


@require_POST
@staff_page(VOID)
def request_void(request: HttpRequest) -> HttpResponse:
    table = request.POST.get("table", "")

    def step() -> None:
        if not table.isdigit():
            raise GameError("no_table", "Give the table's number.")
        actions.request_void(int(table), request.POST.get("reason", ""), request.user)
        messages.success(request, f"Table {table}: the void waits for a second staff member.")

    return _act(request, step)


@require_POST
@staff_page(VOID)
def confirm_void(request: HttpRequest, request_id: int) -> HttpResponse:
    def step() -> None:
        table = actions.confirm_void(request_id, request.POST.get("reason", ""), request.user)
        messages.success(request, f"Table {table.pk} is voided: every fee and hold is back with its player.")

    return _act(request, step)


@require_POST
@staff_page(VOID)
def close(request: HttpRequest, request_id: int, how: Closed) -> HttpResponse:
    """Withdraw one's own request (``how``: withdrawn) or decline another member's (declined):
    the game goes on."""

    def step() -> None:
        void = actions.close_request(
            VoidRequest, request_id, how, request.POST.get("reason", ""), request.user
        )
        if how == Closed.WITHDRAWN:
            messages.success(request, f"Table {void.table_id}: your request for its void is withdrawn.")
        else:
            messages.success(request, f"Table {void.table_id}: the void is declined; the game goes on.")

    return _act(request, step)
