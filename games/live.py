"""Live play: publish each write's events to the table's channel-layer group, and turn them
into one connection's frames.

:func:`publish` is connected to :data:`games.services.after_commit` by ``GamesConfig.ready``, so
every write's events, after commit, reach every consumer of the table in every server process
(the in-memory layer on the embedded default, Redis with ``REDIS_URL``). The message carries
every event, private ones included, and the table's snapshot for each viewer, built once per
version from what the write already knows: each connection picks its own (:func:`frames_for`),
with no database read. The server filters per connection, never the client.

A write made for a websocket action is not sent from the database thread: :func:`perform`
builds its message, and the consumer sends its own frames and the group message from the
event loop.

Each connection keeps the last version it has sent. When a message does not follow on from it
(a message lost, or two processes' messages crossing), :func:`catch_up` reads only the missing
events from the log, and a fresh snapshot. See docs/PROTOCOL.md.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection

from games import client_actions, here, services, views_state
from games.models import Table
from games.views_state import events_for, table_view
from hotpath import jsontext

log = logging.getLogger(__name__)

#: The ``type`` of a channel-layer message with a table's new events (handled by
#: ``TableConsumer.table_events``).
EVENTS_MESSAGE = "table.events"

#: A client this many versions behind gets a snapshot instead of the events it missed.
MAX_REPLAY = 200

#: Seconds between two checks of a database thread's connection on the actions' path
#: (:func:`perform_in_thread`).
CONNECTION_CHECK_SECONDS = 1.0


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


def _sqlite() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"))


def _pooled() -> bool:
    return bool(connection.settings_dict["OPTIONS"].get("pool"))


def in_thread(function: Any) -> Any:
    """``function`` made awaitable, run in a database thread: in the thread pool on
    PostgreSQL, so tables wait for their own rows and not for each other (not in the one thread
    every consumer would share, ``thread_sensitive``); in that one thread on SQLite, which has
    one writer at a time whatever the threads. Django's check of old and broken connections
    runs before and after each call, as around a request."""
    return database_sync_to_async(function, thread_sensitive=_sqlite())


async def perform_in_thread(table_id: int, user: Any, frame: Mapping[str, Any]) -> Performed:
    """:func:`perform` in a database thread, as :func:`in_thread` runs a call, but with the
    connection checked after a call at most once a :data:`CONNECTION_CHECK_SECONDS` per thread
    (after every call when connections are neither pooled nor kept): Django's health check
    before each call is a round trip of its own on top of an action's two. A pooled connection
    stays with the thread between its actions for that second, then goes back to the pool. An
    action that finds its connection lost (PostgreSQL restarted) runs again on a new one (so
    does one that met a deadlock or a lock timeout); its receipt makes it apply once whatever
    became of the first attempt."""
    return await sync_to_async(_perform_checked, thread_sensitive=_sqlite())(table_id, user, frame)


_checked = threading.local()


def _perform_checked(table_id: int, user: Any, frame: Mapping[str, Any]) -> Performed:
    try:
        return perform(table_id, user, frame)
    except (OperationalError, InterfaceError):
        # The connection lost (PostgreSQL restarted), a deadlock, a lock timeout: once more, on a
        # sound connection. The action's receipt makes it apply once, whatever became of the first.
        log.warning("table %s: the action failed in the database; it runs again", table_id, exc_info=True)
        close_old_connections()
        return perform(table_id, user, frame)
    finally:
        now = time.monotonic()
        kept = connection.settings_dict["CONN_MAX_AGE"] != 0 or _pooled()
        if not kept or now - getattr(_checked, "at", -CONNECTION_CHECK_SECONDS) >= CONNECTION_CHECK_SECONDS:
            # As after a request: a broken or old connection closed (every time when connections
            # are not kept), and the next use of this one health-checked.
            close_old_connections()
            _checked.at = now


def dumps(frame: Mapping[str, Any]) -> str:
    return jsontext.dumps(frame)


# --- one message per write ----------------------------------------------------------------------


def views_json(written: services.Written) -> dict[str, str]:
    """The snapshot's ``table`` for every viewer, as JSON text: key "" for a watcher, the
    player's name for each player dealt in. Built once per version (one read of the seats, for
    names and presence) and shared by every connection in this process."""
    state = written.state
    seats = written.seats if written.seats is not None else views_state.seats_at(written.table_id)
    dealt = list(state.deal.players) if state.deal is not None else []  # who may see more than a watcher
    out: dict[str, str] = {}
    for viewer in [None, *dealt]:
        view = views_state.view_of(
            state,
            viewer,
            table_id=written.table_id,
            version=written.version,
            status=written.status,
            template_name=written.template_name,
            currency=written.currency,
            seats=seats,
        )
        out["" if viewer is None else viewer] = dumps(view)
    return out


def message_of(written: services.Written) -> dict[str, Any]:
    """The channel-layer message of a write: its events and every viewer's snapshot."""
    return {
        "type": EVENTS_MESSAGE,
        "table": written.table_id,
        "v": written.version,
        "events": [event_json(event) for event in written.events],
        "views": views_json(written),
    }


def safe_message_of(written: services.Written) -> dict[str, Any]:
    """:func:`message_of`, or the events alone if the snapshots cannot be built (the
    connections then catch up from the log): publishing must never fail."""
    try:
        return message_of(written)
    except Exception:
        log.exception("could not build the snapshots of table %s at %s", written.table_id, written.version)
        events = [event_json(event) for event in written.events]
        return {"type": EVENTS_MESSAGE, "table": written.table_id, "v": written.version, "events": events}


def publish(written: services.Written) -> None:
    """After-commit hook: send a write's message to the table's group. A failure is logged
    and never undoes the write (clients resynchronise from the event log)."""
    message = safe_message_of(written)
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(written.table_id), message)
    except Exception:  # the write is committed: never let publishing break the caller
        log.exception("could not publish version %s of table %s", written.version, written.table_id)


async def send_to_group(message: dict[str, Any]) -> None:
    """Publish a collected message from the event loop."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group_name(message["table"]), message)
    except Exception:
        log.exception("could not publish version %s of table %s", message["v"], message["table"])


#: The ``type`` of a channel-layer message saying a seated player came online or went offline
#: (handled by ``TableConsumer.table_presence``).
PRESENCE_MESSAGE = "table.presence"


async def announce_presence(table_id: int, user_id: int, connected: bool) -> None:
    """Tell every connection at the table that a seated player's first connection opened or
    their last one closed (:mod:`games.presence`). Not a table event: no version, no write."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": PRESENCE_MESSAGE, "player": str(user_id), "connected": connected}
    try:
        await layer.group_send(group_name(table_id), message)
    except Exception:  # presence is a courtesy: the next snapshot carries it anyway
        log.exception("could not announce the presence of %s at table %s", user_id, table_id)


@dataclass(frozen=True)
class Performed:
    """A websocket action's answer, and the messages of the writes it committed, for the
    consumer to send from the event loop (:func:`announce`)."""

    answer: dict[str, Any]
    messages: list[dict[str, Any]]


def perform(table_id: int, user: Any, frame: Mapping[str, Any]) -> Performed:
    """:func:`games.client_actions.perform`, with the writes' messages built here, in the
    database thread, and sent by the consumer from the event loop: the database thread never
    waits on the channel layer. The other after-commit hooks (the timers: a wake-up in
    embedded mode, a bot's move on practice tables with bots) run here, once committed."""
    with services.deferring_hooks() as writes:
        answer = client_actions.perform(table_id, user, frame)
    for written in writes:
        services.run_hooks(written, skip=(publish,))
    return Performed(answer, [safe_message_of(written) for written in writes])


async def announce(performed: Performed) -> None:
    """After the consumer has answered: the action's writes to the other connections, straight
    to those in this process (:mod:`games.here`), and through the channel layer to all."""
    for message in performed.messages:
        here.deliver(message)
        await send_to_group(message)


def frames_for(message: Mapping[str, Any], user_id: int, after: int) -> list[str] | None:
    """A connection's frames for a message when its events follow on from ``after``: the
    events (filtered for ``user_id``) and its snapshot, as text. None after a gap, or when the
    message carries no snapshots: then the connection catches up from the log."""
    events = message["events"]
    views = message.get("views")
    if not views or not events or events[0]["v"] != after + 1 or events[-1]["v"] != message["v"]:
        return None
    frames = [dumps(event_frame(event, user_id)) for event in events]
    view = views.get(str(user_id)) or views[""]
    frames.append(f'{{"type":"snapshot","v":{message["v"]},"ms":{server_ms()},"table":{view}}}')
    return frames


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
