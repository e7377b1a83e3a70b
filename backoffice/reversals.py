"""Reversing a ledger entry from a player's statement.

Risk staff (``backoffice.reverse_journal``) open an entry's journal, see what it moved and give
a reason; ``backoffice.actions.reverse_journal`` posts the correction through the wallet's one
posting function (``wallet.ledger.reverse``: a new journal, nothing updated or deleted), or,
above the cashier's four-eyes line, records a request that a second staff member confirms here
(``confirm_reversal``), or declines (``decline_reversal``; the member who asked may withdraw it,
``withdraw_reversal``). Pool money and a withdrawal's journals are refused (R-MONEY-5). The
statement shows each reversal's reason and who made it (and who asked, with four eyes).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import messages
from django.db.models import Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from accounts.models import User
from backoffice import actions
from backoffice.access import staff_page
from backoffice.models import ReversalRequest
from games.errors import GameError
from wallet import cashier
from wallet.errors import WalletError
from wallet.models import Currency, Entry, Journal, JournalKind
from wallet.money import money

REVERSE = "backoffice.reverse_journal"


def notes(journals: Iterable[Journal], may_reverse: bool) -> dict[int, dict[str, Any]]:
    """For each journal of a statement: a note in words about its reversal (who, when, why;
    or that one waits for a second staff member) and whether staff may reverse it now. Three
    queries, whatever the number of entries."""
    by_id = {journal.pk: journal for journal in journals}
    reversals = {
        r.reverses_id: r
        for r in Journal.objects.filter(reverses_id__in=list(by_id)).select_related("created_by")
    }
    corrected = [j.reverses_id for j in by_id.values() if j.kind == JournalKind.REVERSAL and j.reverses_id]
    asked = {
        (r.journal_id, r.confirmed_at is None): r
        for r in ReversalRequest.objects.filter(
            journal_id__in=[*by_id, *corrected], closed_at__isnull=True
        ).select_related("requested_by")
    }
    out: dict[int, dict[str, Any]] = {}
    for pk, journal in by_id.items():
        note, reversible = "", False
        if journal.kind == JournalKind.REVERSAL:
            request = asked.get((journal.reverses_id or 0, False))
            note = (
                f"Reverses {journal.meta.get('reverses', '')}: “{journal.meta.get('reason', '')}”, "
                f"by {journal.created_by or 'the system'}"
                + (f", asked by {request.requested_by}" if request else "")
            )
        elif pk in reversals:
            reversal = reversals[pk]
            note = (
                f"Reversed on {reversal.created_at:%d %b %Y} by {reversal.created_by or 'the system'}: "
                f"“{reversal.meta.get('reason', '')}”"
            )
        elif (pk, True) in asked:
            note = f"Reversal asked by {asked[(pk, True)].requested_by}: waits for a second staff member"
        else:
            reversible = may_reverse and not actions.reversal_refused(journal)
        out[pk] = {"note": note, "reversible": reversible}
    return out


def _legs(journal: Journal) -> list[dict[str, str]]:
    """What the journal moved, leg by leg, in words; and so what its reversal moves back."""
    rows = []
    for transfer in journal.transfers.select_related("debit__owner", "credit__owner").order_by("id"):
        ends = [
            f"{account.get_kind_display()} {account.ref}"
            + (f" ({account.owner.username})" if account.owner else "")
            for account in (transfer.debit, transfer.credit)
        ]
        rows.append({"from": ends[0], "to": ends[1], "amount": money(transfer.amount, transfer.currency)})
    return rows


@staff_page(REVERSE)
def reverse_entry(request: HttpRequest, user_id: int, journal_id: int) -> HttpResponse:
    """GET: the journal, what its reversal would move back, and the reason form (or why it
    cannot be reversed), and the requests for it withdrawn or declined. POST: reverse it, ask for
    it, confirm or decline another member's request (``decision``), or withdraw one's own."""
    player = get_object_or_404(User, pk=user_id)
    journal = get_object_or_404(Journal.objects.select_related("created_by"), pk=journal_id)
    if not Entry.objects.filter(account__owner=player, journal=journal).exists():
        raise Http404("This journal moved nothing on this player's accounts.")
    here = reverse("backoffice:reverse_entry", args=[player.pk, journal.pk])
    if request.method == "POST":
        reason = request.POST.get("reason", "")
        try:
            waiting = request.POST.get("request", "")
            decision = request.POST.get("decision", "confirm")
            if waiting.isdigit() and decision == "withdraw":
                actions.withdraw_reversal(int(waiting), reason, request.user)
                messages.success(
                    request, "Withdrawn: your request for this reversal is closed; nothing moved."
                )
                return redirect(here)
            if waiting.isdigit() and decision == "decline":
                actions.decline_reversal(int(waiting), reason, request.user)
                messages.success(request, "Declined: the journal stands; nothing moved.")
                return redirect(here)
            if waiting.isdigit():
                done = actions.confirm_reversal(int(waiting), reason, request.user)
                messages.success(request, f"Reversed: journal {done.key} moves the money back.")
            else:
                result = actions.reverse_journal(journal, reason, request.user, player=player.pk)
                if isinstance(result, ReversalRequest):
                    messages.success(
                        request, "Asked: a second staff member confirms this reversal before anything moves."
                    )
                else:
                    messages.success(request, f"Reversed: journal {result.key} moves the money back.")
        except (WalletError, GameError) as error:
            messages.error(request, error.message)
            return redirect(here)
        except ReversalRequest.DoesNotExist:
            messages.error(request, "There is no such request.")
            return redirect(here)
        return redirect("backoffice:statement", user_id=player.pk)
    legs = _legs(journal)
    amount = sum(t.amount for t in journal.transfers.all())
    context = {
        "player": player,
        "journal": journal,
        "legs": legs,
        "refused": actions.reversal_refused(journal),
        "reversal": Journal.objects.filter(reverses=journal).select_related("created_by").first(),
        "waiting": ReversalRequest.waiting().filter(journal=journal).select_related("requested_by").first(),
        "closed": ReversalRequest.objects.filter(journal=journal, closed_at__isnull=False)
        .select_related("requested_by", "closed_by")
        .order_by("-closed_at"),
        "four_eyes": actions.needs_second_staff(journal, amount),
        "line": money(cashier.limit("WALLET_SECOND_APPROVAL_OVER"), Currency.INR),
    }
    return render(request, "backoffice/reverse.html", context)


def waiting_for(user: User | None = None) -> list[ReversalRequest]:
    """The reversals waiting for a second staff member (of one player's statement, or all)."""
    found = (
        ReversalRequest.waiting()
        .select_related("journal", "requested_by", "player")
        .annotate(amount=Sum("journal__transfers__amount"))
    )
    if user is not None:
        found = found.filter(player=user)
    return list(found.order_by("requested_at", "id")[:100])
