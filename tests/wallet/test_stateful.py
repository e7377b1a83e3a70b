"""The ledger against a model, step by random step (pgledger's stateful tests, TigerBeetle's auditor).

Each rule calls the wallet and predicts the outcome from a plain-Python model: which refusal,
or which balances move by how much. After every step the database must reconcile (balances
equal their entries, each entry's previous balance + amount = balance after, versions 1, 2, 3
... without gaps, every currency sums to zero, no wallet below zero, settled pools hold
exactly zero) and agree with the model. A retried key must return the original journal and
create nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from games.engine.pool import split_payouts
from tests.wallet.support import _fast_password_hashing, posting_path  # noqa: F401 (fixtures)
from wallet import cashier
from wallet import operations as ops
from wallet.errors import WalletError
from wallet.ledger import balance_of, pool_spec, post, seat_spec, user_spec
from wallet.models import Account, AccountKind, Currency, Journal, JournalKind
from wallet.reconcile import reconcile

RAKE = 10
CAPACITY = 3
POINT_VALUE = 10
CHIPS_TO = 10_000_00
DAY_ONE = datetime(2030, 1, 1, 6, 0, tzinfo=UTC)


@dataclass
class PoolModel:
    fee: int
    balance: int = 0
    closed: bool = False
    entrants: list[int] = field(default_factory=list)
    paid_in: dict[int, int] = field(default_factory=dict)


@dataclass
class SeatModel:
    owner: int
    balance: int = 0
    closed: bool = False


class LedgerMachine(RuleBasedStateMachine):
    users: ClassVar[list[Any]] = []
    staff: ClassVar[Any] = None

    def __init__(self) -> None:
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.wallets = {user.pk: 0 for user in self.users}
        self.chips = {user.pk: 0 for user in self.users}
        self.pools = {f"pool:{i}": PoolModel(fee=(i + 1) * 1000) for i in range(4)}
        self.seats: dict[str, SeatModel] = {}
        self.house = 0
        self.keys: dict[str, str] = {}  # key -> request fingerprint, for predicting replays
        self.history: list[tuple[Callable[[], Journal], int]] = []
        self.deals = 0
        self.serial = 0

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # --- helpers

    def attempt(
        self, key: str, fingerprint: str, call: Callable[[], Journal]
    ) -> tuple[Journal | None, str | None]:
        """Call the wallet; return (journal, None), or (None, refusal code). Checks replays."""
        journals = Journal.objects.count()
        try:
            journal = call()
        except WalletError as error:
            assert Journal.objects.count() == journals, "a refusal wrote a journal"
            return None, error.code
        if key in self.keys:
            assert journal.replayed, f"{key} posted twice"
            assert self.keys[key] == fingerprint
            assert Journal.objects.count() == journals, "a replay wrote a journal"
        else:
            assert not journal.replayed
            self.keys[key] = fingerprint
            self.history.append((call, journal.pk))
        return journal, None

    def expect_refusal(self, code: str | None, expected: str) -> None:
        assert code == expected, f"expected {expected}, got {code}"

    # --- rules

    @rule(who=st.integers(0, 3), amount=st.integers(1000, 200000))
    def deposit(self, who: int, amount: int) -> None:
        user = self.users[who]
        deposit = cashier.create_deposit(user, amount)
        cashier.confirm_deposit(deposit.provider_ref)
        cashier.confirm_deposit(deposit.provider_ref)
        self.wallets[user.pk] += amount

    @rule(who=st.integers(0, 3), which=st.integers(0, 3))
    def join(self, who: int, which: int) -> None:
        user, ref = self.users[who], f"pool:{which}"
        model = self.pools[ref]
        key = f"entry:{ref}:{user.pk}"
        replay = key in self.keys
        journal, code = self.attempt(
            key, "join", lambda: ops.charge_entry_fee(user, ref, model.fee, capacity=CAPACITY)
        )
        if replay:
            assert journal is not None
        elif model.closed:
            self.expect_refusal(code, "account_closed")
        elif len(model.entrants) >= CAPACITY:
            self.expect_refusal(code, "pool_full")
        elif self.wallets[user.pk] < model.fee:
            self.expect_refusal(code, "insufficient_funds")
        else:
            assert code is None
            self.wallets[user.pk] -= model.fee
            model.balance += model.fee
            model.entrants.append(user.pk)
            model.paid_in[user.pk] = model.paid_in.get(user.pk, 0) + model.fee

    @rule(who=st.integers(0, 3), which=st.integers(0, 3), number=st.integers(1, 2))
    def rejoin(self, who: int, which: int, number: int) -> None:
        user, ref = self.users[who], f"pool:{which}"
        model = self.pools[ref]
        key = f"rejoin:{ref}:{user.pk}:{number}"
        replay = key in self.keys
        journal, code = self.attempt(
            key, "rejoin", lambda: ops.charge_rejoin_fee(user, ref, model.fee, rejoin_number=number)
        )
        if replay:
            assert journal is not None
        elif model.closed:
            self.expect_refusal(code, "account_closed")
        elif user.pk not in model.entrants:
            self.expect_refusal(code, "not_in_pool")
        elif self.wallets[user.pk] < model.fee:
            self.expect_refusal(code, "insufficient_funds")
        else:
            assert code is None
            self.wallets[user.pk] -= model.fee
            model.balance += model.fee
            model.paid_in[user.pk] += model.fee

    @rule(who=st.integers(0, 3), which=st.integers(0, 3))
    def leave(self, who: int, which: int) -> None:
        user, ref = self.users[who], f"pool:{which}"
        model = self.pools[ref]
        key = f"leave:{ref}:{user.pk}"
        replay = key in self.keys
        _, code = self.attempt(key, "leave", lambda: ops.refund_entry(user, ref))
        if replay:
            assert code is None
        elif model.closed:
            self.expect_refusal(code, "account_closed")
        elif user.pk not in model.entrants:
            self.expect_refusal(code, "not_in_pool")
        else:
            assert code is None
            paid = model.paid_in.pop(user.pk)
            self.wallets[user.pk] += paid
            model.balance -= paid
            model.entrants.remove(user.pk)

    def _settling(self, known: str | None, fingerprint: str, code: str | None, model: PoolModel) -> bool:
        """Shared outcomes of a payout or a refund; True when the caller must apply a success.

        ``known``: the fingerprint the key was posted with before this call, if any.
        """
        if known is not None:
            if known == fingerprint:
                assert code is None
            else:
                self.expect_refusal(code, "idempotency_conflict")
            return False
        if model.closed:
            self.expect_refusal(code, "account_closed")
            return False
        return True

    @rule(which=st.integers(0, 3), who=st.integers(0, 3))
    def win(self, which: int, who: int) -> None:
        user, ref = self.users[who], f"pool:{which}"
        model, key, fingerprint = self.pools[ref], f"prize:{ref}", f"prize:{user.pk}"
        known = self.keys.get(key)
        _, code = self.attempt(key, fingerprint, lambda: ops.pay_winner(ref, user, rake_percent=RAKE))
        if not self._settling(known, fingerprint, code, model):
            return
        if user.pk not in model.entrants:
            self.expect_refusal(code, "not_in_pool")
            return
        assert code is None
        rake = model.balance * RAKE // 100
        self.wallets[user.pk] += model.balance - rake
        self.house += rake
        model.balance, model.closed = 0, True

    @rule(which=st.integers(0, 3), who=st.sets(st.integers(0, 3), min_size=2, max_size=3), data=st.data())
    def split(self, which: int, who: set[int], data: st.DataObject) -> None:
        ref = f"pool:{which}"
        model = self.pools[ref]
        players = [self.users[i] for i in sorted(who)]
        drops = data.draw(st.lists(st.integers(0, 4), min_size=len(players), max_size=len(players)))
        key, fingerprint = f"split:{ref}", f"split:{[p.pk for p in players]}:{drops}"
        known = self.keys.get(key)
        _, code = self.attempt(
            key,
            fingerprint,
            lambda: ops.pay_split_by_drops(ref, players, drops, entry_fee=model.fee, rake_percent=RAKE),
        )
        if not self._settling(known, fingerprint, code, model):
            return
        if any(player.pk not in model.entrants for player in players):
            self.expect_refusal(code, "not_in_pool")
            return
        assert code is None
        rake = model.balance * RAKE // 100
        shares = split_payouts(prize_pool=model.balance - rake, entry_fee=model.fee, drops_left=drops)
        for player, share in zip(players, shares, strict=True):
            self.wallets[player.pk] += share
        self.house += rake
        model.balance, model.closed = 0, True

    @rule(which=st.integers(0, 3))
    def refund(self, which: int) -> None:
        ref = f"pool:{which}"
        model, key = self.pools[ref], f"refund:{ref}"
        known = self.keys.get(key)
        _, code = self.attempt(key, "refund", lambda: ops.refund_pool(ref))
        if not self._settling(known, "refund", code, model):
            return
        assert code is None
        for uid, paid in model.paid_in.items():
            self.wallets[uid] += paid
        model.balance, model.closed = 0, True

    @rule(
        payer=st.integers(0, 3),
        payee=st.integers(0, 3),
        amount=st.one_of(st.integers(1, 50000), st.sampled_from(["all", "one more"])),
    )
    def transfer(self, payer: int, payee: int, amount: int | str) -> None:
        if payer == payee:
            return
        a, b = self.users[payer], self.users[payee]
        if isinstance(amount, str):  # the boundary: the whole wallet, or one paisa more
            amount = self.wallets[a.pk] + (amount == "one more")
            if amount == 0:
                return
        self.serial += 1
        key = f"transfer:{self.serial}"
        _, code = self.attempt(
            key,
            "transfer",
            lambda: post(key, JournalKind.ADJUSTMENT, [(user_spec(a.pk), user_spec(b.pk), amount)]),
        )
        if self.wallets[a.pk] < amount:
            self.expect_refusal(code, "insufficient_funds")
        else:
            assert code is None
            self.wallets[a.pk] -= amount
            self.wallets[b.pk] += amount

    @rule(who=st.integers(0, 3), amount=st.integers(10000, 100000), approve=st.booleans())
    def withdraw(self, who: int, amount: int, approve: bool) -> None:
        user = self.users[who]
        try:
            withdrawal = cashier.request_withdrawal(user, amount)
        except WalletError as error:
            assert self.wallets[user.pk] < amount
            self.expect_refusal(error.code, "insufficient_funds")
            return
        self.wallets[user.pk] -= amount
        if approve:
            cashier.approve_withdrawal(withdrawal.pk, self.staff)
        else:
            cashier.reject_withdrawal(withdrawal.pk, self.staff, "model says no")
            self.wallets[user.pk] += amount
        with pytest.raises(WalletError, match="already"):
            cashier.approve_withdrawal(withdrawal.pk, self.staff)

    @rule(who=st.integers(0, 3), day=st.integers(0, 2))
    def chips(self, who: int, day: int) -> None:
        user = self.users[who]
        moment = DAY_ONE + timedelta(days=day)
        key = f"chips_topup:{user.pk}:{moment.date().isoformat()}"
        replay = key in self.keys
        _, code = self.attempt(key, "chips", lambda: cashier.topup_chips(user, now=moment))
        if replay:
            assert code is None
        elif self.chips[user.pk] >= CHIPS_TO:
            self.expect_refusal(code, "nothing_to_top_up")
        else:
            assert code is None
            self.chips[user.pk] = CHIPS_TO

    @rule(who=st.integers(0, 3), spend=st.integers(1, 5000_00))
    def lose_chips(self, who: int, spend: int) -> None:
        user, other = self.users[who], self.users[(who + 1) % 4]
        if self.chips[user.pk] < spend:
            return
        self.serial += 1
        post(
            f"chips-game:{self.serial}",
            JournalKind.ADJUSTMENT,
            [(user_spec(user.pk, Currency.CHIPS), user_spec(other.pk, Currency.CHIPS), spend)],
        )
        self.chips[user.pk] -= spend
        self.chips[other.pk] += spend

    @rule(who=st.integers(0, 3), points=st.integers(200, 400))
    def hold_seat(self, who: int, points: int) -> None:
        user = self.users[who]
        self.serial += 1
        ref, amount = f"seat:{self.serial}", points * POINT_VALUE
        _, code = self.attempt(
            f"seat_hold:{ref}",
            "hold",
            lambda: ops.hold_seat(
                user, ref, amount, point_value=POINT_VALUE, points=200, table_ref="table:1"
            ),
        )
        if self.wallets[user.pk] < amount:
            self.expect_refusal(code, "insufficient_funds")
            return
        assert code is None
        self.wallets[user.pk] -= amount
        self.seats[ref] = SeatModel(owner=user.pk, balance=amount)

    @precondition(lambda self: sum(not seat.closed for seat in self.seats.values()) >= 2)
    @rule(data=st.data())
    def settle_deal(self, data: st.DataObject) -> None:
        open_seats = sorted(ref for ref, seat in self.seats.items() if not seat.closed)
        pairs = data.draw(
            st.lists(
                st.tuples(
                    st.sampled_from(open_seats), st.sampled_from(open_seats), st.integers(0, 250)
                ).filter(lambda t: t[0] != t[1]),
                min_size=1,
                max_size=4,
            )
        )
        self.deals += 1
        deal = self.deals  # the retry rule calls the lambda again later: bind the number now
        key = f"deal:table:1:{deal}"
        _, code = self.attempt(
            key,
            "deal",
            lambda: ops.settle_deal("table:1", deal, pairs, point_value=POINT_VALUE, rake_percent=RAKE),
        )
        net: dict[str, int] = {}
        for payer, payee, points in pairs:
            net[payer] = net.get(payer, 0) - points * POINT_VALUE
            net[payee] = net.get(payee, 0) + points * POINT_VALUE
        if any(self.seats[ref].balance + change < 0 for ref, change in net.items()):
            self.expect_refusal(code, "insufficient_funds")
            return
        assert code is None
        for ref, change in net.items():
            rake = change * RAKE // 100 if change > 0 else 0
            self.seats[ref].balance += change - rake
            self.house += rake

    @precondition(lambda self: any(not seat.closed for seat in self.seats.values()))
    @rule(data=st.data())
    def release_seat(self, data: st.DataObject) -> None:
        ref = data.draw(st.sampled_from(sorted(ref for ref, seat in self.seats.items() if not seat.closed)))
        _, code = self.attempt(f"seat_release:{ref}", "release", lambda: ops.release_seat(ref))
        assert code is None
        seat = self.seats[ref]
        self.wallets[seat.owner] += seat.balance
        seat.balance, seat.closed = 0, True

    @precondition(lambda self: bool(self.history))
    @rule(data=st.data())
    def retry(self, data: st.DataObject) -> None:
        call, journal_id = data.draw(st.sampled_from(self.history))
        journals = Journal.objects.count()

        again = call()

        assert again.pk == journal_id
        assert again.replayed
        assert Journal.objects.count() == journals

    # --- invariants

    @invariant()
    def the_ledger_reconciles(self) -> None:
        assert reconcile() == []

    @invariant()
    def the_balances_are_the_models(self) -> None:
        for user in self.users:
            assert balance_of(user_spec(user.pk)) == self.wallets[user.pk]
            assert balance_of(user_spec(user.pk, Currency.CHIPS)) == self.chips[user.pk]
        for ref, model in self.pools.items():
            assert balance_of(pool_spec(ref)) == model.balance
        for ref, seat in self.seats.items():
            assert balance_of(seat_spec(ref, seat.owner)) == seat.balance
        house = Account.objects.filter(kind=AccountKind.HOUSE, currency=Currency.INR).values_list(
            "balance", flat=True
        )
        assert sum(house) == self.house

    @invariant()
    def a_settled_pool_is_exactly_zero(self) -> None:
        for ref, model in self.pools.items():
            if model.closed:
                account = Account.objects.get(ref=ref)
                assert account.closed_at is not None
                assert account.balance == 0


@pytest.mark.django_db
@pytest.mark.usefixtures("posting_path")
def test_the_ledger_keeps_its_invariants_through_random_operations(players, sam):
    """R-MONEY-1..5, R-POOL-4, R-POOL-8, R-21-8 under random sequences of operations."""
    LedgerMachine.users = players[:4]
    LedgerMachine.staff = sam
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(
            max_examples=40,
            stateful_step_count=35,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        ),
    )
