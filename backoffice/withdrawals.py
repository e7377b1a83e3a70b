"""The withdrawal queue: waiting withdrawals oldest first, with their age, amount, player and
the player's balance; approve or reject in one click each, with a reason. Through
``backoffice.actions`` (the cashier's four eyes: a large one waits for a second).
Below it, the approved payouts the provider has not taken yet (``wallet.payouts`` sends them
again every minute): one that stays there is a gateway to look at."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from backoffice import actions
from backoffice.access import staff_page
from backoffice.live import waited_words
from wallet.errors import WalletError
from wallet.models import Account, AccountKind, Currency, Withdrawal
from wallet.money import money

DECIDE = "backoffice.decide_withdrawal"


@staff_page("wallet.view_withdrawal", DECIDE)
def queue(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    waiting = list(
        Withdrawal.objects.filter(status=Withdrawal.Status.REQUESTED)
        .select_related("user", "first_approved_by")
        .order_by("created_at", "id")[:200]
    )
    wallets = Account.objects.filter(
        kind=AccountKind.USER, currency=Currency.INR, owner__in=[w.user_id for w in waiting]
    )
    balances = dict(wallets.values_list("owner_id", "balance"))
    rows = [
        {
            "withdrawal": w,
            "age": waited_words(now - w.created_at),
            "amount": money(w.amount, w.currency),
            "balance": money(balances.get(w.user_id, 0), Currency.INR),
            "first_mine": w.first_approved_by_id == request.user.pk,
        }
        for w in waiting
    ]
    unsent = Withdrawal.objects.filter(status=Withdrawal.Status.PAID, provider_ref="").select_related("user")
    sending = [
        {
            "withdrawal": w,
            "age": waited_words(now - (w.decided_at or now)),
            "amount": money(w.amount, w.currency),
        }
        for w in unsent.order_by("decided_at", "id")[:200]
    ]
    return render(
        request,
        "backoffice/withdrawals.html",
        {"rows": rows, "sending": sending, "may_decide": request.user.has_perm(DECIDE)},
    )


@require_POST
@staff_page(DECIDE)
def decide(request: HttpRequest, withdrawal_id: int) -> HttpResponse:
    reason = request.POST.get("reason", "")
    approve = request.POST.get("decision") == "approve"
    try:
        if approve:
            done = actions.approve_withdrawal(withdrawal_id, reason, request.user)
            if done.status == Withdrawal.Status.REQUESTED:
                messages.success(
                    request, f"Withdrawal {done.pk}: approved once; a second staff member pays it."
                )
            elif done.payout_pending:
                messages.warning(
                    request,
                    f"Withdrawal {done.pk} is approved ({money(done.amount, done.currency)}), but the "
                    "payment provider has not taken it yet: it is sent again every minute.",
                )
            else:
                messages.success(
                    request, f"Withdrawal {done.pk} is paid: {money(done.amount, done.currency)}."
                )
        else:
            done = actions.reject_withdrawal(withdrawal_id, reason, request.user)
            messages.success(request, f"Withdrawal {done.pk} rejected: the money is back in the wallet.")
    except WalletError as error:
        messages.error(request, error.message)
    except Withdrawal.DoesNotExist:
        messages.error(request, "There is no such withdrawal.")
    return redirect("backoffice:withdrawals")
