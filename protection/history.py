"""Write the record of a change to a player's protection (``ProtectionEvent``)."""

from __future__ import annotations

from typing import Any

from protection.models import ProtectionEvent


def record(user: Any, kind: str, *, by: Any = None, **details: Any) -> ProtectionEvent:
    """Record that ``kind`` changed for ``user``, by the player (``by`` None) or a staff member.
    Call it inside the change's own transaction."""
    return ProtectionEvent.objects.create(
        user_id=user if isinstance(user, int) else user.pk,
        by_id=None if by is None else (by if isinstance(by, int) else by.pk),
        kind=kind,
        details=details,
    )
