"""The lobby, answered once for the web page, its live refresh, the API and "play now": the
templates on offer by format (Points, Pool, Deals, 21 Cards), money apart from practice, stakes
low to high, and for each the players playing and waiting; which tables of a template a player
may still join; how many seats each table has taken.

A whole lobby is a few queries whatever the number of templates and tables: the templates with
their players counted (correlated counts in the one query), the player's own open tables, the
money-play check (R-PROT-1..3, a query for a player it does not refuse at once) and, for the
API, the joinable tables of every template in one windowed query.

The templates with their counts are the same for every player, and every open lobby page asks
for them again every few seconds (``static/lobby/view.js``), as does every player arriving: a
process reuses them for ``LOBBY_COUNTS_MS`` (a second) before it counts again. A player's own
tables, the money-play check and the joinable tables are always read afresh.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Value, Window
from django.db.models.functions import Coalesce, RowNumber

from games.engine.variants import variant_named
from games.models import Seat, Table, TableStatus, TableTemplate
from games.words import FORMAT_HINTS, FORMATS, word
from protection import money_play
from wallet.models import Currency
from wallet.money import money

#: Tables a player can find in the lobby: open for players or playing.
OPEN_STATUSES = (TableStatus.WAITING, TableStatus.STARTING, TableStatus.PLAYING)
#: The most joinable tables the API lists for one template.
OPEN_TABLES_LISTED = 20


def joinable_statuses(variant: str) -> list[str]:
    """A pool or deals game takes players until it starts; a points table also while it plays
    (a player who sits down mid-deal plays from the next one, R-PTS-5)."""
    statuses: list[str] = [TableStatus.WAITING, TableStatus.STARTING]
    if variant_named(variant).is_points:
        statuses.append(TableStatus.PLAYING)
    return statuses


def seats_taken() -> Coalesce:
    """An annotation: the table's seats not left (a subquery, so other joins cannot double it)."""
    taken = (
        Seat.objects.filter(table=OuterRef("pk"), left_at__isnull=True)
        .values("table")
        .annotate(n=Count("id"))
        .values("n")[:1]
    )
    return Coalesce(Subquery(taken, output_field=IntegerField()), Value(0))


def format_of(variant: str) -> str:
    """The lobby tab a variant is under: ``points``, ``pool``, ``deals`` or ``points21``."""
    numbers = variant_named(variant)
    return "points21" if numbers.is_points21 else numbers.format.value


def headline_stake(template: TableTemplate) -> int:
    """What the lobby sorts by: a points table's point value, else the entry fee (paise)."""
    return template.point_value if variant_named(template.variant).is_points else template.entry_fee


def stake_words(template: TableTemplate) -> str:
    """The stake as a player reads it: "₹1.00 a point", "₹25.00 entry", "₹25.00 entry · best of 2"."""
    numbers = variant_named(template.variant)
    if numbers.is_points:
        return f"{money(template.point_value, template.currency)} a point"
    # A free table (a tournament's round is played at one) charges no entry.
    entry = f"{money(template.entry_fee, template.currency)} entry" if template.entry_fee else "Free"
    return f"{entry} · best of {template.deals}" if numbers.is_deals else entry


def play_now_candidates(user: Any, template: TableTemplate) -> QuerySet[Table]:
    """The public tables of ``template`` that ``user`` may be seated at by "play now", nearest
    to full first (they start soonest), then the oldest: not one where they sit now, nor a pool
    or deals game they left (it cannot be joined again)."""
    mine = Seat.objects.filter(table=OuterRef("pk"), user_id=user.pk)
    candidates = Table.objects.filter(
        template=template, status__in=joinable_statuses(template.variant), private=False
    ).exclude(Exists(mine.filter(left_at__isnull=True)))
    if not variant_named(template.variant).is_points:
        candidates = candidates.exclude(Exists(mine))
    return candidates.annotate(taken=seats_taken()).order_by(F("taken").desc(), "id")


def lobby(user: Any, *, open_tables: bool = False) -> dict[str, Any]:
    """The lobby as ``user`` sees it: ``{"formats": [...], "money_refusal": ..., "mine": [...]}``.

    Each format is ``{"format", "name", "playing", "money": [row], "practice": [row]}`` in the
    order of the tabs, with rows sorted by stake, low to high. Money rows are left out, and
    ``money_refusal`` says why, where money play is off for this player (R-PROT-1..3). Each row
    is a template with its stake in words and the players at its public tables: ``playing``
    (in a game) and ``waiting`` (seated at a table that has not started). ``open_tables``: each
    row also lists the tables a player may join (the API's answer)."""
    templates = counted_templates()
    refusal = money_play.refusal(user) if getattr(user, "is_authenticated", False) else None
    if refusal is not None:
        templates = [t for t in templates if t.currency != Currency.INR]
    listed = _joinable_tables(templates) if open_tables else {}
    formats: dict[str, dict[str, Any]] = {
        code: {
            "format": code,
            "name": name,
            "hint": FORMAT_HINTS[code],
            "playing": 0,
            "money": [],
            "practice": [],
        }
        for code, name in FORMATS.items()
    }
    for template in sorted(templates, key=_order):
        row = _row(template)
        if open_tables:
            row["open_tables"] = listed.get(template.pk, [])
        section = formats[row["format"]]
        section["playing"] += row["playing"] + row["waiting"]
        section["practice" if template.currency == Currency.CHIPS else "money"].append(row)
    return {
        "formats": list(formats.values()),
        "money_refusal": None if refusal is None else {"code": refusal.code, "message": refusal.message},
        "mine": _my_tables(user),
    }


#: When this process last counted the templates' players, and what it found (one tuple, so a
#: thread reads both halves of the same reading).
_counted: tuple[float, tuple[TableTemplate, ...]] = (float("-inf"), ())


def counted_templates() -> list[TableTemplate]:
    """The active templates, each annotated with its ``playing`` and ``waiting`` players, read
    at most once every ``LOBBY_COUNTS_MS`` by this process (0: at every call). The instances are
    shared with later calls: read them, never change them."""
    global _counted
    read_at, templates = _counted
    now = time.monotonic()
    if now - read_at >= settings.LOBBY_COUNTS_MS / 1000:
        templates = tuple(
            TableTemplate.objects.filter(active=True).annotate(
                playing=_players((TableStatus.PLAYING,)),
                waiting=_players((TableStatus.WAITING, TableStatus.STARTING)),
            )
        )
        _counted = (now, templates)
    return list(templates)


def rows(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Every row of a lobby's answer, format by format, money before practice."""
    return [row for section in answer["formats"] for row in (*section["money"], *section["practice"])]


def _order(template: TableTemplate) -> tuple[Any, ...]:
    tabs = list(FORMATS)
    return (
        tabs.index(format_of(template.variant)),
        headline_stake(template),
        template.variant,
        template.seats,
        template.pk,
    )


def _row(template: Any) -> dict[str, Any]:
    """A template of the lobby, annotated with its ``playing`` and ``waiting`` players."""
    playing, waiting = int(template.playing), int(template.waiting)
    return {
        "id": template.pk,
        "name": template.name,
        "variant": template.variant,
        "variant_words": word("variant", template.variant),
        "format": format_of(template.variant),
        "currency": template.currency,
        "seats": template.seats,
        "entry_fee": template.entry_fee,
        "point_value": template.point_value,
        "deals": template.deals,
        "rake_percent": template.rake_percent,
        "bots_allowed": template.bots_allowed,
        "stake": headline_stake(template),
        "stake_words": stake_words(template),
        "playing": playing,
        "waiting": waiting,
        "who_words": who_words(playing, waiting),
    }


def who_words(playing: int, waiting: int) -> str:
    """The players at a stake in words: "4 playing · 1 waiting", "Nobody seated yet"."""
    parts = [f"{playing} playing"] if playing else []
    if waiting:
        parts.append(f"{waiting} waiting")
    return " · ".join(parts) or "Nobody seated yet"


def _players(statuses: tuple[str, ...]) -> Coalesce:
    """An annotation of a template: the players seated at its public tables in ``statuses``
    (a correlated count, through the tables' (template, status) index)."""
    seated = (
        Seat.objects.filter(
            table__template=OuterRef("pk"),
            table__status__in=statuses,
            table__private=False,
            left_at__isnull=True,
        )
        .order_by()
        .values("table__template")
        .annotate(n=Count("id"))
        .values("n")[:1]
    )
    return Coalesce(Subquery(seated, output_field=IntegerField()), Value(0))


def _joinable_tables(templates: Sequence[TableTemplate]) -> dict[int, list[dict[str, Any]]]:
    """The first tables a player may join of each template, oldest first, with their seats
    taken: one query (a row number per template keeps it to ``OPEN_TABLES_LISTED`` each)."""
    which = Q(pk__in=[])
    for template in templates:
        which |= Q(template_id=template.pk, status__in=joinable_statuses(template.variant))
    if not templates:
        return {}
    found = (
        Table.objects.filter(which, private=False)
        .annotate(
            taken=seats_taken(),
            place=Window(RowNumber(), partition_by=[F("template_id")], order_by=F("id").asc()),
        )
        .filter(place__lte=OPEN_TABLES_LISTED)
        .order_by("id")
        .values_list("template_id", "id", "status", "taken")
    )
    tables: dict[int, list[dict[str, Any]]] = {}
    for template_id, table_id, status, taken in found:
        tables.setdefault(template_id, []).append({"id": table_id, "status": status, "seats_taken": taken})
    return tables


def _my_tables(user: Any) -> list[dict[str, Any]]:
    """The open tables where ``user`` sits now, newest first, to go back to."""
    if not getattr(user, "is_authenticated", False):
        return []
    found = (
        Table.objects.filter(status__in=OPEN_STATUSES, seats__user=user, seats__left_at__isnull=True)
        .order_by("-id")
        .values_list("id", "template__name", "template__variant", "status")
        .distinct()
    )
    return [
        {
            "table": table_id,
            "name": name,
            "variant_words": word("variant", variant),
            "status": status,
            "status_words": word("status", status),
        }
        for table_id, name, variant, status in found
    ]
