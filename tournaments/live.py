"""Live updates of a tournament's page: each committed change, sent to the tournament's
channel-layer group.

:func:`publish` is connected to :data:`tournaments.services.after_commit` by
``TournamentsConfig.ready``: every change (a registration, a start, a round seated, a table
over, the finish) reaches every page open on the tournament in every server process, as a
small message of what changed. When a round is seated the message also carries each player's
table (one read, once a round), so each connection tells its own player where to sit with no
read of its own. The page then fetches its live part (``tournaments.views.live_part``), at
most once for a burst of changes.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection

from tournaments.models import RoundTable, Tournament
from tournaments.services import Changed

log = logging.getLogger(__name__)

#: The ``type`` of a channel-layer message with a tournament's change
#: (``TournamentConsumer.tournament_changed``).
CHANGED_MESSAGE = "tournament.changed"


def group_name(tournament_id: int) -> str:
    """The tournament's group; it names the database, as a table's group does
    (``games.live.group_name``), so sites sharing one Redis never hear each other."""
    database = hashlib.sha1(str(connection.settings_dict["NAME"]).encode(), usedforsecurity=False)
    return f"tournament.{database.hexdigest()[:10]}.{tournament_id}"


def seats_of(tournament_id: int, round_number: int) -> dict[str, int]:
    """Each player of a round (their user id as text) and the table they are seated at."""
    seats: dict[str, int] = {}
    rows = RoundTable.objects.filter(round__tournament_id=tournament_id, round__number=round_number)
    for table_id, players in rows.values_list("table_id", "players"):
        for player in players:
            seats[str(player)] = table_id
    return seats


def message_of(changed: Changed) -> dict[str, Any]:
    message: dict[str, Any] = {
        "type": CHANGED_MESSAGE,
        "tournament": changed.tournament_id,
        "v": changed.version,
        "status": changed.status,
        "event": changed.type,
        "data": dict(changed.data),
    }
    if changed.type == "round_seated":
        message["seats"] = seats_of(changed.tournament_id, int(changed.data["round"]))
    return message


#: Changes that only move the players' count. This process sends the latest of them at most
#: once in this many seconds per tournament: each change is a call at every page open on the
#: tournament, and 600 players registering in two minutes were 360,000 of them, which held
#: up every table on the server (docs/PERFORMANCE.md, "Tournaments"). The pages hold them
#: too (``tournaments.consumers``), which saves frames, not calls.
COUNT_ONLY = ("registered", "unregistered")
COALESCE_SECONDS = 1.0

#: The event loop of this process's pages, which sends the held changes (None in a process
#: that serves none, such as a Celery worker: there each change is sent at once).
_loop: asyncio.AbstractEventLoop | None = None
#: Each tournament's latest count-only change not sent yet.
_held: dict[int, Changed] = {}
_held_lock = threading.Lock()
_sending: set[asyncio.Future[None]] = set()


def serving(loop: asyncio.AbstractEventLoop) -> None:
    """Name the loop of this process's pages (a page's connection does, on opening)."""
    global _loop
    _loop = loop


def publish(changed: Changed) -> None:
    """After-commit hook: send the change to the tournament's group. A count-only change waits
    up to :data:`COALESCE_SECONDS` for later ones, and only the latest goes; any other change
    first sends the one held, so the pages get them in order. A failure is logged and never
    undoes the change (a page fetches the latest when its socket reconnects)."""
    loop = _loop
    if changed.type in COUNT_ONLY and loop is not None and loop.is_running():
        with _held_lock:
            first = changed.tournament_id not in _held
            if first or _held[changed.tournament_id].version < changed.version:
                _held[changed.tournament_id] = changed
        if first:
            loop.call_soon_threadsafe(loop.call_later, COALESCE_SECONDS, _send_held, changed.tournament_id)
        return
    with _held_lock:
        held = _held.pop(changed.tournament_id, None)
    if held is not None:
        _send(held)
    _send(changed)


def _send(changed: Changed) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(changed.tournament_id), message_of(changed))
    except Exception:
        log.exception("could not publish version %s of tournament %s", changed.version, changed.tournament_id)


def _send_held(tournament_id: int) -> None:
    """On the pages' loop, :data:`COALESCE_SECONDS` after a count-only change was held: send the
    latest held (unless a later change sent it already)."""
    with _held_lock:
        held = _held.pop(tournament_id, None)
    layer = get_channel_layer()
    if held is None or layer is None:
        return
    task = asyncio.ensure_future(_group_send(layer, held))
    _sending.add(task)  # (the loop keeps only a weak reference to a task)
    task.add_done_callback(_sending.discard)


async def _group_send(layer: Any, changed: Changed) -> None:
    try:
        await layer.group_send(group_name(changed.tournament_id), message_of(changed))
    except Exception:
        log.exception("could not publish version %s of tournament %s", changed.version, changed.tournament_id)


def hello(tournament_id: int, user: Any) -> dict[str, Any]:
    """The first frame of a connection: the tournament's version and status, and the table the
    player plays at now (None if not seated)."""
    from tournaments.views_state import current_table

    version, status = Tournament.objects.values_list("version", "status").get(pk=tournament_id)
    return {
        "type": "tournament",
        "v": version,
        "status": status,
        "table": current_table(tournament_id, user) if status == "running" else None,
    }
