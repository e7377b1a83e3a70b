"""What a locked-out log-in gets (django-axes ``AXES_LOCKOUT_CALLABLE``): the API's JSON error
under /api/, a page in words elsewhere. Status 429 either way."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

MESSAGE = "Too many failed log-ins: this account is locked here for a while; try again later."


def lockout_response(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"error": "locked_out", "message": MESSAGE}, status=429)
    return render(request, "accounts/locked_out.html", status=429)
