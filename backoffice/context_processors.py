"""What every staff page shows: a failing reconciliation, and how many withdrawals wait."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from wallet.models import Withdrawal
from wallet.reconcile import last_run


def staff(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not (user.is_authenticated and user.is_staff):
        return {}
    last = last_run()
    pending = Withdrawal.objects.filter(status=Withdrawal.Status.REQUESTED)
    return {
        "backoffice_reconcile_last": last,
        "backoffice_reconcile_failing": last is not None and not last.ok,
        "backoffice_pending_withdrawals": pending.count(),
    }
