"""Celery tasks of fair play, from beat (``CELERY_BEAT_SCHEDULE``): the signals' daily purge."""

from __future__ import annotations

from celery import shared_task

from fairplay import retention


@shared_task(ignore_result=True)
def purge_signals() -> int:
    """Celery beat, daily: delete the signals past ``FAIRPLAY_SIGNAL_DAYS``; how many went."""
    return retention.purge()
