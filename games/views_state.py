"""What one user may see of a table: a snapshot, and the events since a version.

A player sees their own hand and grouping, every player's card count, the open pile, scores,
timers and seats; never another player's cards or the closed pile's order. An event the user
may not see keeps its version with no content (``{"v": N}``), as lichess does.
"""

from __future__ import annotations

from typing import Any

from games.engine import table as engine
from games.engine.solver import solve
from games.errors import GameError
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


def arrangement(table: Table, user: Any) -> dict[str, Any]:
    """R-SHOW-5, the auto-arrange button: the grouping of ``user``'s hand with the lowest
    losing score, ``{"groups": [[code, ...], ...], "score": N, "can_declare": bool}``.

    Read only: nothing is saved or applied. The player sends it back as ``save_grouping``,
    ``declare`` or ``show`` if they want it.
    """
    state = engine.TableState.from_json(table.state)
    deal = state.deal
    name = None if user is None else str(user.pk)
    if state.phase is not engine.Phase.PLAYING or deal is None or name not in deal.players:
        raise GameError("not_in_deal", "you have no hand to arrange")
    hand = deal.seats[deal.seat_of(name)].hand
    solution = solve(deal.variant, deal.jokers, hand, packs=deal.packs)
    return {
        "groups": [[card.code for card in group] for group in solution.groups],
        "score": solution.score,
        "can_declare": solution.can_declare,
    }
