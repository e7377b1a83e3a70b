"""The reminder every page shows a registered player in the last minutes before a start."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.http import HttpRequest
from django.utils import timezone

from tournaments.models import Registration

#: How long before its start a tournament is announced on every page to its registered players.
REMINDER = timedelta(minutes=10)


def _soon(request: HttpRequest) -> dict[str, Any] | None:
    """The registered player's next tournament starting within :data:`REMINDER`: one query
    through the registrations' player index, made at most once a request and only when a page
    shows it."""
    cached: dict[str, Any] | None
    if hasattr(request, "_tournament_soon"):
        cached = request._tournament_soon
        return cached
    cached = None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        now = timezone.now()
        entry = (
            Registration.objects.filter(
                player_id=user.pk,
                status="registered",
                tournament__status="registering",
                tournament__start_at__gt=now,
                tournament__start_at__lte=now + REMINDER,
            )
            .order_by("tournament__start_at")
            .values("tournament_id", "tournament__name", "tournament__start_at")
            .first()
        )
        if entry is not None and entry["tournament__start_at"] is not None:
            minutes = max(1, round((entry["tournament__start_at"] - now).total_seconds() / 60))
            cached = {
                "id": entry["tournament_id"],
                "name": entry["tournament__name"],
                "start_at": entry["tournament__start_at"],
                "minutes": minutes,
            }
    request._tournament_soon = cached  # type: ignore[attr-defined]
    return cached


def reminder(request: HttpRequest) -> dict[str, Any]:
    """``tournament_soon``: read lazily (a template calls it), so a page that never shows the
    banner makes no query."""
    return {"tournament_soon": lambda: _soon(request)}
