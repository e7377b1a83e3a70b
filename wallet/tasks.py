"""Celery tasks of the wallet, from beat (``CELERY_BEAT_SCHEDULE``): the reconciliation, hourly,
and the payouts still to send, every minute."""

from __future__ import annotations

from celery import shared_task

from wallet import payouts, reconcile


@shared_task(ignore_result=True)
def reconcile_ledger() -> bool:
    """Celery beat, hourly: run the auditor and keep its verdict; True when the ledger reconciles."""
    return reconcile.run("schedule").ok


@shared_task(ignore_result=True)
def send_payouts() -> int:
    """Celery beat, every minute: send the payouts whose send failed or never happened
    (``wallet.payouts.send_pending``); the number sent."""
    return payouts.send_pending()
