"""Two daphne processes sharing Redis and PostgreSQL: players on different processes see each
other's moves, in order, as fast as the channel layer carries them."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from websockets.asyncio.client import connect

from games.models import Table
from games.views_state import events_for
from tests.live.support import hand_of, make_user, seat, session_cookie, turn_of

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.usefixtures("live_db")]

ROOT = Path(__file__).resolve().parents[2]
TURNS = 6


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgresql://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if process.poll() is not None:
            raise AssertionError(f"daphne on port {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"daphne did not listen on port {port} within {timeout} s")


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[int]]:
    """Two daphne processes on free ports, stopped (and killed if need be) at the end."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DEBUG": "1",
        "GAME_TIMERS": "off",
        "DJANGO_SETTINGS_MODULE": "rummysite.settings",
    }
    ports = [free_port(), free_port()]
    processes = []
    try:
        for port in ports:
            log = (tmp_path / f"daphne-{port}.log").open("wb")
            processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "daphne",
                        "-b",
                        "127.0.0.1",
                        "-p",
                        str(port),
                        "rummysite.asgi:application",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        for port, process in zip(ports, processes, strict=True):
            wait_for_port(port, process)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


class Client:
    """A player on one server: frames kept in order, an action awaited by its id."""

    def __init__(self, socket_: Any, name: str) -> None:
        self.socket = socket_
        self.name = name
        self.frames: list[dict[str, Any]] = []

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        frame = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.frames.append(frame)
        return frame

    async def until(self, predicate: Any, timeout: float = 5.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            frame = await self.next(max(0.01, end - time.monotonic()))
            if predicate(frame):
                return frame

    async def act(self, client_id: str, **action: Any) -> dict[str, Any]:
        await self.socket.send(json.dumps({"id": client_id, **action}))
        return await self.until(lambda f: f.get("ack") == client_id or f.get("id") == client_id)

    def events(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if set(f) in ({"v"}, {"v", "type", "data"})]


def test_players_on_two_processes_see_each_others_moves_in_order(servers):
    users = [make_user("alice"), make_user("bob")]
    table = seat(users, seats=2, name="101 for two")
    start = Table.objects.get(pk=table.pk).version
    cookies = {user.pk: session_cookie(user) for user in users}
    # The moves are planned here, where the database is at hand: each turn, draw then discard
    # the card drawn (read back after the draw through the snapshot the mover gets).
    by_id = {str(user.pk): user for user in users}
    latencies: list[float] = []

    async def body() -> dict[int, Client]:
        clients: dict[int, Client] = {}
        for user, port in zip(users, servers, strict=True):
            socket_ = await connect(
                f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/",
                additional_headers={"Cookie": cookies[user.pk], "Origin": f"http://127.0.0.1:{port}"},
                open_timeout=10,
            )
            clients[user.pk] = Client(socket_, user.username)
            first = await clients[user.pk].next()
            assert (first["type"], first["v"]) == ("snapshot", start)
        mover_id = turn
        for number in range(TURNS):
            mover = clients[by_id[mover_id].pk]
            watcher = next(c for uid, c in clients.items() if uid != by_id[mover_id].pk)
            sent = time.perf_counter()
            ack = await mover.act(f"draw-{number}", type="draw", source="closed")
            assert "ack" in ack, ack
            await watcher.until(lambda f, v=ack["v"]: f.get("type") == "snapshot" and f["v"] == v)
            latencies.append(time.perf_counter() - sent)
            hand = next(f for f in reversed(mover.frames) if f.get("type") == "snapshot")["table"]["deal"][
                "hand"
            ]
            ack = await mover.act(f"discard-{number}", type="discard", card=hand[-1])
            assert "ack" in ack, ack
            seen = await watcher.until(lambda f, v=ack["v"]: f.get("type") == "snapshot" and f["v"] == v)
            mover_id = seen["table"]["deal"]["turn"]
        for client in clients.values():
            await client.socket.close()
        return clients

    turn = turn_of(table.pk)
    clients = asyncio.run(asyncio.wait_for(body(), 60))
    end = Table.objects.get(pk=table.pk).version
    assert end > start + TURNS * 2
    for user in users:
        got = clients[user.pk].events()
        assert [f["v"] for f in got] == list(range(start + 1, end + 1)), user.username
        assert got == events_for(Table.objects.get(pk=table.pk), user, start), user.username
    public = [[f for f in clients[u.pk].events() if "type" in f and f["type"] != "drew_card"] for u in users]
    assert public[0] == public[1], "both saw the same public events in the same order"
    assert hand_of(table.pk, users[0])
    print(
        f"\ncross-process event latency over {len(latencies)} draws: "
        f"median {statistics.median(latencies) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )


def test_a_celery_worker_and_beat_run_the_timers_and_bots_for_daphne(tmp_path: Path):
    """GAME_TIMERS=celery end to end: daphne sends a task per bot move, beat's tick applies the
    deadlines in the worker, and the player sees it all on the wire."""
    alice, robo = make_user("alice"), make_user("robo", bot=True)
    cookie = session_cookie(alice)
    # Redis database 15: this test's own queue and channel layer, whatever else shares Redis.
    redis_url = os.environ["REDIS_URL"].rsplit("/", 1)[0] + "/15"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url,
        "DEBUG": "1",
        "GAME_TIMERS": "celery",
        "DJANGO_SETTINGS_MODULE": "rummysite.settings",
    }
    port = free_port()
    worker_log = tmp_path / "worker.log"
    commands = [
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "rummysite.asgi:application"],
        [
            sys.executable, "-m", "celery", "-A", "rummysite", "worker", "-B", "--pool", "solo",
            "--loglevel", "INFO", "--schedule", str(tmp_path / "beat-schedule"),
        ],
    ]  # fmt: skip
    processes = []
    try:
        for command, log in zip(commands, (tmp_path / "daphne.log", worker_log), strict=True):
            processes.append(
                subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
            )
        wait_for_port(port, processes[0])
        end = time.monotonic() + 30
        while b"ready." not in worker_log.read_bytes():
            assert processes[1].poll() is None, worker_log.read_text()[-3000:]
            assert time.monotonic() < end, "the worker was not ready in 30 s"
            time.sleep(0.2)
        # Seated once both processes are up, so that alice's first deadline falls while she
        # watches: seated earlier, a slow start-up could see her miss three moves and leave.
        table = seat(
            [alice, robo], seats=2, name="practice", bots_allowed=True, move_seconds=3, extra_seconds=0
        )

        async def watch() -> list[dict[str, Any]]:
            frames: list[dict[str, Any]] = []
            async with connect(
                f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/",
                additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
                open_timeout=10,
            ) as socket_:
                stop = time.monotonic() + 60  # a bound for a busy machine; done when both are seen
                while time.monotonic() < stop:
                    try:
                        frames.append(
                            json.loads(await asyncio.wait_for(socket_.recv(), stop - time.monotonic()))
                        )
                    except TimeoutError:
                        break
                    moves = {(f["type"], f["data"].get("player")) for f in frames if "data" in f}
                    if ("missed_move", str(alice.pk)) in moves and any(
                        player == str(robo.pk) and kind in ("drew", "dropped") for kind, player in moves
                    ):
                        break
            return frames

        frames = asyncio.run(watch())
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
    moves = [(f["type"], f["data"].get("player")) for f in frames if "data" in f]
    log = worker_log.read_text()
    logs = f"{moves}\n--- worker\n{log[-3000:]}\n--- daphne\n{(tmp_path / 'daphne.log').read_text()[-3000:]}"
    assert ("missed_move", str(alice.pk)) in moves, f"the worker applied alice's move deadline\n{logs}"
    assert any(p == str(robo.pk) and k in ("drew", "dropped") for k, p in moves), (
        f"the bot moved by its task\n{logs}"
    )
    assert "games.tasks.tick" in log, "the worker ran beat's tick, which applies the deadlines"
