"""The lobby's two questions, answered once for the pages, the API and "play now": which tables
of a template a player may still join, and how many seats each has taken."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from games.models import Seat, TableStatus, Variant


def joinable_statuses(variant: str) -> list[str]:
    """A pool game takes players until it starts; a 21-card table also while it plays."""
    statuses: list[str] = [TableStatus.WAITING, TableStatus.STARTING]
    if variant == Variant.POINTS21:
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
