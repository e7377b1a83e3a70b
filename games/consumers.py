"""The live table: one websocket connection per user and table, at ``/ws/tables/<id>/``.

The consumer only speaks the protocol (docs/PROTOCOL.md): it authenticates, limits and parses
frames, answers pings, and hands actions to :mod:`games.client_actions` and catch-ups to
:mod:`games.live`; it never writes to a table itself.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sessions import session_group, user_group
from games import access, client_actions, here, live, missed, presence
from games.errors import GameError
from games.models import Table

log = logging.getLogger(__name__)

#: The websocket subprotocol of this protocol, accepted when the client offers it (a program
#: authenticating with an API token must: docs/PROTOCOL.md).
PROTOCOL = "rummy.v1"

# Close codes (the reason in words comes just before, as an error frame).
CLOSE_LOGIN_REQUIRED = 4401
CLOSE_NO_TABLE = 4404
CLOSE_PRIVATE = 4403
CLOSE_NO_PONG = 4408
CLOSE_SIGNED_OUT = 4401  # as a visitor who is not logged in: log in again
CLOSE_FLOOD = 4429
#: An application may close only with 1000 or 3000-4999 (the ASGI spec; daphne turns anything
#: else into 1011 with no frame): 4413 as HTTP's 413, Content Too Large.
CLOSE_TOO_LARGE = 4413


#: user id -> [tokens, last refill]: the per-user bucket, shared by the user's connections to
#: this process (each server process keeps its own; a user's sockets are spread over few).
_USER_BUCKETS: dict[int, list[float]] = {}


class TableConsumer(AsyncWebsocketConsumer):
    """One connection to one table. Limits are class attributes so tests can shorten them."""

    max_frame_bytes = 16 * 1024
    #: Frames per second a connection may send, and the burst it may send at once.
    rate = 10.0
    burst = 20
    #: Frames per second one user may send over all their connections in this process, and
    #: the burst: opening more connections does not buy more frames.
    user_rate = 15.0
    user_burst = 30
    #: Frames refused in a row (over the rate) before the connection is closed as a flood.
    flood_limit = 40
    #: Seconds of silence from the client before the server pings, and then before it closes.
    ping_after = 25.0
    pong_timeout = 20.0

    user: Any
    table_id: int
    version: int | None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand a message to its handler, without the database check Channels makes first.

        Channels closes stale database connections before every message it dispatches, in its
        one thread for sync code: three thread hops per move at a table of two, and every table
        of the process queueing through that one thread. This consumer never uses the database
        from the event loop: each read or write runs through :func:`games.live.in_thread`,
        which makes the same check in the thread that uses the connection."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']!r}")
        await handler(message)

    # --- connection ----------------------------------------------------------------------------

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.version = None
        #: Held while frames of the table's versions are sent and ``version`` moves on: the
        #: missed-message check may catch up while a message is being handled.
        self.sending = asyncio.Lock()
        #: The version this connection was behind at the last missed-message check.
        self.stuck_at: int | None = None
        self.tokens = float(self.burst)
        self.stamp = time.monotonic()
        self.refused = 0
        self.heard = time.monotonic()
        self.pinged: float | None = None
        self.heartbeat: asyncio.Task[None] | None = None
        offered = self.scope.get("subprotocols") or ()
        await self.accept(subprotocol=PROTOCOL if PROTOCOL in offered else None)
        if self.user is None or not self.user.is_authenticated:
            await self.refuse(CLOSE_LOGIN_REQUIRED, "login_required", "log in to play or watch a table")
            return
        code = (parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("code") or [None])[0]
        try:
            allowed = await live.in_thread(_may_see)(self.table_id, self.user, code)
        except Table.DoesNotExist:
            await self.refuse(CLOSE_NO_TABLE, "no_table", "there is no such table")
            return
        if not allowed:
            await self.refuse(
                CLOSE_PRIVATE, "private_table", "this table is private: you need its invitation link or code"
            )
            return
        # Logging out closes this session's sockets, a password change or ban all the user's.
        session_key = getattr(self.scope.get("session"), "session_key", None)
        for auth_group in [user_group(self.user.pk)] + ([session_group(session_key)] if session_key else []):
            await self.channel_layer.group_add(auth_group, self.channel_name)
            self.groups.append(auth_group)
        group = live.group_name(self.table_id)
        # Join the group before reading the table, so no event falls between the two.
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups.append(group)
        here.add(self)
        # Counted before the first snapshot, so that snapshot shows this player connected.
        came_online = await live.in_thread(presence.connected)(self.table_id, self.user.pk)
        self.counted = True
        try:
            await self.sync(self.version_asked())
        except Table.DoesNotExist:
            await self.refuse(CLOSE_NO_TABLE, "no_table", "there is no such table")
            return
        missed.watch(self)
        self.heartbeat = asyncio.ensure_future(self.keep_alive())
        if came_online:
            await live.announce_presence(self.table_id, self.user.pk, True)

    def version_asked(self) -> int | None:
        """``?v=N`` of the URL: the last version the client has, or None."""
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        value = (query.get("v") or [""])[0]
        return int(value) if value.isdigit() and len(value) < 12 else None

    async def disconnect(self, code: int) -> None:
        here.discard(self)
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        missed.unwatch(self)
        if getattr(self, "counted", False):
            self.counted = False
            if await live.in_thread(presence.disconnected)(self.table_id, self.user.pk):
                await live.announce_presence(self.table_id, self.user.pk, False)

    async def refuse(self, code: int, error: str, message: str) -> None:
        await self.send_json({"error": error, "message": message, "id": None})
        await self.close(code=code)

    async def keep_alive(self) -> None:
        """Ping a client silent for ``ping_after`` seconds; close one still silent ``pong_timeout`` later."""
        step = min(self.ping_after, self.pong_timeout) / 4
        while True:
            await asyncio.sleep(step)
            now = time.monotonic()
            if self.pinged is None:
                if now - self.heard >= self.ping_after:
                    self.pinged = now
                    await self.send_json({"type": "ping"})
            elif now - self.pinged >= self.pong_timeout:
                await self.refuse(CLOSE_NO_PONG, "no_pong", "no answer to the server's ping")
                return

    # --- frames from the client --------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.version is None:
            return  # refused at connect; the close is on its way
        verdict = self.take_token()
        if verdict == "flood":
            self.version = None  # ignore whatever else is queued
            await self.refuse(CLOSE_FLOOD, "flood", "too many frames; closing")
            return
        if verdict == "refused":
            # Every action gets one answer: this one was not applied and may be sent again.
            await self.send_error(
                "rate_limited", f"too many frames: at most {self.rate:g} a second", self.peek(text_data)
            )
            return
        self.heard, self.pinged = time.monotonic(), None
        if text_data is None:
            await self.send_error("bad_frame", "send text frames holding JSON objects")
            return
        if len(text_data) > self.max_frame_bytes or len(text_data.encode()) > self.max_frame_bytes:
            self.version = None  # ignore whatever else is queued
            await self.refuse(
                CLOSE_TOO_LARGE, "too_large", f"a frame may hold at most {self.max_frame_bytes} bytes"
            )
            return
        try:
            frame = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.send_error("bad_json", "a frame must be JSON")
            return
        if not isinstance(frame, dict):
            await self.send_error("bad_frame", "a frame must be a JSON object")
            return
        kind = frame.get("type")
        try:
            if kind == "ping":
                await self.send_json({"type": "pong", "ms": live.server_ms()})
            elif kind == "pong":
                pass  # any frame shows the client is there
            elif kind == "resync":
                await self.resync(frame)
            else:
                await self.act(frame)
        except Exception:  # a bug must cost the client one frame, never the connection
            log.exception("table %s: frame %r failed", self.table_id, kind)
            await self.send_error(
                "server_error",
                "the server failed on this frame; send it again (same id) to learn what became of it",
                frame,
            )

    def take_token(self) -> str:
        """The rate limit, a token bucket of ``burst`` frames refilled at ``rate`` a second
        for the connection, and one of ``user_burst`` at ``user_rate`` shared by every
        connection of the user: "ok", "refused", or "flood" past ``flood_limit`` frames
        refused in a row."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        shared = _USER_BUCKETS.setdefault(self.user.pk, [float(self.user_burst), now])
        shared[0] = min(self.user_burst, shared[0] + (now - shared[1]) * self.user_rate)
        shared[1] = now
        if self.tokens >= 1 and shared[0] >= 1:
            self.tokens -= 1
            shared[0] -= 1
            self.refused = 0
            return "ok"
        self.refused += 1
        return "flood" if self.refused > self.flood_limit else "refused"

    def peek(self, text_data: str | None) -> dict[str, Any] | None:
        """A refused frame, read only to answer it with its action id."""
        if text_data is None or len(text_data) > self.max_frame_bytes:
            return None
        try:
            frame = json.loads(text_data)
        except (ValueError, RecursionError):
            return None
        return frame if isinstance(frame, dict) else None

    async def resync(self, frame: dict[str, Any]) -> None:
        after = frame.get("v")
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            await self.send_error("bad_version", "resync needs 'v': the last version you have (0 for none)")
            return
        await self.sync(after)

    async def act(self, frame: dict[str, Any]) -> None:
        try:
            client_actions.check(frame)
        except GameError as error:
            await self.send_error(error.code, error.message, frame)
            return
        performed = await live.perform_in_thread(self.table_id, self.user, frame)
        # The action's events and snapshot first: with the ack, the client has everything up to it.
        for message in performed.messages:
            await self.table_events(message)
        answer = performed.answer
        if "ack" in answer and self.version is not None and answer["v"] > self.version:
            await self.catch_up()  # a write this action did not make (its id was seen)
        await self.send_json(answer)
        await live.announce(performed)

    # --- frames to the client --------------------------------------------------------------------

    async def auth_revoked(self, message: dict[str, Any]) -> None:
        """The session or every sign-in of the user ended (logout, password change, ban)."""
        self.version = None
        await self.refuse(CLOSE_SIGNED_OUT, "signed_out", "you are signed out; log in again to play")

    async def table_presence(self, message: dict[str, Any]) -> None:
        """A seated player came online or went offline (:func:`games.live.announce_presence`):
        passed on as it is, once this connection has its snapshot."""
        if self.version is not None and message["player"] != str(self.user.pk):
            await self.send_json(
                {"type": "presence", "player": message["player"], "connected": message["connected"]}
            )

    async def table_events(self, message: dict[str, Any]) -> None:
        """A write's events from the channel layer (see :func:`games.live.publish`)."""
        async with self.sending:
            await self._deliver(message)

    async def _deliver(self, message: dict[str, Any]) -> None:
        events = message["events"]
        if self.version is None or not events or events[-1]["v"] <= self.version:
            return  # sent already (after our own action, or by an earlier catch-up)
        frames = live.frames_for(message, self.user.pk, self.version)
        if frames is None:  # a gap: read what is missing from the log
            await self._catch_up_from(self.version, events)
            return
        for text in frames:
            await self.send(text_data=text)
        self.version = message["v"]

    async def sync(self, after: int | None) -> None:
        async with self.sending:
            await self._catch_up_from(after)

    async def catch_up(self) -> None:
        """From the version this connection has sent to the table's."""
        async with self.sending:
            if self.version is not None:
                await self._catch_up_from(self.version)

    async def catch_up_if_stuck(self, current: int) -> None:
        """The missed-message check's call (:mod:`games.missed`), with the table's version: a
        connection behind it and still where it was at the last check missed a message."""
        if self.version is None or self.version >= current:
            self.stuck_at = None
        elif self.stuck_at != self.version:
            self.stuck_at = self.version  # a message may be on its way: look again next time
        else:
            log.warning("table %s: a connection missed a message at version %s", self.table_id, self.version)
            self.stuck_at = None
            await self.catch_up()

    async def _catch_up_from(self, after: int | None, carried: list[dict[str, Any]] | None = None) -> None:
        version, frames = await live.in_thread(live.catch_up)(self.table_id, self.user, after, carried or ())
        for frame in frames:
            await self.send_json(frame)
        self.version = version

    async def send_json(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=live.dumps(frame))

    async def send_error(self, code: str, message: str, frame: dict[str, Any] | None = None) -> None:
        client_id = frame.get("id") if frame is not None else None
        await self.send_json(
            {"error": code, "message": message, "id": client_id if isinstance(client_id, str) else None}
        )


def _may_see(table_id: int, user: Any, code: str | None) -> bool:
    return access.may_see(Table.objects.get(pk=table_id), user, code)
