"""What every page needs from fair play: the warning the player has not read yet, read only
when the page shows it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from fairplay.warnings import unread


def warning(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    return {"fairplay_warning": SimpleLazyObject(lambda: unread(user) or "")}
