"""The player's wallet page: balances, a sandbox deposit, withdrawals and their status, the
statement with its running balance, and the practice chips top-up. Amounts typed in rupees."""

from __future__ import annotations

import csv
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedRequest
from protection import kyc, money_play
from wallet import cashier, reports, tax
from wallet.amounts import paise_from_rupees
from wallet.errors import WalletError
from wallet.ledger import balances_of, user_spec, withdrawal_hold_spec
from wallet.models import Currency, Withdrawal
from wallet.money import rupees


def paise_from(text: str) -> int:
    """Rupees as typed ("250", "99.50") to paise, by the one strict parser (wallet.amounts)."""
    return paise_from_rupees(text)


def _page(request: AuthenticatedRequest, errors: dict[str, str] | None = None) -> HttpResponse:
    uid = request.user.id
    statements = []
    for currency, title in ((Currency.INR, "Rupees"), (Currency.CHIPS, "Practice chips")):
        lines = reports.statement(uid, currency)
        lines.reverse()  # newest first
        statements.append({"currency": currency.value, "title": title, "lines": lines[:200]})
    inr, held, chips = balances_of(
        user_spec(uid, Currency.INR), withdrawal_hold_spec(uid), user_spec(uid, Currency.CHIPS)
    )
    context = {
        "inr": inr,
        "held": held,
        "chips": chips,
        "withdrawals": Withdrawal.objects.filter(user_id=uid).order_by("-id")[:50],
        "statements": statements,
        "errors": errors or {},
        "values": request.POST if errors else {},
        "request_key": uuid.uuid4().hex,
        "money_refusal": money_play.refusal(request.user),
        "identity": kyc.of(request.user),
    }
    return render(request, "wallet/wallet.html", context, status=400 if errors else 200)


@login_required
@require_GET
def home(request: AuthenticatedRequest) -> HttpResponse:
    return _page(request)


@login_required
@require_POST
def deposit(request: AuthenticatedRequest) -> HttpResponse:
    """The sandbox provider (only with PAYMENTS_SANDBOX) confirms at once by itself; a real
    provider calls back later."""
    try:
        amount = paise_from(request.POST.get("amount", ""))
        instrument = request.POST.get("instrument", "")[:100]
        made = cashier.create_deposit(request.user, amount, instrument=instrument)
    except (ValueError, WalletError) as error:
        return _page(request, {"deposit": getattr(error, "message", str(error))})
    if made.status == made.Status.CONFIRMED:
        messages.success(request, f"Deposited {rupees(amount)} (sandbox).")
    else:
        messages.success(request, f"Deposit of {rupees(amount)} started; it shows once confirmed.")
    return redirect("wallet:home")


@login_required
@require_POST
def withdraw(request: AuthenticatedRequest) -> HttpResponse:
    try:
        amount = paise_from(request.POST.get("amount", ""))
        # The form carries a fresh key each time it is shown: a double submit is one request.
        key = request.POST.get("request_key") or None
        made = cashier.request_withdrawal(request.user, amount, request_key=key)
    except (ValueError, WalletError) as error:
        return _page(request, {"withdraw": getattr(error, "message", str(error))})
    if made.tax_withheld:
        messages.success(
            request,
            f"Withdrawal of {rupees(made.amount)} requested ({rupees(made.tax_withheld)} tax withheld "
            "on this year's winnings); staff will review it.",
        )
    else:
        messages.success(request, f"Withdrawal of {rupees(made.amount)} requested; staff will review it.")
    return redirect("wallet:home")


@login_required
@require_POST
def topup(request: AuthenticatedRequest) -> HttpResponse:
    try:
        journal = cashier.topup_chips(request.user)
    except WalletError as error:
        return _page(request, {"chips": error.message})
    if journal.replayed:
        return _page(request, {"chips": "You have had the free top-up for today; come back tomorrow."})
    messages.success(request, "Your practice chips are topped up.")
    return redirect("wallet:home")


@login_required
@require_GET
def tax_year(request: AuthenticatedRequest) -> HttpResponse:
    """The player's financial year so far as CSV (R-PROT-8): opening balance, deposits,
    withdrawals, net winnings and tax withheld, in paise and in rupees."""
    year = tax.year_of(request.user.id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tax_year_{year.start:%Y}_{request.user.pk}.csv"'
    writer = csv.writer(response, lineterminator="\n")
    writer.writerow(["line", "paise", "rupees"])
    writer.writerow(["financial year from", year.start.date().isoformat(), ""])
    for label, value in (
        ("opening balance", year.opening_balance),
        ("deposits", year.deposits),
        ("withdrawals", year.withdrawals),
        ("net winnings", year.net_winnings),
        ("tax withheld", year.tax_withheld),
    ):
        writer.writerow([label, value, rupees(value)])
    return response
