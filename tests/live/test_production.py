"""The production processes for real (daphne, a Celery worker, Celery beat, redis-server,
PostgreSQL): idle websockets stay open, ``/healthz`` names each part that is down and says
nothing more, and the game timers come back by themselves after Redis was away."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.models import Table, TableEvent
from tests.live.stack import Stack, free_port, health, wait_until
from tests.live.support import make_user, seat, session_cookie, turn_of

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.usefixtures("live_db")]

#: Small, so the test is short; the settings refuse one at or under the layer's 5 s read.
SOCKET_TIMEOUT = 6


@pytest.fixture
def stack(tmp_path: Path):
    running = Stack(tmp_path)
    try:
        yield running
    finally:
        running.close()


async def _open(port: int, table_id: int, cookie: str) -> Any:
    socket_ = await connect(
        f"ws://127.0.0.1:{port}/ws/tables/{table_id}/",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=10,
        ping_interval=None,  # idle means idle: no keep-alive traffic of the client's
    )
    first = json.loads(await asyncio.wait_for(socket_.recv(), 10))
    assert first["type"] == "snapshot"
    return socket_


def test_two_idle_websockets_on_one_table_stay_open_past_twice_the_redis_socket_timeout(stack):
    """redis-py's socket timeout at or under channels-redis's 5 s blocking read closed
    every idle websocket with 1011. Two clients idle for 2 x the timeout + 1 s: no close, and
    the table's group still carries a move from one to the other."""
    stack.redis()
    port = stack.daphne(GAME_TIMERS="off", REDIS_SOCKET_TIMEOUT=str(SOCKET_TIMEOUT))
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")
    cookies = {u.username: session_cookie(u) for u in (alice, bob)}
    mover = alice if turn_of(table.pk) == str(alice.pk) else bob
    watcher = bob if mover is alice else alice
    idle = 2 * SOCKET_TIMEOUT + 1

    async def body() -> tuple[list[Any], dict[str, Any]]:
        sockets = {u.username: await _open(port, table.pk, cookies[u.username]) for u in (alice, bob)}
        closes = []

        async def idle_on(name: str) -> None:
            until = asyncio.get_running_loop().time() + idle
            while True:
                try:
                    frame = await asyncio.wait_for(
                        sockets[name].recv(), until - asyncio.get_running_loop().time()
                    )
                except TimeoutError:
                    return
                except ConnectionClosed as closed:
                    closes.append((name, closed.rcvd.code if closed.rcvd else None))
                    return
                if json.loads(frame).get("type") == "presence":
                    continue  # the other player came online: no move, no version
                raise AssertionError(f"{name} got a frame while the table was idle: {frame[:200]}")

        await asyncio.gather(*(idle_on(name) for name in sockets))
        await sockets[mover.username].send(
            json.dumps({"id": "after-idle", "type": "draw", "source": "closed"})
        )
        seen: dict[str, Any] = {}
        while seen.get("type") != "snapshot":
            seen = json.loads(await asyncio.wait_for(sockets[watcher.username].recv(), 10))
        for socket_ in sockets.values():
            await socket_.close()
        return closes, seen

    closes, seen = asyncio.run(body())
    assert closes == [], f"websockets closed while idle: {closes}"
    assert seen["v"] == Table.objects.get(pk=table.pk).version
    assert "1011" not in stack.log("daphne")


def test_while_redis_is_away_moves_still_reach_the_table_and_no_socket_closes(stack):
    """On Redis pub/sub a message published while Redis is away is lost to the other server
    processes (a player in the mover's own process gets it straight from its event loop,
    games.here). The missed-message check (games.missed) reads the tables' versions and catches
    the other player, on another daphne, up from the log: the table carries on, seconds behind,
    and no websocket closes. When Redis is back, messages flow again."""
    stack.redis()
    port = stack.daphne(GAME_TIMERS="off")
    port_other = stack.daphne("daphne2", GAME_TIMERS="off")
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")
    mover = alice if turn_of(table.pk) == str(alice.pk) else bob
    other = bob if mover is alice else alice
    cookies = {u.username: session_cookie(u) for u in (alice, bob)}

    async def until(socket_: Any, wanted: Any, timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            frame = json.loads(await asyncio.wait_for(socket_.recv(), end - time.monotonic()))
            if wanted(frame):
                return frame

    async def body() -> tuple[float, float]:
        mine = await _open(port, table.pk, cookies[mover.username])
        theirs = await _open(port_other, table.pk, cookies[other.username])
        stack.stop_redis()
        await mine.send(json.dumps({"id": "while-away", "type": "draw", "source": "closed"}))
        card = (await until(mine, lambda f: f.get("type") == "drew_card", 10))["data"]["card"]
        await until(mine, lambda f: f.get("ack") == "while-away", 10)
        started = time.monotonic()
        drew = await until(theirs, lambda f: f.get("type") == "drew", 15)
        away = time.monotonic() - started
        assert drew["data"]["player"] == str(mover.pk)
        stack.redis()
        await asyncio.sleep(3)  # the layer's receiver reconnects and subscribes again
        await mine.send(json.dumps({"id": "back", "type": "discard", "card": card}))
        await until(mine, lambda f: f.get("ack") == "back", 10)
        started = time.monotonic()
        await until(theirs, lambda f: f.get("type") == "discarded", 15)
        back = time.monotonic() - started
        await mine.close()
        await theirs.close()
        return away, back

    away, back = asyncio.run(body())
    assert away < 10, f"the check caught the other player up {away:.1f} s after the move"
    assert "1011" not in stack.log("daphne")
    assert "1011" not in stack.log("daphne2")
    assert "missed a message" in stack.log("daphne2")
    assert stack.alive("daphne")
    assert stack.alive("daphne2")
    print(f"\nwhile Redis was away a move reached the other player in {away:.1f} s; after, in {back:.2f} s")


def _no_detail(text: str) -> None:
    """A /healthz answer is names and booleans: no exception, address or message."""
    body = json.loads(text)
    assert set(body) == {"ok", "checks"}
    for name, check in body["checks"].items():
        assert re.fullmatch(r"[a-z_]+", name)
        assert check in ({"ok": True}, {"ok": False}), check
    for word in ("Error", "error", "Exception", "Traceback", "refused", "127.0.0.1", "timeout", "redis://"):
        assert word not in text, word


def test_healthz_names_each_part_that_is_down_and_never_why(stack, capsys):
    stack.env["HEARTBEAT_STALE_SECONDS"] = "5"
    stack.redis()
    port = stack.daphne()
    stack.worker()
    stack.beat()
    seen: dict[str, str] = {}

    def answer_is(status: int, down: set[str]) -> bool:
        code, body, text = health(port)
        failing = {name for name, check in body["checks"].items() if not check["ok"]}
        if (code, failing) == (status, down):
            seen[",".join(sorted(down)) or "none"] = f"{code} {text}"
            _no_detail(text)
            return True
        return False

    wait_until(lambda: answer_is(200, set()), 30, "/healthz all ok", interval=0.5)
    stack.kill("beat")
    wait_until(lambda: answer_is(503, {"beat"}), 20, "/healthz: beat down", interval=0.5)
    stack.kill("worker")
    wait_until(lambda: answer_is(503, {"beat", "worker"}), 20, "/healthz: worker down", interval=0.5)
    stack.beat()
    stack.worker()
    wait_until(lambda: answer_is(200, set()), 30, "/healthz all ok again", interval=0.5)
    closed = free_port()
    no_db = stack.daphne("daphne-no-db", DATABASE_URL=f"postgresql://rummy@127.0.0.1:{closed}/rummy")
    code, body, text = health(no_db)
    _no_detail(text)
    assert (code, body["checks"]["database"]) == (503, {"ok": False})
    seen["database"] = f"{code} {text}"
    stack.stop_redis()
    wait_until(
        lambda: answer_is(503, {"channel_layer", "broker", "worker", "beat"}),
        30,
        "/healthz: redis down",
        interval=0.5,
    )
    with capsys.disabled():
        print(
            "\n/healthz answers:\n" + "\n".join(f"  {down} down -> {answer}" for down, answer in seen.items())
        )
    # The detail went to the log instead.
    assert "health check database failed" in stack.log("daphne-no-db")
    assert "health check broker failed" in stack.log("daphne")


def test_a_move_timeout_due_while_redis_was_down_fires_once_when_it_is_back(stack, capsys):
    stack.redis()
    port = stack.daphne()
    stack.worker()
    stack.beat()
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two", move_seconds=4, extra_seconds=0)
    first = turn_of(table.pk)
    stack.stop_redis()
    # The first move's deadline passes while Redis is down.
    time.sleep(7)
    assert not TableEvent.objects.filter(table=table, type="missed_move").exists()
    stack.redis()
    back = time.monotonic()
    wait_until(
        lambda: TableEvent.objects.filter(table=table, type="missed_move").exists(),
        60,
        "the overdue timeout fired",
    )
    resumed = time.monotonic() - back
    # The next player's deadline is scheduled by the worker after Redis came back, and a
    # player connected to daphne sees it fire live.
    second = turn_of(table.pk)
    assert second != first
    cookie = session_cookie(alice if second == str(alice.pk) else bob)

    async def watch() -> list[dict[str, Any]]:
        frames: list[dict[str, Any]] = []
        async with connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/",
            additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
            open_timeout=10,
        ) as socket_:
            end = time.monotonic() + 20
            while time.monotonic() < end:
                frame = json.loads(await asyncio.wait_for(socket_.recv(), end - time.monotonic()))
                frames.append(frame)
                if frame.get("type") == "missed_move" and frame["data"]["player"] == second:
                    break
        return frames

    frames = asyncio.run(watch())
    assert any(f.get("type") == "missed_move" and f["data"]["player"] == second for f in frames)
    time.sleep(3)  # time for a duplicate, if a timer were to fire twice
    missed = list(TableEvent.objects.filter(table=table, type="missed_move").values_list("data", flat=True))
    firsts = [m for m in missed if m["player"] == first and m["missed"] == 1]
    assert len(firsts) == 1, f"the overdue timeout fired once: {missed}"
    assert all(stack.alive(name) for name in ("daphne", "worker", "beat")), "no process exited"
    with capsys.disabled():
        print(f"\ntimers resumed {resumed:.1f} s after Redis came back")


def test_an_oversized_frame_gets_its_error_frame_then_an_application_close_code(stack):
    """A frame over 16 KiB: the error frame, then close 4413. An ASGI application may close
    only with 1000 or 3000-4999: with 1009 daphne logged "invalid close code" and the client
    got 1011 with no error frame."""
    stack.redis()
    port = stack.daphne(GAME_TIMERS="off")
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")
    cookie = session_cookie(alice)

    async def body() -> tuple[dict[str, Any], int | None]:
        socket_ = await _open(port, table.pk, cookie)
        await socket_.send(json.dumps({"type": "ping", "pad": "x" * 17_000}))
        error = json.loads(await asyncio.wait_for(socket_.recv(), 10))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(socket_.recv(), 10)
        return error, closed.value.rcvd.code if closed.value.rcvd else None

    error, code = asyncio.run(body())
    assert error["error"] == "too_large"
    assert "16384 bytes" in error["message"]
    assert code == 4413
    assert "invalid close code" not in stack.log("daphne").lower()


def test_an_opponent_who_closes_the_app_shows_offline_within_five_seconds(stack):
    """Bob's app is killed (the connection dropped, no goodbye): alice hears it within 5 s,
    with no move made and nothing written to the table."""
    stack.redis()
    port = stack.daphne(GAME_TIMERS="off")
    alice, bob = make_user("alice"), make_user("bob")
    table = seat([alice, bob], seats=2, name="101 for two")
    cookies = {u.username: session_cookie(u) for u in (alice, bob)}
    version = Table.objects.get(pk=table.pk).version

    async def body() -> tuple[dict[str, Any], float]:
        watching = await _open(port, table.pk, cookies["alice"])
        leaving = await _open(port, table.pk, cookies["bob"])
        online = json.loads(await asyncio.wait_for(watching.recv(), 10))
        assert online == {"type": "presence", "player": str(bob.pk), "connected": True}
        started = time.monotonic()
        leaving.transport.abort()  # as a phone killing the app: no close frame
        offline = json.loads(await asyncio.wait_for(watching.recv(), 10))
        took = time.monotonic() - started
        await watching.close()
        return offline, took

    offline, took = asyncio.run(body())
    assert offline == {"type": "presence", "player": str(bob.pk), "connected": False}
    assert took < 5, f"alice heard it after {took:.1f} s"
    assert Table.objects.get(pk=table.pk).version == version
