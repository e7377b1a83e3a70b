"""Whole pool games through the service layer (R-POOL-*, R-MONEY-*, R-TOSS-*)."""

from __future__ import annotations

import pytest

from games import services
from games.engine import table as engine
from games.errors import GameError
from games.models import Deal, TableEvent
from games.views_state import table_view
from tests.conftest import make_user
from tests.tables.support import (
    Clock,
    check_after_game,
    check_so_far,
    declare,
    draw_discard,
    in_turn_order,
    pass_deadline,
    play_deal,
    rig,
    scores,
    scripted,
    seat_all,
    show,
    state,
    template,
)
from tests.wallet.support import fund, pool, wallet
from wallet import reports
from wallet.ledger import balance_of, house_spec
from wallet.models import Transfer

pytestmark = pytest.mark.django_db

MONEY = 1_000_000


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def by_name(users):
    return {str(u.pk): u for u in users}


def test_it_plays_a_101_game_to_a_winner_with_a_rejoin__R_POOL_2_R_POOL_4_R_MONEY_2_R_MONEY_3(
    alice, bob, carol
):
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
    assert pool(table.pool_ref) == 10000, "R-MONEY-2: every entry and rejoin fee is in the pool"
    assert balance_of(house_spec(table.pool_ref)) == 0, "no rake before the pool is paid out"
    now = play_deal(table, users, {alice: "wrong", bob: "wrong"}, clock)
    assert now.phase is engine.Phase.FINISHED
    assert now.winner == str(carol.pk)
    assert wallet(carol) == 1_000_000 - 2500 + 9000  # pool 10000 less 10% rake
    assert balance_of(house_spec(table.pool_ref)) == 1000, "the rake, taken once"
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
    check_so_far(table, users)


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


def refunds(user) -> list[str]:
    """The refund lines of ``user``'s statement, in the words the wallet page shows."""
    return [line.words for line in reports.statement(user.pk) if line.kind == "refund"]


def test_it_refunds_a_table_that_never_starts__R_MONEY_4(alice, bob):
    """Bob sits and leaves again (refunded at once); alice waits alone until the table gives up
    (10 minutes after it last emptied): every fee comes back in full, the pool closes at 0."""
    clock = Clock()
    table = seat_all(template(), [alice], clock)
    assert wallet(alice) == 1_000_000 - 2500
    fund(bob, MONEY)
    services.join(table.pk, bob, at=clock())
    assert state(table).waiting_for == "countdown"
    services.leave(table.pk, bob, at=clock())
    assert state(table).waiting_for == "players"
    assert state(table).deadline_ms == state(table).opened_ms + 600_000
    pass_deadline(table, clock)
    table.refresh_from_db()
    assert table.status == "cancelled"
    assert wallet(alice) == wallet(bob) == 1_000_000
    check_after_game(table, [alice, bob])
    # Each statement says why the fee came back.
    assert refunds(alice) == ["Entry fee back: the game was cancelled before it started"]
    assert refunds(bob) == ["Entry fee back: you left before the game started"]


def test_a_voided_game_is_on_the_statement_as_voided__R_MONEY_7(alice, bob):
    clock = Clock()
    table = seat_all(template(), [alice, bob], clock)
    pass_deadline(table, clock)
    assert state(table).phase is engine.Phase.PLAYING
    services.void(table.pk, "a fault at the table", at=clock())
    assert wallet(alice) == wallet(bob) == 1_000_000
    assert refunds(alice) == refunds(bob) == ["Fees back: the game was voided by the staff"]


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
    check_so_far(table, [alice, bob])


def test_it_starts_after_the_countdown(alice, bob):
    clock = Clock()
    table = seat_all(template(), [alice, bob], clock)
    with pytest.raises(GameError):
        services.start(table.pk, at=clock())  # not yet: the countdown runs
    assert not services.expire(table.pk, state(table) and table.version, at=clock())
    pass_deadline(table, clock)
    assert state(table).phase is engine.Phase.PLAYING
    check_so_far(table, [alice, bob])


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
    check_so_far(table, [alice, bob, carol])


def test_it_pools_every_entry_fee_of_up_to_six_players__R_POOL_1_R_MONEY_2_R_MONEY_3(players, sam):
    """Six players pay 2500 each: a pool of 15000, held until the game ends; a seventh cannot
    sit. Five wrong shows twice eliminate everyone but one, who gets 15000 less 10%."""
    clock = Clock()
    table = seat_all(template(seats=6, name="101 for six"), players, clock)
    now = state(table)
    assert (now.phase, now.started, now.prize_pool) == (engine.Phase.PLAYING, 6, 15000)
    assert pool(table.pool_ref) == 15000
    seventh = make_user("grace")  # a player: staff may not sit at money tables at all
    fund(seventh, MONEY)
    with pytest.raises(GameError) as error:
        services.join(table.pk, seventh, at=clock())
    assert error.value.code in ("table_full", "game_running")
    winner = players[2]
    plan = {user: "wrong" for user in players if user != winner}
    play_deal(table, players, plan, clock)
    pass_deadline(table, clock)
    now = play_deal(table, players, plan, clock)
    assert (now.phase, now.winner) == (engine.Phase.FINISHED, str(winner.pk))
    assert wallet(winner) == MONEY - 2500 + 13500
    assert [wallet(u) for u in players if u != winner] == [MONEY - 2500] * 5
    assert balance_of(house_spec(table.pool_ref)) == 1500
    check_after_game(table, players)


# 7C cut: the 7s and the printed joker are jokers; none of these hands holds one.
INVALID = "AS 2S 3S QC QS QH QD JC JS JH TC TS TH"
"""One pure sequence and sets, no second sequence: a wrong show (R-DECL-2)."""
INVALID_GROUPS = "AS 2S 3S | QC QS QH QD | JC JS JH | TC TS TH"
NO_PURE = "KS QH JD 9C 8S 6D 5C 4S 3H 2D AH TC 9H"
"""96 points with no pure sequence: the full count."""
DECLARER = "AS 2S 3S 4H 5H 6H 8D 9D TD JD KC KS KH"
DECLARATION = "AS 2S 3S | 4H 5H 6H | 8D 9D TD JD | KC KS KH"


@pytest.mark.parametrize(
    ("variant", "first_drop", "middle_drop", "full"),
    [("pool101", 20, 40, 80), ("pool201", 25, 50, 80), ("pool61", 15, 30, 60)],
)
def test_it_scores_drops_wrong_shows_and_the_full_count_per_variant__R_POOL_3(
    alice, bob, carol, variant, first_drop, middle_drop, full
):
    """Deal 1: a first drop and a middle drop. Deal 2: a wrong show, and a loser with no pure
    sequence whose 96 points are capped at the full count (60 in 61 pool: Decision)."""
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(variant=variant, name=variant), users, clock)
    first, second, third = in_turn_order(table, users)
    services.act(table.pk, first, {"type": "drop"}, at=clock())
    draw_discard(table, second, clock)
    draw_discard(table, third, clock)
    services.act(table.pk, second, {"type": "drop"}, at=clock())
    assert scores(table) == {str(first.pk): first_drop, str(second.pk): middle_drop, str(third.pk): 0}
    pass_deadline(table, clock)

    wrong, loser, winner = in_turn_order(table, users)
    rig(table, {wrong: INVALID, loser: NO_PURE, winner: DECLARER}, cut="7C", closed_top=["4D", "QC", "2H"])
    declare(table, wrong, "4D", INVALID_GROUPS, clock)
    draw_discard(table, loser, clock)
    declare(table, winner, "2H", DECLARATION, clock)
    show(table, loser, "", clock)
    assert scores(table) == {str(wrong.pk): full, str(loser.pk): full, str(winner.pk): 0}
    check_so_far(table, users)


def test_it_closes_the_rejoin_window_when_it_expires__R_POOL_4_R_POOL_5(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    play_deal(table, users, {alice: "wrong", bob: "drop"}, clock)
    table.refresh_from_db()
    drops = {p["player"]: p["drops_left"] for p in table_view(table, alice)["players"]}
    # R-POOL-5: floor((101 - 1 - score) / 20) at 80, 20 and 0.
    assert drops == {str(alice.pk): 1, str(bob.pk): 4, str(carol.pk): 5}
    pass_deadline(table, clock)
    now = play_deal(table, users, {alice: "wrong", bob: "drop"}, clock)
    assert now.rejoin_open == (str(alice.pk),)
    assert now.deadline_ms == now.since_ms + 20_000
    assert pass_deadline(table, clock)  # nobody rejoined in time
    closed = TableEvent.objects.get(table=table, type="decisions_closed").data
    assert closed["rejoin_missed"] == [str(alice.pk)]
    now = state(table)
    assert now.phase is engine.Phase.PLAYING
    assert set(now.deal.players) == {str(bob.pk), str(carol.pk)}
    with pytest.raises(GameError) as error:
        services.rejoin(table.pk, alice, at=clock())
    assert error.value.code == "rejoin_not_allowed"
    assert wallet(alice) == MONEY - 2500
    assert now.prize_pool == 7500
    check_so_far(table, users)


def test_it_plays_on_after_a_declined_split_to_a_winner__R_POOL_6_R_POOL_2(alice, bob, carol):
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    play_deal(table, users, {alice: "wrong", bob: "wrong"}, clock)
    pass_deadline(table, clock)
    play_deal(table, users, {alice: "wrong", carol: "wrong"}, clock)  # alice out; 80 and 80
    assert state(table).split_offer
    services.answer_split(table.pk, carol, True, at=clock())
    services.answer_split(table.pk, bob, False, at=clock())
    now = state(table)
    assert (now.split_offer, now.waiting_for) == (False, "pause")
    assert pass_deadline(table, clock)
    assert state(table).deal_number == 3, "the game goes on"
    now = play_deal(table, users, {bob: "drop"}, clock)  # bob 100 (0 drops), carol 80 (1 drop)
    assert now.split_offer, "offered again after the next deal"
    assert pass_deadline(table, clock)  # nobody answers: the offer lapses
    now = play_deal(table, users, {bob: "drop"}, clock)  # bob 120: eliminated
    assert (now.phase, now.winner) == (engine.Phase.FINISHED, str(carol.pk))
    assert wallet(carol) == MONEY - 2500 + 6750
    check_after_game(table, users)


def test_it_splits_automatically_by_drops_remaining__R_POOL_7_R_POOL_8(alice, bob, carol):
    """Entry ₹2500 (above ₹2000): after deal 3, alice is out and bob (100: 0 drops) and carol
    (80: 1 drop) both have 0 or 1 drop left. The prize 750000 - 10% = 675000 is paid by first
    equalising drops, carol 1 x 250000, then sharing the rest: 212500 and 462500."""
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(entry_fee=250_000), users, clock, money=10_000_000)
    play_deal(table, users, {alice: "wrong", bob: "drop"}, clock)
    pass_deadline(table, clock)
    play_deal(table, users, {bob: "wrong", alice: "drop"}, clock)
    pass_deadline(table, clock)
    assert not state(table).rejoin_open, "no rejoin at ₹2000 and above"
    now = play_deal(table, users, {alice: "wrong", carol: "wrong"}, clock)
    assert {p.name: p.score for p in now.players} == {str(alice.pk): 180, str(bob.pk): 100, str(carol.pk): 80}
    assert now.phase is engine.Phase.FINISHED
    assert dict(now.payouts) == {str(bob.pk): 212_500, str(carol.pk): 462_500}
    assert wallet(bob) == 10_000_000 - 250_000 + 212_500
    assert wallet(carol) == 10_000_000 - 250_000 + 462_500
    assert balance_of(house_spec(table.pool_ref)) == 75_000
    check_after_game(table, users)


def test_it_pays_a_split_in_whole_paise_adding_up_to_the_pool__R_POOL_8_R_MONEY_1(alice, bob, carol):
    """Entry 2501 paise: pool 7503, rake 750 (floored), prize 6753 shared by two equal players:
    3377 to the first in seat order and 3376 to the other."""
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(entry_fee=2501), users, clock)
    play_deal(table, users, {alice: "wrong", bob: "wrong"}, clock)
    pass_deadline(table, clock)
    now = play_deal(table, users, {alice: "wrong", carol: "wrong"}, clock)
    services.answer_split(table.pk, bob, True, at=clock())
    services.answer_split(table.pk, carol, True, at=clock())
    now = state(table)
    first_seated = now.remaining[0].name
    payouts = dict(now.payouts)
    assert payouts[first_seated] == 3377
    assert sorted(payouts.values()) == [3376, 3377]
    assert sum(payouts.values()) + balance_of(house_spec(table.pool_ref)) == 7503
    assert all(isinstance(t.amount, int) for t in Transfer.objects.all())
    check_after_game(table, users)


def test_it_keeps_the_fee_of_a_player_who_leaves_mid_game_in_the_pool__R_MONEY_5(alice, bob, carol):
    """Alice leaves during deal 1: she is dropped when her turn comes and is out of the game;
    her fee stays in the pool, and the winner of the two others gets all three fees less 10%."""
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    services.leave(table.pk, alice, at=clock())
    now = state(table)
    assert now.player(str(alice.pk)).status is engine.Status.LEFT
    assert (now.prize_pool, pool(table.pool_ref)) == (7500, 7500)
    for _ in range(6):
        now = play_deal(table, users, {bob: "wrong"}, clock)
        if now.phase is engine.Phase.FINISHED:
            break
        pass_deadline(table, clock)
    assert (now.phase, now.winner) == (engine.Phase.FINISHED, str(carol.pk))
    dropped = TableEvent.objects.filter(table=table, type="dropped", data__player=str(alice.pk))
    assert dropped.count() == 1
    assert wallet(carol) == MONEY - 2500 + 6750
    assert wallet(alice) == wallet(bob) == MONEY - 2500
    check_after_game(table, users)
