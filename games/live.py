"""Live play: publish each write's events to the table's channel-layer group, and turn them
into one connection's frames.

:func:`publish` is registered in :data:`games.services.publishers` when this module is
imported (``GamesConfig.ready`` imports it), so every write's events, after commit, reach
every consumer of the table in every server process (the in-memory layer on the embedded
default, Redis with ``REDIS_URL``). The message carries every event, private ones included:
the server filters per connection (:func:`event_frame`), never the client.

Each connection keeps the last version it has sent. :func:`catch_up` brings it to the
table's current version from the events a message carried when they follow on, from the
event log otherwise (a message lost, or two processes' messages crossing), and ends with a
snapshot of the table as that user may see it at that version. See docs/PROTOCOL.md.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection

from games import services, timers
from games.models import Table
from games.views_state import events_for, table_view

log = logging.getLogger(__name__)

#: The ``type`` of a channel-layer message with a table's new events (handled by
#: ``TableConsumer.table_events``).
EVENTS_MESSAGE = "table.events"

#: A client this many versions behind gets a snapshot instead of the events it missed.
MAX_REPLAY = 200


def group_name(table_id: int) -> str:
    """The table's group. It names the database too, so that sites (or parallel test runs)
    sharing one Redis never hear each other's tables."""
    database = hashlib.sha1(str(connection.settings_dict["NAME"]).encode(), usedforsecurity=False)
    return f"table.{database.hexdigest()[:10]}.{table_id}"


def event_json(event: services.Published) -> dict[str, Any]:
    return {"v": event.version, "type": event.type, "data": event.data, "to": event.to}


def event_frame(event: dict[str, Any], user_id: int) -> dict[str, Any]:
    """What ``user_id`` gets of an event: all of it, or ``{"v": N}`` when it is someone else's."""
    if event["to"] is None or event["to"] == user_id:
        return {"v": event["v"], "type": event["type"], "data": event["data"]}
    return {"v": event["v"]}


def server_ms() -> int:
    return int(time.time() * 1000)


def publish(events: list[services.Published]) -> None:
    """Send a write's events to each table's group. Runs after commit; a failure here is
    logged and never undoes the write (clients resynchronise from the event log)."""
    layer = get_channel_layer()
    if layer is None or not events:
        return
    by_table: dict[int, list[dict[str, Any]]] = {}
    for event in events:
        by_table.setdefault(event.table_id, []).append(event_json(event))
    for table_id, batch in by_table.items():
        try:
            async_to_sync(layer.group_send)(
                group_name(table_id), {"type": EVENTS_MESSAGE, "table": table_id, "events": batch}
            )
        except Exception:  # the write is committed: never let publishing break the caller
            log.exception(
                "could not publish events %s..%s of table %s", batch[0]["v"], batch[-1]["v"], table_id
            )


def snapshot_frame(table: Table, user: Any) -> dict[str, Any]:
    return {"type": "snapshot", "v": table.version, "ms": server_ms(), "table": table_view(table, user)}


def catch_up(
    table_id: int, user: Any, after: int | None, carried: Sequence[dict[str, Any]] = ()
) -> tuple[int, list[dict[str, Any]]]:
    """The frames that bring a connection at version ``after`` to the table's current version
    (None: it has nothing yet), and that version.

    The events after ``after``, then a snapshot at the last of them; only the snapshot when
    ``after`` is None, ahead of the table, or more than :data:`MAX_REPLAY` behind. ``carried``
    are events a channel-layer message brought; they are used when they follow on from
    ``after`` and reach the table's version, so the log is read only after a gap.
    """
    table = Table.objects.select_related("template").get(pk=table_id)
    current = table.version
    if after is None or after > current or current - after > MAX_REPLAY:
        return current, [snapshot_frame(table, user)]
    newer = [event for event in carried if after < event["v"] <= current]
    if newer and [e["v"] for e in newer] == list(range(after + 1, current + 1)):
        frames = [event_frame(event, user.pk) for event in newer]
    else:
        # A gap: read the log. Events up to ``current`` are all committed with the table row.
        frames = [frame for frame in events_for(table, user, after) if frame["v"] <= current]
    return current, [*frames, snapshot_frame(table, user)]


def register() -> None:
    """Connect :func:`publish` and the timers to the service layer (once)."""
    for publisher in (publish, timers.after_write):
        if publisher not in services.publishers:
            services.publishers.append(publisher)


register()
