from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission


class IsStaff(BasePermission):
    """Staff, and of a role holding the view's ``required_permission`` (backoffice.roles)."""

    message = "Staff only."

    def has_permission(self, request: Any, view: Any) -> bool:
        user = request.user
        if not (user and user.is_authenticated and user.is_active and user.is_staff):
            return False
        from accounts import totp

        if totp.required() and not _by_token(request) and not totp.verified(user):
            self.message = "Verify your sign-in with your authenticator code (two-factor) first."
            return False
        needed = getattr(view, "required_permission", None)
        if needed and not user.has_perm(needed):
            self.message = "Your staff role does not allow this."
            return False
        return True


def _by_token(request: Any) -> bool:
    """Authenticated by an API token: a staff token is issued only with a TOTP code."""
    from rest_framework.authtoken.models import Token

    return isinstance(getattr(request, "auth", None), Token)
