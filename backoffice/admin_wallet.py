"""The ledger in the admin: read-only for everyone; money moves only through wallet.ledger.

Staff actions, each asking for a reason and writing one audit row (``backoffice.actions``):
reverse a journal (a new reversing journal; nothing is edited), approve or reject a
withdrawal (through ``wallet.cashier``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from backoffice import actions
from backoffice.admin_mixins import ModelAdmin, ReadOnlyInline, ReadOnlyMixin, reason_action
from wallet.models import Account, Deposit, Entry, Journal, Transfer, Withdrawal
from wallet.money import money as format_money


def money(value: int, currency: str = "INR") -> str:
    """Rupees, or chips on a chips account: never ₹ for chips (wallet.money)."""
    return format_money(value, currency)


@admin.register(Account)
class AccountAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ("ref", "kind", "currency", "owner", "shown_balance", "version", "closed_at")
    list_filter = ("kind", "currency")
    search_fields = ("ref", "owner__username")
    readonly_fields = ("shown_balance", "recent_entries")
    fields = (
        "ref",
        "kind",
        "currency",
        "owner",
        "shown_balance",
        "version",
        "allow_negative",
        "closed_at",
        "recent_entries",
    )

    @admin.display(description="Balance", ordering="balance")
    def shown_balance(self, obj: Account) -> str:
        return f"{money(obj.balance, obj.currency)} ({obj.balance} hundredths)"

    @admin.display(description="Last 50 entries")
    def recent_entries(self, obj: Account) -> str:
        entries = Entry.objects.filter(account=obj).select_related("journal").order_by("-version")[:50]
        return format_html(
            "<table><tr><th>v</th><th>journal</th><th>kind</th><th>amount</th>"
            "<th>balance after</th></tr>{}</table>",
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                (
                    (
                        e.version,
                        e.journal.key,
                        e.journal.kind,
                        money(e.amount, obj.currency),
                        money(e.balance_after, obj.currency),
                    )
                    for e in entries
                ),
            ),
        )


class TransferInline(ReadOnlyInline):
    model = Transfer
    fields = ("debit", "credit", "amount", "currency")
    readonly_fields = fields


def _reverse(journal: Journal, reason: str, user: Any) -> Any:
    return actions.reverse_journal(journal, reason, user)


@admin.register(Journal)
class JournalAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ("key", "kind", "currency", "created_at", "created_by", "reverses")
    list_filter = ("kind", "currency")
    search_fields = ("key",)
    date_hierarchy = "created_at"
    inlines = [TransferInline]
    fields = (
        "key",
        "kind",
        "currency",
        "meta",
        "content_hash",
        "created_at",
        "created_by",
        "reverses",
        "reversed",
    )
    readonly_fields = fields
    actions = [
        reason_action(
            "reverse_journals",
            "Reverse selected journals",
            _reverse,
            permission="backoffice.reverse_journal",
            warning="Each journal gets a new journal moving its money back. Nothing is edited or deleted. "
            "A rupee journal moving more than the four-eyes line of withdrawals is only asked for: a second "
            "staff member confirms it on the player's statement in the back office. Pool money and a "
            "withdrawal's journals are never reversed.",
        )
    ]

    @admin.display(description="Reversed by")
    def reversed(self, obj: Journal) -> str:
        reversal = Journal.objects.filter(reverses=obj).first()
        return reversal.key if reversal else "-"


@admin.register(Entry)
class EntryAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ("account", "version", "amount", "balance_after", "journal")
    search_fields = ("account__ref", "journal__key")
    list_select_related = ("account", "journal")


@admin.register(Deposit)
class DepositAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = (
        "id",
        "user",
        "shown_amount",
        "status",
        "provider",
        "provider_ref",
        "created_at",
        "decided_at",
    )
    list_filter = ("status", "provider")
    search_fields = ("user__username", "provider_ref")

    @admin.display(description="Amount", ordering="amount")
    def shown_amount(self, obj: Deposit) -> str:
        return money(obj.amount, obj.currency)


def _approve(withdrawal: Withdrawal, reason: str, user: Any) -> Any:
    return actions.approve_withdrawal(withdrawal.pk, reason, user)


def _reject(withdrawal: Withdrawal, reason: str, user: Any) -> Any:
    return actions.reject_withdrawal(withdrawal.pk, reason, user)


def _correct(withdrawal: Withdrawal, reason: str, user: Any) -> Any:
    return actions.correct_withdrawal(withdrawal.pk, reason, user)


@admin.register(Withdrawal)
class WithdrawalAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = (
        "id",
        "user",
        "shown_amount",
        "status",
        "first_approved_by",
        "decided_by",
        "reason",
        "created_at",
        "decided_at",
    )
    list_filter = ("status",)
    search_fields = ("user__username",)
    actions = [
        reason_action(
            "approve_withdrawals",
            "Approve selected withdrawals (pay out)",
            _approve,
            permission="backoffice.decide_withdrawal",
            warning="The held money leaves through the cashier to the player's bank. Nobody approves "
            "their own; a large withdrawal needs a second staff member's approval too.",
        ),
        reason_action(
            "reject_withdrawals",
            "Reject selected withdrawals (money back to the wallet)",
            _reject,
            permission="backoffice.decide_withdrawal",
        ),
        reason_action(
            "correct_withdrawals",
            "Paid withdrawals returned by the bank: give the money back (compensating entry)",
            _correct,
            permission="backoffice.decide_withdrawal",
            warning="A new journal moves the amount from the cashier back to the wallet; "
            "nothing is reversed.",
        ),
    ]

    @admin.display(description="Amount", ordering="amount")
    def shown_amount(self, obj: Withdrawal) -> str:
        return money(obj.amount, obj.currency)
