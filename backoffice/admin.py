"""The admin's pages: the audit log's own, read-only, and (imported here, so that the apps
below import nothing above themselves) those of accounts, wallet, games and tournaments in ``admin_*``.
The building blocks they share are in :mod:`backoffice.admin_mixins`."""

from __future__ import annotations

from django.contrib import admin

from backoffice import (  # noqa: F401 (their registrations)
    admin_accounts,
    admin_games,
    admin_tournaments,
    admin_wallet,
)
from backoffice.admin_mixins import ModelAdmin, ReadOnlyMixin
from backoffice.models import AuditLog


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ("at", "actor", "action", "target", "reason")
    list_filter = ("action",)
    search_fields = ("target", "reason", "actor__username")
    date_hierarchy = "at"
    fields = ("at", "actor", "action", "target", "reason", "details")
    readonly_fields = fields
