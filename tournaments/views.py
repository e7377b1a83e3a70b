"""The tournaments' pages: the lobby, a tournament's page (its live part refreshed by
``static/tournaments/main.js``), register and unregister, and the result; and a round's table
page's way back to its tournament (:func:`table_home`, a ``games.homes`` hook).

Views only read :mod:`tournaments.views_state` and call :mod:`tournaments.services`; a refusal
is shown in the service's own plain words, with nothing changed.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedRequest
from games.homes import Home
from tournaments import services, views_state
from tournaments.models import RoundTable, Tournament

#: The lobby's sections, in order: each a title and the statuses it lists.
SECTIONS = (
    ("registering", "Registering now", ("registering",)),
    ("upcoming", "Upcoming", ("announced",)),
    ("running", "Running", ("running",)),
    ("finished", "Finished", ("finished", "cancelled", "voided")),
)

#: The statuses whose page shows the result instead of the live standings.
ENDED = ("finished", "cancelled", "voided")


def _with_times(row: dict[str, Any]) -> dict[str, Any]:
    """The row's ISO times as datetimes, for the templates' ``date`` filter."""
    for key in ("start_at", "registration_opens_at", "started_at", "ended_at"):
        value = row.get(key)
        row[f"{key}_time"] = parse_datetime(value) if value else None
    return row


@login_required
@require_GET
def lobby(request: AuthenticatedRequest) -> HttpResponse:
    """Every tournament a player can enter, watch or look back on, by section."""
    rows = [_with_times(row) for row in views_state.lobby(request.user)]
    sections = [
        {"key": key, "title": title, "rows": [row for row in rows if row["status"] in statuses]}
        for key, title, statuses in SECTIONS
    ]
    return render(request, "tournaments/lobby.html", {"sections": sections})


def _read(tournament_id: int, user: Any) -> dict[str, Any]:
    try:
        data = views_state.tournament(tournament_id, user)
    except Tournament.DoesNotExist:
        raise Http404("no such tournament") from None
    _with_times(data)
    data["ended"] = data["status"] in ENDED
    me = data.get("me")
    data["my_id"] = uid = getattr(user, "pk", None)
    names = {row["player"]: row["name"] for row in data["standings"]}
    for round_ in data["rounds"]:
        for table in round_["tables"]:
            table["mine"] = uid in table["players"]
            table["seated"] = [
                {"name": names.get(player, "?"), "me": player == uid, "through": player in table["qualified"]}
                for player in table["players"]
            ]
    data["may_register"] = data["status"] == "registering" and not (me and me["registered"])
    data["may_unregister"] = data["status"] == "registering" and bool(me and me["registered"])
    return data


def _page(
    request: HttpRequest, tournament_id: int, error: services.TournamentError | None = None
) -> HttpResponse:
    context = {"t": _read(tournament_id, request.user), "error": error}
    return render(request, "tournaments/tournament.html", context, status=400 if error else 200)


@login_required
@require_GET
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The structure, the prize table, the players and the live standings by round; for a
    seated player the link to their table."""
    return _page(request, tournament_id)


@login_required
@require_GET
def live_part(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The page's live part alone (status, prize table, your entry, standings, rounds): what
    the page's script swaps in when the tournament changes."""
    context = {"t": _read(tournament_id, request.user)}
    return render(request, "tournaments/_live.html", context)


@login_required
@require_GET
def result(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The final ranking and the prizes (or why it ended without them); before the end, the page."""
    data = _read(tournament_id, request.user)
    if not data["ended"]:
        return redirect("tournaments:tournament", tournament_id=tournament_id)
    return render(request, "tournaments/result.html", {"t": data})


@login_required
@require_POST
def register(request: AuthenticatedRequest, tournament_id: int) -> HttpResponse:
    """Register; a practice sit-and-go that allows bots is then filled with them, as a practice
    table is (``games.views.play_now``), so the player starts at once."""
    try:
        registration = services.register(tournament_id, request.user)
        tournament = Tournament.objects.only("bots_allowed", "start_at").get(pk=registration.tournament_id)
        if tournament.bots_allowed and tournament.sit_and_go:
            services.fill_with_bots(tournament_id)
    except services.TournamentError as error:
        if error.code == "no_tournament":
            raise Http404("no such tournament") from None
        return _page(request, tournament_id, error)
    return redirect("tournaments:tournament", tournament_id=tournament_id)


@login_required
@require_POST
def unregister(request: AuthenticatedRequest, tournament_id: int) -> HttpResponse:
    try:
        services.unregister(tournament_id, request.user)
    except services.TournamentError as error:
        if error.code == "no_tournament":
            raise Http404("no such tournament") from None
        return _page(request, tournament_id, error)
    return redirect("tournaments:tournament", tournament_id=tournament_id)


def table_home(table: Any) -> Home | None:
    """A round's table goes back to its tournament's page, and its bar names the tournament and
    the round instead of the table's (free) stake; any other table: None."""
    found = (
        RoundTable.objects.filter(table_id=table.pk)
        .values_list("round__tournament_id", "round__tournament__name", "round__number", "round__final")
        .first()
    )
    if found is None:
        return None
    tournament_id, name, number, final = found
    stage = "the final" if final else f"round {number}"
    return Home(reverse("tournaments:tournament", args=[tournament_id]), name, f"{name} · {stage}")
