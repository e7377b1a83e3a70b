"""Celery tasks of fair play, from beat (``CELERY_BEAT_SCHEDULE``): the signals' daily purge and
the detection scan."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from fairplay import retention
from fairplay.scan import scan as run_scan


@shared_task(ignore_result=True)
def purge_signals() -> int:
    """Celery beat, daily: delete the signals past ``FAIRPLAY_SIGNAL_DAYS``; how many went."""
    return retention.purge()


@shared_task(ignore_result=True)
def scan() -> dict[str, int]:
    """Beat, every ``FAIRPLAY_SCAN_EVERY_SECONDS``: the detectors over the last
    ``FAIRPLAY_SCAN_WINDOW_DAYS`` days; the cases they open or update. Rerunning changes nothing
    more than the first run did (each finding updates its own case)."""
    until = timezone.now()
    report = run_scan(until - timedelta(days=settings.FAIRPLAY_SCAN_WINDOW_DAYS), until)
    return {"deals": report.deals, "findings": len(report.findings), "cases": len(report.cases)}
