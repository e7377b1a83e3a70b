"""The baseline: a minimal Channels echo server with the same shape of traffic as a table.

``daphne loadtest.echo:application`` serves ``/ws/tables/<id>/``. Each connection joins its
table's group on the in-memory channel layer (on Redis when ``ECHO_REDIS_URL`` is set, as the
production server's: ``python -m loadtest --baseline --echo-layer redis``); an action frame
``{"id": ..., "type": ...}`` takes the table's next version, is broadcast to the group as an
event, and is answered with ``{"ack": id, "v": N}`` after the sender's own event, as the real
server does. No database, no rules, no authentication: what is left is the cost of daphne,
Channels and JSON, which is what the project is measured against (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import json
import os
from typing import Any

from django.conf import settings

if not settings.configured:
    redis_url = os.environ.get("ECHO_REDIS_URL", "")
    settings.configure(
        DEBUG=False,
        INSTALLED_APPS=["channels"],
        CHANNEL_LAYERS={
            "default": (
                {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [redis_url]}}
                if redis_url
                else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
            )
        },
        ALLOWED_HOSTS=["*"],
    )
    import django

    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

#: Each table's last version, in this process (one echo process per run).
versions: dict[str, int] = {}


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table = str(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = f"echo.{self.table}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.sent = versions.get(self.table, 0)
        await self.send(text_data=json.dumps({"type": "snapshot", "v": self.sent}))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = json.loads(text_data or "{}")
        if not isinstance(frame, dict):
            return
        if frame.get("type") == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
            return
        version = versions.get(self.table, 0) + 1
        versions[self.table] = version
        event = {"v": version, "type": "echo", "data": {"action": frame.get("type")}}
        await self.channel_layer.group_send(self.group, {"type": "table.event", "event": event})
        # As the real server: the sender gets its own event, then the ack; the same event
        # coming back through the group is then skipped as already sent.
        await self.table_event({"event": event})
        await self.send(text_data=json.dumps({"ack": frame.get("id"), "v": version}))

    async def table_event(self, message: dict[str, Any]) -> None:
        event = message["event"]
        if event["v"] > self.sent:
            self.sent = event["v"]
            await self.send(text_data=json.dumps(event))


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("ws/tables/<int:table_id>/", EchoConsumer.as_asgi())])}
)
