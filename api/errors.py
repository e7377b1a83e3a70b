"""Every API error is JSON: ``{"error": code, "message": plain words}`` (plus ``field_errors`` for
validation), whatever raised it: DRF (400/401/403/404/405/406/415/429), Django's 404 and 403,
the wallet (``WalletError``), the tables (``GameError``), the tournaments (``TournamentError``),
an unknown URL under ``/api/``, or a bug (500, logged)."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import GameError
from hotpath.busy import BUSY, RETRY_AFTER_SECONDS, pool_exhausted
from protection.refusal import ProtectionError
from tournaments.services import TournamentError
from wallet.errors import Code, WalletError

logger = logging.getLogger(__name__)

#: Wallet refusals that are the caller's input; the rest (funds, decided, conflict) are 409.
BAD_INPUT = {Code.BAD_AMOUNT, Code.BAD_REQUEST, Code.LIMIT_EXCEEDED, Code.BELOW_MINIMUM}
STATUS_OF = {Code.NOT_FOUND: 404, Code.NOT_STAFF: 403}

CODES = {
    exceptions.ValidationError: "invalid",
    exceptions.ParseError: "parse_error",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
}


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": code, "message": message, **extra}


def wallet_status(code: Code) -> int:
    if code in STATUS_OF:
        return STATUS_OF[code]
    return 400 if code in BAD_INPUT else 409


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    if isinstance(exc, WalletError):
        return Response(error_body(exc.code.value, exc.message), status=wallet_status(exc.code))
    if isinstance(exc, GameError):
        return Response(error_body(exc.code, exc.message), status=403 if exc.code == "private_table" else 409)
    if isinstance(exc, TournamentError):
        return Response(error_body(exc.code, exc.message), status=404 if exc.code == "no_tournament" else 409)
    if isinstance(exc, ProtectionError):  # a limit, break or identity request refused
        return Response(error_body(exc.code, exc.message), status=400 if exc.code.startswith("bad_") else 409)
    if isinstance(exc, RequestDataTooBig):  # over DATA_UPLOAD_MAX_MEMORY_SIZE, before any parser
        return Response(error_body("too_large", "The request body is too large."), status=413)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None and pool_exhausted(exc):
        response = Response(error_body("busy", BUSY), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if response is None:
        logger.exception("API error", exc_info=exc)
        return Response(
            error_body("server_error", "Something went wrong on our side; it has been logged."), 500
        )
    assert isinstance(exc, exceptions.APIException)
    code = next((name for kind, name in CODES.items() if isinstance(exc, kind)), exc.default_code)
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body(code, _first_message(exc.detail), field_errors=_as_fields(exc.detail))
    elif isinstance(exc, exceptions.Throttled):
        wait = int(getattr(exc, "wait", None) or 0)
        response.data = error_body(code, f"Too many requests: try again in {wait} seconds.")
    else:
        response.data = error_body(code, str(exc.detail))
    return response


def _first_message(detail: Any, path: str = "") -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            return _first_message(value, f"{path}.{name}" if path and name else name or path)
        return "The request is not valid."
    if isinstance(detail, list):
        return _first_message(detail[0], path) if detail else "The request is not valid."
    return f"{path}: {detail}" if path else str(detail)


def _as_fields(detail: Any) -> dict[str, Any]:
    if isinstance(detail, dict):
        return {str(key): value for key, value in detail.items()}
    return {"non_field_errors": detail}


@csrf_exempt
def not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    """Any URL under /api/ that names no endpoint."""
    return JsonResponse(error_body("not_found", f"No API endpoint at {request.path}."), status=404)
