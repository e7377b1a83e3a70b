"""Admin building blocks for staff (``backoffice.admin`` registers the pages).

- :class:`StaffViewMixin`: staff see what their groups' permissions allow (backoffice.roles),
  and no filter or lookup may reach into a JSON field that can hold cards or seeds.
- :class:`ReadOnlyMixin`: no add, change or delete, whatever the user's permissions (a POST
  to a change, add or delete page is refused with 403 by Django's admin).
- :class:`AuditedMixin`: every add, change or delete through the admin also appends an audit row.
- :func:`reason_action`: an admin action that asks for a reason on a confirmation page first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from backoffice.forms import ReasonForm
from backoffice.models import AuditAction, AuditLog
from games.errors import GameError
from wallet.errors import WalletError

# Django's admin classes are generic only to the type checker (django-stubs); the mixins below
# are ModelAdmins to it, so their ``super()`` calls are checked.
if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
    _AdminBase = admin.ModelAdmin[Any]
else:
    ModelAdmin = admin.ModelAdmin
    TabularInline = admin.TabularInline
    _AdminBase = object


def is_staff(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff)


#: Fields that hold (or may hold) cards, hands or seeds of a deal that is not over. No admin
#: filter, lookup, search or ordering may touch them: ``?state__deal__seed__startswith=`` would
#: answer yes or no about the hidden seed.
SECRET_FIELDS = frozenset({"state", "data", "result", "hand", "grouping", "seed", "toss_seed", "players"})


class StaffViewMixin(_AdminBase):
    """Django's own view permission decides (granted by the staff groups); lookups stay off
    the secret fields."""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if any(part in SECRET_FIELDS for part in lookup.split("__")):
            return False
        return bool(super().lookup_allowed(lookup, value, request))

    def get_actions(self, request: HttpRequest) -> Any:
        """Only the actions the staff member's permissions allow (see :func:`reason_action`)."""
        found = super().get_actions(request)
        allowed = {}
        for name, item in found.items():
            needed = getattr(item[0], "required_permission", None) if item else None
            if not needed or request.user.has_perm(needed):
                allowed[name] = item
        return allowed


class _NoWrites:
    """Nobody adds, changes or deletes these rows here, whatever their permissions."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyMixin(_NoWrites, StaffViewMixin):
    """A staff page that shows rows and never writes them."""


class ReadOnlyInline(_NoWrites, TabularInline):
    """Rows shown under their parent, never added, changed or deleted there."""

    extra = 0
    can_delete = False


class AuditedMixin(_AdminBase):
    """Write an audit row next to Django's own admin log entry for every add, change, delete."""

    def log_addition(self, request: HttpRequest, obj: Model, message: Any) -> Any:
        entry = super().log_addition(request, obj, message)
        _audit(request, AuditAction.ADMIN_ADD, obj, entry.get_change_message() or "Added.")
        return entry

    def log_change(self, request: HttpRequest, obj: Model, message: Any) -> Any:
        entry = super().log_change(request, obj, message)
        _audit(request, AuditAction.ADMIN_CHANGE, obj, entry.get_change_message() or "No fields changed.")
        return entry

    def log_deletions(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        for obj in queryset:
            _audit(request, AuditAction.ADMIN_DELETE, obj, "Deleted.")
        return super().log_deletions(request, queryset)


def _audit(request: HttpRequest, action: AuditAction, obj: Model, reason: str) -> None:
    assert request.user.is_authenticated, "the admin is for signed-in staff only"
    AuditLog.objects.create(
        actor=request.user,
        action=action,
        target=f"{obj._meta.label_lower}:{obj.pk}",
        reason=reason,
        details={"object": str(obj)},
    )


def reason_action(
    name: str,
    description: str,
    perform: Callable[[Any, str, Any], Any],
    *,
    permission: str,
    warning: str = "",
) -> Callable[[Any, HttpRequest, QuerySet[Any]], TemplateResponse | None]:
    """An admin action that first shows the selected objects and asks for a reason.

    ``perform(obj, reason, user)`` runs once per object, each in its own transaction; a
    refusal (``WalletError``/``GameError``) is shown as an error and the others go on. Only
    staff holding ``permission`` see the action (the action function checks it again).
    """

    def action(modeladmin: ModelAdmin, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        if not request.user.has_perm(permission):
            modeladmin.message_user(request, "Your role does not allow this action.", messages.ERROR)
            return None
        applying = request.POST.get("apply") == name
        form = ReasonForm(request.POST if applying else None)
        if applying and form.is_valid():
            done = 0
            for obj in queryset:
                try:
                    perform(obj, form.cleaned_data["reason"], request.user)
                except (WalletError, GameError) as error:
                    modeladmin.message_user(request, f"{obj}: {error.message}", messages.ERROR)
                else:
                    done += 1
            if done:
                modeladmin.message_user(request, f"{description}: done for {done}.", messages.SUCCESS)
            return None
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": description,
            "description": description,
            "warning": warning,
            "objects": list(queryset),
            "form": form,
            "action": name,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "opts": modeladmin.model._meta,
        }
        return TemplateResponse(
            request, "admin/backoffice/reason.html", context, status=400 if applying else 200
        )

    action.__name__ = name
    action.__dict__["required_permission"] = permission  # for get_actions
    return admin.action(description=description)(action)
