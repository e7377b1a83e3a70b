"""The lobby's two questions, answered once for the pages, the API and "play now": which tables
of a template a player may still join, and how many seats each has taken."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from games.engine.variants import variant_named
from games.models import Seat, TableStatus


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
