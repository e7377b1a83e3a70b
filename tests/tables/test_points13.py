"""13-card points tables through the service layer and the wallet (R-PTS-*, R-MONEY-3, R-MONEY-7):
seat holds of 80 points, each deal settled between the seats with the rake on the winner's gain,
top-ups between deals, and every key derived from the table and the deal.

Money: a point is worth 50 paise, so a seat holds 80 x 50 = 4000 paise (R-PTS-4)."""

from __future__ import annotations

import pytest

from games import services
from games.engine import table as engine
from games.errors import GameError
from games.models import Deal
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
from tests.wallet.support import fund, wallet
from wallet.ledger import balance_of, house_spec
from wallet.models import Journal, JournalKind
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db

MONEY = 100_000
PV = 50
HOLD = 80 * PV


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def points_table(users, clock, seats=None, money=MONEY, **fields):
    tmpl = template(
        name="Points", variant="points13", seats=seats or len(users), entry_fee=0, point_value=PV, **fields
    )
    return seat_all(tmpl, users, clock, money=money)


def test_a_seat_holds_80_points_and_a_deal_settles_through_the_wallet__R_PTS_3_R_PTS_4_R_MONEY_3(
    alice, bob, carol
):
    clock = Clock()
    users = [alice, bob, carol]
    table = points_table(users, clock)
    assert [wallet(u) for u in users] == [MONEY - HOLD] * 3
    first, second, winner = in_turn_order(table, users)
    play_deal(table, users, {first: "drop", second: "drop"}, clock)
    deal = Deal.objects.get(table=table, number=1)
    assert {int(p["player"]): p["net"] for p in deal.result["players"]} == {
        first.pk: -20,
        second.pk: -20,
        winner.pk: 40,
    }
    settlement = Journal.objects.get(kind=JournalKind.DEAL_SETTLEMENT)
    assert settlement.key == f"deal:table:{table.pk}:1"
    assert settlement.meta["variant"] == "points13"
    now = state(table)
    rake = 40 * PV * 10 // 100
    assert now.player(str(winner.pk)).held == HOLD + 40 * PV - rake
    assert now.player(str(first.pk)).held == HOLD - 20 * PV
    assert balance_of(house_spec(table.table_ref)) == rake
    check_so_far(table, users)
    for user in users:
        services.leave(table.pk, user, at=clock())
    assert wallet(winner) == MONEY + 40 * PV - rake
    assert wallet(first) == wallet(second) == MONEY - 20 * PV
    check_after_game(table, users)


def test_seats_are_topped_up_between_deals_and_the_table_deals_again__R_PTS_4_R_PTS_5(alice, bob):
    clock = Clock()
    users = [alice, bob]
    table = points_table(users, clock)
    for number in (1, 2, 3):
        loser, _ = in_turn_order(table, users)
        play_deal(table, users, {loser: "drop"}, clock)
        assert state(table).waiting_for == "pause"
        pass_deadline(table, clock)
        now = state(table)
        assert now.deal_number == number + 1, "the pause over, the next deal is dealt"
        assert now.player(str(loser.pk)).held == HOLD, "the loser's seat back at 80 points"
        assert all(p.held >= HOLD for p in now.seated), "winners keep their gains on the seat"
    top_ups = Journal.objects.filter(kind=JournalKind.SEAT_HOLD, key__startswith="seat_topup:")
    assert top_ups.count() == 3
    assert all(j.key.endswith((":1", ":2", ":3")) for j in top_ups)
    check_so_far(table, users)


def test_a_player_who_cannot_top_up_stands_up_and_the_table_waits__R_PTS_4_R_PTS_5(alice, bob):
    clock = Clock()
    users = [alice, bob]
    table = points_table(users, clock, money=HOLD)  # nothing left in the wallet after the hold
    loser, _ = in_turn_order(table, users)
    play_deal(table, users, {loser: "drop"}, clock)
    pass_deadline(table, clock)
    now = state(table)
    assert now.player(str(loser.pk)).status is engine.Status.LEFT
    assert now.phase is engine.Phase.WAITING
    assert wallet(loser) == HOLD - 20 * PV, "the seat balance is back in the wallet"
    check_so_far(table, users)


def test_leaving_mid_deal_is_a_drop_paid_with_the_deal__R_PTS_5(alice, bob):
    clock = Clock()
    users = [alice, bob]
    table = points_table(users, clock)
    leaver, stayer = in_turn_order(table, users)
    services.leave(table.pk, leaver, at=clock())
    assert wallet(leaver) == MONEY - 20 * PV
    rake = 20 * PV * 10 // 100
    assert state(table).player(str(stayer.pk)).held == HOLD + 20 * PV - rake
    check_so_far(table, users)


def test_a_void_drops_the_deal_unpaid_and_returns_every_hold__R_MONEY_7(alice, bob):
    clock = Clock()
    users = [alice, bob]
    table = points_table(users, clock)
    services.void(table.pk, "a fault", at=clock())
    assert [wallet(u) for u in users] == [MONEY, MONEY]
    assert not Journal.objects.filter(kind=JournalKind.DEAL_SETTLEMENT).exists()
    assert reconcile() == []


def test_a_hold_the_wallet_cannot_cover_is_refused__R_PTS_4(alice, bob):
    tmpl = template(name="Points", variant="points13", seats=2, entry_fee=0, point_value=PV)
    fund(alice, HOLD - 1)
    with pytest.raises(GameError) as refused:
        services.play_now(alice, tmpl)
    assert refused.value.code == "insufficient_balance"
    assert wallet(alice) == HOLD - 1
