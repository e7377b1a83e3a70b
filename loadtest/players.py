"""Bots as real websocket clients: each table is driven at a steady rate of actions, and every
connection records what it received, so that latency, fan-out, drops and closes can be counted.

A *game* table plays pool rummy through the protocol of docs/PROTOCOL.md: at each tick the
player whose turn it is draws from the closed pile, or discards the card they drew. An *echo*
table (the baseline, :mod:`loadtest.echo`) takes the same frames from alternating players.
Either way, an action is a frame with an id, answered by ``{"ack": id, "v": N}``; the other
players of the table must then receive version N.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

#: Ids for actions, unique per run.
_ids = itertools.count(1)


@dataclass
class Connection:
    """One player's websocket and what it has seen."""

    table: int
    player: str
    socket: ClientConnection | None = None
    version: int = 0
    hand: list[str] = field(default_factory=list)
    drawn: str | None = None
    turn: str | None = None
    phase: str | None = None
    #: The table's status in its last snapshot ("playing", "finished", ...).
    status: str | None = None
    has_drawn: bool = False
    #: version -> monotonic time it arrived here (events, hidden events and snapshots).
    seen_at: dict[int, float] = field(default_factory=dict)
    #: action id -> the future its answer resolves.
    waiting: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    gaps: int = 0
    errors: list[str] = field(default_factory=list)
    closed: str | None = None
    frames: int = 0

    def take(self, frame: dict[str, Any]) -> None:
        now = time.monotonic()
        self.frames += 1
        if "ack" in frame or ("error" in frame and frame.get("id") in self.waiting):
            future = self.waiting.pop(frame.get("ack") or frame["id"], None)
            if future is not None and not future.done():
                future.set_result(frame)
            return
        if "error" in frame:
            self.errors.append(str(frame["error"]))
            return
        if frame.get("type") in ("ping", "pong"):
            return
        version = frame.get("v")
        if not isinstance(version, int):
            return
        if frame.get("type") == "snapshot":
            self.version = max(self.version, version)
            self.seen_at.setdefault(version, now)
            self.read_snapshot(frame.get("table") or {})
            return
        if self.version and version != self.version + 1:
            self.gaps += 1
        self.version = version
        self.seen_at.setdefault(version, now)
        if frame.get("type") == "drew_card":
            self.drawn = (frame.get("data") or {}).get("card")
        if frame.get("type") == "echo":
            self.turn = (frame.get("data") or {}).get("next")

    def read_snapshot(self, table: dict[str, Any]) -> None:
        self.status = table.get("status")
        deal = table.get("deal") or {}
        self.phase = deal.get("phase")
        self.turn = deal.get("turn")
        self.has_drawn = bool(deal.get("drawn"))
        self.hand = list(deal.get("hand") or [])


@dataclass
class Sample:
    """One action: when it was sent, when its answer came, and the version it made."""

    table: int
    sent: float
    answered: float | None = None
    version: int | None = None
    error: str | None = None


class Table:
    """The players of one table and the loop that makes its moves."""

    def __init__(self, url: str, origin: str, seats: list[Any], *, echo: bool) -> None:
        self.url, self.origin, self.echo = url, origin, echo
        self.table = seats[0].table
        self.cookies = {seat.player: seat.cookie for seat in seats}
        self.players = [Connection(table=seat.table, player=seat.player) for seat in seats]
        self.samples: list[Sample] = []
        self.readers: list[asyncio.Task[None]] = []
        self.next_echo = 0
        #: When this table acts next (monotonic): set before the first drive to give it a phase.
        self.next_at: float | None = None

    async def open(self) -> None:
        for player in self.players:
            headers = {"Origin": self.origin}
            if not self.echo:
                headers["Cookie"] = f"sessionid={self.cookies[player.player]}"
            player.socket = await connect(
                f"{self.url}/ws/tables/{self.table}/",
                additional_headers=headers,
                open_timeout=30,
                max_size=2**22,
                ping_interval=None,
            )
            self.readers.append(asyncio.ensure_future(self.read(player)))

    async def read(self, player: Connection) -> None:
        assert player.socket is not None
        try:
            async for message in player.socket:
                player.take(json.loads(message))
        except ConnectionClosed as closed:
            player.closed = player.closed or f"{closed.rcvd.code if closed.rcvd else 'none'}"
        else:
            player.closed = player.closed or "closed"

    async def close(self) -> None:
        for player in self.players:
            if player.socket is not None:
                player.closed = player.closed or "by us"
                await player.socket.close()
        for reader in self.readers:
            reader.cancel()

    def mover(self) -> tuple[Connection, dict[str, Any]] | None:
        """Who acts now and with what frame, or None when nobody can (between deals)."""
        if self.echo:
            player = self.players[self.next_echo % len(self.players)]
            self.next_echo += 1
            return player, {"type": "echo"}
        for player in self.players:
            if player.phase == "play" and player.turn == player.player and player.hand:
                if not player.has_drawn:
                    return player, {"type": "draw", "source": "closed"}
                card = player.drawn if player.drawn in player.hand else player.hand[-1]
                return player, {"type": "discard", "card": card}
        return None

    async def act(self, timeout: float) -> None:
        """One action by whoever may act, waiting for its answer."""
        chosen = self.mover()
        if chosen is None:
            return
        player, frame = chosen
        if player.socket is None or player.closed:
            return
        action_id = f"l{next(_ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        player.waiting[action_id] = future
        sample = Sample(table=self.table, sent=time.monotonic())
        self.samples.append(sample)
        try:
            await player.socket.send(json.dumps({"id": action_id, **frame}))
            answer = await asyncio.wait_for(future, timeout)
        except (TimeoutError, ConnectionClosed) as failure:
            sample.error = type(failure).__name__
            player.waiting.pop(action_id, None)
            return
        sample.answered = time.monotonic()
        if "ack" in answer:
            sample.version = answer["v"]
            if frame["type"] == "draw":
                player.has_drawn = True
            elif frame["type"] == "discard":
                player.has_drawn, player.drawn = False, None
        else:
            sample.error = str(answer.get("error"))

    async def drive(self, rate: float, until: float, timeout: float) -> None:
        """Act ``rate`` times a second until ``until`` (monotonic), on a fixed schedule that
        starts at :attr:`next_at` (now if unset) and carries on over calls: a slow answer delays
        the next action, it does not make the table catch up in a burst."""
        interval = 1.0 / rate
        if self.next_at is None:
            self.next_at = time.monotonic()
        while self.next_at < until:
            wait = self.next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.next_at = max(self.next_at + interval, time.monotonic() - interval)
            await self.act(timeout)

    def fan_out(self) -> list[float]:
        """Seconds from each acknowledged action's send to its version reaching each other player."""
        spans = []
        for sample in self.samples:
            if sample.version is None:
                continue
            for player in self.players:
                seen = player.seen_at.get(sample.version)
                if seen is not None:
                    spans.append(seen - sample.sent)
        return spans

    def missing(self) -> int:
        """Acknowledged versions that some connection of the table never received."""
        top = min((p.version for p in self.players), default=0)
        return sum(
            1
            for sample in self.samples
            if sample.version is not None and sample.version <= top
            for player in self.players
            if sample.version not in player.seen_at
        )
