"""On PostgreSQL a posting that owns its transaction sends the COMMIT with its write.

Two round trips a posting instead of three (the lock with its reads and the BEGIN; the write
with the COMMIT). Inside a caller's transaction the posting leaves the commit to it, and a
write that fails commits nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.transaction import TransactionManagementError

from hotpath import pgpipe, statements
from tests.conftest import make_user
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401 (fixtures)
from wallet import ledger, providers, sql
from wallet.errors import WalletError
from wallet.ledger import post, user_spec
from wallet.models import Currency, Journal, JournalKind

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: psycopg.pq.TransactionStatus: no transaction open, and one open and working.
IDLE, INTRANS = 0, 2


@pytest.fixture
def sent(monkeypatch: Any) -> list[tuple[list[str], bool, str, int]]:
    """Each round trip of the ledger: its statements' first words, whether it opened the
    transaction, how it ended it ("COMMIT", "ROLLBACK" or "" for neither), and the
    transaction's state right after it."""
    calls: list[tuple[list[str], bool, str, int]] = []
    real = pgpipe.run

    def spy(raw: Any, statements: Any, **flags: bool) -> Any:
        try:
            return real(raw, statements, **flags)
        finally:
            words = [sql.split()[0] for sql, _ in statements]
            end = next((word for word in ("commit", "rollback") if flags.get(word)), "").upper()
            calls.append((words, flags["begin"], end, raw.info.transaction_status))

    monkeypatch.setattr(pgpipe, "run", spy)
    return calls


def transfer(key: str, payer: Any, payee: Any, amount: int) -> Journal:
    return post(key, JournalKind.ADJUSTMENT, [(user_spec(payer.pk), user_spec(payee.pk), amount)])


def adjust(key: str, payer: Any, payee: Any, plan: Any, **options: Any) -> Journal:
    """``ledger.execute`` of an adjustment between two players' wallets, with ``plan``."""
    return ledger.execute(
        key=key,
        kind=JournalKind.ADJUSTMENT,
        currency=Currency.INR,
        accounts=[user_spec(payer.pk), user_spec(payee.pk)],
        meta={},
        plan=plan,
        **options,
    )


def test_a_posting_that_owns_its_transaction_commits_with_its_write(sent):
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10_000)
    transfer("pay:0", alice, bob, 500)  # both accounts exist from here on
    sent.clear()
    journal = transfer("pay:1", alice, bob, 2_500)
    assert sent == [
        (["SELECT", "SELECT"], True, "", INTRANS),  # BEGIN, the lock and the key's read
        (["WITH"], False, "COMMIT", IDLE),  # the write and the COMMIT: nothing left for Django
    ]
    assert wallet(alice) == 7_000
    assert wallet(bob) == 3_000
    assert Journal.objects.get(key="pay:1").pk == journal.pk


def test_inside_a_callers_transaction_the_posting_leaves_the_commit_to_it(sent):
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10_000)
    sent.clear()

    def pay_then_change_its_mind() -> None:
        with transaction.atomic():
            transfer("pay:2", alice, bob, 2_500)
            assert sent[-1] == (["WITH"], False, "", INTRANS)
            raise RuntimeError("the caller changes its mind")

    with pytest.raises(RuntimeError):
        pay_then_change_its_mind()
    assert not Journal.objects.filter(key="pay:2").exists()
    assert wallet(alice) == 10_000


def test_a_write_that_fails_commits_nothing(monkeypatch):
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10_000)
    real = ledger._apply

    def one_account_too_many(*args: Any, **kwargs: Any) -> Any:
        legs, entries, updates = real(*args, **kwargs)
        return legs, entries, [*updates, sql.AccountUpdate(id=10**12, balance=0, version=1, state=0)]

    monkeypatch.setattr(ledger, "_apply", one_account_too_many)
    with pytest.raises(DatabaseError, match="ledger bug: 2 accounts updated"):
        transfer("pay:3", alice, bob, 2_500)
    monkeypatch.undo()
    assert not Journal.objects.filter(key="pay:3").exists()
    assert (wallet(alice), wallet(bob)) == (10_000, 0)
    assert connection.is_usable()
    transfer("pay:3", alice, bob, 2_500)  # the same key, now written once
    assert (wallet(alice), wallet(bob)) == (7_500, 2_500)


# --- the posting's own transaction, without Django's atomic block (statements.transaction) ---


def test_a_refused_posting_rolls_its_own_transaction_back_in_one_round_trip(sent):
    """Nothing to keep: a ROLLBACK, which waits for no flush of the log (a COMMIT of a
    transaction that locked rows does), so the accounts' locks are let go at once."""
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 1_000)
    transfer("pay:0", alice, bob, 500)
    sent.clear()
    with pytest.raises(WalletError) as refused:
        transfer("pay:too-much", alice, bob, 2_500)
    assert refused.value.code == "insufficient_funds"
    assert sent == [
        (["SELECT", "SELECT"], True, "", INTRANS),  # BEGIN, the lock and the key's read
        ([], False, "ROLLBACK", IDLE),  # the ROLLBACK alone (the lock is let go at once)
    ]
    assert not connection.in_atomic_block
    assert connection.get_autocommit()
    assert (wallet(alice), wallet(bob)) == (500, 500)
    transfer("pay:after", alice, bob, 100)  # the connection as it was
    assert (wallet(alice), wallet(bob)) == (400, 600)


def test_a_refused_posting_keeps_no_account_it_created(sent):
    from wallet.models import Account

    alice, carol = make_user("alice"), make_user("carol")
    with pytest.raises(WalletError) as refused:
        transfer("pay:nothing", alice, carol, 100)  # neither has an account yet
    assert refused.value.code == "insufficient_funds"
    assert sent[-1] == ([], False, "ROLLBACK", IDLE)
    assert not Account.objects.filter(ref__in=[f"user:{alice.pk}", f"user:{carol.pk}"]).exists()
    fund(alice, 1_000)  # created when money first moves
    transfer("pay:nothing", alice, carol, 100)  # the refused key was never taken
    assert (wallet(alice), wallet(carol)) == (900, 100)


def test_a_refusal_inside_a_callers_transaction_leaves_it_to_the_caller(sent):
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 1_000)
    with statements.transaction() as own:
        assert own
        transfer("pay:kept", alice, bob, 100)
        with pytest.raises(WalletError):
            transfer("pay:too-much", alice, bob, 5_000)
        assert connection.connection.info.transaction_status == INTRANS  # still the caller's
        transfer("pay:after", alice, bob, 200)
    assert all(end != "ROLLBACK" for _, _, end, _ in sent)
    assert sorted(Journal.objects.filter(key__startswith="pay:").values_list("key", flat=True)) == [
        "pay:after",
        "pay:kept",
    ]
    assert (wallet(alice), wallet(bob)) == (700, 300)


def test_a_retry_is_answered_from_the_ledger_and_its_transaction_rolled_back(sent):
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10_000)
    first = transfer("pay:1", alice, bob, 2_500)
    sent.clear()
    again = transfer("pay:1", alice, bob, 2_500)
    assert (again.pk, again.replayed) == (first.pk, True)
    assert sent == [(["SELECT", "SELECT"], True, "", INTRANS), ([], False, "ROLLBACK", IDLE)]
    assert (wallet(alice), wallet(bob)) == (7_500, 2_500)


def test_an_error_under_the_locks_rolls_the_posting_back_and_the_connection_stays_usable(sent):
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10_000)
    sent.clear()

    def broken_plan(_locks: Any) -> Any:
        raise RuntimeError("a bug in a plan")

    with pytest.raises(RuntimeError):
        adjust("pay:broken", alice, bob, broken_plan)
    assert sent[0] == (["SELECT", "SELECT"], True, "", INTRANS)
    assert all(end == "" for _, _, end, _ in sent)  # then Django's ROLLBACK
    assert connection.connection.info.transaction_status == IDLE
    assert connection.get_autocommit()
    assert not Journal.objects.filter(key="pay:broken").exists()
    transfer("pay:after", alice, bob, 100)
    assert (wallet(alice), wallet(bob)) == (9_900, 100)


def test_inside_its_own_transaction_an_atomic_block_is_a_savepoint_and_on_commit_is_refused():
    """The block's own transaction is one Django manages by hand: an atomic block inside is a
    savepoint of it (its error undoes only its part), and an on_commit hook has nowhere to go."""
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10_000)

    def pay_then_change_its_mind() -> None:
        with statements.transaction(savepoint=True) as inner:
            assert not inner  # part of the outer one
            transfer("pay:undone", alice, bob, 200)
            raise RuntimeError("the inner block changes its mind")

    with statements.transaction() as own:
        assert own
        assert not connection.get_autocommit()
        transfer("pay:kept", alice, bob, 100)
        with pytest.raises(RuntimeError):
            pay_then_change_its_mind()
        with pytest.raises(TransactionManagementError):
            transaction.on_commit(lambda: None)
        assert connection.connection.info.transaction_status == INTRANS
    assert connection.get_autocommit()
    assert connection.connection.info.transaction_status == IDLE
    assert list(Journal.objects.filter(key__startswith="pay:").values_list("key", flat=True)) == ["pay:kept"]
    assert (wallet(alice), wallet(bob)) == (9_900, 100)


def test_a_locking_read_is_built_and_run_inside_its_own_transaction():
    """Django builds a ``FOR UPDATE`` read only inside a transaction it knows of: the block's
    own is one (a first version of it, unknown to Django, failed a process's first deposit)."""
    alice = make_user("alice")
    read = statements.Prepared(
        lambda pk: get_user_model().objects.filter(pk=pk).select_for_update().values_list("pk"), arity=1
    )
    with statements.transaction() as own:
        assert own
        assert list(read.rows(alice.pk)) == [(alice.pk,)]
        assert connection.connection.info.transaction_status == INTRANS
    assert connection.connection.info.transaction_status == IDLE


# --- the cashier's rows written with the journal (wallet.ledger.Then) ---------------------------


def test_a_deposit_is_confirmed_with_its_journal_in_one_round_trip(sent):
    from wallet import cashier
    from wallet.models import Deposit

    alice = make_user("alice")
    fund(alice, 1_000)  # her accounts exist from here on
    deposit = cashier.create_deposit(alice, 2_500, provider=providers.SandboxProvider(confirms_itself=False))
    sent.clear()
    confirmed = cashier.confirm_deposit(deposit.provider_ref)
    assert sent == [
        (["SELECT"], True, "", INTRANS),  # BEGIN and the deposit's lock
        (["SELECT", "SELECT"], False, "", INTRANS),  # the accounts' lock and the key's read
        (["WITH", "UPDATE"], False, "COMMIT", IDLE),  # the write, the deposit confirmed, the COMMIT
    ]
    stored = Deposit.objects.get(pk=deposit.pk)
    assert stored.status == Deposit.Status.CONFIRMED
    assert stored.journal_id == confirmed.journal_id == Journal.objects.get(key=f"deposit:{deposit.pk}").pk
    assert stored.decided_at == confirmed.decided_at
    assert wallet(alice) == 3_500


def test_a_withdrawal_is_inserted_with_its_hold_in_one_round_trip(sent):
    from wallet import cashier
    from wallet.models import Withdrawal

    alice = make_user("alice")  # (her identity verified)
    fund(alice, 1_40_000)
    cashier.request_withdrawal(alice, 40_000, request_key="w0")  # her hold account exists from here on
    sent.clear()
    withdrawal = cashier.request_withdrawal(alice, 40_000, request_key="w1")
    assert sent == [
        # the player's lock, identity, earlier requests and the risk desk's freeze, then the
        # accounts' lock and the key's read, with the BEGIN
        (["SELECT"] * 6, True, "", INTRANS),
        (["WITH", "INSERT"], False, "COMMIT", IDLE),  # the hold's write, the withdrawal, the COMMIT
    ]
    stored = Withdrawal.objects.get(user_id=alice.pk, request_key="w1")
    assert stored.pk == withdrawal.pk
    assert (
        stored.hold_journal_id
        == withdrawal.hold_journal_id
        == Journal.objects.get(key=f"withdrawal_hold:{alice.pk}:w1").pk
    )
    assert (stored.amount, stored.status) == (40_000, Withdrawal.Status.REQUESTED)
    assert wallet(alice) == 60_000
    assert cashier.request_withdrawal(alice, 40_000, request_key="w1").pk == withdrawal.pk  # a double submit


@pytest.mark.parametrize("approve", [True, False])
def test_a_withdrawal_is_decided_with_its_journal_in_one_round_trip(sent, approve):
    from wallet import cashier
    from wallet.models import Withdrawal

    alice, sam = make_user("alice"), make_user("sam", staff=True)
    fund(alice, 1_40_000)
    withdrawal = cashier.request_withdrawal(alice, 40_000, request_key="w1")
    sandbox = providers.SandboxProvider(confirms_itself=False)
    sent.clear()
    if approve:
        decided = cashier.approve_withdrawal(withdrawal.pk, sam, provider=sandbox)
    else:
        decided = cashier.reject_withdrawal(withdrawal.pk, sam, "not today")
    # Once it has committed, an approval's payout is sent and its reference recorded, alone.
    recorded = [(["UPDATE"], False, "", IDLE)] if approve else []
    assert sent == [
        (["SELECT"], True, "", INTRANS),  # BEGIN and the withdrawal's lock
        (["SELECT", "SELECT"], False, "", INTRANS),  # the accounts' lock and the key's read
        (["WITH", "UPDATE"], False, "COMMIT", IDLE),  # the write, the withdrawal decided, the COMMIT
        *recorded,
    ]
    stored = Withdrawal.objects.get(pk=withdrawal.pk)
    key = f"withdrawal_{'paid' if approve else 'released'}:{withdrawal.pk}"
    assert stored.decision_journal_id == decided.decision_journal_id == Journal.objects.get(key=key).pk
    assert stored.status == decided.status == ("paid" if approve else "rejected")
    assert (stored.decided_by_id, stored.decided_at) == (sam.pk, decided.decided_at)
    assert stored.reason == ("" if approve else "not today")
    assert bool(stored.provider_ref) == approve
    assert stored.payout_claimed_at is None
    assert wallet(alice) == (1_00_000 if approve else 1_40_000)


@pytest.mark.parametrize("fast", [True, False])
def test_statements_to_follow_a_write_whose_key_was_taken_fail_it_and_nothing_is_kept(
    monkeypatch, settings, fast
):
    """The key is read free under the lock, then found taken at the write (a caller that did
    not hold the lock it promised): the write fails rather than run the caller's statements
    without their journal, and nothing of the transaction stays."""
    from wallet.models import Deposit

    settings.WALLET_FAST_PATH = fast
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10_000)
    first = transfer("pay:taken", alice, bob, 100)
    real = ledger.lock

    def key_read_free(*args: Any, **kwargs: Any) -> Any:
        locks = real(*args, **kwargs)
        locks.reads[-1] = []  # the key's read says: free
        return locks

    monkeypatch.setattr(ledger, "lock", key_read_free)
    marker = Deposit.objects.create(user=alice, amount=100, provider="sandbox", provider_ref="marker")
    follow = ledger.Then([statements.update_statement(Deposit, marker.pk, {"failure_reason": "ran anyway"})])
    leg = ledger.Leg(f"user:{alice.pk}", f"user:{bob.pk}", 100)

    def post_with_follow() -> None:
        with statements.transaction(savepoint=True) as own:
            adjust(
                "pay:taken",
                alice,
                bob,
                lambda _locks: ledger.Plan([leg]),
                legs_for_hash=[leg],
                then=follow,
                commit=own,
            )

    with pytest.raises((DatabaseError, AssertionError), match="ledger bug: the key taken"):
        post_with_follow()
    assert Deposit.objects.get(pk=marker.pk).failure_reason == ""
    assert Journal.objects.filter(key="pay:taken").get().pk == first.pk
    assert (wallet(alice), wallet(bob)) == (9_900, 100)
    assert connection.is_usable()
