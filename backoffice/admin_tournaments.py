"""Tournaments in the admin, read-only: staff create them from a preset and cancel or void them
with four eyes on the back office's tournaments page (``backoffice.tournaments``), never here,
so that nothing R-TOUR-1 fixes at creation is edited afterwards (R-MONEY-6)."""

from __future__ import annotations

from django.contrib import admin

from backoffice.admin_mixins import ModelAdmin, ReadOnlyInline, ReadOnlyMixin
from tournaments.models import Registration, Round, RoundTable, StaffRequest, Tournament


class RegistrationInline(ReadOnlyInline):
    model = Registration
    fields = (
        "player",
        "status",
        "registered_at",
        "buy_in",
        "knocked_out_round",
        "chips",
        "won",
        "rank",
        "prize",
    )
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ["id", "name", "status", "currency", "buy_in", "guarantee", "max_players", "start_at"]
    list_filter = ["status", "currency"]
    fields = readonly_fields = (
        "name",
        "status",
        "currency",
        "buy_in",
        "rake_percent",
        "guarantee",
        "min_players",
        "max_players",
        "table_size",
        "qualify",
        "prize_bps",
        "start_at",
        "registration_opens_at",
        "bots_allowed",
        "template",
        "created_by",
        "created_at",
        "started_at",
        "ended_at",
        "end_reason",
        "rake",
        "overlay",
        "pool",
    )
    inlines = [RegistrationInline]


class RoundTableInline(ReadOnlyInline):
    model = RoundTable
    fields = ("table", "players", "qualify", "qualified", "chips", "ended_at")
    readonly_fields = fields


@admin.register(Round)
class RoundAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ["id", "tournament", "number", "players", "final", "started_at", "ended_at"]
    fields = readonly_fields = (
        "tournament",
        "number",
        "players",
        "final",
        "seed",
        "apart",
        "started_at",
        "ended_at",
    )
    inlines = [RoundTableInline]


@admin.register(StaffRequest)
class StaffRequestAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = [
        "id",
        "tournament",
        "step",
        "requested_by",
        "requested_at",
        "confirmed_by",
        "confirmed_at",
        "outcome",
        "closed_by",
        "closed_at",
    ]
    fields = readonly_fields = (
        "tournament",
        "step",
        "reason",
        "requested_by",
        "requested_at",
        "confirmed_by",
        "confirmed_at",
        "outcome",
        "closed_by",
        "closed_at",
        "close_reason",
    )
