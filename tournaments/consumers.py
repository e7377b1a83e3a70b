"""A tournament's live page: one websocket per page at ``/ws/tournaments/<id>/``.

It only listens: the first frame says where the tournament is (version, status, the player's
table); then each change arrives as ``{"type": "changed", "v", "status", "event", "data"}``,
and a round's seating as ``{"type": "seated", "round", "table"}`` to each player seated. The
client answers a ``ping`` with a ``pong`` and may send its own ``ping``; nothing else.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sessions import session_group, user_group
from games import live as table_live
from tournaments import live
from tournaments.models import Tournament

CLOSE_LOGIN_REQUIRED = 4401
CLOSE_NO_TOURNAMENT = 4404

#: Changes that only move the players' count (``tournaments.live``, which sends the latest of
#: them at most once a second from each process): a page, which may hear several processes,
#: sends the latest of them at most once in this many seconds too.
COUNT_ONLY = live.COUNT_ONLY
COALESCE_SECONDS = live.COALESCE_SECONDS


class TournamentConsumer(AsyncWebsocketConsumer):
    user: Any
    tournament_id: int
    #: The newest version sent: a change that arrives after a newer one is dropped (two processes,
    #: or a held change and the next, may deliver out of order).
    sent_v: int = 0
    #: The latest count-only change not sent yet, and the task that sends it.
    held: dict[str, Any] | None = None
    flusher: asyncio.Task[None] | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As ``games.consumers.TableConsumer.dispatch``: no database check from the event loop;
        the one read runs in a database thread."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']!r}")
        await handler(message)

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        live.serving(asyncio.get_running_loop())  # this loop sends the process's held changes
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.refuse(CLOSE_LOGIN_REQUIRED, "login_required", "log in to follow a tournament")
            return
        session_key = getattr(self.scope.get("session"), "session_key", None)
        groups = [user_group(self.user.pk), live.group_name(self.tournament_id)]
        if session_key:
            groups.append(session_group(session_key))
        for group in groups:  # joined before the first read, so no change falls between
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)
        try:
            first = await table_live.in_thread(live.hello)(self.tournament_id, self.user)
        except Tournament.DoesNotExist:
            await self.refuse(CLOSE_NO_TOURNAMENT, "no_tournament", "there is no such tournament")
            return
        self.sent_v = int(first["v"])
        await self.send_json(first)

    async def refuse(self, code: int, error: str, message: str) -> None:
        await self.send_json({"error": error, "message": message})
        await self.close(code=code)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None or len(text_data) > 256:
            return
        try:
            frame = json.loads(text_data)
        except (ValueError, RecursionError):
            return
        if isinstance(frame, dict) and frame.get("type") == "ping":
            await self.send_json({"type": "pong", "ms": table_live.server_ms()})

    async def disconnect(self, code: int) -> None:
        if self.flusher is not None:
            self.flusher.cancel()

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        """A change from :func:`tournaments.live.publish`: passed on (a count-only change held
        for up to :data:`COALESCE_SECONDS`, only the latest sent), and the player's seat."""
        frame = {
            "type": "changed",
            "v": message["v"],
            "status": message["status"],
            "event": message["event"],
            "data": message["data"],
        }
        if frame["v"] <= self.sent_v:
            return
        if message["event"] in COUNT_ONLY:
            if self.held is None or frame["v"] > self.held["v"]:
                self.held = frame
            if self.flusher is None:
                self.flusher = asyncio.ensure_future(self.flush_later())
            return
        await self.flush()
        await self.send_changed(frame)
        table = (message.get("seats") or {}).get(str(self.user.pk))
        if table is not None:
            await self.send_json({"type": "seated", "round": message["data"].get("round"), "table": table})

    async def flush_later(self) -> None:
        await asyncio.sleep(COALESCE_SECONDS)
        self.flusher = None
        await self.flush()

    async def flush(self) -> None:
        held, self.held = self.held, None
        if held is not None and held["v"] > self.sent_v:
            await self.send_changed(held)

    async def send_changed(self, frame: dict[str, Any]) -> None:
        self.sent_v = max(self.sent_v, int(frame["v"]))
        await self.send_json(frame)

    async def auth_revoked(self, message: dict[str, Any]) -> None:
        await self.refuse(CLOSE_LOGIN_REQUIRED, "signed_out", "you are signed out; log in again")

    async def send_json(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=table_live.dumps(frame))
