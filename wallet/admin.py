"""The ledger in the admin, read-only: money moves only through wallet.ledger.

The back-office issue adds the staff actions (approve withdrawals, reversals) on top.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from wallet.models import Account, Deposit, Entry, Journal, Transfer, Withdrawal


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("ref", "kind", "currency", "owner", "balance", "version", "closed_at")
    list_filter = ("kind", "currency")
    search_fields = ("ref", "owner__username")


class TransferInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Transfer
    fields = ("debit", "credit", "amount", "currency")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Journal)
class JournalAdmin(ReadOnlyAdmin):
    list_display = ("key", "kind", "currency", "created_at", "created_by", "reverses")
    list_filter = ("kind", "currency")
    search_fields = ("key",)
    date_hierarchy = "created_at"
    inlines = [TransferInline]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("account", "version", "amount", "balance_after", "journal")
    search_fields = ("account__ref", "journal__key")


@admin.register(Deposit)
class DepositAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "amount", "status", "provider", "provider_ref", "created_at", "decided_at")
    list_filter = ("status", "provider")
    search_fields = ("user__username", "provider_ref")


@admin.register(Withdrawal)
class WithdrawalAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "amount", "status", "decided_by", "created_at", "decided_at")
    list_filter = ("status",)
    search_fields = ("user__username",)
