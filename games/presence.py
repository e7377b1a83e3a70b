"""Who is at the table right now: each player's open websocket connections, counted on the
seat row by the consumer (one update on connect, one on disconnect), and pushed to the table.

When a seated player's first connection opens or their last one closes, the consumer sends a
``presence`` frame to every connection at the table through the channel layer
(:func:`games.live.announce_presence`): no write to the table, no version, and no database
read by the connections that receive it. Snapshots read the count with the seats they read
anyway, so a connection that missed the frame is right again at the next write. A server
process that dies leaves its counts high until those players connect again; docs/PROTOCOL.md
says so.
"""

from __future__ import annotations

from django.db.models import F
from django.db.models.functions import Greatest

from games.models import Seat


def connected(table_id: int, user_id: int) -> bool:
    """Count one more connection of the player; True when it is their first (they came online)."""
    seats = Seat.objects.filter(table_id=table_id, user_id=user_id, left_at__isnull=True)
    if not seats.update(connections=F("connections") + 1):
        return False  # a watcher: nobody's presence changes
    return seats.values_list("connections", flat=True).first() == 1


def disconnected(table_id: int, user_id: int) -> bool:
    """Count one connection fewer; True when it was their last (they went offline)."""
    seats = Seat.objects.filter(table_id=table_id, user_id=user_id, left_at__isnull=True)
    if not seats.update(connections=Greatest(F("connections") - 1, 0)):
        return False
    return seats.values_list("connections", flat=True).first() == 0
