"""Whole pool games through the service layer (R-POOL-*, R-MONEY-*, R-TOSS-*)."""

from __future__ import annotations

import pytest

from games import services
from games.engine import table as engine
from games.errors import GameError
from games.models import Deal, TableEvent
from tests.tables.support import Clock, check_after_game, pass_deadline, play_deal, seat_all, state, template
from tests.wallet.support import wallet

pytestmark = pytest.mark.django_db


def by_name(users):
    return {str(u.pk): u for u in users}


def test_it_plays_a_101_game_to_a_winner_with_a_rejoin__R_POOL_2_R_POOL_4_R_MONEY_3(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    now = state(table)
    assert now.phase is engine.Phase.PLAYING, "a full table starts at once"
    assert now.started == 3
    assert now.prize_pool == 7500
    assert TableEvent.objects.filter(table=table, type="toss").count() == 1  # R-TOSS-1
    assert [wallet(u) for u in users] == [1_000_000 - 2500] * 3

    # Deal 1: alice wrong-shows (80), bob drops first (20), carol wins.
    now = play_deal(table, users, {alice: "wrong", bob: "drop"}, clock)
    scores = {p.name: p.score for p in now.players}
    assert scores == {str(alice.pk): 80, str(bob.pk): 20, str(carol.pk): 0}
    assert now.phase is engine.Phase.BETWEEN
    pass_deadline(table, clock)
    # Deal 2: alice wrong again: 160, eliminated; bob drops (40).
    now = play_deal(table, users, {alice: "wrong", bob: "drop"}, clock)
    assert now.player(str(alice.pk)).status is engine.Status.ELIMINATED
    assert now.rejoin_open == (str(alice.pk),)
    services.rejoin(table.pk, alice, at=clock())  # R-POOL-4: highest remaining (40) + 1
    now = state(table)
    assert now.player(str(alice.pk)).score == 41
    assert now.prize_pool == 10000
    assert wallet(alice) == 1_000_000 - 5000
    assert not now.split_offer, "the rejoin leaves three in: no split"
    pass_deadline(table, clock)
    # Deal 3: alice (121) and bob (120) wrong-show: carol wins the game.
    now = play_deal(table, users, {alice: "wrong", bob: "wrong"}, clock)
    assert now.phase is engine.Phase.FINISHED
    assert now.winner == str(carol.pk)
    assert wallet(carol) == 1_000_000 - 2500 + 9000  # pool 10000 less 10% rake
    assert wallet(alice) == 1_000_000 - 5000
    assert wallet(bob) == 1_000_000 - 2500
    # No rejoin once the game has ended.
    with pytest.raises(GameError) as error:
        services.rejoin(table.pk, bob, at=clock())
    assert error.value.code == "rejoin_not_allowed"
    check_after_game(table, users)
    # Deal history (R-DEAL-5): each deal's seed matches its commitment, every hand kept.
    from games.engine.shuffle import seed_from_hex, verify

    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert [d.number for d in deals] == [1, 2, 3]
    for deal in deals:
        assert verify(deal.commitment, seed_from_hex(deal.seed))
        assert deal.hands.count() == 3


def test_it_splits_when_everyone_accepts__R_POOL_6_R_POOL_8(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    play_deal(table, users, {alice: "wrong", bob: "wrong"}, clock)
    pass_deadline(table, clock)
    now = play_deal(table, users, {alice: "wrong", carol: "wrong"}, clock)
    assert now.player(str(alice.pk)).status is engine.Status.ELIMINATED
    assert not now.rejoin_open, "80 is above the rejoin limit of 79"
    assert now.split_offer
    services.answer_split(table.pk, bob, True, at=clock())
    assert state(table).phase is engine.Phase.BETWEEN
    services.answer_split(table.pk, carol, True, at=clock())
    now = state(table)
    assert now.phase is engine.Phase.FINISHED
    assert dict(now.payouts) == {str(bob.pk): 3375, str(carol.pk): 3375}
    assert wallet(bob) == wallet(carol) == 1_000_000 - 2500 + 3375
    check_after_game(table, users)


def test_it_withdraws_the_split_when_one_declines__R_POOL_6(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    play_deal(table, users, {alice: "wrong", bob: "wrong"}, clock)
    pass_deadline(table, clock)
    play_deal(table, users, {alice: "wrong", carol: "wrong"}, clock)
    services.answer_split(table.pk, bob, False, at=clock())
    assert not state(table).split_offer
    with pytest.raises(GameError) as error:
        services.answer_split(table.pk, carol, True, at=clock())
    assert error.value.code == "no_split_offer"


def test_it_splits_automatically_on_big_tables__R_POOL_7(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(entry_fee=250_000), users, clock, money=10_000_000)
    play_deal(table, users, {alice: "wrong", bob: "wrong"}, clock)
    pass_deadline(table, clock)
    now = play_deal(table, users, {alice: "wrong", carol: "wrong"}, clock)
    assert now.phase is engine.Phase.FINISHED
    assert dict(now.payouts) == {str(bob.pk): 337_500, str(carol.pk): 337_500}
    check_after_game(table, users)


def test_it_ends_a_two_player_game_when_one_keeps_dropping__R_POOL_2(alice, bob):
    clock = Clock()
    users = [alice, bob]
    table = seat_all(template(seats=2, name="101 for two"), users, clock)
    for _ in range(10):
        now = play_deal(table, users, {alice: "drop", bob: "play"}, clock)
        if now.phase is engine.Phase.FINISHED:
            break
        pass_deadline(table, clock)
    assert now.winner == str(bob.pk)
    assert now.player(str(alice.pk)).score >= 101
    assert wallet(bob) == 1_000_000 - 2500 + 4500
    check_after_game(table, users)


def test_it_forfeits_the_fee_of_a_player_who_leaves__R_MONEY_5(alice, bob):
    clock = Clock()
    users = [alice, bob]
    table = seat_all(template(seats=2, name="101 for two"), users, clock)
    services.leave(table.pk, alice, at=clock())
    now = play_deal(table, users, {bob: "play"}, clock)
    assert now.phase is engine.Phase.FINISHED
    assert now.winner == str(bob.pk)
    assert wallet(alice) == 1_000_000 - 2500
    check_after_game(table, users)


def test_it_refunds_a_table_that_never_starts__R_MONEY_4(alice):
    clock = Clock()
    table = seat_all(template(), [alice], clock)
    assert wallet(alice) == 1_000_000 - 2500
    assert state(table).waiting_for == "players"
    pass_deadline(table, clock)
    table.refresh_from_db()
    assert table.status == "cancelled"
    assert wallet(alice) == 1_000_000
    check_after_game(table, [alice])


def test_it_refunds_a_player_who_leaves_before_the_start(alice, bob):
    clock = Clock()
    table = seat_all(template(), [alice, bob], clock)
    assert state(table).waiting_for == "countdown"
    services.leave(table.pk, alice, at=clock())
    assert wallet(alice) == 1_000_000
    assert state(table).waiting_for == "players"
    with pytest.raises(GameError) as error:
        services.join(table.pk, alice, at=clock())
    assert error.value.code == "left_table"


def test_it_starts_after_the_countdown(alice, bob):
    clock = Clock()
    table = seat_all(template(), [alice, bob], clock)
    with pytest.raises(GameError):
        services.start(table.pk, at=clock())  # not yet: the countdown runs
    assert not services.expire(table.pk, state(table) and table.version, at=clock())
    pass_deadline(table, clock)
    assert state(table).phase is engine.Phase.PLAYING


def test_it_refuses_a_full_table_and_a_poor_player(alice, bob, carol):
    clock = Clock()
    tmpl = template(seats=2)
    table = seat_all(tmpl, [alice, bob], clock)
    with pytest.raises(GameError) as error:
        services.join(table.pk, carol, at=clock())
    assert error.value.code in ("table_full", "game_running")
    with pytest.raises(GameError) as error:
        services.play_now(carol, tmpl, at=clock())  # no money
    assert error.value.code == "insufficient_balance"
