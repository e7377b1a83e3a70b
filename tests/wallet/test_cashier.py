"""Money in and out: deposits, withdrawals, limits, and the daily practice chips."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from hotpath import statements
from tests.wallet.support import _fast_password_hashing, posting_path, wallet  # noqa: F401 (fixtures)
from wallet import cashier, providers, sql
from wallet.errors import WalletError
from wallet.ledger import balance_of, cashier_spec, post, user_spec, withdrawal_hold_spec
from wallet.models import Currency, Deposit, Journal, Withdrawal
from wallet.reconcile import reconcile

# Both posting paths: a deposit's confirmation and a withdrawal's insert go with the journal's
# write (wallet.ledger.Then), in its round trip on the fast path and after it on the other.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("posting_path")]


def funded(user, amount: int = 500000) -> None:
    cashier.confirm_deposit(cashier.create_deposit(user, amount).provider_ref)


# --- deposits -------------------------------------------------------------------------------


#: A provider that confirms by a callback later, as a real gateway does (the sandbox confirms
#: its own deposits at once).
LATER = providers.SandboxProvider(confirms_itself=False)


def test_a_pending_deposit_credits_nothing(alice):
    deposit = cashier.create_deposit(alice, 50000, provider=LATER)

    assert deposit.status == Deposit.Status.PENDING
    assert deposit.provider == "sandbox"
    assert wallet(alice) == 0
    assert not Journal.objects.exists()


def test_a_confirmed_deposit_is_credited_exactly_once(alice):
    deposit = cashier.create_deposit(alice, 50000, provider=LATER)

    first = cashier.confirm_deposit(deposit.provider_ref)
    second = cashier.confirm_deposit(deposit.provider_ref)

    assert first.status == second.status == Deposit.Status.CONFIRMED
    assert first.journal_id == second.journal_id
    assert wallet(alice) == 50000
    assert balance_of(cashier_spec(alice.pk)) == -50000
    assert Journal.objects.filter(kind="deposit").count() == 1
    assert reconcile() == []


def test_a_failed_deposit_credits_nothing_and_stays_failed(alice):
    deposit = cashier.create_deposit(alice, 50000, provider=LATER)

    cashier.fail_deposit(deposit.provider_ref, "card declined")

    assert wallet(alice) == 0
    with pytest.raises(WalletError) as refused:
        cashier.confirm_deposit(deposit.provider_ref)
    assert refused.value.code == "already_decided"
    assert wallet(alice) == 0
    assert cashier.fail_deposit(deposit.provider_ref).failure_reason == "card declined"


def test_a_credited_deposit_cannot_fail_afterwards(alice):
    deposit = cashier.create_deposit(alice, 50000)
    cashier.confirm_deposit(deposit.provider_ref)

    with pytest.raises(WalletError) as refused:
        cashier.fail_deposit(deposit.provider_ref)

    assert refused.value.code == "already_decided"
    assert wallet(alice) == 50000


def test_an_unknown_deposit_is_not_found():
    with pytest.raises(WalletError) as refused:
        cashier.confirm_deposit("sandbox-dep-nope")
    assert refused.value.code == "not_found"


@pytest.mark.parametrize(
    ("amount", "code"),
    [
        (0, "bad_amount"),
        (-1000, "bad_amount"),
        (100.0, "bad_amount"),
        ("5000", "bad_amount"),
        (999, "limit_exceeded"),
        (1_00_000_01, "limit_exceeded"),
        (10**30, "bad_amount"),
    ],
)
def test_deposit_amounts_and_limits__R_MONEY_1(alice, amount, code):
    with pytest.raises(WalletError) as refused:
        cashier.create_deposit(alice, amount)

    assert refused.value.code == code
    assert not Deposit.objects.exists()


def test_the_limits_are_settings(alice, settings):
    settings.WALLET_MAX_DEPOSIT = 2000

    with pytest.raises(WalletError, match=r"₹20\.00"):
        cashier.create_deposit(alice, 2001)


# --- withdrawals ----------------------------------------------------------------------------


def test_a_withdrawal_request_holds_the_money(alice):
    funded(alice)

    withdrawal = cashier.request_withdrawal(alice, 200000)

    assert withdrawal.status == Withdrawal.Status.REQUESTED
    assert wallet(alice) == 300000
    assert balance_of(withdrawal_hold_spec(alice.pk)) == 200000


def test_staff_approve_a_withdrawal_once(alice, sam, django_capture_on_commit_callbacks):
    funded(alice)
    withdrawal = cashier.request_withdrawal(alice, 200000)

    with django_capture_on_commit_callbacks(execute=True) as sends:
        paid = cashier.approve_withdrawal(withdrawal.pk, sam)

    assert len(sends) == 1  # the payout, sent once the approval commits (wallet.payouts)

    assert paid.status == Withdrawal.Status.PAID
    assert paid.decided_by == sam
    assert paid.provider_ref.startswith("sandbox-pay-")
    assert balance_of(withdrawal_hold_spec(alice.pk)) == 0
    assert balance_of(cashier_spec(alice.pk)) == -500000 + 200000
    for decide in (
        lambda: cashier.approve_withdrawal(withdrawal.pk, sam),
        lambda: cashier.reject_withdrawal(withdrawal.pk, sam, "changed my mind"),
    ):
        with pytest.raises(WalletError) as refused:
            decide()
        assert refused.value.code == "already_decided"
    assert wallet(alice) == 300000
    assert reconcile() == []


def test_staff_reject_a_withdrawal_and_the_money_comes_back_once(alice, sam):
    funded(alice)
    withdrawal = cashier.request_withdrawal(alice, 200000)

    rejected = cashier.reject_withdrawal(withdrawal.pk, sam, "bank details do not match")

    assert rejected.status == Withdrawal.Status.REJECTED
    assert rejected.reason == "bank details do not match"
    assert wallet(alice) == 500000
    with pytest.raises(WalletError) as refused:
        cashier.approve_withdrawal(withdrawal.pk, sam)
    assert refused.value.code == "already_decided"
    assert wallet(alice) == 500000


def test_only_staff_decide_withdrawals(alice, bob):
    funded(alice)
    withdrawal = cashier.request_withdrawal(alice, 200000)

    with pytest.raises(WalletError) as refused:
        cashier.approve_withdrawal(withdrawal.pk, bob)

    assert refused.value.code == "not_staff"
    assert Withdrawal.objects.get(pk=withdrawal.pk).status == Withdrawal.Status.REQUESTED


def test_a_withdrawal_needs_the_money_in_the_wallet(alice):
    funded(alice, 15000)

    with pytest.raises(WalletError) as refused:
        cashier.request_withdrawal(alice, 15001)

    assert refused.value.code == "insufficient_funds"
    assert not Withdrawal.objects.exists()
    assert wallet(alice) == 15000


@pytest.mark.parametrize(
    ("amount", "code"), [(9999, "limit_exceeded"), (50_000_01, "limit_exceeded"), (0, "bad_amount")]
)
def test_withdrawal_limits(alice, amount, code):
    funded(alice, 1_00_000_00)

    with pytest.raises(WalletError) as refused:
        cashier.request_withdrawal(alice, amount)

    assert refused.value.code == code


def test_a_double_submitted_withdrawal_is_one_withdrawal(alice):
    funded(alice)

    first = cashier.request_withdrawal(alice, 20000, request_key="form-123")
    second = cashier.request_withdrawal(alice, 20000, request_key="form-123")

    assert first.pk == second.pk
    assert wallet(alice) == 480000
    with pytest.raises(WalletError) as refused:
        cashier.request_withdrawal(alice, 30000, request_key="form-123")
    assert refused.value.code == "idempotency_conflict"


# --- chips ----------------------------------------------------------------------------------


def chips(user) -> int:
    return wallet(user, Currency.CHIPS)


def test_chips_are_topped_up_once_a_day(alice, bob):
    morning = datetime(2030, 1, 1, 4, 0, tzinfo=UTC)
    first = cashier.topup_chips(alice, now=morning)
    assert chips(alice) == 10_000_00

    from wallet.ledger import post, user_spec

    post(
        "lost-a-game",
        "adjustment",
        [(user_spec(alice.pk, Currency.CHIPS), user_spec(bob.pk, Currency.CHIPS), 4000_00)],
    )
    again = cashier.topup_chips(alice, now=morning.replace(hour=12))

    assert again.pk == first.pk
    assert chips(alice) == 6000_00
    cashier.topup_chips(alice, now=morning.replace(day=2))
    assert chips(alice) == 10_000_00
    assert wallet(alice) == 0  # chips never touch the rupee wallet


def test_the_chips_day_is_the_calendar_day_in_india(alice, bob):
    """23:59 and 00:01 in Asia/Kolkata are two days, though both are the same UTC day."""
    cashier.topup_chips(alice, now=datetime(2030, 1, 1, 18, 29, tzinfo=UTC))  # 23:59 IST, 1 January
    post(
        "spend", "adjustment", [(user_spec(alice.pk, Currency.CHIPS), user_spec(bob.pk, Currency.CHIPS), 100)]
    )

    cashier.topup_chips(alice, now=datetime(2030, 1, 1, 18, 31, tzinfo=UTC))  # 00:01 IST, 2 January

    assert chips(alice) == 10_000_00
    assert Journal.objects.filter(kind="chips_topup").count() == 2


def test_a_full_chip_stack_is_not_topped_up(alice):
    now = datetime(2030, 1, 1, 4, 0, tzinfo=UTC)
    cashier.topup_chips(alice, now=now)

    with pytest.raises(WalletError) as refused:
        cashier.topup_chips(alice, now=now.replace(day=2))

    assert refused.value.code == "nothing_to_top_up"
    assert chips(alice) == 10_000_00


# --- round trips ----------------------------------------------------------------------------


def sent_batches(monkeypatch) -> list[list[str]]:
    """Each ``statements.execute_many`` call from now on (one round trip on PostgreSQL), as the
    first word of each of its statements."""
    batches: list[list[str]] = []
    real = statements.execute_many

    def spy(batch, **flags):
        batches.append([sql.split()[0] for sql, _ in batch])
        return real(batch, **flags)

    monkeypatch.setattr(statements, "execute_many", spy)
    return batches


def test_a_deposit_is_checked_in_two_round_trips_and_a_withdrawal_in_one(alice, monkeypatch):
    """Money play's checks (the player's row, exclusions and latest move, and fair play's
    self-exclusions of linked accounts), then under the player's lock their deposit limits, then
    the insert; a withdrawal's lock, identity, earlier request and freeze go together, with its
    accounts' lock and its key's read on PostgreSQL's fast path. No query is sent any other way."""
    funded(alice)
    cashier.request_withdrawal(alice, 10000)  # its accounts exist from now on
    batches = sent_batches(monkeypatch)
    with CaptureQueriesContext(connection) as captured:
        cashier.create_deposit(alice, 50000, provider=LATER)
    assert batches == [["SELECT"] * 5, ["SELECT", "SELECT"], ["INSERT"]]
    assert len([q for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]) == 8

    batches.clear()
    with CaptureQueriesContext(connection) as captured:
        cashier.request_withdrawal(alice, 10000)
    checks = ["SELECT"] * 4
    assert batches[0] == ([*checks, "SELECT", "SELECT"] if sql.fast() else checks)
    if sql.fast():  # the portable posting path writes on Django's cursor
        sent = sum(len(batch) for batch in batches)
        assert len([q for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]) == sent
