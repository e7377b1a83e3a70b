"""Payouts: an approved withdrawal handed to the payment provider, after its approval commits.

The approval (``wallet.cashier``) writes the payout journal and marks the withdrawal paid in
one transaction, and claims the send (``payout_claimed_at``). Only once that has committed, with
no lock held, is the provider called (:func:`send_after_commit`): a slow gateway holds up
nobody else's deposit or withdrawal, and a payout is never sent for an approval that did not
commit. The provider's reference is then recorded.

If the send fails, or the process dies between the commit and the record, the withdrawal
stays paid with no reference (``Withdrawal.payout_pending``; the player reads "being sent")
and :func:`send_pending` sends it again once its claim is ``PAYOUT_RETRY_SECONDS`` old: every
minute from Celery beat (``wallet.tasks.send_payouts``), or inside daphne in the embedded mode
(``wallet.schedule``). A provider is sent the same withdrawal again only when its answer was
not recorded, so it must pay each withdrawal once (``wallet.providers.PaymentProvider``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from hotpath import statements
from wallet.errors import WalletError
from wallet.models import Withdrawal
from wallet.providers import PaymentProvider, get_provider

log = logging.getLogger(__name__)

#: The most withdrawals one sweep sends (the next sweep takes the rest).
BATCH = 100


def retry_seconds() -> float:
    """How old a claim must be before the sweep sends its payout again (``PAYOUT_RETRY_SECONDS``)."""
    return float(getattr(settings, "PAYOUT_RETRY_SECONDS", 300))


def send_after_commit(withdrawal: Withdrawal, provider: PaymentProvider) -> None:
    """Send the payout of ``withdrawal`` (just approved) once the transaction commits: at once
    when none is open, else when the outermost one commits (never, if it rolls back)."""
    transaction.on_commit(lambda: send(withdrawal, provider))


def send(withdrawal: Withdrawal, provider: PaymentProvider) -> bool:
    """Hand a paid withdrawal's payout to ``provider`` and record its reference on the row (and
    on ``withdrawal``). False, logged, when the provider fails: the sweep sends it again."""
    try:
        reference = provider.send_payout(withdrawal)
    except Exception:  # a gateway's failure must not undo an approval that committed
        log.exception("withdrawal %s: the payout was not sent; it will be sent again", withdrawal.pk)
        return False
    # Only on a withdrawal still paid with no reference. A statement of its own, not a queryset:
    # every approval runs it, and the ORM's building of an update costs more than running it.
    statements.execute(_record_sql(), [reference[:120], withdrawal.pk, Withdrawal.Status.PAID.value, ""])
    withdrawal.provider_ref, withdrawal.payout_claimed_at = reference[:120], None
    return True


def _record_sql() -> str:
    """The update that records a payout's reference (:func:`send`)."""
    quote = connection.ops.quote_name
    columns = [quote(name) for name in ("provider_ref", "payout_claimed_at", "id", "status")]
    return (
        f"UPDATE {quote(Withdrawal._meta.db_table)} SET {columns[0]} = %s, {columns[1]} = NULL "  # noqa: S608
        f"WHERE {columns[2]} = %s AND {columns[3]} = %s AND {columns[0]} = %s"
    )


def send_pending(*, provider: PaymentProvider | None = None, now: datetime | None = None) -> int:
    """Send the payouts that are due again (see the module's notes); the number sent.

    Each is claimed first by a conditional update, so two sweeps at once send it once."""
    now = now or timezone.now()
    stale = Q(payout_claimed_at__isnull=True) | Q(
        payout_claimed_at__lt=now - timedelta(seconds=retry_seconds())
    )
    due = Withdrawal.objects.filter(stale, status=Withdrawal.Status.PAID, provider_ref="")
    ids = list(due.order_by("id").values_list("id", flat=True)[:BATCH])
    if not ids:
        return 0
    if provider is None:
        try:
            provider = get_provider()
        except WalletError as error:
            log.error("%d payout(s) to send, and no provider: %s", len(ids), error.message)
            return 0
    sent = 0
    for withdrawal_id in ids:
        if not due.filter(pk=withdrawal_id).update(payout_claimed_at=now):
            continue  # another sweep took it, or it was sent meanwhile
        sent += send(Withdrawal.objects.get(pk=withdrawal_id), provider)
    return sent
