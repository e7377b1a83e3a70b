"""The player's pages: the lobby, a table (the live client is ``static/table.js``), the
auto-arrange call, and the history of past games and deals with their verifiable shuffles."""

from __future__ import annotations

import contextlib
import hashlib
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.errors import GameError
from games.models import Deal, DealHand, Seat, Table, TableEvent, TableStatus, TableTemplate, Visibility
from games.views_state import arrangement, score_card
from games.words import browser_words, word
from wallet.cashier import topup_chips
from wallet.errors import WalletError
from wallet.money import money

OPEN_STATUSES = (TableStatus.WAITING, TableStatus.STARTING, TableStatus.PLAYING)
BOT_NAMES = ("bot-asha", "bot-ravi", "bot-meera", "bot-kiran", "bot-dev")
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


def stake(template: TableTemplate) -> str:
    """The entry fee (pool) or point value (21-card), in rupees or chips."""
    amount = template.point_value if template.variant == "points21" else template.entry_fee
    label = "per point" if template.variant == "points21" else "entry"
    return f"{money(amount, template.currency)} {label}"


def _rows(templates: list[TableTemplate]) -> list[dict[str, Any]]:
    return [{"template": t, "stake": stake(t)} for t in templates]


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return _render_lobby(request)


def _render_lobby(
    request: HttpRequest, error: GameError | None = None, error_for: int | None = None
) -> HttpResponse:
    templates = list(
        TableTemplate.objects.filter(active=True).order_by("variant", "entry_fee", "point_value")
    )
    variants: dict[str, list[TableTemplate]] = {}
    for template in templates:
        if template.currency == "INR":
            variants.setdefault(template.get_variant_display(), []).append(template)
    practice = [t for t in templates if t.currency == "CHIPS"]
    open_tables = (
        Table.objects.filter(status__in=OPEN_STATUSES, template__active=True)
        .select_related("template")
        .annotate(taken=Count("seats", filter=Q(seats__left_at__isnull=True)))
        .order_by("-id")[:30]
    )
    mine = (
        Table.objects.filter(status__in=OPEN_STATUSES, seats__user=request.user, seats__left_at__isnull=True)
        .select_related("template")
        .distinct()
        .order_by("-id")
    )
    context = {
        "variants": [(name, _rows(rows)) for name, rows in variants.items()],
        "practice": _rows(practice),
        "open_tables": open_tables,
        "my_tables": mine,
        "error": error,
        "error_for": error_for,
    }
    return render(request, "games/lobby.html", context, status=400 if error else 200)


def bot_users(count: int, exclude: set[int]) -> list[Any]:
    """``count`` computer players not in ``exclude``, created (with practice chips) as needed."""
    user_model = get_user_model()
    bots = []
    for index in range(len(BOT_NAMES) + count):
        name = BOT_NAMES[index] if index < len(BOT_NAMES) else f"bot-{index}"
        bot = user_model.objects.filter(username=name).first()
        if bot is None:
            bot = user_model(username=name, is_bot=True)
            bot.set_unusable_password()
            bot.save()
        if bot.pk in exclude or not bot.is_bot:
            continue
        with contextlib.suppress(WalletError):  # already topped up today, or full
            topup_chips(bot)
        bots.append(bot)
        if len(bots) == count:
            break
    return bots


def fill_with_bots(table: Table) -> Table:
    """On a practice table that allows bots: seat bots in every empty seat (the game starts)."""
    template = table.template
    if not template.bots_allowed or table.status not in (TableStatus.WAITING, TableStatus.STARTING):
        return table
    seated = set(Seat.objects.filter(table=table, left_at__isnull=True).values_list("user_id", flat=True))
    ever = set(Seat.objects.filter(table=table).values_list("user_id", flat=True))
    for bot in bot_users(template.seats - len(seated), ever):
        table = services.join(table.pk, bot)
    return table


@login_required
@require_POST
def play_now(request: HttpRequest, template_id: int) -> HttpResponse:
    template = get_object_or_404(TableTemplate, pk=template_id)
    try:
        table = services.play_now(request.user, template)
        table = fill_with_bots(table)
    except GameError as error:
        return _render_lobby(request, error, template.pk)
    return redirect("games:table", table_id=table.pk)


@login_required
@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("template"), pk=table_id)
    seated = Seat.objects.filter(table=table, user=request.user, left_at__isnull=True).exists()
    context = {
        "table": table,
        "seated": seated,
        "stake": stake(table.template),
        "me": str(request.user.pk),
        "variant_words": word("variant", table.template.variant),
        "words_json": json.dumps(browser_words()),
    }
    return render(request, "games/table.html", context)


@login_required
@require_GET
def arrange(request: HttpRequest, table_id: int) -> JsonResponse:
    """The auto-arrange button (R-SHOW-5): the solver's best grouping, applied by nobody."""
    table = get_object_or_404(Table, pk=table_id)
    try:
        return JsonResponse(arrangement(table, request.user))
    except GameError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=400)


@login_required
@require_GET
def scores(request: HttpRequest, table_id: int) -> JsonResponse:
    """The score card and the last finished deal, for the table page's menu."""
    table = get_object_or_404(Table.objects.select_related("template"), pk=table_id)
    try:
        return JsonResponse(score_card(table, request.user))
    except GameError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=403)


@login_required
@require_GET
def history(request: HttpRequest) -> HttpResponse:
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
def deal_detail(request: HttpRequest, deal_id: int) -> HttpResponse:
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


def _deal_events(events: list[dict[str, Any]], number: int) -> list[dict[str, Any]]:
    """The public events of deal ``number``: from its ``deal_number`` event to its ``deal_over``."""
    out: list[dict[str, Any]] = []
    inside = False
    for event in events:
        if event["type"] == "deal_number":
            inside = event["data"].get("number") == number
            continue
        if inside and event["type"] in REPLAY_TYPES:
            out.append(event)
            if event["type"] == "deal_over":
                break
    return out
