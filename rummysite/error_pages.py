"""The site's answer to an error it did not expect: 503 "busy, try again" when every database
connection of the process is in use (``hotpath.busy``), else the 500 page. Both are plain pages
that need no database."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader

from hotpath.busy import BUSY, RETRY_AFTER_SECONDS, pool_exhausted


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's ``handler500``: called while the exception is being handled."""
    if pool_exhausted(sys.exc_info()[1]):
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse({"error": "busy", "message": BUSY}, status=503)
        else:
            response = HttpResponse(loader.render_to_string("503.html", {"message": BUSY}), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return HttpResponse(loader.render_to_string("500.html"), status=500)
