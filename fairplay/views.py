"""The player's side of fair play: saying they have read the risk desk's warning."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from fairplay.warnings import mark_read


@login_required
@require_POST
def read_warning(request: HttpRequest, warning_id: int) -> HttpResponse:
    """Mark the warning read, then back to the page it was read on."""
    mark_read(request.user, warning_id)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, require_https=request.is_secure()):
        back = "/"
    return redirect(back)
