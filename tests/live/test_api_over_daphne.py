"""The REST API against a running daphne on PostgreSQL and Redis, as a program meets it.

- ``GET /api/tables/<id>/`` is the websocket snapshot, field for field, at every version of a
  whole game, for a player and for a watcher: both come from the one builder
  (``games.views_state.view_of``), and the API no longer filters it through a serializer.
- Every endpoint that takes an amount answers the one bad-amount set with 400 and changes
  nothing: the one strict paise field (``api.serializers.PaiseField``) wherever money enters.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from websockets.asyncio.client import connect

from games.models import Table
from protection.models import LimitChange
from tests.live.stack import Stack
from tests.live.support import make_user, seat, session_cookie
from wallet.amounts import MAX_PAISE
from wallet.ledger import balance_of, user_spec
from wallet.models import Currency, Deposit, Journal, Withdrawal

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.usefixtures("live_db")]


@pytest.fixture
def stack(tmp_path: Path):
    running = Stack(tmp_path)
    try:
        running.redis()
        yield running
    finally:
        running.close()


def _request(port: int, method: str, path: str, token: str, body: bytes | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        body,
        {"Host": "127.0.0.1", "Authorization": f"Token {token}", "Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (our own server)
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        text = error.read().decode(errors="replace")
        return error.code, json.loads(text) if text.startswith("{") else text


# --- the REST view is the snapshot ------------------------------------------------------------


class Viewer:
    """One websocket on daphne, keeping the last snapshot it got."""

    def __init__(self, name: str, cookie: str, token: str) -> None:
        self.name, self.cookie, self.token = name, cookie, token
        self.snapshot: dict[str, Any] | None = None
        self.socket: Any = None
        #: The last frames other than snapshots (acks, errors), for a failure's message.
        self.others: list[dict[str, Any]] = []

    async def open(self, port: int, table_id: int) -> None:
        self.socket = await connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table_id}/",
            additional_headers={"Cookie": self.cookie, "Origin": f"http://127.0.0.1:{port}"},
            open_timeout=10,
        )

    async def read(self) -> None:
        async for text in self.socket:
            frame = json.loads(text)
            if frame.get("type") == "snapshot":
                self.snapshot = frame
            elif frame.get("type") not in ("ping", "pong", "presence"):
                self.others = [*self.others[-4:], frame]

    async def send(self, frame: dict[str, Any]) -> None:
        await self.socket.send(json.dumps(frame))


def test_the_rest_view_of_a_table_is_the_websocket_snapshot_at_every_version(stack):
    port = stack.daphne(GAME_TIMERS="embedded")
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    table = seat([alice, bob], seats=2, name="61 for two", variant="pool61")
    viewers = {
        user.username: Viewer(user.username, session_cookie(user), Token.objects.create(user=user).key)
        for user in (alice, bob, carol)
    }
    ids = {str(alice.pk): "alice", str(bob.pk): "bob"}
    compared: dict[str, set[tuple[int, str]]] = {"alice": set(), "carol": set()}

    def version() -> int:
        """Read in a thread of asyncio's, whose connection is handed back at once: a thread's
        connection left open outlives the test and keeps the test database from being dropped."""
        try:
            return int(Table.objects.filter(pk=table.pk).values_list("version", flat=True)[0])
        finally:
            connection.close()

    async def compare(since: int) -> None:
        """Each viewer's snapshot against the API, once both stand at the table's version."""
        for name in compared:
            viewer = viewers[name]
            for _ in range(100):
                now = await asyncio.to_thread(version)
                snapshot = viewer.snapshot
                if snapshot is not None and snapshot["v"] == now:
                    status, rest = await asyncio.to_thread(
                        _request, port, "GET", f"/api/tables/{table.pk}/", viewer.token
                    )
                    assert status == 200, rest
                    if rest["version"] == snapshot["v"] == await asyncio.to_thread(version):
                        if snapshot["v"] > since:  # every player connected by then
                            _same(snapshot["table"], rest, f"{name} at version {snapshot['v']}")
                            phase = rest["phase"] + (" result" if rest.get("last_result") else "")
                            compared[name].add((snapshot["v"], phase))
                        break
                await asyncio.sleep(0.05)

    async def body() -> None:
        for viewer in viewers.values():
            await viewer.open(port, table.pk)
        readers = [asyncio.create_task(viewer.read()) for viewer in viewers.values()]
        await asyncio.sleep(0.5)
        since = await asyncio.to_thread(version)
        try:
            for _ in range(400):
                await compare(since)
                current = viewers["alice"].snapshot["table"]  # type: ignore[index]
                if current["phase"] == "finished":
                    # The game's end may have come after the comparison above: compare it too
                    # (nothing changes the table any more).
                    await compare(since)
                    return
                deal = current.get("deal")
                if current["phase"] != "playing" or deal is None or deal.get("phase") != "play":
                    await asyncio.sleep(0.2)  # a pause between deals: the embedded timers move it on
                    continue
                mover = viewers[ids[deal["turn"]]]
                await _wrong_show_or_play(mover, alice_drops=mover.name == "alice")
            raise AssertionError("the game did not finish")
        finally:
            for task in readers:
                task.cancel()
            for viewer in viewers.values():
                await viewer.socket.close()

    asyncio.run(body())
    # A whole game: deals in play, the results between deals, the end; seen by both.
    for name, seen in compared.items():
        assert {phase for _, phase in seen} >= {"playing", "between result", "finished result"}, (name, seen)


async def _wrong_show_or_play(mover: Viewer, *, alice_drops: bool) -> None:
    """Alice makes a wrong show each turn (60 in 61 pool: out after two); Bob draws and discards."""
    before = mover.snapshot["v"]  # type: ignore[index]
    await mover.send({"id": f"draw-{before}", "type": "draw", "source": "closed"})
    hand = await _hand_after(mover, before, 14)
    if alice_drops:
        await mover.send({"id": f"finish-{before}", "type": "finish", "card": hand[0]})
        await mover.send({"id": f"declare-{before}", "type": "declare", "groups": [hand[1:]]})
    else:
        await mover.send({"id": f"discard-{before}", "type": "discard", "card": hand[-1]})
    for _ in range(100):
        if mover.snapshot["v"] > before + 1:  # type: ignore[index]
            return
        await asyncio.sleep(0.05)


async def _hand_after(viewer: Viewer, version: int, size: int) -> list[str]:
    for _ in range(200):
        snapshot = viewer.snapshot
        assert snapshot is not None
        deal = snapshot["table"].get("deal") or {}
        if snapshot["v"] > version and len(deal.get("hand") or []) == size:
            return list(deal["hand"])
        await asyncio.sleep(0.05)
    raise AssertionError(
        f"{viewer.name} never held {size} cards after version {version}: the last snapshot's version"
        f" {viewer.snapshot['v']}, the last other frames {viewer.others}"  # type: ignore[index]
    )


def _same(snapshot: dict[str, Any], rest: dict[str, Any], where: str) -> None:
    if snapshot != rest:
        only_ws = sorted(set(snapshot) - set(rest))
        only_rest = sorted(set(rest) - set(snapshot))
        differ = sorted(key for key in set(snapshot) & set(rest) if snapshot[key] != rest[key])
        raise AssertionError(
            f"{where}: only in the snapshot {only_ws}, only in the API {only_rest}, different {differ}: "
            + "; ".join(f"{key}: {snapshot[key]!r} != {rest[key]!r}" for key in differ[:3])
        )


# --- one bad-amount set, every endpoint that takes an amount ---------------------------------

#: Each a JSON text for the amount: a float, strings (digits, full-width digits), a bool,
#: negative, zero, over the maximum, past a 64-bit integer, far past it, NaN.
BAD_AMOUNTS = (
    "2500.0",
    '"2500"',
    '"２５００"',
    "true",
    "-1",
    "0",
    str(MAX_PAISE + 1),
    str(2**63),
    str(10**20),
    "1" + "0" * 400,
    "NaN",
)

#: Every endpoint that takes an amount, with the rest of a valid body.
AMOUNT_ENDPOINTS = (
    ("/api/wallet/deposits/", "{{}}"),
    ("/api/wallet/withdrawals/", '{{"request_key": "k-{n}"}}'),
    ("/api/protection/limits/", '{{"kind": "deposit_day"}}'),
)


def test_every_endpoint_that_takes_an_amount_refuses_the_bad_amount_set_and_changes_nothing(stack):
    port = stack.daphne(GAME_TIMERS="off", API_THROTTLE_USER="100000/min")
    alice = make_user("alice")
    token = Token.objects.create(user=alice).key
    balance = balance_of(user_spec(alice.pk, Currency.CHIPS))
    journals = Journal.objects.count()
    for number, (path, rest) in enumerate(AMOUNT_ENDPOINTS):
        for amount in BAD_AMOUNTS:
            fields = json.loads(rest.format(n=number))
            body = json.dumps(fields)[:-1] + ("," if fields else "") + f'"amount": {amount}}}'
            status, answer = _request(port, "POST", path, token, body.encode())
            assert status == 400, (path, amount[:30], status, answer)
            assert answer["error"] in ("invalid", "parse_error"), (path, amount[:30], answer)
    assert not Deposit.objects.exists()
    assert not Withdrawal.objects.exists()
    assert not LimitChange.objects.exists()
    assert Journal.objects.count() == journals
    assert balance_of(user_spec(alice.pk, Currency.CHIPS)) == balance
    assert "Traceback" not in stack.log("daphne")
