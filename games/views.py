"""The player's pages: the lobby, a table (the live client is ``static/table/main.js``), the
auto-arrange call, and the history of past games and deals with their verifiable shuffles."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import get_script_prefix, reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedRequest
from games import access, arrivals, homes, reality, services
from games.bots import fill_with_bots
from games.engine import table as engine
from games.errors import GameError
from games.lobby import lobby as lobby_of
from games.lobby import rows, stake_words
from games.models import Deal, DealHand, Seat, Table, TableEvent, TableTemplate, Visibility
from games.views_state import arrangement, score_card
from games.words import browser_words, word
from wallet.money import money

#: Public event types shown in a deal's replay, in order.
REPLAY_TYPES = {
    "deal_started",
    "turn",
    "drew",
    "discarded",
    "dropped",
    "missed_move",
    "finished",
    "declared",
    "wrong_show",
    "shown",
    "show_timed_out",
    "reshuffled",
    "deal_over",
}


@login_required
@require_GET
def lobby(request: AuthenticatedRequest) -> HttpResponse:
    return _render_lobby(request)


@login_required
@require_GET
def lobby_live(request: AuthenticatedRequest) -> JsonResponse:
    """The lobby's answer as JSON, for the page's live refresh (``static/lobby/main.js``)."""
    return JsonResponse(lobby_of(request.user))


def _render_lobby(
    request: AuthenticatedRequest, error: GameError | None = None, error_for: int | None = None
) -> HttpResponse:
    answer = lobby_of(request.user)
    offered = rows(answer)
    for row in offered:
        row["play_url"], row["private_url"] = stake_urls(row["id"], get_script_prefix())
    context = {
        "lobby": answer,
        "offered": bool(offered),
        # Where money play is off for this player (R-PROT-1..3), they see practice tables only.
        "money_refusal": answer["money_refusal"],
        "error": error,
        "error_for": error_for,
    }
    return render(request, "games/lobby.html", context, status=400 if error else 200)


@functools.lru_cache(maxsize=1024)
def stake_urls(template_id: int, script_prefix: str) -> tuple[str, str]:
    """A lobby row's two forms' addresses, "play now" and "open a private table": the lobby
    shows every template, so each is reversed once a process (about 0.1 ms each), not at every
    page (``script_prefix``: the site's mount point, part of each address)."""
    return reverse("games:play_now", args=[template_id]), reverse("games:open_private", args=[template_id])


@login_required
@require_POST
def play_now(request: AuthenticatedRequest, template_id: int) -> HttpResponse:
    template = get_object_or_404(TableTemplate, pk=template_id)
    try:
        table = services.play_now(request.user, template)
        arrivals.arrived(request, request.user.pk, table.pk)
        table = fill_with_bots(table)
    except GameError as error:
        return _render_lobby(request, error, template.pk)
    return redirect("games:table", table_id=table.pk)


@login_required
@require_GET
def table_page(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("template"), pk=table_id)
    if not access.may_see(table, request.user, request.GET.get("code")):
        raise Http404("no such table")  # a private table is not revealed to the uninvited
    seated = Seat.objects.filter(table=table, user=request.user, left_at__isnull=True).exists()
    context = {
        "table": table,
        "seated": seated,
        "stake": stake_words(table.template),
        "me": str(request.user.pk),
        "variant_words": word("variant", table.template.variant),
        "seat_hold": _seat_hold(table),
        "words_json": json.dumps(browser_words()),
        "home": homes.home_of(table),
    }
    return render(request, "games/table.html", context)


def _seat_hold(table: Table) -> int:
    """Points tables: what a seat holds at this table's own point value (R-PTS-4, R-21-8); 0 else."""
    state = engine.TableState.from_json(table.state)
    return state.seat_hold if state.is_points else 0


@login_required
@require_POST
def leave(request: AuthenticatedRequest, table_id: int) -> HttpResponse:
    """Leave now (``when=now``, the default) or after the running deal (``when=after_deal``,
    ``when=stay`` to take that back). Before the start the fee or hold is back at once."""
    table = get_object_or_404(Table, pk=table_id)
    when = request.POST.get("when", "now")
    try:
        if when == "after_deal":
            services.leave_after_deal(table.pk, request.user, True)
        elif when == "stay":
            services.leave_after_deal(table.pk, request.user, False)
        else:
            services.leave(table.pk, request.user)
    except GameError as error:
        return _render_lobby(request, error)
    if when in ("after_deal", "stay"):
        return redirect("games:table", table_id=table.pk)
    return redirect("games:lobby")


@login_required
@require_POST
def open_private(request: AuthenticatedRequest, template_id: int) -> HttpResponse:
    """Open a private table of the template and sit at it; the table page shows the invitation."""
    template = get_object_or_404(TableTemplate, pk=template_id)
    try:
        table = services.open_private(request.user, template)
    except GameError as error:
        return _render_lobby(request, error, template.pk)
    arrivals.arrived(request, request.user.pk, table.pk)
    return redirect("games:table", table_id=table.pk)


@login_required
@require_GET
def invite_form(request: AuthenticatedRequest) -> HttpResponse:
    """Typing an invitation code: sends the player to its invitation page."""
    code = access.normal_code(request.GET.get("code", ""))
    if code:
        return redirect("games:invite", code=code)
    return _render_lobby(request)


@login_required
def invite(request: AuthenticatedRequest, code: str) -> HttpResponse:
    """The invitation to a private table: who holds the code may see the table and sit."""
    table = Table.objects.select_related("template").filter(invite_code=access.normal_code(code)).first()
    if table is None or not access.holds_code(table, code):
        raise Http404("no table has this invitation code")
    if request.method == "POST":
        try:
            services.join(table.pk, request.user, code=table.invite_code)
        except GameError as error:
            context = {"table": table, "stake": stake_words(table.template), "error": error}
            return render(request, "games/invite.html", context, status=400)
        arrivals.arrived(request, request.user.pk, table.pk)
        return redirect("games:table", table_id=table.pk)
    context = {"table": table, "stake": stake_words(table.template), "error": None}
    return render(request, "games/invite.html", context)


@login_required
@require_GET
def arrange(request: AuthenticatedRequest, table_id: int) -> JsonResponse:
    """The auto-arrange button (R-SHOW-5): the solver's best grouping, applied by nobody."""
    table = get_object_or_404(Table, pk=table_id)
    try:
        return JsonResponse(arrangement(table, request.user))
    except GameError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=400)


@login_required
@require_GET
def scores(request: AuthenticatedRequest, table_id: int) -> JsonResponse:
    """The score card and the last finished deal, for the table page's menu."""
    table = get_object_or_404(Table.objects.select_related("template"), pk=table_id)
    try:
        return JsonResponse(score_card(table, request.user))
    except GameError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=403)


@login_required
@require_GET
def reality_check(request: AuthenticatedRequest) -> JsonResponse:
    """R-PROT-6: the player's money-play session so far, for the table page's reality check."""
    found = reality.check(request.user)
    return JsonResponse({**found, "net_text": money(found["net"], "INR")})


@login_required
@require_GET
def history(request: AuthenticatedRequest) -> HttpResponse:
    hands = (
        DealHand.objects.filter(user=request.user)
        .select_related("deal__table__template")
        .order_by("-deal__table_id", "-deal__number")[:200]
    )
    games: dict[int, dict[str, Any]] = {}
    for hand in hands:
        table = hand.deal.table
        game = games.setdefault(table.pk, {"table": table, "deals": []})
        game["deals"].append(hand)
    return render(request, "games/history.html", {"games": list(games.values())})


def verified(seed: str, commitment: str) -> bool:
    """R-DEAL-5: the revealed seed is the one committed to before the deal."""
    try:
        return bool(seed) and hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    except ValueError:
        return False


@login_required
@require_GET
def deal_detail(request: AuthenticatedRequest, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(Deal.objects.select_related("table__template"), pk=deal_id)
    if not DealHand.objects.filter(deal=deal, user=request.user).exists():
        raise Http404("not one of your deals")
    names = dict(Seat.objects.filter(table=deal.table).values_list("user_id", "user__username").distinct())
    result = deal.result or {}
    players = []
    for row in result.get("players", []):
        uid = int(row["player"])
        players.append({**row, "name": names.get(uid, row["player"]), "me": uid == request.user.pk})
    events = list(
        TableEvent.objects.filter(table=deal.table, visibility=Visibility.EVERYONE)
        .order_by("version")
        .values("version", "type", "data")
    )
    replay = _deal_events(events, deal.number)
    for event in replay:
        player = event["data"].get("player")
        if player is not None:
            event["name"] = names.get(int(player), player)
    context = {
        "deal": deal,
        "players": players,
        "winner": names.get(int(result["winner"]), "") if result.get("winner") else "",
        "finish_card": result.get("finish_card"),
        "verified": verified(deal.seed, deal.commitment),
        "replay": replay,
    }
    return render(request, "games/deal.html", context)


def _deal_events(events: Sequence[Mapping[str, Any]], number: int) -> list[dict[str, Any]]:
    """The public events of deal ``number``: from its ``deal_number`` event to its ``deal_over``."""
    out: list[dict[str, Any]] = []
    inside = False
    for event in events:
        if event["type"] == "deal_number":
            inside = event["data"].get("number") == number
            continue
        if inside and event["type"] in REPLAY_TYPES:
            out.append(dict(event))
            if event["type"] == "deal_over":
                break
    return out
