"""What one user may see of a table: a snapshot, and the events since a version.

A player sees their own hand and grouping, every player's card count, the open pile, scores,
timers and seats; never another player's cards or the closed pile's order. An event the user
may not see keeps its version with no content (``{"v": N}``), as lichess does.
"""

from __future__ import annotations

from typing import Any

from games.engine import table as engine
from games.models import Seat, Table, TableEvent, Visibility


def table_view(table: Table, user: Any) -> dict[str, Any]:
    """The snapshot for ``user`` (None or a non-player: a spectator)."""
    state = engine.TableState.from_json(table.state)
    name = None if user is None else str(user.pk)
    if name is not None and not state.has(name):
        name = None
    view = engine.player_view(state, name)
    names = dict(
        Seat.objects.filter(table=table).select_related("user").values_list("user_id", "user__username")
    )
    for player in view["players"]:
        player["name"] = names.get(int(player["player"]), player["player"])
    view.update(table=table.pk, version=table.version, status=table.status, template=table.template.name)
    return view


def events_for(table: Table, user: Any, after_version: int = 0) -> list[dict[str, Any]]:
    """Every event after ``after_version`` in order: ``{"v", "type", "data"}``, or ``{"v": N}``
    alone for an event meant for someone else."""
    uid = None if user is None else user.pk
    out: list[dict[str, Any]] = []
    for version, kind, data, visibility, to in (
        TableEvent.objects.filter(table=table, version__gt=after_version)
        .order_by("version")
        .values_list("version", "type", "data", "visibility", "user_id")
    ):
        if visibility == Visibility.EVERYONE or to == uid:
            out.append({"v": version, "type": kind, "data": data})
        else:
            out.append({"v": version})
    return out
