"""The rulings through the service layer and the wallet: R-21-9 top-ups, R-MONEY-5 leaving a
running game, R-MONEY-2/R-MONEY-3 rounding of the rake, R-POOL-4 equal rejoin offers."""

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
from wallet.models import Journal

pytestmark = pytest.mark.django_db

MONEY = 1_000_000


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def events(table, kind):
    return [e.data for e in TableEvent.objects.filter(table=table, type=kind).order_by("version")]


# --- R-21-9 -----------------------------------------------------------------------------------


def test_a_21_card_seat_is_topped_up_from_the_wallet_and_play_goes_on__R_21_9(alice, bob):
    clock = Clock()
    tmpl = template(name="21", variant="points21", seats=2, entry_fee=0, point_value=10)
    table = seat_all(tmpl, [alice, bob], clock, money=100_000)
    dropper, winner = in_turn_order(table, [alice, bob])
    services.act(table.pk, dropper, {"type": "drop"}, at=clock())  # 30 points = 300 paise
    assert wallet(dropper) == 100_000 - 2000
    pass_deadline(table, clock)
    now = state(table)
    assert now.deal_number == 2, "the table goes on: deal after deal"
    assert now.player(str(dropper.pk)).held == 2000
    assert wallet(dropper) == 100_000 - 2000 - 300
    (topped,) = events(table, "topped_up")
    assert topped["player"] == str(dropper.pk)
    assert topped["amount"] == 300
    journal = Journal.objects.get(key__startswith="seat_topup:")
    assert journal.meta["top_up_after_deal"] == 1
    for user in (dropper, winner):
        services.leave(table.pk, user, at=clock())
    check_after_game(table, [alice, bob])


def test_a_player_whose_wallet_cannot_top_up_is_stood_up_and_told_why__R_21_9(alice, bob):
    clock = Clock()
    tmpl = template(name="21", variant="points21", seats=2, entry_fee=0, point_value=10)
    # Each wallet keeps 299 paise beside the 2000 held: the dropper's top-up needs 300.
    table = seat_all(tmpl, [alice, bob], clock, money=2299)
    dropper, winner = in_turn_order(table, [alice, bob])
    services.act(table.pk, dropper, {"type": "drop"}, at=clock())
    pass_deadline(table, clock)
    now = state(table)
    assert now.player(str(dropper.pk)).status is engine.Status.LEFT
    assert now.phase is engine.Phase.WAITING
    (stood,) = events(table, "stood_up")
    assert stood["player"] == str(dropper.pk)
    assert "cannot top it up" in stood["reason"]
    (waiting,) = events(table, "waiting")
    assert waiting["players"] == [str(winner.pk)]
    assert "waits for another player" in waiting["reason"]
    assert wallet(dropper) == 299 + 1700, "the seat balance went back"
    services.leave(table.pk, winner, at=clock())
    check_after_game(table, [alice, bob])


# --- R-MONEY-5 --------------------------------------------------------------------------------


def test_leaving_mid_deal_drops_at_once_and_the_last_player_wins_the_pool__R_MONEY_5(alice, bob):
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    first, second = in_turn_order(table, [alice, bob])
    services.leave(table.pk, second, at=clock())  # out of turn
    now = state(table)
    assert now.phase is engine.Phase.FINISHED
    assert now.winner == str(first.pk)
    assert wallet(first) == MONEY - 2500 + 4500, "the pool of 5000 less 10% rake"
    assert wallet(second) == MONEY - 2500, "no refund once the game started"
    assert balance_of(house_spec(table.pool_ref)) == 500
    (dropped,) = events(table, "dropped")
    assert dropped["player"] == str(second.pk)
    check_after_game(table, [alice, bob])


def test_when_everyone_leaves_a_running_game_nothing_is_refunded__R_MONEY_5(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    for user in users:
        if state(table).phase is engine.Phase.FINISHED:
            break
        services.leave(table.pk, user, at=clock())
    now = state(table)
    assert now.phase is engine.Phase.FINISHED
    assert now.winner == str(carol.pk)
    assert not Journal.objects.filter(kind="refund").exists()
    assert wallet(carol) == MONEY - 2500 + 6750
    assert balance_of(house_spec(table.pool_ref)) == 750
    check_after_game(table, users)


# --- R-MONEY-2, R-MONEY-3 ---------------------------------------------------------------------


def test_the_pool_rake_is_rounded_down_to_the_paisa__R_MONEY_2(alice, bob):
    """Two fees of 1999 paise: the pool 3998 at 10% is 399.8 paise of rake: 399 is taken."""
    clock = Clock()
    table = seat_all(template(seats=2, entry_fee=1999), [alice, bob], clock)
    first, second = in_turn_order(table, [alice, bob])
    services.leave(table.pk, first, at=clock())
    assert balance_of(house_spec(table.pool_ref)) == 399
    assert wallet(second) == MONEY - 1999 + 3998 - 399
    check_after_game(table, [alice, bob])


def test_21_card_rake_is_taken_on_each_positive_net_rounded_down__R_MONEY_3(alice, bob, carol):
    """3 paise a point, 13% rake: two first drops (30 points each) give the winner 60 points,
    180 paise; 13% of 180 is 23.4 paise: 23 is taken, from the winner's gain only."""
    clock = Clock()
    tmpl = template(name="21", variant="points21", seats=3, entry_fee=0, point_value=3, rake_percent=13)
    users = [alice, bob, carol]
    table = seat_all(tmpl, users, clock, money=100_000)
    now = play_deal(table, users, dict.fromkeys(in_turn_order(table, users)[:2], "drop"), clock)
    winner = now.deal.winner
    assert now.player(winner).held == 600 + 180 - 23
    assert balance_of(house_spec(table.table_ref)) == 23
    for user in users:
        if state(table).player(str(user.pk)).status is not engine.Status.LEFT:
            services.leave(table.pk, user, at=clock())
    check_after_game(table, users)


# --- R-POOL-4 ---------------------------------------------------------------------------------


def test_two_players_eliminated_together_rejoin_at_the_same_score__R_POOL_4(players):
    clock = Clock()
    users = players[:4]
    alice, bob, carol = users[:3]
    table = seat_all(template(seats=4), users, clock)
    # Deal 1: alice and bob wrong-show (80 each), carol drops; deal 2 the same: alice and bob
    # are out on 160 together, and the highest score left is carol's 40.
    play_deal(table, users, {alice: "wrong", bob: "wrong", carol: "drop"}, clock)
    pass_deadline(table, clock)
    now = play_deal(table, users, {alice: "wrong", bob: "wrong", carol: "drop"}, clock)
    out = [p.name for p in now.players if p.status is engine.Status.ELIMINATED]
    assert sorted(out) == sorted([str(alice.pk), str(bob.pk)])
    (offer,) = events(table, "rejoin_offered")
    assert offer["score"] == 41
    services.rejoin(table.pk, bob, at=clock())
    services.rejoin(table.pk, alice, at=clock())
    now = state(table)
    assert now.player(str(alice.pk)).score == now.player(str(bob.pk)).score == offer["score"]
    assert pool(table.pool_ref) == 4 * 2500 + 2 * 2500
    check_so_far(table, users)
