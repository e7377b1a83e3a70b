"""A player's warnings from the risk desk: the one not yet read shows on every page until they
say they have read it."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from fairplay.models import CaseWarning


def unread(user: Any) -> CaseWarning | None:
    """The oldest warning ``user`` has not read yet, or None (and None for anyone signed out)."""
    if not getattr(user, "is_authenticated", False) or getattr(user, "is_staff", False):
        return None
    return CaseWarning.objects.filter(user=user, read_at__isnull=True).order_by("given_at", "id").first()


@transaction.atomic
def mark_read(user: Any, warning_id: int) -> bool:
    """The player read warning ``warning_id`` (theirs): True if it was unread until now."""
    return bool(
        CaseWarning.objects.filter(pk=warning_id, user=user, read_at__isnull=True).update(
            read_at=timezone.now()
        )
    )
