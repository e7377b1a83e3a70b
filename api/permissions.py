from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission


class IsStaff(BasePermission):
    message = "Staff only."

    def has_permission(self, request: Any, view: Any) -> bool:
        user = request.user
        return bool(user and user.is_authenticated and user.is_active and user.is_staff)
