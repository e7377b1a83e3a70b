"""A running daphne on PostgreSQL holds at most its pool's connections, whatever arrives: a
crowd signing up, logging in and reading its wallet at once. Under daphne each request runs in
a thread lent to it; with a connection kept per thread, forty sign-ups at once left more than
forty connections open until PostgreSQL refused new clients (docs/DEPLOY.md, "Database
connections")."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.live.stack import Stack, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.usefixtures("live_db")]

POOL = 4
PLAYERS = 12
PASSWORD = "green-felt-table-42"


@pytest.fixture
def stack(tmp_path: Path):
    running = Stack(tmp_path)
    try:
        running.redis()
        yield running
    finally:
        running.close()


def _held(name: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE application_name = %s AND datname = current_database()",
            [name],
        )
        (count,) = cursor.fetchone()
    return int(count)


def _call(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    headers = {"Host": "127.0.0.1", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:  # noqa: S310 (our own server)
            text = response.read().decode()
            return response.status, json.loads(text) if text.startswith(("{", "[")) else text
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def _arrive(port: int, number: int) -> list[int]:
    """One new player as a program arrives: sign up, log in, read the wallet and the lobby."""
    username = f"crowd{number}"
    status, answer = _call(
        port,
        "POST",
        "/api/auth/signup/",
        {"username": username, "password": PASSWORD, "date_of_birth": "1990-05-17", "region": "IN-KA"},
    )
    statuses = [status]
    if status != 201:
        return [*statuses, -1]
    status, login = _call(port, "POST", "/api/auth/token/", {"username": username, "password": PASSWORD})
    statuses.append(status)
    token = login["token"] if status == 200 else answer["token"]
    statuses.append(_call(port, "GET", "/api/wallet/", token=token)[0])
    statuses.append(_call(port, "GET", "/api/lobby/", token=token)[0])
    statuses.append(_call(port, "GET", "/accounts/login/")[0])
    return statuses


def test_a_crowd_signing_up_at_once_holds_no_more_connections_than_the_pool(stack):
    name = f"rummy-bound-{threading.get_ident()}"
    port = stack.daphne(
        GAME_TIMERS="off",
        DB_APPLICATION_NAME=name,
        DB_POOL_SIZE=str(POOL),
        DB_POOL_TIMEOUT="120",  # the crowd waits for a connection rather than being refused
        API_THROTTLE_ANON="10000/min",
    )
    most = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal most
        try:
            while not done.is_set():
                most = max(most, _held(name))
                done.wait(0.05)
        finally:
            connection.close()  # this thread's connection back to the pool

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(PLAYERS) as crowd:
            answers = list(crowd.map(lambda number: _arrive(port, number), range(PLAYERS)))
    finally:
        done.set()
        watcher.join()
    assert all(answer == [201, 200, 200, 200, 200] for answer in answers), answers
    assert 0 < most <= POOL, f"daphne held {most} connections at once; its pool has {POOL}"
    wait_until(lambda: _held(name) <= POOL, 5, "the connections back within the pool")
