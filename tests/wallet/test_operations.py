"""Game money through the wallet: fees, refunds, prizes, splits, seats and 21-card deals."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.points21 import PlayerResult, settle
from games.engine.pool import split_payouts
from tests.conftest import make_user
from tests.wallet.support import (  # noqa: F401 (fixtures)
    _fast_password_hashing,
    fund,
    journal_count,
    pool,
    posting_path,
    wallet,
)
from wallet import operations as ops
from wallet.errors import WalletError
from wallet.ledger import balance_of, house_spec, seat_spec
from wallet.models import Account, Transfer
from wallet.reconcile import reconcile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("posting_path")]


def house(table_ref: str) -> int:
    return balance_of(house_spec(table_ref))


def join_all(users, pool_ref: str = "pool:1", fee: int = 2500, **kwargs) -> None:
    for user in users:
        fund(user, fee)
        ops.charge_entry_fee(user, pool_ref, fee, **kwargs)


# --- entry and rejoin fees -------------------------------------------------------------------


def test_entry_fees_form_the_prize_pool__R_POOL_1__R_MONEY_2(alice, bob, carol):
    join_all([alice, bob, carol], variant="pool101")

    assert pool("pool:1") == 7500
    assert (wallet(alice), wallet(bob), wallet(carol)) == (0, 0, 0)
    assert house("pool:1") == 0  # R-MONEY-2: no rake on the way in
    assert reconcile() == []


def test_joining_twice_charges_once(alice):
    fund(alice, 10000)
    first = ops.charge_entry_fee(alice, "pool:1", 2500, capacity=6)
    journals = journal_count()

    again = ops.charge_entry_fee(alice, "pool:1", 2500, capacity=6)

    assert again.pk == first.pk
    assert journal_count() == journals
    assert (wallet(alice), pool("pool:1")) == (7500, 2500)


def test_the_last_seat_goes_to_one_player(alice, bob, carol):
    join_all([alice, bob], capacity=2)
    fund(carol, 2500)

    with pytest.raises(WalletError) as refused:
        ops.charge_entry_fee(carol, "pool:1", 2500, capacity=2)

    assert refused.value.code == "pool_full"
    assert (wallet(carol), pool("pool:1")) == (2500, 5000)


def test_a_retried_entry_is_returned_even_when_the_pool_is_now_full(alice, bob):
    join_all([alice, bob], capacity=2)

    assert ops.charge_entry_fee(alice, "pool:1", 2500, capacity=2).replayed


def test_an_entry_needs_the_fee_in_the_wallet(alice):
    fund(alice, 2000)

    with pytest.raises(WalletError) as refused:
        ops.charge_entry_fee(alice, "pool:1", 2500)

    assert refused.value.code == "insufficient_funds"
    assert pool("pool:1") == 0


def test_a_rejoin_pays_the_entry_fee_again_into_the_pool__R_POOL_4(alice, bob, carol):
    join_all([alice, bob, carol])
    fund(bob, 5000)

    first = ops.charge_rejoin_fee(bob, "pool:1", 2500, rejoin_number=1)
    assert ops.charge_rejoin_fee(bob, "pool:1", 2500, rejoin_number=1).pk == first.pk
    ops.charge_rejoin_fee(bob, "pool:1", 2500, rejoin_number=2)  # R-POOL-4: no limit on rejoins

    assert pool("pool:1") == 7500 + 5000
    assert wallet(bob) == 0


def test_only_a_player_of_the_pool_may_rejoin__R_POOL_4(alice, bob, carol):
    join_all([alice, bob])
    fund(carol, 2500)

    with pytest.raises(WalletError) as refused:
        ops.charge_rejoin_fee(carol, "pool:1", 2500, rejoin_number=1)

    assert refused.value.code == "not_in_pool"
    assert wallet(carol) == 2500


# --- refunds, prizes, splits -----------------------------------------------------------------


def test_a_pool_that_never_started_refunds_every_fee_in_full__R_MONEY_4(alice, bob, carol):
    join_all([alice, bob, carol])

    refund = ops.refund_pool("pool:1")

    assert (wallet(alice), wallet(bob), wallet(carol)) == (2500, 2500, 2500)
    assert pool("pool:1") == 0
    assert Account.objects.get(ref="pool:1").closed_at is not None
    assert house("pool:1") == 0
    assert ops.refund_pool("pool:1").pk == refund.pk
    assert ops.charge_entry_fee(alice, "pool:1", 2500).replayed  # a late retry charges nothing
    dave = make_user("dave")
    fund(dave, 2500)
    with pytest.raises(WalletError) as refused:
        ops.charge_entry_fee(dave, "pool:1", 2500)
    assert refused.value.code == "account_closed"
    assert (wallet(alice), wallet(dave)) == (2500, 2500)
    assert reconcile() == []


def test_a_player_who_leaves_before_the_start_gets_the_fee_back_and_frees_the_seat__R_MONEY_4(
    alice, bob, carol
):
    join_all([alice, bob, carol], capacity=3)

    leave = ops.refund_entry(carol, "pool:1")

    assert (wallet(carol), pool("pool:1")) == (2500, 5000)
    assert ops.refund_entry(carol, "pool:1").pk == leave.pk
    assert ops.pool_entrants("pool:1") == [alice.pk, bob.pk]
    dave = make_user("dave")
    join_all([dave], capacity=3)  # the seat carol left is free again
    with pytest.raises(WalletError) as refused:
        ops.pay_winner("pool:1", carol, rake_percent=10)
    assert refused.value.code == "not_in_pool"
    ops.pay_winner("pool:1", dave, rake_percent=10)
    assert (wallet(dave), wallet(carol)) == (6750, 2500)
    assert reconcile() == []


def test_leaving_a_settled_pool_refunds_nothing__R_MONEY_5(alice, bob):
    join_all([alice, bob])
    ops.pay_winner("pool:1", alice, rake_percent=10)

    with pytest.raises(WalletError) as refused:
        ops.refund_entry(bob, "pool:1")

    assert refused.value.code == "account_closed"
    assert wallet(bob) == 0


def test_refunding_a_pool_nobody_joined_just_closes_it():
    refund = ops.refund_pool("pool:77")

    assert refund.transfers.count() == 0
    assert Account.objects.get(ref="pool:77").closed_at is not None


def test_the_winner_gets_the_pool_less_the_rake_once__R_MONEY_3__R_MONEY_2(alice, bob, carol):
    join_all([alice, bob, carol])

    prize = ops.pay_winner("pool:1", bob, rake_percent=10, variant="pool101")

    assert wallet(bob) == 6750
    assert house("pool:1") == 750
    assert pool("pool:1") == 0
    assert ops.pay_winner("pool:1", bob, rake_percent=10, variant="pool101").pk == prize.pk
    assert wallet(bob) == 6750
    with pytest.raises(WalletError) as refused:
        ops.pay_winner("pool:1", carol, rake_percent=10, variant="pool101")
    assert refused.value.code == "idempotency_conflict"
    assert reconcile() == []


def test_the_rake_is_rounded_down_to_the_paisa():
    assert ops.rake_for(999, 10) == 99  # 99.9 paise
    assert ops.rake_for(1000, Decimal("12.5")) == 125
    assert ops.rake_for(1001, Fraction(25, 2)) == 125  # 125.125 paise
    assert ops.rake_for(7500, 0) == 0
    with pytest.raises(WalletError):
        ops.rake_for(1000, 10.0)  # floats are never money


def test_a_player_who_leaves_forfeits_the_entry_fee__R_MONEY_5(alice, bob, carol):
    join_all([alice, bob, carol])
    # carol leaves the running game: the wallet does nothing, her fee stays in the pool.

    ops.pay_winner("pool:1", alice, rake_percent=10)

    assert (wallet(alice), wallet(carol)) == (6750, 0)


def test_only_a_player_of_the_pool_can_win_it(alice, bob, carol):
    join_all([alice, bob])

    with pytest.raises(WalletError) as refused:
        ops.pay_winner("pool:1", carol, rake_percent=10)

    assert refused.value.code == "not_in_pool"
    assert pool("pool:1") == 5000


def test_split_payout_of_the_rules_example__R_POOL_8(players):
    """RULES.md: pool ₹150, entry ₹25, drops 3/1/0 -> ₹75+16.67, ₹25+16.67, ₹16.66."""
    join_all(players)  # 6 × ₹25 = ₹150
    alice, bob, carol = players[:3]

    ops.pay_split_by_drops("pool:1", [alice, bob, carol], [3, 1, 0], entry_fee=2500, rake_percent=0)

    assert (wallet(alice), wallet(bob), wallet(carol)) == (9167, 4167, 1666)
    assert pool("pool:1") == 0
    assert reconcile() == []


def test_split_payout_after_rake__R_POOL_8(players):
    join_all(players)
    alice, bob, carol = players[:3]

    ops.pay_split_by_drops("pool:1", [alice, bob, carol], [3, 1, 0], entry_fee=2500, rake_percent=10)

    shares = split_payouts(prize_pool=13500, entry_fee=2500, drops_left=[3, 1, 0])
    assert (wallet(alice), wallet(bob), wallet(carol)) == shares
    assert sum(shares) + house("pool:1") == 15000
    assert pool("pool:1") == 0


def test_split_shares_must_add_up_to_the_pool_after_rake__R_POOL_8(alice, bob, carol):
    join_all([alice, bob, carol])

    with pytest.raises(WalletError) as refused:
        ops.pay_split("pool:1", [(alice, 3375), (bob, 3374)], rake_percent=10)  # 1 paisa short of 6750

    assert refused.value.code == "split_mismatch"
    assert pool("pool:1") == 7500
    ops.pay_split("pool:1", [(alice, 3375), (bob, 3375)], rake_percent=10)
    assert (wallet(alice), wallet(bob), house("pool:1"), pool("pool:1")) == (3375, 3375, 750, 0)


# The players are created once; each example runs in a transaction that is rolled back.
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.data(),
    fee=st.integers(min_value=1, max_value=500000),
    rake=st.sampled_from([0, 10, 15, Decimal("12.5")]),
)
def test_random_split_payouts_pay_exactly_the_pool__R_POOL_8(players, data, fee, rake):
    remaining = data.draw(st.integers(min_value=2, max_value=6))
    rejoins = data.draw(st.integers(min_value=0, max_value=3))
    drops = data.draw(st.lists(st.integers(min_value=0, max_value=5), min_size=remaining, max_size=remaining))
    with transaction.atomic():
        join_all(players, fee=fee)
        for number in range(1, rejoins + 1):
            fund(players[0], fee)
            ops.charge_rejoin_fee(players[0], "pool:1", fee, rejoin_number=number)
        prize_pool = fee * (len(players) + rejoins)

        ops.pay_split_by_drops("pool:1", players[:remaining], drops, entry_fee=fee, rake_percent=rake)

        paid = [wallet(player) for player in players[:remaining]]
        assert sum(paid) + house("pool:1") == prize_pool
        assert house("pool:1") == ops.rake_for(prize_pool, rake)
        assert pool("pool:1") == 0
        assert reconcile() == []
        transaction.set_rollback(True)


# --- 21-card seats and deals -------------------------------------------------------------------


def test_a_seat_needs_200_points_held_for_the_table__R_21_8(alice):
    fund(alice, 50000)

    with pytest.raises(WalletError) as refused:
        ops.hold_seat(alice, "seat:1", 19999, point_value=100, points=200, table_ref="table:1")
    assert refused.value.code == "below_minimum"

    hold = ops.hold_seat(alice, "seat:1", 20000, point_value=100, points=200, table_ref="table:1")
    assert (wallet(alice), balance_of(seat_spec("seat:1", alice.pk))) == (30000, 20000)
    assert (
        ops.hold_seat(alice, "seat:1", 20000, point_value=100, points=200, table_ref="table:1").pk == hold.pk
    )

    release = ops.release_seat("seat:1")
    assert (wallet(alice), balance_of(seat_spec("seat:1", alice.pk))) == (50000, 0)
    assert ops.release_seat("seat:1").pk == release.pk
    with pytest.raises(WalletError) as refused:
        ops.hold_seat(
            alice, "seat:1", 20000, point_value=100, points=200, table_ref="table:1", meta={"again": True}
        )
    assert refused.value.code in {"idempotency_conflict", "account_closed"}
    assert wallet(alice) == 50000


def test_a_deal_is_settled_with_rake_on_each_winners_gain__R_MONEY_3__R_21_7(alice, bob, carol):
    seats = ["seat:a", "seat:b", "seat:c"]
    for user, seat in zip([alice, bob, carol], seats, strict=True):
        fund(user, 30000)
        ops.hold_seat(user, seat, 30000, point_value=100, points=200, table_ref="table:7")
    # alice wins; bob loses 40, carol loses 80; carol holds value cards worth 30.
    settlement = settle([PlayerResult(winner=True), PlayerResult(loss=40), PlayerResult(loss=80, value=30)])
    assert sum(settlement.net) == 0

    ops.settle_deal("table:7", 1, ops.seat_transfers(settlement, seats), point_value=100, rake_percent=10)

    held = [
        balance_of(seat_spec(seat, user.pk)) for seat, user in zip(seats, [alice, bob, carol], strict=True)
    ]
    gains = [net * 100 for net in settlement.net]
    rakes = [gain * 10 // 100 if gain > 0 else 0 for gain in gains]
    assert held == [30000 + gain - rake for gain, rake in zip(gains, rakes, strict=True)]
    assert house("table:7") == sum(rakes) > 0
    assert sum(held) + house("table:7") == 90000
    assert reconcile() == []


def test_a_deal_is_settled_once(alice, bob):
    for user, seat in ((alice, "seat:a"), (bob, "seat:b")):
        fund(user, 20000)
        ops.hold_seat(user, seat, 20000, point_value=100, points=200, table_ref="table:7")
    journal = ops.settle_deal("table:7", 4, [("seat:b", "seat:a", 25)], point_value=100, rake_percent=10)

    assert (
        ops.settle_deal("table:7", 4, [("seat:b", "seat:a", 25)], point_value=100, rake_percent=10).pk
        == journal.pk
    )
    with pytest.raises(WalletError) as refused:
        ops.settle_deal("table:7", 4, [("seat:b", "seat:a", 26)], point_value=100, rake_percent=10)
    assert refused.value.code == "idempotency_conflict"
    assert balance_of(seat_spec("seat:a", alice.pk)) == 20000 + 2500 - 250


def test_a_seat_is_topped_up_from_the_wallet_once_per_deal__R_21_9(alice):
    fund(alice, 20500)
    ops.hold_seat(alice, "seat:1", 20000, point_value=100, points=200, table_ref="table:1")
    top = ops.top_up_seat(alice, "seat:1", 300, deal_number=1, table_ref="table:1")
    assert (wallet(alice), balance_of(seat_spec("seat:1", alice.pk))) == (200, 20300)
    assert ops.top_up_seat(alice, "seat:1", 300, deal_number=1, table_ref="table:1").pk == top.pk
    assert wallet(alice) == 200, "the same deal's top-up is not taken twice"
    with pytest.raises(WalletError) as refused:
        ops.top_up_seat(alice, "seat:1", 201, deal_number=2, table_ref="table:1")
    assert refused.value.code == "insufficient_funds"
    ops.release_seat("seat:1")
    with pytest.raises(WalletError) as refused:
        ops.top_up_seat(alice, "seat:1", 100, deal_number=3, table_ref="table:1")
    assert refused.value.code == "account_closed"
    assert wallet(alice) == 20500
    assert reconcile() == []


def test_a_seat_cannot_lose_more_than_it_holds(alice, bob):
    for user, seat in ((alice, "seat:a"), (bob, "seat:b")):
        fund(user, 20000)
        ops.hold_seat(user, seat, 20000, point_value=100, points=200, table_ref="table:7")

    with pytest.raises(WalletError) as refused:
        ops.settle_deal("table:7", 1, [("seat:b", "seat:a", 201)], point_value=100, rake_percent=10)

    assert refused.value.code == "insufficient_funds"
    assert not Transfer.objects.filter(journal__kind="deal_settlement").exists()


def test_money_never_moves_between_currencies(alice):
    fund(alice, 5000)
    with pytest.raises(WalletError) as refused:
        ops.charge_entry_fee(alice, "pool:1", 2500, currency="CHIPS")
    assert refused.value.code == "insufficient_funds"
    assert wallet(alice) == 5000


def test_a_deal_is_settled_with_no_read_before_the_lock_and_a_seat_never_held_is_not_found(alice, bob):
    """The seats are locked by their refs alone (their owners are not read first): a settlement
    is the lock and the write (one statement on PostgreSQL's fast path: its legs follow from
    the points), and a seat nobody holds money on is not_found, with nothing written and no
    account created for it."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from wallet import sql

    for user, seat in ((alice, "seat:a"), (bob, "seat:b")):
        fund(user, 20000)
        ops.hold_seat(user, seat, 20000, point_value=100, points=200, table_ref="table:7")
    ops.settle_deal("table:7", 1, [("seat:b", "seat:a", 1)], point_value=100, rake_percent=10)  # house made

    with CaptureQueriesContext(connection) as queries:
        ops.settle_deal("table:7", 2, [("seat:b", "seat:a", 25)], point_value=100, rake_percent=10)
    captured = [
        q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
    ]
    if sql.fast():
        assert captured[0].startswith("SELECT * FROM wallet_post("), captured
    else:
        assert "owner_id" in captured[0], captured
        assert "wallet_account" in captured[0], captured
    assert len(captured) == (1 if sql.fast() else 6), captured  # lock, key read, write(s)
    assert balance_of(seat_spec("seat:a", alice.pk)) == 20000 + 100 - 10 + 2500 - 250

    before = journal_count()
    with pytest.raises(WalletError) as refused:
        ops.settle_deal("table:7", 3, [("seat:zz", "seat:a", 25)], point_value=100, rake_percent=10)
    assert refused.value.code == "not_found"
    assert "seat:zz" in refused.value.message
    assert journal_count() == before
    assert not Account.objects.filter(ref="seat:zz").exists()
