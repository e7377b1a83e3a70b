"""Computer players for practice (CHIPS) tables, pool and 21-card. A bot plays through the same
service calls as a person, choosing with the exact solver (R-SHOW-5): it draws the open card
when that card fits a group of its best arrangement, discards the card that keeps its best
score lowest, declares when it can, shows its best grouping, and drops a hopeless first hand.

To stay quick on 21-card hands a bot only weighs discarding the cards its best arrangement
leaves ungrouped (every card when all are grouped): a grouped card is rarely the better
discard, and this takes a handful of solver calls a turn instead of one per card.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games import services
from games.engine import deal as deals
from games.engine import table as engine
from games.engine.actions import Draw
from games.engine.cards import Card, points
from games.engine.solver import solve
from games.errors import GameError
from games.models import Seat, Table, TableStatus
from wallet.cashier import topup_chips
from wallet.errors import WalletError

BOT_NAMES = ("bot-asha", "bot-ravi", "bot-meera", "bot-kiran", "bot-dev")

#: A first hand scoring at least this share of the full count is dropped (first drop).
HOPELESS_SHARE = 0.9


def _without(hand: tuple[Card, ...], card: Card) -> list[Card]:
    cards = list(hand)
    cards.remove(card)
    return cards


def _discard_candidates(deal: deals.DealState, hand: tuple[Card, ...]) -> list[Card]:
    """The distinct cards worth weighing as a discard or finish card: those left ungrouped by the
    best arrangement of ``hand`` (every card if it leaves none)."""
    grouped = Counter(
        card for group in solve(deal.variant, deal.jokers, hand, packs=deal.packs).groups for card in group
    )
    loose = Counter(hand) - grouped
    return sorted(loose) if loose else sorted(set(hand))


def choose(deal: deals.DealState, name: str) -> dict[str, Any] | None:
    """The bot's next action as client JSON, or None when the deal does not wait for it."""
    if deal.phase is deals.Phase.SHOW:
        seat = deal.seats[deal.seat_of(name)]
        if seat.in_deal and name in deal.waiting_for:
            groups = solve(deal.variant, deal.jokers, seat.hand, packs=deal.packs).groups
            return {"type": "show", "groups": [[c.code for c in g] for g in groups]}
        return None
    if deal.phase is not deals.Phase.PLAY or deal.seats[deal.turn].player != name:
        return None
    seat = deal.seats[deal.turn]
    variant, jokers, packs = deal.variant, deal.jokers, deal.packs
    if deal.drawn is None:
        best = solve(variant, jokers, seat.hand, packs=packs)
        if not seat.has_drawn and best.score >= HOPELESS_SHARE * variant.full_count:
            return {"type": "drop"}
        legal = deals.legal_actions(deal, name)
        if any(isinstance(a, Draw) and a.source == "open" for a in legal):
            top = deal.open_pile[-1]
            with_top = solve(variant, jokers, (*seat.hand, top), packs=packs)
            if with_top.score < best.score + points(top, jokers) and any(top in g for g in with_top.groups):
                return {"type": "draw", "source": "open"}
        return {"type": "draw", "source": "closed"}
    choices = []
    for card in _discard_candidates(deal, seat.hand):
        solution = solve(variant, jokers, _without(seat.hand, card), packs=packs)
        if solution.can_declare:
            return {"type": "finish", "card": card.code, "then": solution.groups}
        if deal.drawn_from == "open" and card == deal.drawn:
            continue
        choices.append((solution.score, -card.rank, card))
    return {"type": "discard", "card": min(choices)[2].code}


def act(table_id: int, bot: Any, *, at: int | None = None) -> bool:
    """Make the bot's move if the table waits for it; True if it acted."""
    table = Table.objects.get(pk=table_id)
    state = engine.TableState.from_json(table.state)
    name = str(bot.pk)
    if state.phase is not engine.Phase.PLAYING or state.deal is None or name not in state.deal.players:
        return False
    action = choose(state.deal, name)
    if action is None:
        return False
    groups = action.pop("then", None)
    try:
        services.act(table_id, bot, action, at=at)
        if groups is not None:
            declare = {"type": "declare", "groups": [[c.code for c in g] for g in groups]}
            services.act(table_id, bot, declare, at=at)
    except GameError as error:
        if error.code in ("not_your_turn", "time_up", "deal_over", "no_deal"):
            return False  # someone (or a timeout) got there first
        raise
    return True


def bot_named(name: str) -> Any:
    """The computer player called ``name``, created if there is none yet.

    Two callers may look for the same new bot at once (the timers' refill and a player's Play
    now, on a fresh site): the one whose insert comes second finds the username taken, and
    takes the bot the first one made instead of failing."""
    user_model = get_user_model()
    bot = user_model.objects.filter(username=name).first()
    if bot is not None:
        return bot
    bot = user_model(username=name, is_bot=True)
    bot.set_unusable_password()
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction goes on either way
            bot.save()
    except IntegrityError:
        return user_model.objects.get(username=name)
    return bot


def bot_users(count: int, exclude: set[int]) -> list[Any]:
    """``count`` computer players not in ``exclude``, created (with practice chips) as needed."""
    bots = []
    for index in range(len(BOT_NAMES) + count):
        bot = bot_named(BOT_NAMES[index] if index < len(BOT_NAMES) else f"bot-{index}")
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
    seats = engine.TableState.from_json(table.state).rules.seats  # the table's own (R-MONEY-6)
    for bot in bot_users(seats - len(seated), ever):
        table = services.join(table.pk, bot)
    return table


def refill_practice_tables() -> int:
    """Practice tables with bots play on deal after deal: a table waiting with a person seated
    (bots stood up, or left) gets bots in its empty seats again. Returns how many tables."""
    waiting = Table.objects.filter(
        template__bots_allowed=True,
        private=False,  # friends at a private table choose their own company
        status=TableStatus.WAITING,
        seats__left_at__isnull=True,
        seats__user__is_bot=False,
    ).distinct()
    filled = 0
    for table in waiting.select_related("template"):
        try:
            fill_with_bots(table)
            filled += 1
        except GameError:
            continue  # the table moved on meanwhile; the next round sees it again
    return filled
