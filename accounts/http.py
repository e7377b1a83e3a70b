"""The request of a signed-in user, for the type checker: behind ``login_required`` (or a
staff check) ``request.user`` is a :class:`~accounts.models.User`, never the anonymous one."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import User


class AuthenticatedRequest(HttpRequest):
    user: User
