"""Tables and their history in the admin.

Staff define table templates (audited); tables, seats, deals and events are read-only. A
table shows its live state and can be cancelled and refunded before its game starts (an
action asking for a reason, ``backoffice.actions.cancel_table``). A deal shows its event
replay and the shuffle verification: sha256(revealed seed) == commitment.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from backoffice import actions
from backoffice.admin_mixins import (
    AuditedMixin,
    ModelAdmin,
    ReadOnlyInline,
    ReadOnlyMixin,
    StaffViewMixin,
    reason_action,
)
from backoffice.deals import deal_events, hidden_data, secret_until_over, shuffle_verdict
from games.models import Deal, DealHand, Seat, Table, TableEvent, TableTemplate
from wallet.money import money as format_money


@admin.register(TableTemplate)
class TableTemplateAdmin(AuditedMixin, StaffViewMixin, ModelAdmin):
    """Staff may add and change templates (each change audited); a template is retired by
    unticking ``active``, never deleted (its tables refer to it)."""

    list_display = [
        "name",
        "variant",
        "currency",
        "seats",
        "entry_fee",
        "point_value",
        "rake_percent",
        "active",
    ]
    list_filter = ["variant", "currency", "active"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """Variant and currency are fixed once a table was opened with the template; the rest
        may change, and only tables opened afterwards take it (R-MONEY-6)."""
        if obj is not None and obj.tables.exists():
            return ["variant", "currency"]
        return []

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "user", "status", "joined_at", "left_at")
    readonly_fields = fields


def _cancel(table: Table, reason: str, user: Any) -> Any:
    return actions.cancel_table(table.pk, reason, user)


@admin.register(Table)
class TableAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ["id", "template", "status", "players", "version", "deadline", "created_at"]
    list_filter = ["status", "template__variant", "template__currency"]
    list_select_related = ["template"]
    fields = readonly_fields = (
        "template",
        "status",
        "version",
        "deadline",
        "created_at",
        "updated_at",
        "live_state",
        "deals",
    )
    inlines = [SeatInline]
    actions = [
        reason_action(
            "cancel_tables",
            "Cancel and refund selected tables (not started only)",
            _cancel,
            permission="backoffice.cancel_table",
            warning="Every player gets back all they paid; a table whose game has started is refused.",
        )
    ]

    @admin.display(description="Players")
    def players(self, obj: Table) -> int:
        return sum(1 for p in (obj.state or {}).get("players", []) if p.get("status") in ("seated", "in"))

    @admin.display(description="Live state")
    def live_state(self, obj: Table) -> str:
        state = obj.state or {}
        names = dict(Seat.objects.filter(table=obj).values_list("user_id", "user__username"))
        players = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    names.get(int(p["name"]), p["name"]),
                    p["status"],
                    p.get("score", ""),
                    format_money(p.get("held") or 0, obj.template.currency),
                )
                for p in state.get("players", [])
            ),
        )
        deal = state.get("deal") or {}
        turn = ""
        if deal and state.get("phase") == "playing":
            seat = deal.get("seats", [{}])[deal.get("turn", 0)] if deal.get("seats") else {}
            turn = names.get(int(seat.get("player", 0) or 0), seat.get("player", ""))
        return format_html(
            "<p>Phase <b>{}</b>, waiting for <b>{}</b>, deal {}, turn: {}, prize pool {}, winner {}.</p>"
            "<table><tr><th>player</th><th>status</th><th>score</th><th>held (21-card)</th></tr>{}</table>",
            state.get("phase", ""),
            _waiting_for(state),
            state.get("deal_number", 0),
            turn or "-",
            format_money(state.get("prize_pool") or 0, obj.template.currency),
            names.get(int(state["winner"]), state["winner"]) if state.get("winner") else "-",
            players,
        )

    @admin.display(description="Deals")
    def deals(self, obj: Table) -> str:
        return format_html_join(
            ", ",
            '<a href="{}">deal {}</a>',
            (
                (reverse("admin:games_deal_change", args=[d.pk]), d.number)
                for d in obj.deals.order_by("number")
            ),
        )


def _waiting_for(state: dict[str, Any]) -> str:
    from games.engine import table as engine

    try:
        return engine.TableState.from_json(state).waiting_for or "nothing (over)"
    except (KeyError, TypeError, ValueError):
        return "?"


class DealHandInline(ReadOnlyInline):
    model = DealHand
    fields = ("user", "outcome", "score", "net", "hand", "grouping")
    readonly_fields = fields


@admin.register(Deal)
class DealAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ["id", "table", "number", "started_at", "finished_at", "shuffle"]
    list_select_related = ["table__template"]
    search_fields = ["table__id"]
    fields = readonly_fields = (
        "table",
        "number",
        "dealer",
        "players",
        "started_at",
        "finished_at",
        "commitment",
        "seed",
        "shuffle",
        "toss",
        "winner",
        "replay",
    )
    inlines = [DealHandInline]

    @admin.display(description="Shuffle")
    def shuffle(self, obj: Deal) -> str:
        return shuffle_verdict(obj.commitment, obj.seed)

    @admin.display(description="Toss")
    def toss(self, obj: Deal) -> str:
        toss = (obj.result or {}).get("toss")
        if not toss:
            return "-"
        return format_html(
            "commitment {}, seed {}: {}",
            toss.get("commitment", ""),
            toss.get("seed", ""),
            shuffle_verdict(toss.get("commitment", ""), toss.get("seed", "")),
        )

    @admin.display(description="Winner")
    def winner(self, obj: Deal) -> str:
        return str((obj.result or {}).get("winner", "-"))

    @admin.display(description="Replay (every event, private ones too)")
    def replay(self, obj: Deal) -> str:
        return format_html(
            "<table><tr><th>v</th><th>event</th><th>to</th><th>data</th></tr>{}</table>",
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
                (
                    (e.version, e.type, e.user or "everyone", e.data if obj.finished_at else hidden_data(e))
                    for e in deal_events(obj)
                ),
            ),
        )


@admin.register(Seat)
class SeatAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ["id", "table", "user", "position", "status", "joined_at", "left_at"]
    list_filter = ["status"]
    search_fields = ["user__username"]


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyMixin, ModelAdmin):
    """A private event's data (a hand, a drawn card) shows only once its deal is over."""

    list_display = ["table", "version", "type", "visibility", "user", "created_at"]
    list_filter = ["type"]
    search_fields = ["table__id"]
    fields = readonly_fields = (
        "table",
        "version",
        "type",
        "visibility",
        "user",
        "created_at",
        "shown_data",
    )

    @admin.display(description="Data")
    def shown_data(self, obj: TableEvent) -> Any:
        return hidden_data(obj) if secret_until_over(obj) else obj.data
