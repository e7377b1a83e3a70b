"""``/healthz``: is the database, the channel layer and the Celery broker reachable?"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

log = logging.getLogger(__name__)


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = async_to_sync(layer.new_channel)()
    message = {"type": "health.ping", "token": uuid.uuid4().hex}
    async_to_sync(layer.send)(channel, message)
    received = async_to_sync(layer.receive)(channel)
    if received.get("token") != message["token"]:
        raise RuntimeError("channel layer returned a different message")


def check_broker() -> None:
    from rummysite.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "broker": check_broker,
}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    results: dict[str, dict[str, object]] = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as exc:  # a health check reports every failure, whatever its kind
            log.warning("health check %s failed: %s", name, exc)
            results[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        else:
            results[name] = {"ok": True}
    healthy = all(result["ok"] for result in results.values())
    return JsonResponse({"ok": healthy, "checks": results}, status=200 if healthy else 503)
