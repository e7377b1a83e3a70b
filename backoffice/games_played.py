"""The games a player played, for their back-office page: one per table where they sat while a
deal was dealt, newest first, with the variant, the result in words, what they won or lost (from
the ledger, in the table's currency) and their deals, each to its replay.

Five queries, whatever the number of games: the tables by deal and by seat, the tables' rows,
the deals, and the player's game money (fees, refunds, prizes, splits and points settlements,
reversals counted against what they reverse) filed by the table its journal names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Exists, Max, OuterRef, Q
from django.db.models.functions import Coalesce

from backoffice.reports import table_id_of
from games.models import Deal, DealHand, Seat, Table, TableStatus
from wallet.models import Entry, JournalKind
from wallet.money import money

#: Journals that change what a player has from a game (a seat's hold and release only move
#: money between the player's own accounts).
GAME_MONEY = (
    JournalKind.ENTRY_FEE,
    JournalKind.REJOIN_FEE,
    JournalKind.REFUND,
    JournalKind.PRIZE,
    JournalKind.SPLIT,
    JournalKind.DEAL_SETTLEMENT,
    JournalKind.REVERSAL,
)


@dataclass
class DealPlayed:
    pk: int
    number: int
    outcome: str


@dataclass
class GamePlayed:
    table: Table
    when: datetime
    deals_played: int
    result: str
    """How it went: a code of ``games.words.GAME_RESULTS`` ("won", "split", "ahead", ...)."""
    net: int = 0
    """What the player won (positive) or lost, in hundredths of the table's currency."""
    deals: list[DealPlayed] = field(default_factory=list)

    @property
    def won_or_lost(self) -> str:
        """``+₹67.50``, ``-₹25.00``, ``+300 chips``: signed, in the table's currency."""
        shown = money(self.net, self.table.template.currency)
        return f"+{shown}" if self.net > 0 else shown


def result_of(table: Table, player: str, net: int) -> str:
    """How the game went for ``player`` (their id as the table's state names them)."""
    state: dict[str, Any] = table.state or {}
    status = next((p.get("status") for p in state.get("players", []) if str(p.get("name")) == player), "")
    if table.status == TableStatus.CANCELLED:
        return "voided"
    over = table.status == TableStatus.FINISHED
    if table.template.variant.startswith("pool"):
        if over:
            if str(state.get("winner") or "") == player:
                return "won"
            if any(str(name) == player and amount for name, amount in state.get("payouts") or []):
                return "split"
            return "left" if status == "left" else "lost"
        return str(status) if status in ("left", "eliminated") else "playing"
    if not over and status in ("seated", "in"):
        return "playing"
    return "ahead" if net > 0 else "behind" if net < 0 else "even"


def games_of(user: Any, limit: int = 15, deals_shown: int = 8) -> list[GamePlayed]:
    """The player's last ``limit`` games, newest first (the last ``deals_shown`` deals of each):
    the tables where they sat while a deal was dealt, when by their last finished deal there or
    by when they left (a game voided in its first deal has no finished deal)."""
    hands = DealHand.objects.filter(user=user, deal__finished_at__isnull=False)
    by_deal = dict(
        hands.values("deal__table_id")
        .annotate(last=Max("deal__finished_at"))
        .order_by("-last")
        .values_list("deal__table_id", "last")[:limit]
    )
    dealt = Deal.objects.filter(table_id=OuterRef("table_id"))
    by_seat = dict(
        Seat.objects.filter(Exists(dealt), user=user)
        .values("table_id")
        .annotate(last=Max(Coalesce("left_at", "joined_at")))
        .order_by("-last")
        .values_list("table_id", "last")[:limit]
    )
    when = {pk: max(t for t in (by_deal.get(pk), by_seat.get(pk)) if t) for pk in {*by_deal, *by_seat}}
    recent = sorted(when, key=lambda pk: (when[pk], pk), reverse=True)[:limit]
    tables = Table.objects.select_related("template").in_bulk(recent)
    games = {pk: GamePlayed(tables[pk], when[pk], 0, "") for pk in recent}
    for table_id, pk, number, outcome in (
        hands.filter(deal__table_id__in=recent)
        .order_by("deal__table_id", "-deal__number")
        .values_list("deal__table_id", "deal_id", "deal__number", "outcome")
    ):
        games[table_id].deals_played += 1
        if len(games[table_id].deals) < deals_shown:
            games[table_id].deals.append(DealPlayed(pk, number, outcome))
    for table_id, amount in _game_money(user, recent):
        games[table_id].net += amount
    for game in games.values():
        game.result = result_of(game.table, str(user.pk), game.net)
    return list(games.values())


def _game_money(user: Any, table_ids: list[int]) -> list[tuple[int, int]]:
    """(table id, amount) of each of the player's entries that a game at these tables wrote."""
    pools = [f"pool:table:{pk}" for pk in table_ids]
    tables = [f"table:{pk}" for pk in table_ids]
    of_tables = Q(journal__meta__pool__in=pools) | Q(journal__meta__table__in=tables)
    reversing = Q(journal__reverses__meta__pool__in=pools) | Q(journal__reverses__meta__table__in=tables)
    found = []
    for amount, meta, reversed_meta in (
        Entry.objects.filter(account__owner=user, journal__kind__in=GAME_MONEY)
        .filter(of_tables | reversing)
        .values_list("amount", "journal__meta", "journal__reverses__meta")
    ):
        table_id = table_id_of(reversed_meta or meta)
        if table_id is not None:
            found.append((table_id, amount))
    return found
