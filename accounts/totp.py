"""Two-factor sign-in for staff (django-otp): a TOTP app, and ten one-time recovery codes.

With ``STAFF_TOTP_REQUIRED`` (default: DEBUG off), a staff member reaches /admin/, the back
office and the staff API only from a session verified with a code from their authenticator
app or a recovery code (:class:`StaffTOTPMiddleware`, ``api.permissions.IsStaff``), and gets
an API token only by sending a current code with the password. A staff member without a
device is sent to set one up first: scan the QR code (or type the key), confirm with a code,
and write down the recovery codes, shown once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

#: Paths that need a verified session for staff (but the pages that verify it).
GUARDED = ("/admin/", "/backoffice/", "/api/staff/")
SETUP = "/backoffice/totp/"


def required() -> bool:
    return bool(getattr(settings, "STAFF_TOTP_REQUIRED", not settings.DEBUG))


def verified(user: Any) -> bool:
    is_verified = getattr(user, "is_verified", None)
    return bool(is_verified and is_verified())


def wait_before_trying(devices: Iterable[Any]) -> int:
    """Seconds before the first of ``devices`` takes a code again after wrong ones (django-otp
    doubles the wait from 1 s with each wrong code in a row); 0 when one takes a code now."""
    waits = []
    for device in devices:
        allowed, data = device.verify_is_allowed()
        if allowed or not data or "locked_until" not in data:
            return 0
        waits.append(max(1, math.ceil((data["locked_until"] - timezone.now()).total_seconds())))
    return min(waits, default=0)


def wrong_code(wait: int, advice: str) -> str:
    """The words for a code refused: wrong, or not tried at all because of wrong ones before."""
    if wait:
        unit = "second" if wait == 1 else "seconds"
        return f"Too many wrong codes in a row: wait {wait} {unit}, then enter the current code."
    return advice


def check_code(user: Any, code: str) -> Any:
    """The device (TOTP, or recovery codes: each used once) that accepts ``code``, or None."""
    code = "".join((code or "").split())
    if not code or len(code) > 16:
        return None
    with transaction.atomic():
        for device in TOTPDevice.objects.filter(user=user, confirmed=True):
            if device.verify_token(code):
                return device
        for device in StaticDevice.objects.filter(user=user, confirmed=True):
            if device.verify_token(code):
                return device
    return None


class StaffTOTPMiddleware:
    """Staff on a guarded path with a session not verified by TOTP: sent to verify (or set
    up) their second factor; the staff API answers 403 ``totp_required``. Token-authenticated
    API calls are checked by ``IsStaff`` (a staff token is issued only with a code)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            required()
            and user is not None
            and user.is_authenticated
            and user.is_staff
            and request.path.startswith(GUARDED)
            and not request.path.startswith(SETUP)
            and not verified(user)
        ):
            if request.path.startswith("/api/"):
                if "HTTP_AUTHORIZATION" in request.META:
                    return self.get_response(request)  # a token: IsStaff decides
                return JsonResponse(
                    {
                        "error": "totp_required",
                        "message": "Verify your sign-in with your authenticator code.",
                    },
                    status=403,
                )
            return redirect(f"{SETUP}?next={quote(request.get_full_path())}")
        return self.get_response(request)
