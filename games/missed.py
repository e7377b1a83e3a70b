"""The missed-message check: a connection left behind its table catches up from the log.

A channel layer can lose a message. Redis pub/sub keeps nothing for a server process whose
subscription is reconnecting or not yet in place; the list-based and in-memory layers drop a
message to a connection over its capacity. The protocol notices a gap when the next message
comes (docs/PROTOCOL.md), but a table can fall silent just after the lost one: the turn
passed to a player who never heard of it. So each server process reads, every
``LIVE_CHECK_SECONDS``, the version of every table it has connections to, in one query, and a
connection still at the version it was already behind at the check before (not a message on
its way, then) catches up from the log, as a client's resync would.

It costs one read a process every two seconds, whatever the number of tables or moves; while
Redis is away, the tables carry on a check behind instead of going silent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from weakref import WeakKeyDictionary

from django.conf import settings

from games import here
from games.here import Connection
from games.live import in_thread
from games.models import Table

log = logging.getLogger(__name__)


def table_versions(table_ids: Sequence[int]) -> dict[int, int]:
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))


class Watch:
    """The check of one event loop (a server process): its task, which runs while the process
    has connections (kept by :mod:`games.here`)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.task: asyncio.Task[None] | None = None

    def add(self, connection: Connection) -> None:
        here.add(connection)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())

    def discard(self, connection: Connection) -> None:
        here.discard(connection)

    async def run(self) -> None:
        while here.tables():
            await asyncio.sleep(self.seconds)
            try:
                await self.check()
            except Exception:  # the database is away: look again next time
                log.exception("the missed-message check failed")

    async def check(self) -> None:
        tables = here.tables()
        if not tables:
            return
        versions = await in_thread(table_versions)(list(tables))
        await asyncio.gather(
            *(
                connection.catch_up_if_stuck(versions[table_id])
                for table_id, connections in list(tables.items())
                if table_id in versions
                for connection in list(connections)
            )
        )


_watches: WeakKeyDictionary[asyncio.AbstractEventLoop, Watch] = WeakKeyDictionary()


def watch_of_this_loop() -> Watch | None:
    """This event loop's watch, or None with the check turned off (``LIVE_CHECK_SECONDS = 0``)."""
    seconds = float(settings.LIVE_CHECK_SECONDS)
    if seconds <= 0:
        return None
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = Watch(seconds)
    return watch


def watch(connection: Connection) -> None:
    found = watch_of_this_loop()
    if found is not None:
        found.add(connection)


def unwatch(connection: Connection) -> None:
    found = _watches.get(asyncio.get_running_loop())
    if found is not None:
        found.discard(connection)
