"""A deal's history as staff and players read it: the shuffle check and the event replay."""

from __future__ import annotations

from django.db.models import Q

from games.engine.shuffle import SeedError, seed_from_hex, verify
from games.models import Deal, TableEvent


def shuffle_verified(commitment: str, seed: str) -> bool | None:
    """True if sha256(revealed seed) == commitment, False if not, None before the seed is revealed."""
    if not seed:
        return None
    try:
        return verify(commitment, seed_from_hex(seed))
    except SeedError:
        return False


def shuffle_verdict(commitment: str, seed: str) -> str:
    verdict = shuffle_verified(commitment, seed)
    return {None: "not revealed yet", True: "verified", False: "NOT verified"}[verdict]


def deal_window(deal: Deal) -> tuple[int, int | None] | None:
    """The versions of the table's events from this deal's start (``deal_number``) to its
    ``deal_over`` (None while it runs); None if the deal's start is not in the log."""
    events = TableEvent.objects.filter(table_id=deal.table_id).order_by("version")
    start = (
        events.filter(type="deal_number", data__number=deal.number).values_list("version", flat=True).first()
    )
    if start is None:
        return None
    end = events.filter(version__gt=start, type="deal_over").values_list("version", flat=True).first()
    return start, end


def deal_events(deal: Deal) -> list[TableEvent]:
    """Every event of the deal, private ones included (for staff)."""
    window = deal_window(deal)
    if window is None:
        return []
    start, end = window
    versions = Q(version__gte=start) if end is None else Q(version__gte=start, version__lte=end)
    return list(
        TableEvent.objects.filter(versions, table_id=deal.table_id).order_by("version").select_related("user")
    )


HIDDEN = "(hidden until the deal is over)"


def secret_until_over(event: TableEvent) -> bool:
    """A private event (a dealt hand, a drawn card) is secret while its deal is not over: no
    ``deal_over`` came after it. A public event never holds a hidden card."""
    if event.visibility == "everyone":
        return False
    return not TableEvent.objects.filter(
        table_id=event.table_id, version__gt=event.version, type="deal_over"
    ).exists()


def hidden_data(event: TableEvent) -> object:
    """What staff see of an event during a live deal."""
    return event.data if event.visibility == "everyone" else HIDDEN
