"""Who is at the table right now: each player's open websocket connections, counted on the
seat row by the consumer (one update on connect, one on disconnect).

The snapshot reads the count with the seats it reads anyway, so every seat shows
"disconnected" from the next write on; no frame is pushed for a connection coming or going
(a player's missed moves are pushed by the timers regardless). A server process that dies
leaves its counts high until those players connect again; docs/PROTOCOL.md says so.
"""

from __future__ import annotations

from django.db.models import F
from django.db.models.functions import Greatest

from games.models import Seat


def connected(table_id: int, user_id: int) -> None:
    Seat.objects.filter(table_id=table_id, user_id=user_id, left_at__isnull=True).update(
        connections=F("connections") + 1
    )


def disconnected(table_id: int, user_id: int) -> None:
    Seat.objects.filter(table_id=table_id, user_id=user_id, left_at__isnull=True).update(
        connections=Greatest(F("connections") - 1, 0)
    )
