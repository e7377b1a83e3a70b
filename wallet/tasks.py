"""Celery tasks of the wallet: the scheduled reconciliation (``CELERY_BEAT_SCHEDULE``, hourly)."""

from __future__ import annotations

from celery import shared_task

from wallet import reconcile


@shared_task(ignore_result=True)
def reconcile_ledger() -> bool:
    """Celery beat, hourly: run the auditor and keep its verdict; True when the ledger reconciles."""
    return reconcile.run("schedule").ok
