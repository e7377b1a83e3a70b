"""Bot-only tables: many deals complete, every table settles, the ledger reconciles."""

from __future__ import annotations

import time

import pytest

from accounts.models import User
from games import bots
from games.engine import table as engine
from games.errors import GameError
from games.models import Deal, Table
from tests.tables.support import Clock, check_privacy, pass_deadline, scripted, state, template
from wallet.cashier import topup_chips
from wallet.ledger import balance_of, pool_spec
from wallet.models import Currency
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db

DEALS = 200


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def make_bot(name: str) -> User:
    user = User(username=name, is_bot=True)
    user.set_unusable_password()
    user.save()
    topup_chips(user)
    return user


def run_table(table: Table, players: list[User], clock: Clock) -> None:
    for _ in range(5000):
        now = state(table)
        if now.phase in (engine.Phase.FINISHED, engine.Phase.CANCELLED):
            return
        acted = any(bots.act(table.pk, bot, at=clock(100)) for bot in players)
        if not acted:
            pass_deadline(table, clock)
    raise AssertionError("the bot table did not finish")


def test_it_completes_200_bot_deals_and_settles_every_table():
    from games import services

    tmpl = template(name="bots 101", currency="CHIPS", seats=2, entry_fee=1000, bots_allowed=True)
    clock = Clock()
    started = time.perf_counter()
    tables = []
    deals = 0
    index = 0
    while deals < DEALS:
        pair = [make_bot(f"bot{index}a"), make_bot(f"bot{index}b")]
        index += 1
        table = None
        for bot in pair:
            table = services.play_now(bot, tmpl, at=clock())
        assert table is not None
        run_table(table, pair, clock)
        tables.append(table)
        deals += Deal.objects.filter(table=table, finished_at__isnull=False).count()
    elapsed = time.perf_counter() - started
    print(f"\n{deals} bot deals on {len(tables)} tables in {elapsed:.1f} s")
    for table in tables:
        assert state(table).phase is engine.Phase.FINISHED
        assert balance_of(pool_spec(table.pool_ref, Currency.CHIPS)) == 0
        check_privacy(table, [seat.user for seat in table.seats.select_related("user")])
    assert Deal.objects.filter(finished_at__isnull=True).count() == 0
    assert reconcile() == []


BOT_DEALS_21 = 50


def test_it_completes_50_bot_deals_on_a_21_card_practice_table__R_21_7_R_21_8(alice):
    """Three bots on a CHIPS 21-card table (1 chip a point): a bot stood up after losing below
    200 points sits again; every deal is settled through the wallet, every seat is released
    at the end and the ledger reconciles. Bots may not sit at a real-money table."""
    from games import services
    from tests.tables.support import check_after_game
    from wallet.models import Journal, JournalKind

    inr = template(name="21 INR", variant="points21", currency="INR", seats=3, entry_fee=0, point_value=100)
    tmpl = template(
        name="bots 21", variant="points21", currency="CHIPS", seats=3, entry_fee=0, point_value=100,
        bots_allowed=True,
    )  # fmt: skip
    clock = Clock()
    players = [make_bot(f"bot21{n}") for n in "abc"]
    with pytest.raises(GameError) as error:
        services.play_now(players[0], inr, at=clock())
    assert error.value.code == "bots_not_allowed"
    started = time.perf_counter()
    table = services.play_now(players[0], tmpl, at=clock())
    finished = Deal.objects.filter(table=table, finished_at__isnull=False)
    for _ in range(20_000):
        if finished.count() >= BOT_DEALS_21:
            break
        now = state(table)
        for bot in players:
            if not now.has(str(bot.pk)) or now.player(str(bot.pk)).status is engine.Status.LEFT:
                assert services.play_now(bot, tmpl, at=clock()).pk == table.pk
        if not any(bots.act(table.pk, bot, at=clock(100)) for bot in players):
            pass_deadline(table, clock)
    else:
        raise AssertionError("the bots did not finish 50 deals")
    while state(table).phase is engine.Phase.PLAYING:  # let the last deal end
        if not any(bots.act(table.pk, bot, at=clock(100)) for bot in players):
            pass_deadline(table, clock)
    for bot in players:
        if state(table).player(str(bot.pk)).status is not engine.Status.LEFT:
            services.leave(table.pk, bot, at=clock())
    deals = finished.count()
    elapsed = time.perf_counter() - started
    print(f"\n{deals} bot deals of 21 cards in {elapsed:.1f} s")
    settlements = Journal.objects.filter(kind=JournalKind.DEAL_SETTLEMENT, meta__table=table.table_ref)
    assert settlements.count() == deals, "every deal is settled once"
    for deal in finished:
        assert sum(p["net"] for p in deal.result["players"]) == 0
    check_after_game(table, players)
