"""A player as protection takes one (a user or an id), and the lock on their row."""

from __future__ import annotations

from typing import Any


def uid(user: Any) -> int:
    return user if isinstance(user, int) else int(user.pk)


def lock(user: Any) -> None:
    """Serialise one player's protection changes (and their joins: ``games.services`` locks the
    same row first)."""
    from accounts.models import User

    list(User.objects.select_for_update().filter(pk=uid(user)).values_list("pk", flat=True))
