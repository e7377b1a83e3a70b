"""Who may open a staff page: signed in, active staff, and a role that holds the page's permission.

A refusal is a page in the back office's frame (status 403) that says in words what is missing:
the permission, the roles that have it, the staff member's own roles, and who gives roles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

from django.contrib.auth.models import Permission
from django.contrib.auth.views import redirect_to_login
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User
from backoffice.roles import ROLES
from games.words import word

#: Who gives roles: a role that may change users (the admin role; superusers too).
GRANTS = "accounts.change_user"


def staff_page(*permissions: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Anonymous: to the log-in page. Not staff, or a role holding none of ``permissions``: the
    refusal page (403)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not (request.user.is_active and request.user.is_staff):
                return refused(request, ())
            if not any(request.user.has_perm(p) for p in permissions):
                return refused(request, permissions)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def refused(request: HttpRequest, permissions: Iterable[str]) -> HttpResponse:
    """The 403 page: for a player, that this is for staff; for staff, what their role lacks."""
    if not getattr(request.user, "is_staff", False):
        return render(request, "backoffice/staff_only.html", status=403)
    wanted = list(permissions)
    roles = [role for role in ROLES if any(holds(role, p) for p in wanted)]
    context = {
        "needs": needs(permission_names(wanted), roles),
        "own": in_words(sorted(request.user.groups.values_list("name", flat=True), key=_role_order)),
        "granters": granters(),
    }
    return render(request, "backoffice/forbidden.html", context, status=403)


def needs(names: list[str], roles: list[str]) -> str:
    """'the permission “Can view table”, which the Support, Risk and Admin roles have'."""
    if not names:
        return ""
    quoted = in_words([f"“{name}”" for name in names], joiner=" or ", words=False)
    text = f"the permission {quoted}" if len(names) == 1 else f"one of the permissions {quoted}"
    if roles:
        text += f", which the {in_words(roles)} role" + (" has" if len(roles) == 1 else "s have")
    return text


def holds(role: str, permission: str) -> bool:
    """Whether the group ``role`` is given ``permission`` ("app.codename") by :data:`ROLES`."""
    given = ROLES.get(role, [])
    return given == ["*"] or permission in given


def permission_names(permissions: Iterable[str]) -> list[str]:
    """Each permission's name as Django keeps it ("Can read the reports"), in the order given."""
    found: dict[str, str] = {}
    query = Q(pk__in=[])
    for full in permissions:
        app_label, codename = full.split(".")
        query |= Q(content_type__app_label=app_label, codename=codename)
    for app_label, codename, name in Permission.objects.filter(query).values_list(
        "content_type__app_label", "codename", "name"
    ):
        found[f"{app_label}.{codename}"] = name
    return [found.get(full, full) for full in permissions]


def granters(limit: int = 5) -> list[str]:
    """Active staff who may give roles (change users): superusers, or a role holding :data:`GRANTS`."""
    app_label, codename = GRANTS.split(".")
    may = Q(is_superuser=True) | Q(
        groups__permissions__content_type__app_label=app_label, groups__permissions__codename=codename
    )
    found = User.objects.filter(may, is_active=True, is_staff=True).order_by("username")
    return list(found.values_list("username", flat=True).distinct()[:limit])


def in_words(items: list[str], *, joiner: str = " and ", words: bool = True) -> str:
    """["support", "risk", "admin"] -> "Support, Risk and Admin" (roles in words, ``words``)."""
    names = [word("role", item) if words else item for item in items]
    return joiner.join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def _role_order(role: str) -> int:
    return list(ROLES).index(role) if role in ROLES else len(ROLES)
