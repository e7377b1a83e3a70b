"""Helpers for the live-play tests: users with sessions, websocket connections, a table.

The tests are plain functions that run a coroutine with ``run`` (``async_to_sync``); inside it,
database work goes through ``db(...)`` (``database_sync_to_async``), so writes publish on the
same event loop the consumers run on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import Awaitable, Callable
from itertools import count
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from games import services
from games.engine import table as engine
from games.models import Table, TableTemplate
from wallet.cashier import topup_chips

ORIGIN = "http://testserver"


def run(scenario: Callable[[], Awaitable[Any]]) -> Any:
    """Run an async test body to the end (pytest-asyncio is not used)."""
    return async_to_sync(scenario)()


def db(function: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    return database_sync_to_async(function)


def make_user(name: str, *, bot: bool = False) -> User:
    user = User.objects.create_user(username=name, is_bot=bot)  # no password: sessions are forced
    topup_chips(user)
    return user


def session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def template(**fields: Any) -> TableTemplate:
    values: dict[str, Any] = {
        "name": "101 pool, 3 seats, chips",
        "variant": "pool101",
        "currency": "CHIPS",
        "seats": 3,
        "entry_fee": 1000,
    }
    values.update(fields)
    return TableTemplate.objects.create(**values)


def seat(users: list[User], **fields: Any) -> Table:
    """A table of ``template(**fields)`` with ``users`` seated (the game starts when it is full)."""
    tmpl = template(**fields)
    table = None
    for user in users:
        table = services.play_now(user, tmpl)
    assert table is not None
    table.refresh_from_db()
    return table


def state(table_id: int) -> engine.TableState:
    return engine.TableState.from_json(Table.objects.get(pk=table_id).state)


def turn_of(table_id: int) -> str:
    deal = state(table_id).deal
    assert deal is not None
    return deal.seats[deal.turn].player


def hand_of(table_id: int, user: User) -> list[str]:
    deal = state(table_id).deal
    assert deal is not None
    return [card.code for card in deal.seats[deal.seat_of(str(user.pk))].hand]


class Closed(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"closed with {code}")
        self.code = code


class Conn:
    """One websocket client: every frame it got is kept in ``frames``."""

    ids = count(1)

    def __init__(self, communicator: WebsocketCommunicator, name: str) -> None:
        self.communicator = communicator
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.close_code: int | None = None

    @classmethod
    async def open(
        cls,
        table_id: int,
        user: User | None,
        *,
        v: int | None = None,
        origin: str | None = ORIGIN,
        path: str | None = None,
        subprotocols: list[str] | None = None,
        cookie: bool = True,
    ) -> Conn:
        from rummysite.asgi import application

        headers = [(b"host", b"testserver")]
        if origin is not None:
            headers.append((b"origin", origin.encode()))
        if user is not None and cookie:
            headers.append((b"cookie", (await db(session_cookie)(user)).encode()))
        url = path or f"/ws/tables/{table_id}/" + ("" if v is None else f"?v={v}")
        communicator = WebsocketCommunicator(application, url, headers=headers, subprotocols=subprotocols)
        connected, code = await communicator.connect(timeout=5)
        conn = cls(communicator, user.username if user else "anonymous")
        if not connected:
            conn.close_code = code if code is not None else 1000
        return conn

    async def next(self, timeout: float = 3.0) -> dict[str, Any]:
        """The next frame; :class:`Closed` if the server closed; TimeoutError if none comes."""
        if self.close_code is not None:
            raise Closed(self.close_code)
        if self.communicator.future.done():
            self.communicator.future.result()
        message = await asyncio.wait_for(self.communicator.output_queue.get(), timeout)
        if message["type"] == "websocket.close":
            self.close_code = message.get("code", 1000)
            raise Closed(self.close_code)
        frame = json.loads(message["text"])
        self.frames.append(frame)
        return frame

    async def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            frame = await self.next(max(0.01, end - loop.time()))
            if predicate(frame):
                return frame

    async def snapshot(self, at_least: int = 0, timeout: float = 5.0) -> dict[str, Any]:
        """The snapshot at ``at_least`` or later: the last one got, or the next one to come."""
        for frame in reversed(self.frames):
            if frame.get("type") == "snapshot":
                if frame["v"] >= at_least:
                    return frame
                break
        return await self.until(lambda f: f.get("type") == "snapshot" and f["v"] >= at_least, timeout)

    async def quiet(self, seconds: float = 0.1) -> list[dict[str, Any]]:
        """Every frame that arrives until none has for ``seconds``."""
        got = []
        while True:
            try:
                got.append(await self.next(seconds))
            except TimeoutError:
                return got

    async def send(self, frame: Any) -> None:
        text = frame if isinstance(frame, str) else json.dumps(frame)
        await self.communicator.send_input({"type": "websocket.receive", "text": text})

    async def act(self, kind: str, client_id: str | None = None, **fields: Any) -> dict[str, Any]:
        """Send an action and return its answer (``ack`` or ``error``)."""
        client_id = client_id or f"{self.name}-{next(self.ids)}"
        await self.send({"id": client_id, "type": kind, **fields})
        return await self.until(
            lambda f: f.get("ack") == client_id or ("error" in f and f.get("id") == client_id)
        )

    @property
    def last_snapshot(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f.get("type") == "snapshot")

    def events(self) -> list[dict[str, Any]]:
        """The versioned event frames received (not snapshots, acks, errors or pongs)."""
        return [f for f in self.frames if set(f) in ({"v"}, {"v", "type", "data"})]

    async def close(self) -> None:
        """Hang up (the consumer runs until the client's disconnect, even after it closed)."""
        with contextlib.suppress(Exception):  # a consumer already gone is closed enough
            await self.communicator.disconnect(timeout=0.5)
        if self.close_code is None:
            self.close_code = 1000


# --- scripted play through the services (time from the test clock, see conftest.clock) -----------


def play_turn(table_id: int, user: User) -> None:
    services.act(table_id, user, {"type": "draw", "source": "closed"})
    services.act(table_id, user, {"type": "discard", "card": hand_of(table_id, user)[-1]})


def wrong_show(table_id: int, user: User) -> None:
    services.act(table_id, user, {"type": "draw", "source": "closed"})
    hand = hand_of(table_id, user)
    services.act(table_id, user, {"type": "finish", "card": hand[0]})
    services.act(table_id, user, {"type": "declare", "groups": [hand[1:]]})


def play_deal(table_id: int, users: list[User], plan: dict[str, str]) -> engine.TableState:
    """Play one deal: each turn player (by username) does their plan: wrong, drop or play."""
    by_id = {str(user.pk): user for user in users}
    number = state(table_id).deal_number
    for _ in range(300):
        now = state(table_id)
        if now.deal_number != number or now.phase is not engine.Phase.PLAYING:
            return now
        user = by_id[turn_of(table_id)]
        action = plan.get(user.username, "play")
        if action == "wrong":
            wrong_show(table_id, user)
        elif action == "drop":
            services.act(table_id, user, {"type": "drop"})
        else:
            play_turn(table_id, user)
    raise AssertionError("the deal did not end")


def rig(table_id: int, user: User, codes: str) -> None:
    """Give ``user`` these cards (a test's shortcut to a hand that declares), each swapped with
    a copy from the closed pile, another hand, the open pile or the cut, so that the deal still
    holds every card as many times as its packs do. (Writing the hand alone could make a third
    3S in two packs, which the solver rightly refuses: a flaky failure, once in many deals.)"""
    data = Table.objects.get(pk=table_id).state
    deal = data["deal"]
    (seat,) = [seat for seat in deal["seats"] if seat["player"] == str(user.pk)]
    wanted = codes.split()
    bring = Counter(wanted) - Counter(seat["hand"])
    spare = list((Counter(seat["hand"]) - Counter(wanted)).elements())
    places = [
        deal["closed_pile"],
        *(other["hand"] for other in deal["seats"] if other is not seat),
        deal["open_pile"],
    ]
    for code in bring.elements():
        giving = spare.pop() if spare else None
        place = next((place for place in places if code in place), None)
        if place is not None:
            index = place.index(code)
            if giving is None:
                del place[index]
            else:
                place[index] = giving
        elif deal["cut"] == code and giving is not None:
            deal["cut"] = giving
    for left in spare:  # a shorter hand than before: the rest go under the closed pile
        deal["closed_pile"].insert(0, left)
    seat["hand"] = wanted
    Table.objects.filter(pk=table_id).update(state=data)


def deadline_ms(table_id: int) -> int:
    due = state(table_id).deadline_ms
    assert due is not None, "the table waits for no deadline"
    return due
