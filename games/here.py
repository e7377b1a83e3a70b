"""This server process's connections, by table. A write made here reaches them straight from
the event loop (:func:`games.live.announce`), ahead of the channel layer's copy, which each then
drops as already sent (by its version); the copy still goes to the layer, for the connections
of other processes and for any here that the direct delivery missed. The missed-message check
(:mod:`games.missed`) reads the versions of the tables listed here.

Each event loop (a server process) has its own; only that loop touches it, so it needs no lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any, Protocol
from weakref import WeakKeyDictionary

log = logging.getLogger(__name__)


class Connection(Protocol):
    """A connection to a table (``games.consumers.TableConsumer``)."""

    table_id: int

    async def table_events(self, message: Any) -> None:
        """Send a write's events, unless this connection has sent that version already."""

    async def catch_up_if_stuck(self, current: int) -> None:
        """Told the table's version at a check: catch up if still behind since the last one."""


#: The deliveries on their way.
_running: set[asyncio.Future[None]] = set()

_tables: WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, set[Connection]]] = WeakKeyDictionary()


def tables() -> dict[int, set[Connection]]:
    """This event loop's connections by table (the loop's own: change it only through
    :func:`add` and :func:`discard`)."""
    loop = asyncio.get_running_loop()
    found = _tables.get(loop)
    if found is None:
        found = _tables[loop] = {}
    return found


def add(connection: Connection) -> None:
    tables().setdefault(connection.table_id, set()).add(connection)


def discard(connection: Connection) -> None:
    by_table = tables()
    connections = by_table.get(connection.table_id)
    if connections is not None:
        connections.discard(connection)
        if not connections:
            del by_table[connection.table_id]


def deliver(message: Mapping[str, Any]) -> None:
    """Hand a write's message to each connection here at its table, each in a task of its own
    (one connection busy catching up never holds the others)."""
    for connection in list(tables().get(message["table"], ())):
        task = asyncio.ensure_future(_deliver(connection, message))
        _running.add(task)  # (the loop keeps only a weak reference to a task)
        task.add_done_callback(_running.discard)


async def _deliver(connection: Connection, message: Mapping[str, Any]) -> None:
    try:
        await connection.table_events(message)
    except Exception:  # the layer's copy follows; the missed-message check backs both
        log.exception("table %s: a direct delivery failed", connection.table_id)
