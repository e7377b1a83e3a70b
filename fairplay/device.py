"""The first-party device id: a long-lived random cookie (``rd``) every browser gets, and the
``X-Device-Id`` header an API client sends (a value it generates once and keeps).

Two accounts that log in or sit down from the same device id are strongly linked
(``fairplay.links``). The id is random and means nothing by itself; only its shape is checked
(22 to 64 letters, digits, ``-`` or ``_``): anything else is ignored, as if none were sent, and a
browser then gets a fresh cookie.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

COOKIE = "rd"
HEADER = "HTTP_X_DEVICE_ID"
#: Two years, in seconds.
COOKIE_AGE = 2 * 365 * 24 * 3600
_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,64}")


def valid(value: object) -> str:
    """``value`` if it has a device id's shape, else ""."""
    text = value if isinstance(value, str) else ""
    return text if _SHAPE.fullmatch(text) else ""


def new_id() -> str:
    return secrets.token_urlsafe(32)


def device_of(request: Any) -> str:
    """The request's device id: the one the middleware settled on, else the header's or the
    cookie's if well formed, else ""."""
    found = getattr(request, "device_id", None)
    if isinstance(found, str):
        return found
    meta = getattr(request, "META", {})
    return valid(meta.get(HEADER)) or valid(getattr(request, "COOKIES", {}).get(COOKIE))


class DeviceMiddleware:
    """Sets ``request.device_id``: the ``X-Device-Id`` header's, else the cookie's, else (outside
    the API, whose clients send the header) a new one, set as the cookie on the response: HttpOnly,
    SameSite=Lax, Secure unless ``DEBUG``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = valid(request.META.get(HEADER))
        cookie = valid(request.COOKIES.get(COOKIE))
        minted = "" if header or cookie or request.path.startswith("/api/") else new_id()
        request.device_id = header or cookie or minted  # type: ignore[attr-defined]
        response = self.get_response(request)
        if minted:
            response.set_cookie(
                COOKIE,
                minted,
                max_age=COOKIE_AGE,
                httponly=True,
                samesite="Lax",
                secure=not settings.DEBUG,
            )
        return response
