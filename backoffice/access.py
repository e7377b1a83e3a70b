"""Who may open a staff page: signed in, active staff, and a role that holds the page's permission."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse


def staff_page(*permissions: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Anonymous: to the log-in page. Not staff, or a role holding none of ``permissions``: 403."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not (request.user.is_active and request.user.is_staff):
                raise PermissionDenied("Staff only.")
            if not any(request.user.has_perm(p) for p in permissions):
                raise PermissionDenied("Your staff role does not include this page.")
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
