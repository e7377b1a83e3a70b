"""The audit log's page: every staff action, newest first, fifty a page, filtered by staff
member, by player (the rows naming them, as their page lists them) and by action; actions,
targets and details in words."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from accounts.models import User
from backoffice.access import staff_page
from backoffice.models import AuditAction, AuditLog
from games.models import Seat
from games.words import plain, word
from wallet.models import Currency
from wallet.money import money

PER_PAGE = 50

#: A target's kind -> the page that shows it (its id the one argument).
PAGES = {
    "user": "backoffice:player",
    "accounts.user": "backoffice:player",
    "journal": "admin:wallet_journal_change",
    "withdrawal": "admin:wallet_withdrawal_change",
    "table": "admin:games_table_change",
    "games.tabletemplate": "admin:games_tabletemplate_change",
    "case": "backoffice:case",
}
#: Details naming a user by id, shown by name.
USER_DETAILS = ("user", "requested_by")
#: Details listing users by id (a refund's ``moves`` name them too), shown by name.
LISTED_USERS = ("players",)
#: Details that say nothing more in words than the row already does.
HIDDEN_DETAILS = ("currency",)


def naming(user: Any) -> Q:
    """Audit rows about a player: on them, on their withdrawals and journals (``details.user``),
    and on the tables they sat at (a cancel, a void)."""
    tables = [f"table:{pk}" for pk in Seat.objects.filter(user=user).values_list("table_id", flat=True)]
    return Q(target=f"user:{user.pk}") | Q(details__user=user.pk) | Q(target__in=tables)


def find_player(text: str) -> User | None:
    """A player by id or by username (any case)."""
    text = text.strip()
    found = (
        User.objects.filter(pk=int(text)) if text.isdigit() else User.objects.filter(username__iexact=text)
    )
    return found.first()


def filtered(request: HttpRequest) -> tuple[QuerySet[AuditLog], dict[str, Any]]:
    """The rows the query string asks for, and what the form shows back."""
    rows = AuditLog.objects.select_related("actor")
    chosen: dict[str, Any] = {"staff": "", "player": "", "action": "", "unknown_player": False}
    staff = request.GET.get("staff", "")
    if staff.isdigit():
        rows = rows.filter(actor_id=int(staff))
        chosen["staff"] = int(staff)
    action = request.GET.get("action", "")
    if action in AuditAction.values:
        rows = rows.filter(action=action)
        chosen["action"] = action
    player_text = request.GET.get("player", "")[:150]
    if player_text.strip():
        chosen["player"] = player_text
        player = find_player(player_text)
        if player is None:
            chosen["unknown_player"] = True
            rows = rows.none()
        else:
            rows = rows.filter(naming(player))
    return rows.order_by("-at", "-id"), chosen


def target_of(target: str, names: dict[int, str]) -> tuple[str, str]:
    """("Player alice", her page's address) for ``user:5``; ("Journal 42", ...) for ``journal:42``."""
    kind, _, key = target.rpartition(":")
    if not key.isdigit():
        return target, ""
    pk = int(key)
    page = PAGES.get(kind)
    text = f"{word('target', kind)} {names.get(pk, pk) if kind in ('user', 'accounts.user') else pk}"
    return text, reverse(page, args=[pk]) if page else ""


def details_of(details: dict[str, Any], names: dict[int, str]) -> list[tuple[str, str]]:
    """The details as (what, value) in words: users by name, an amount as money (in the
    currency the row names, else rupees: withdrawals are), lists joined; row ids left out."""
    shown = []
    details = details or {}
    for key, value in details.items():
        if value in (None, "", [], {}) or key in HIDDEN_DETAILS or key.endswith("_id"):
            continue
        if key in USER_DETAILS and isinstance(value, int):
            value = names.get(value, value)
        elif key == "amount" and isinstance(value, int):
            value = money(value, str(details.get("currency") or Currency.INR))
        elif key == "moves" and isinstance(value, list):
            value = "; ".join(
                f"{names.get(a, a)} to {names.get(b, b)} {money(c, Currency.INR)}" for a, b, c in value
            )
        elif isinstance(value, list):
            value = ", ".join(str(names.get(v, v)) if key in LISTED_USERS else str(v) for v in value)
        shown.append((plain(key), str(value)))
    return shown


def described(entries: list[AuditLog]) -> list[dict[str, Any]]:
    """Audit rows as staff read them: each with its target and details in words (one query
    for the users they name)."""
    ids: set[int] = set()
    for entry in entries:
        kind, _, key = entry.target.rpartition(":")
        if kind in ("user", "accounts.user") and key.isdigit():
            ids.add(int(key))
        details = entry.details or {}
        ids |= {v for k, v in details.items() if k in USER_DETAILS and isinstance(v, int)}
        ids |= {v for k in LISTED_USERS for v in details.get(k) or [] if isinstance(v, int)}
        ids |= {v for move in details.get("moves") or [] for v in move[:2] if isinstance(v, int)}
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    return [
        {"entry": e, "target": target_of(e.target, names), "details": details_of(e.details, names)}
        for e in entries
    ]


@staff_page("backoffice.view_auditlog")
def audit(request: HttpRequest) -> HttpResponse:
    rows, chosen = filtered(request)
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "backoffice/audit.html",
        {
            "page": page,
            "rows": described(list(page.object_list)),
            "chosen": chosen,
            "staff": User.objects.filter(is_staff=True).order_by("username").values_list("pk", "username"),
            "actions": AuditAction.choices,
            "query": query.urlencode(),
        },
    )
