"""Live tables: every table not finished, what it waits for and since when; stuck ones stand out.
A tournament's round tables are ordinary tables and show as any other, named with their
tournament and round.

Read from the stored state, but only what any player at the table may see (who is seated,
scores, holds, the pool, whose turn); never a hand, the closed pile or the seed of a deal in play.

A table is *stuck* when no player has acted at it for ``STUCK_TABLE_SECONDS``: a table whose
players are all gone still changes at every deadline (a missed move, the next turn, a drop for
missed moves), so "unchanged for so long" would never catch it. The last player action is read
from the table's event log, in the query that reads the tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import DateTimeField, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.models import User
from backoffice.access import staff_page
from backoffice.models import VoidRequest
from games.models import Seat, SeatStatus, Table, TableEvent, TableStatus
from games.words import word
from tournaments.models import RoundTable
from wallet.models import Account
from wallet.money import money

WAITS = {
    "move": "a move",
    "deal": "the next deal",
    "countdown": "the start countdown",
    "players": "players",
    "decisions": "rejoin or split decisions",
    "pause": "the pause between deals",
}


#: The events a player's own action writes: a move, a drop they chose, a show, a decision, sitting
#: down, leaving, "I'm back". Not a player's: what a deadline does (a missed move, a show not
#: sent, a drop for missed moves), the drop at a deal's start of a player on auto drop, and
#: choosing auto drop, which says the player is away.
PLAYER_ACTIONS = (
    "drew",
    "discarded",
    "finished",
    "declared",
    "shown",
    "grouping_saved",
    "joined",
    "left",
    "rejoined",
    "split_accepted",
    "split_declined",
    "leaving_after_deal",
    "staying",
    "im_back",
)
CHOSEN_DROPS = ("first_drop", "middle_drop")


def player_action() -> Q:
    """Table events that are a player's own action (:data:`PLAYER_ACTIONS`, and a drop they chose)."""
    return Q(type__in=PLAYER_ACTIONS) | Q(type="dropped", data__auto=False, data__outcome__in=CHOSEN_DROPS)


def last_player_action() -> Coalesce:
    """For a table query: when a player last acted at the table (its opening if nobody has).
    The newest such event by the table's (table, version) index, a subquery of the same query."""
    newest = TableEvent.objects.filter(player_action(), table=OuterRef("pk")).order_by("-version")
    return Coalesce(Subquery(newest.values("created_at")[:1], output_field=DateTimeField()), F("created_at"))


@dataclass(frozen=True)
class LiveTable:
    table: Table
    variant: str
    players: list[tuple[str, int | None]]
    """Each player in words with their status, and their user id (for their page)."""
    deal_number: int
    money: str
    phase: str
    waits_for: str
    since: datetime
    waited: timedelta
    last_action: datetime
    stuck: bool
    void_pending: bool
    tournament: str = ""
    """A tournament's round table: the tournament and the round, in words; "" for any other."""


def _waits_for(state: dict[str, Any], names: dict[str, str]) -> str:
    deal = state.get("deal") or {}
    if state.get("phase") == "playing" and deal:
        seats = deal.get("seats") or []
        turn = deal.get("turn")
        if isinstance(turn, int) and 0 <= turn < len(seats):
            who = names.get(str(seats[turn].get("player")), "?")
            return f"a move by {who} ({word('deal_phase', deal.get('phase', ''))})"
        return "a move"
    if state.get("phase") == "between" and (state.get("rejoin_open") or state.get("split_offer")):
        return WAITS["decisions"]
    if state.get("phase") == "waiting":
        return WAITS["countdown"] if state.get("countdown") else WAITS["players"]
    return WAITS["pause"] if state.get("phase") == "between" else ""


def live_tables(now: datetime | None = None) -> list[LiveTable]:
    """Unfinished tables, the longest without a player's action first."""
    now = now or timezone.now()
    stuck_after = timedelta(seconds=settings.STUCK_TABLE_SECONDS)
    tables = list(
        Table.objects.exclude(status__in=[TableStatus.FINISHED, TableStatus.CANCELLED])
        .select_related("template")
        .annotate(last_action=last_player_action())
        .order_by("last_action", "id")[:500]
    )
    ids = {str(p["name"]) for t in tables for p in t.state.get("players", [])}
    names = {
        str(pk): username
        for pk, username in User.objects.filter(pk__in=[int(i) for i in ids if i.isdigit()]).values_list(
            "pk", "username"
        )
    }
    seated: dict[int, list[tuple[str, str, int]]] = {}
    for seat in Seat.objects.filter(table__in=tables, status=SeatStatus.SEATED).select_related("user"):
        seated.setdefault(seat.table_id, []).append((seat.seat_ref, seat.user.username, seat.user_id))
    refs = [t.pool_ref for t in tables] + [ref for seats in seated.values() for ref, _, _ in seats]
    balances: dict[str, int] = {}
    for ref, balance in Account.objects.filter(ref__in=refs).values_list("ref", "balance"):
        balances[ref] = balances.get(ref, 0) + balance
    rounds = {
        table_id: f"{name}, round {number}"
        for table_id, name, number in RoundTable.objects.filter(table__in=tables).values_list(
            "table_id", "round__tournament__name", "round__number"
        )
    }
    pending = set(VoidRequest.waiting().values_list("table_id", flat=True))
    rows = []
    for table in tables:
        state = table.state
        players = state.get("players", [])
        currency = table.template.currency
        # The money as the ledger holds it: the pool's account, or the seats' holds.
        if table.template.variant.startswith("pool"):
            amount = f"pool {money(balances.get(table.pool_ref, 0), currency)}"
        else:
            held = sum(balances.get(ref, 0) for ref, _, _ in seated.get(table.pk, []))
            amount = f"held {money(held, currency)}"
        if players:
            who = [
                (
                    f"{names.get(str(p['name']), p['name'])} ({word('status', p['status'])})",
                    int(p["name"]) if str(p["name"]) in names else None,
                )
                for p in players
            ]
        else:
            who = [(name, user_id) for _, name, user_id in seated.get(table.pk, [])]
        waited = now - table.updated_at
        last_action: datetime = getattr(table, "last_action", table.created_at)
        rows.append(
            LiveTable(
                table=table,
                variant=table.template.get_variant_display(),
                players=who,
                deal_number=int(state.get("deal_number") or 0),
                money=amount,
                phase=word("status", state.get("phase", table.status)),
                waits_for=_waits_for(state, names),
                since=table.updated_at,
                waited=waited,
                last_action=last_action,
                stuck=table.status == TableStatus.PLAYING and now - last_action > stuck_after,
                void_pending=table.pk in pending,
                tournament=rounds.get(table.pk, ""),
            )
        )
    return rows


def waited_words(waited: timedelta) -> str:
    minutes = int(waited.total_seconds() // 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours < 48 else f"{hours // 24} days"


@staff_page("games.view_table")
def tables(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    rows = live_tables(now)
    return render(
        request,
        "backoffice/live.html",
        {
            "rows": [(row, waited_words(row.waited), waited_words(now - row.last_action)) for row in rows],
            "stuck": sum(row.stuck for row in rows),
            "stuck_minutes": settings.STUCK_TABLE_SECONDS // 60,
        },
    )
