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

import hashlib
import logging
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


def publish(changed: Changed) -> None:
    """After-commit hook: send the change to the tournament's group. A failure is logged and
    never undoes the change (a page fetches the latest when its socket reconnects)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(changed.tournament_id), message_of(changed))
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
