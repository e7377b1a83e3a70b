"""The player page: one search box, then everything staff ask about a player on one page.

Support reads the player, their seats and games; the money (balances, statement, deposits,
withdrawals) shows only to a role that may read the ledger (``wallet.view_entry``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from accounts.models import User
from accounts.regions import name_of
from backoffice.access import staff_page
from backoffice.audit import described, naming
from backoffice.columns import MIXED, MONEY, Column, csv_download
from backoffice.games_played import games_of
from backoffice.models import AuditLog
from backoffice.protection import status_of
from backoffice.reversals import REVERSE, notes, waiting_for
from games.models import Seat, SeatStatus, TableStatus
from wallet.models import Account, AccountKind, Deposit, Entry, Withdrawal
from wallet.money import money

LEDGER = "wallet.view_entry"
#: The statement's CSV: every entry, its amount and the balance after it in its account's
#: currency (paise, or hundredths of a chip), each account's amounts summing to its balance.
STATEMENT = (
    Column("at", "When"),
    Column("journal", "Journal"),
    Column("kind", "What"),
    Column("account", "Account"),
    Column("currency", "Currency"),
    Column("amount", "Amount", MONEY),
    Column("balance_after", "Balance after", MONEY),
)
NOT_OVER = [TableStatus.WAITING, TableStatus.STARTING, TableStatus.PLAYING]


def search(text: str) -> QuerySet[User]:
    """Players whose username, e-mail or display name holds ``text``, or whose id it is."""
    text = text.strip()
    if not text:
        return User.objects.none()
    found = Q(username__icontains=text) | Q(email__icontains=text) | Q(display_name__icontains=text)
    if text.isdigit():
        found |= Q(pk=int(text))
    return User.objects.filter(found).order_by("username")[:50]


@staff_page("accounts.view_user")
def players(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:100]
    found = list(search(query))
    if len(found) == 1 and query.strip():
        return redirect("backoffice:player", user_id=found[0].pk)
    return render(request, "backoffice/players.html", {"q": query, "found": found})


def statement_of(user: User) -> QuerySet[Entry]:
    """Every entry on the player's accounts (wallet, seats, withdrawal holds), newest first."""
    return (
        Entry.objects.filter(account__owner=user)
        .select_related("journal__created_by", "account")
        .order_by("-journal__created_at", "-id")
    )


def entry_rows(request: HttpRequest, entries: Iterable[Entry]) -> list[dict[str, Any]]:
    """The statement's lines as staff read them, each with its reversal's note (reason and
    author) and, for risk staff, whether it may be reversed now."""
    entries = list(entries)
    noted = notes((e.journal for e in entries), request.user.has_perm(REVERSE))
    return [{**_entry_row(e), **noted[e.journal_id]} for e in entries]


def _entry_row(entry: Entry) -> dict[str, Any]:
    return {
        "at": entry.journal.created_at,
        "kind": entry.journal.get_kind_display(),
        "account": entry.account.get_kind_display(),
        "currency": entry.account.currency,
        "amount": money(entry.amount, entry.account.currency),
        "balance": money(entry.balance_after, entry.account.currency),
        "journal": entry.journal.key,
        "journal_id": entry.journal_id,
    }


def open_seats(user: User) -> QuerySet[Seat]:
    """Every seat the player has not left at a table that is not over (waiting, starting or
    playing): while a game runs a seat is "in" or "eliminated", before it "seated"."""
    return (
        Seat.objects.filter(user=user, left_at__isnull=True, table__status__in=NOT_OVER)
        .exclude(status=SeatStatus.LEFT)
        .select_related("table__template")
        .order_by("-joined_at", "-id")
    )


def staff_actions_on(user: User) -> list[dict[str, Any]]:
    """The last 50 audit rows naming the player, in words (the audit page lists them all)."""
    return described(list(AuditLog.objects.filter(naming(user)).select_related("actor")[:50]))


@staff_page("accounts.view_user")
def player(request: HttpRequest, user_id: int) -> HttpResponse:
    user = get_object_or_404(User, pk=user_id)
    context: dict[str, Any] = {
        "player": user,
        "q": request.GET.get("q", ""),
        "seats": open_seats(user),
        "games": games_of(user),
        "actions": staff_actions_on(user),
        "ledger": request.user.has_perm(LEDGER),
        "region": name_of(user.region),
    }
    if request.user.has_perm("backoffice.view_protection") or request.user.has_perm(
        "backoffice.review_identity"
    ):
        context["protection"] = status_of(user)
    if context["ledger"]:
        accounts = Account.objects.filter(owner=user).order_by("kind", "currency")
        context.update(
            balances=[
                (a.get_kind_display(), a.currency, money(a.balance, a.currency))
                for a in accounts
                if a.kind == AccountKind.USER
            ],
            held=[
                (a.get_kind_display(), a.ref, money(a.balance, a.currency))
                for a in accounts
                if a.kind != AccountKind.USER and a.balance
            ],
            entries=entry_rows(request, statement_of(user)[:20]),
            deposits=Deposit.objects.filter(user=user).order_by("-created_at")[:10],
            withdrawals=Withdrawal.objects.filter(user=user).order_by("-created_at")[:10],
        )
    return render(request, "backoffice/player.html", context)


@staff_page(LEDGER)
def statement(request: HttpRequest, user_id: int) -> HttpResponse:
    """The full statement (the last 2,000 entries), or its CSV (every entry, amounts in hundredths)."""
    user = get_object_or_404(User, pk=user_id)
    if request.GET.get("format") == "csv":
        rows = (
            {
                "at": entry.journal.created_at,
                "journal": entry.journal.key,
                "kind": entry.journal.kind,
                "account": entry.account.ref,
                "currency": entry.account.currency,
                "amount": entry.amount,
                "balance_after": entry.balance_after,
            }
            for entry in statement_of(user).iterator()
        )
        return csv_download(f"statement_{user.pk}.csv", STATEMENT, rows, MIXED)
    return render(
        request,
        "backoffice/statement.html",
        {
            "player": user,
            "entries": entry_rows(request, statement_of(user)[:2000]),
            "waiting": waiting_for(user),
        },
    )
