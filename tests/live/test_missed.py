"""The missed-message check (games.missed): a connection that never got a write's message is
caught up from the log at the check after next, with no frame from its client."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from games import live, missed, services
from games.consumers import TableConsumer
from games.models import Table
from tests.live.support import Conn, db, make_user, run, seat, turn_of

pytestmark = pytest.mark.usefixtures("live_db")


def _version(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


def _mover(table_id: int, users: list[Any]) -> Any:
    return next(user for user in users if str(user.pk) == turn_of(table_id))


def test_a_connection_that_missed_a_message_is_caught_up_by_the_check(settings, monkeypatch):
    settings.LIVE_CHECK_SECONDS = 0.2
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")

    async def body() -> None:
        watcher = await Conn.open(table.pk, alice)
        since = (await watcher.next())["v"]
        # The write's message is lost: nothing reaches the channel layer.
        monkeypatch.setattr(live, "get_channel_layer", lambda: None)
        mover = await db(_mover)(table.pk, [alice, bob])
        await db(services.act)(table.pk, mover, {"type": "draw", "source": "closed"})
        now = await db(_version)(table.pk)
        assert now > since
        frames = [await watcher.next(timeout=5) for _ in range(now - since + 1)]
        assert [frame["v"] for frame in frames] == [*range(since + 1, now + 1), now]
        assert frames[-1]["type"] == "snapshot"
        assert frames[0]["type"] == "drew"
        await watcher.close()

    run(body)


def test_the_check_reads_every_watched_table_in_one_query(settings, monkeypatch):
    settings.LIVE_CHECK_SECONDS = 60  # the test runs the check itself
    reads: list[list[int]] = []

    def versions(table_ids: list[int]) -> dict[int, int]:
        reads.append(sorted(table_ids))
        return dict.fromkeys(table_ids, 7)

    monkeypatch.setattr(missed, "table_versions", versions)
    told: list[tuple[int, int]] = []

    class Connection:
        def __init__(self, table_id: int) -> None:
            self.table_id = table_id

        async def catch_up_if_stuck(self, current: int) -> None:
            told.append((self.table_id, current))

    async def body() -> None:
        watch = missed.Watch(60)
        connections = [Connection(1), Connection(1), Connection(2)]
        for connection in connections:
            watch.add(connection)
        await watch.check()
        watch.discard(connections[2])
        await watch.check()
        assert watch.task is not None
        watch.task.cancel()

    run(body)
    assert reads == [[1, 2], [1]]
    assert sorted(told) == [(1, 7), (1, 7), (1, 7), (1, 7), (2, 7)]


def test_a_message_on_its_way_is_not_taken_for_a_missed_one():
    """Behind at one check is a message in flight; behind at the same version at the next is a
    missed one; moving on in between clears it."""
    consumer = TableConsumer()
    consumer.table_id, consumer.version, consumer.stuck_at = 1, 5, None
    consumer.sending = asyncio.Lock()
    caught_up: list[int] = []

    async def catch_up() -> None:
        caught_up.append(consumer.version or 0)
        consumer.version = 9

    consumer.catch_up = catch_up  # type: ignore[method-assign]

    async def body() -> None:
        await consumer.catch_up_if_stuck(6)  # behind: perhaps on its way
        assert caught_up == []
        consumer.version = 6  # it came
        await consumer.catch_up_if_stuck(8)
        assert caught_up == []
        await consumer.catch_up_if_stuck(9)  # still at 6: missed
        assert caught_up == [6]
        await consumer.catch_up_if_stuck(9)  # at 9 now: nothing to do
        assert caught_up == [6]

    run(body)
