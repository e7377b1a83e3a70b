"""Deals tables through the service layer and the wallet (R-DEALS-*, R-MONEY-2, R-MONEY-7): fees
into the table's pool account, one payout to the winner with the rake taken once, and game chips
that never touch the ledger."""

from __future__ import annotations

import pytest

from games import services
from games.engine import table as engine
from games.models import TableEvent
from tests.tables.support import (
    Clock,
    check_after_game,
    check_so_far,
    in_turn_order,
    pass_deadline,
    play_deal,
    scripted,
    seat_all,
    state,
    template,
)
from tests.wallet.support import pool, wallet
from wallet.ledger import balance_of, house_spec
from wallet.models import Journal, JournalKind

pytestmark = pytest.mark.django_db

MONEY = 100_000
FEE = 5_000


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def deals_table(users, clock, deals=2):
    tmpl = template(name="Deals", variant="deals", seats=len(users), entry_fee=FEE, deals=deals)
    return seat_all(tmpl, users, clock, money=MONEY)


def test_fees_go_into_the_pool_and_the_winner_is_paid_once_with_the_rake__R_DEALS_1_R_DEALS_4(
    alice, bob, carol
):
    clock = Clock()
    users = [alice, bob, carol]
    table = deals_table(users, clock, deals=2)
    assert pool(table.pool_ref) == 3 * FEE
    assert [wallet(u) for u in users] == [MONEY - FEE] * 3
    first, second, third = in_turn_order(table, users)
    play_deal(table, users, {first: "drop", second: "drop"}, clock)  # third wins: 200 chips
    check_so_far(table, users)
    assert pool(table.pool_ref) == 3 * FEE, "no money moves between deals"
    pass_deadline(table, clock)
    assert state(table).deal_number == 2
    play_deal(table, users, {first: "drop", second: "drop"}, clock)  # third again: 240
    now = state(table)
    assert now.phase is engine.Phase.FINISHED
    assert {p.name: p.chips for p in now.players} == {
        str(third.pk): 240,
        str(first.pk): 120,
        str(second.pk): 120,
    }
    assert now.winner == str(third.pk)
    prize = 3 * FEE - 3 * FEE * 10 // 100
    (paid,) = Journal.objects.filter(kind=JournalKind.PRIZE)
    assert paid.key == f"prize:pool:table:{table.pk}"
    assert wallet(third) == MONEY - FEE + prize
    assert wallet(first) == wallet(second) == MONEY - FEE
    assert balance_of(house_spec(table.pool_ref)) == 3 * FEE * 10 // 100, "the rake, taken once"
    assert pool(table.pool_ref) == 0
    check_after_game(table, users)


def test_game_chips_never_touch_the_ledger__R_DEALS_2(alice, bob):
    clock = Clock()
    users = [alice, bob]
    table = deals_table(users, clock)
    journals = Journal.objects.count()
    loser, _ = in_turn_order(table, users)
    play_deal(table, users, {loser: "drop"}, clock)
    assert Journal.objects.count() == journals, "a deal moves chips, never money"
    moved = TableEvent.objects.get(table=table, type="chips_moved").data
    assert moved["moved"] == {str(loser.pk): -20, str(next(u for u in users if u != loser).pk): 20}


def test_a_leaver_forfeits_the_fee_and_the_last_player_wins_at_once__R_DEALS_5(alice, bob):
    clock = Clock()
    users = [alice, bob]
    table = deals_table(users, clock, deals=3)
    leaver, stayer = in_turn_order(table, users)
    services.leave(table.pk, leaver, at=clock())
    assert state(table).winner == str(stayer.pk)
    assert wallet(leaver) == MONEY - FEE
    assert wallet(stayer) == MONEY - FEE + 2 * FEE - 2 * FEE * 10 // 100
    check_after_game(table, users)


def test_a_void_refunds_every_fee_and_takes_no_rake__R_MONEY_7(alice, bob):
    clock = Clock()
    users = [alice, bob]
    table = deals_table(users, clock)
    services.void(table.pk, "a fault", at=clock())
    assert [wallet(u) for u in users] == [MONEY, MONEY]
    assert balance_of(house_spec(table.pool_ref)) == 0
    check_after_game(table, users)
