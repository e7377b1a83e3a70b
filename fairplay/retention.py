"""How long signals are kept: ``FAIRPLAY_SIGNAL_DAYS`` (180 by default), then purged by a daily
run (Celery beat's ``fairplay.tasks.purge_signals``, or ``fairplay.schedule`` inside daphne).

Only the signals go: the links and cases they led to stay, with their reasons and dates, and an
identity check keeps its document's keyed hash as long as the check itself is kept.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from fairplay.models import Signal

DEFAULT_DAYS = 180


def days() -> int:
    return int(getattr(settings, "FAIRPLAY_SIGNAL_DAYS", DEFAULT_DAYS))


def purge(*, now: datetime | None = None) -> int:
    """Delete the signals older than :func:`days`; returns how many went."""
    cutoff = (now or timezone.now()) - timedelta(days=days())
    deleted, _ = Signal.objects.filter(at__lt=cutoff).delete()
    return deleted
