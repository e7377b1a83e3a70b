"""Users in the admin: staff whose role may view users look (with wallet balances and recent
games); changing a user needs Django's own permission (the admin role), and each change is
audited. The risk role bans and unbans players (an action asking for a reason, audited)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from accounts.models import User
from backoffice import actions
from backoffice.admin_mixins import AuditedMixin, StaffViewMixin, reason_action
from games.models import Seat
from wallet.models import Account, AccountKind, Currency
from wallet.money import chips, money, rupees


def _balance(currency: str) -> Subquery:
    return Subquery(
        Account.objects.filter(owner=OuterRef("pk"), kind=AccountKind.USER, currency=currency).values(
            "balance"
        )[:1]
    )


# Generic only to the type checker (django-stubs), as in backoffice.admin_mixins.
if TYPE_CHECKING:
    _UserAdminBase = BaseUserAdmin[User]
else:
    _UserAdminBase = BaseUserAdmin


@admin.register(User)
class UserAdmin(AuditedMixin, StaffViewMixin, _UserAdminBase):
    list_display = (
        "username",
        "display_name",
        "email",
        "inr_balance",
        "chips_balance",
        "is_staff",
        "is_bot",
        "date_joined",
    )
    list_filter = ("is_staff", "is_bot", "is_active")
    actions = [
        reason_action(
            "ban_users",
            "Ban selected players (they are signed out everywhere)",
            lambda user, reason, by: actions.ban_user(user.pk, reason, by),
            permission="backoffice.ban_user",
        ),
        reason_action(
            "unban_users",
            "Lift the ban of selected players",
            lambda user, reason, by: actions.unban_user(user.pk, reason, by),
            permission="backoffice.ban_user",
        ),
    ]
    readonly_fields = ("wallet_balances", "recent_games")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Player", {"fields": ("display_name", "adult_confirmed_at", "is_bot")}),
        ("Wallet and games", {"fields": ("wallet_balances", "recent_games")}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        users: QuerySet[User] = super().get_queryset(request)
        return users.annotate(inr=_balance(Currency.INR), chips=_balance(Currency.CHIPS))

    @admin.display(description="INR", ordering="inr")
    def inr_balance(self, obj: User) -> str:
        return rupees(getattr(obj, "inr", None) or 0)

    @admin.display(description="Chips", ordering="chips")
    def chips_balance(self, obj: User) -> str:
        return chips(getattr(obj, "chips", None) or 0)

    @admin.display(description="Wallet balances")
    def wallet_balances(self, obj: User) -> str:
        accounts = Account.objects.filter(owner=obj).order_by("currency", "kind", "ref")
        return format_html(
            "<table><tr><th>account</th><th>kind</th><th>currency</th><th>balance</th></tr>{}</table>",
            format_html_join(
                "",
                '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>',
                (
                    (
                        reverse("admin:wallet_account_change", args=[a.pk]),
                        a.ref,
                        a.kind,
                        a.currency,
                        money(a.balance, a.currency),
                    )
                    for a in accounts
                    if a.kind in (AccountKind.USER, AccountKind.WITHDRAWAL_HOLD) or a.balance
                ),
            ),
        )

    @admin.display(description="Recent games (last 20 seats)")
    def recent_games(self, obj: User) -> str:
        seats = Seat.objects.filter(user=obj).select_related("table__template").order_by("-joined_at")[:20]
        return format_html(
            "<table><tr><th>table</th><th>template</th><th>status</th><th>seat</th><th>joined</th></tr>{}</table>",
            format_html_join(
                "",
                '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
                (
                    (
                        reverse("admin:games_table_change", args=[s.table_id]),
                        s.table_id,
                        s.table.template.name,
                        s.table.status,
                        s.status,
                        s.joined_at,
                    )
                    for s in seats
                ),
            ),
        )
