"""The tables' event log over a window, read once in bulk into what the detectors count.

Only public events are read (a private event, a player's own cards, never leaves the table), and
only deals that finished inside the window are kept: a deal still running, or cut by the window's
start, counts for nothing. Each event's time is the game's time of its write (``games.services``
logs events at the ``at`` of the action), so the gap between a player's turn and their draw is
the time they took.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.models import Table, TableEvent, Visibility

#: The event kinds the detectors read (docs/PROTOCOL.md describes each).
READ = (
    "deal_number",
    "deal_started",
    "turn",
    "drew",
    "discarded",
    "dropped",
    "wrong_show",
    "left",
    "deal_over",
)
#: A drop the player chose (the auto drop and the missed moves' drop are not their choice).
CHOSEN_DROPS = ("first_drop", "middle_drop")


@dataclass(frozen=True, slots=True)
class HeadsUp:
    """One turn of ``player`` with only ``other`` left in the deal beside them."""

    player: int
    other: int
    first_turn: bool
    dropped: bool


@dataclass(frozen=True, slots=True)
class Pick:
    """A draw by ``drawer`` right after ``discarder``'s discard: from the open pile, or not."""

    discarder: int
    drawer: int
    from_open: bool


@dataclass(slots=True)
class DealRecord:
    """One finished deal, as far as the detectors need it (no card of it)."""

    table: int
    number: int
    variant: str
    players: tuple[int, ...]
    winner: int | None = None
    transfers: list[tuple[int, int, int]] = field(default_factory=list)
    """Points tables: (payer, payee, points) as the deal settled (R-PTS-3, R-21-7)."""
    heads_up: list[HeadsUp] = field(default_factory=list)
    picks: list[Pick] = field(default_factory=list)

    @property
    def key(self) -> tuple[int, int]:
        return (self.table, self.number)

    @property
    def is_points(self) -> bool:
        return self.variant in ("points13", "points21")


@dataclass
class TableLog:
    """The window's finished deals, each table's currency and point value, and each player's
    timed actions (milliseconds from the moment they could act) and action times."""

    deals: list[DealRecord] = field(default_factory=list)
    tables: dict[int, tuple[str, int]] = field(default_factory=dict)
    response_ms: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    acted_at_ms: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    events: int = 0


@dataclass
class _Table:
    """What reading one table's events keeps between them."""

    number: int | None = None
    deal: DealRecord | None = None
    in_deal: set[int] = field(default_factory=set)
    had_turn: set[int] = field(default_factory=set)
    turn: tuple[int, int] | None = None  # (player, at_ms)
    drew: tuple[int, int] | None = None
    last_discarder: int | None = None
    heads_up: tuple[int, int, bool] | None = None


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def read(since: datetime, until: datetime) -> TableLog:
    """Every finished deal and timed action between ``since`` and ``until``, in one pass over the
    log (one query, streamed in table and version order)."""
    log = TableLog()
    rows = (
        TableEvent.objects.filter(
            created_at__gte=since, created_at__lt=until, visibility=Visibility.EVERYONE, type__in=READ
        )
        .order_by("table_id", "version")
        .values_list("table_id", "type", "data", "created_at")
        .iterator(chunk_size=5000)
    )
    current_id: int | None = None
    table = _Table()
    for table_id, kind, data, created_at in rows:
        log.events += 1
        if table_id != current_id:
            current_id, table = table_id, _Table()
        _step(log, table, table_id, kind, data, _ms(created_at))
    ids = {deal.table for deal in log.deals}
    for pk, currency, point_value in Table.objects.filter(pk__in=ids).values_list(
        "pk", "template__currency", "template__point_value"
    ):
        log.tables[pk] = (currency, point_value)
    return log


def _step(log: TableLog, table: _Table, table_id: int, kind: str, data: dict[str, Any], at: int) -> None:
    """Take one event of a table into the log."""
    if kind == "deal_number":
        table.number = int(data["number"])
        return
    if kind == "deal_started":
        if table.number is None:
            return  # the window starts inside this table's deal: it does not count
        players = tuple(int(p) for p in data["players"])
        table.deal = DealRecord(table_id, table.number, str(data["variant"]), players)
        table.in_deal, table.had_turn = set(players), set()
        table.turn = table.drew = table.heads_up = None
        table.last_discarder = None
        return
    deal = table.deal
    if deal is None:
        return
    if kind == "deal_over":
        deal.winner = int(data["winner"])
        deal.transfers = [
            (int(t["payer"]), int(t["payee"]), int(t["points"])) for t in data.get("transfers", ())
        ]
        log.deals.append(deal)
        table.deal, table.number = None, None
        return
    player = int(data["player"]) if "player" in data else None
    if kind == "turn":
        assert player is not None
        table.turn, table.drew = (player, at), None
        table.heads_up = None
        if len(table.in_deal) == 2 and player in table.in_deal:
            (other,) = table.in_deal - {player}
            table.heads_up = (player, other, player not in table.had_turn)
        table.had_turn.add(player)
        return
    if kind == "drew":
        assert player is not None
        _timed(log, table.turn, player, at)
        table.drew = (player, at)
        _resolve_heads_up(deal, table, player, dropped=False)
        if table.last_discarder is not None and table.last_discarder != player:
            deal.picks.append(Pick(table.last_discarder, player, data.get("source") == "open"))
        table.last_discarder = None
        return
    if kind == "discarded":
        assert player is not None
        _timed(log, table.drew, player, at)
        table.last_discarder = player
        return
    if kind == "dropped":
        assert player is not None
        if not data.get("auto") and data.get("outcome") in CHOSEN_DROPS:
            _timed(log, table.turn, player, at)
            _resolve_heads_up(deal, table, player, dropped=True)
        table.in_deal.discard(player)
        table.last_discarder = None
        return
    if kind in ("wrong_show", "left") and player is not None:
        table.in_deal.discard(player)


def _timed(log: TableLog, since: tuple[int, int] | None, player: int, at: int) -> None:
    """The player's action at ``at``, timed from ``since`` when that was their own moment."""
    log.acted_at_ms[player].append(at)
    if since is not None and since[0] == player and at >= since[1]:
        log.response_ms[player].append(at - since[1])


def _resolve_heads_up(deal: DealRecord, table: _Table, player: int, *, dropped: bool) -> None:
    if table.heads_up is not None and table.heads_up[0] == player:
        _, other, first = table.heads_up
        deal.heads_up.append(HeadsUp(player, other, first, dropped))
    table.heads_up = None
