"""``/healthz``: is the site able to run games? For load balancers and monitors.

Checks the database, the channel layer and the Celery broker and, when the game timers run
on Celery (``GAME_TIMERS=celery``), the heartbeats of the worker and of beat
(:mod:`rummysite.heartbeat`). 200 with ``{"ok": true, ...}`` when all pass, else 503. The
answer names the checks and says ok or not, nothing more: why a check failed goes to the log
(logger ``rummysite.health``), never to whoever asked.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from rummysite import heartbeat

log = logging.getLogger(__name__)

#: The longest a check of the channel layer may take.
LAYER_TIMEOUT = 3.0
#: How long a check waits for its message before sending it again.
LAYER_RESEND = 0.5


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _layer_round_trip() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel()
    message = {"type": "health.ping", "token": uuid.uuid4().hex}
    # Sent again until it comes back: on Redis pub/sub, a message published before the new
    # channel's subscription reaches Redis goes to nobody.
    while True:
        await layer.send(channel, message)
        try:
            received = await asyncio.wait_for(layer.receive(channel), LAYER_RESEND)
        except TimeoutError:
            continue
        if received.get("token") != message["token"]:
            raise RuntimeError("channel layer returned a different message")
        return


def check_channel_layer() -> None:
    async def bounded() -> None:
        await asyncio.wait_for(_layer_round_trip(), LAYER_TIMEOUT)

    async_to_sync(bounded)()


def check_broker() -> None:
    from rummysite.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


def _check_heartbeat(role: str) -> Callable[[], None]:
    def check() -> None:
        age = heartbeat.age(role)
        if age is None:
            raise RuntimeError(f"no heartbeat from the Celery {role}")
        if age > settings.HEARTBEAT_STALE_SECONDS:
            raise RuntimeError(f"the Celery {role}'s last heartbeat is {age:.0f} s old")

    check.__name__ = f"check_{role}"
    return check


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "broker": check_broker,
}
#: Checked only when the game timers run on Celery.
TIMER_CHECKS: dict[str, Callable[[], None]] = {role: _check_heartbeat(role) for role in heartbeat.ROLES}


def run_checks() -> dict[str, bool]:
    checks = dict(CHECKS)
    if settings.GAME_TIMERS == "celery":
        checks.update(TIMER_CHECKS)
    results: dict[str, bool] = {}
    for name, check in checks.items():
        try:
            check()
        except Exception:  # a health check reports every failure, whatever its kind
            log.warning("health check %s failed", name, exc_info=True)
            results[name] = False
        else:
            results[name] = True
    return results


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    results = run_checks()
    healthy = all(results.values())
    body = {"ok": healthy, "checks": {name: {"ok": ok} for name, ok in results.items()}}
    return JsonResponse(body, status=200 if healthy else 503)
