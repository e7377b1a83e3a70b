"""The one write path: wallet.ledger.post, its idempotency, locks, refusals and corrections."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.wallet.support import _fast_password_hashing, fund, posting_path, wallet  # noqa: F401 (fixtures)
from wallet import operations as ops
from wallet import sql
from wallet.errors import WalletError
from wallet.ledger import (
    MAX_AMOUNT,
    Leg,
    balances_of,
    canonical_json,
    cashier_spec,
    content_hash,
    execute,
    house_spec,
    lock,
    pool_spec,
    post,
    reverse,
    user_spec,
    withdrawal_hold_spec,
)
from wallet.models import Account, Currency, Entry, Journal, JournalKind, Transfer
from wallet.reconcile import reconcile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("posting_path")]


def test_it_posts_a_transfer_with_an_entry_on_each_side(alice):
    journal = post("t-1", JournalKind.ADJUSTMENT, [(cashier_spec(alice.pk), user_spec(alice.pk), 2500)])

    transfer = Transfer.objects.get(journal=journal)
    assert (transfer.debit.ref, transfer.credit.ref, transfer.amount) == (
        cashier_spec(alice.pk).ref,
        f"user:{alice.pk}",
        2500,
    )
    entries = list(
        Entry.objects.filter(journal=journal).order_by("id").values_list("amount", "balance_after", "version")
    )
    assert entries == [(-2500, -2500, 1), (2500, 2500, 1)]
    assert wallet(alice) == 2500
    assert Account.objects.get(ref=f"user:{alice.pk}").version == 1
    assert reconcile() == []


def test_it_returns_the_original_journal_for_a_repeated_key(alice, bob):
    fund(alice, 10000)
    first = post(
        "pay-bob", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 3000)], meta={"n": 1}
    )
    journals = Journal.objects.count()

    again = post(
        "pay-bob", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 3000)], meta={"n": 1}
    )

    assert again.pk == first.pk
    assert again.replayed
    assert not first.replayed
    assert Journal.objects.count() == journals
    assert (wallet(alice), wallet(bob)) == (7000, 3000)


def test_it_refuses_a_repeated_key_with_different_content(alice, bob):
    fund(alice, 10000)
    post("pay-bob", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 3000)])

    with pytest.raises(WalletError) as refused:
        post("pay-bob", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 3001)])

    assert refused.value.code == "idempotency_conflict"
    assert "pay-bob" in refused.value.message
    assert (wallet(alice), wallet(bob)) == (7000, 3000)


def test_it_refuses_to_take_a_wallet_below_zero(alice, bob):
    fund(alice, 1000)
    journals = Journal.objects.count()

    with pytest.raises(WalletError) as refused:
        post("too-much", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 1001)])

    assert refused.value.code == "insufficient_funds"
    assert refused.value.message == "Your wallet balance is ₹10.00; this needs ₹10.01."
    assert Journal.objects.count() == journals
    assert wallet(alice) == 1000


def test_only_the_cashier_may_go_below_zero(alice):
    post("in", JournalKind.ADJUSTMENT, [(cashier_spec(alice.pk), user_spec(alice.pk), 500)])

    assert Account.objects.get(ref=cashier_spec(alice.pk).ref).balance == -500
    with pytest.raises(WalletError, match="house"):
        post("house-out", JournalKind.ADJUSTMENT, [(house_spec("pool:1"), user_spec(alice.pk), 1)])


@pytest.mark.parametrize("amount", [0, -500, 12.5, Decimal("12.50"), "1250", True, None, MAX_AMOUNT + 1])
def test_amounts_are_whole_positive_paise__R_MONEY_1(alice, bob, amount):
    with pytest.raises(WalletError) as refused:
        post("bad", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), amount)])

    assert refused.value.code == "bad_amount"
    assert not Journal.objects.exists()


def test_any_characters_may_follow_the_prefix_of_a_ref(alice):
    ref = 'pool:a"b\\c,{d} NULL'
    fund(alice, 5000)

    ops.charge_entry_fee(alice, ref, 2500)
    ops.refund_pool(ref)

    assert Account.objects.get(ref=ref).closed_at is not None
    assert wallet(alice) == 5000
    assert reconcile() == []


def test_a_journal_is_in_one_currency(alice):
    with pytest.raises(WalletError, match="one currency"):
        post(
            "mixed",
            JournalKind.ADJUSTMENT,
            [
                (cashier_spec(alice.pk), user_spec(alice.pk), 100),
                (cashier_spec(alice.pk, Currency.CHIPS), user_spec(alice.pk, Currency.CHIPS), 100),
            ],
        )


def test_an_account_ref_cannot_change_kind(alice):
    post("seed", JournalKind.ADJUSTMENT, [(cashier_spec(alice.pk), user_spec(alice.pk), 100)])
    Account.objects.filter(ref=f"user:{alice.pk}").update(kind="pool")

    with pytest.raises(WalletError) as refused:
        post("again", JournalKind.ADJUSTMENT, [(cashier_spec(alice.pk), user_spec(alice.pk), 100)])

    assert refused.value.code == "wrong_account"


def test_it_locks_the_accounts_in_one_query_in_id_order(alice, bob):
    fund(alice, 100)
    fund(bob, 100)

    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locks = lock(Currency.INR, [user_spec(bob.pk), user_spec(alice.pk)])

    assert sorted(locks) == sorted([f"user:{alice.pk}", f"user:{bob.pk}"])
    (query,) = queries.captured_queries
    assert "ORDER BY id" in query["sql"]
    if connection.vendor == "postgresql":
        assert "FOR UPDATE" in query["sql"]


def test_several_balances_are_read_in_one_query_in_the_order_asked(alice, bob):
    fund(alice, 250)
    fund(bob, 70)
    asked = [
        user_spec(bob.pk),
        withdrawal_hold_spec(alice.pk),  # never used: 0
        user_spec(alice.pk),
        user_spec(alice.pk, Currency.CHIPS),  # another currency: not alice's rupees
    ]
    with CaptureQueriesContext(connection) as queries:
        assert balances_of(*asked) == [70, 0, 250, 0]
    assert len(queries.captured_queries) == 1
    assert balances_of() == []


def test_a_posting_is_three_statements_on_the_fast_path_and_six_on_the_portable_one(alice, bob):
    fund(alice, 10000)
    fund(bob, 10000)

    with CaptureQueriesContext(connection) as queries:
        post("hot", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 100)])

    statements = [
        q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
    ]
    # Both paths: the lock, then the idempotency key's read (one round trip on PostgreSQL).
    # PostgreSQL's fast path: then journal + transfers + entries + balances in one statement.
    # The portable path (SQLite, or PostgreSQL with WALLET_FAST_PATH off): journal, transfers,
    # entries, balances.
    assert len(statements) == (3 if sql.fast() else 6), statements
    assert 'FROM wallet_journal WHERE "key" =' in statements[1]


def test_a_retry_is_answered_from_the_keys_read_with_no_plan_and_no_write(alice, bob):
    """The key is read with the lock: the retry of a posting that went through is the lock and
    that read alone (one round trip on PostgreSQL), and its plan is not even run."""
    fund(alice, 10000)
    first = post("again", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 100)])
    planned = []

    def plan(locks):
        planned.append(locks)
        raise AssertionError("a retry must not plan")

    with CaptureQueriesContext(connection) as queries:
        again = execute(
            key="again",
            kind=JournalKind.ADJUSTMENT,
            currency=Currency.INR,
            accounts=[user_spec(alice.pk), user_spec(bob.pk)],
            meta={},
            plan=plan,
            legs_for_hash=[Leg(f"user:{alice.pk}", f"user:{bob.pk}", 100)],
        )
    assert again.pk == first.pk
    assert again.replayed
    assert planned == []
    statements = [
        q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
    ]
    assert len(statements) == 2, statements
    with pytest.raises(WalletError) as conflict:
        post("again", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 101)])
    assert conflict.value.code == "idempotency_conflict"


def test_a_refused_plan_is_answered_from_the_keys_read_with_no_second_read(alice, bob):
    """A plan refused (the money is not there) after the key was read free with the lock is
    refused as it stands: the lock and that read, and nothing else, reach the database."""
    fund(alice, 100)
    fund(bob, 100)  # both accounts exist: no creation, no second lock
    with CaptureQueriesContext(connection) as queries, pytest.raises(WalletError) as refused:
        post("too-much", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 101)])
    assert refused.value.code == "insufficient_funds"
    statements = [
        q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
    ]
    assert len(statements) == 2, statements
    assert not Journal.objects.filter(key="too-much").exists()


def test_a_refusal_inside_an_outer_transaction_leaves_it_usable(alice, bob):
    fund(alice, 1000)

    with transaction.atomic():
        with pytest.raises(WalletError):
            post("x", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 5000)])
        post("y", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 500)])

    assert (wallet(alice), wallet(bob)) == (500, 500)


def test_a_reversal_moves_every_transfer_back_once(alice, bob, carol, sam):
    for user in (alice, bob, carol):
        fund(user, 5000)
        ops.charge_entry_fee(user, "pool:9", 2500)
    prize = ops.pay_winner("pool:9", bob, rake_percent=10)
    assert wallet(bob) == 2500 + 6750

    correction = reverse(prize, "wrong winner", sam)

    assert correction.reverses_id == prize.pk
    assert correction.kind == JournalKind.REVERSAL
    assert wallet(bob) == 2500
    pool = Account.objects.get(ref="pool:9")
    assert (pool.balance, pool.closed_at) == (7500, None)
    assert reverse(prize, "wrong winner", sam).pk == correction.pk
    corrected = ops.pay_winner("pool:9", carol, rake_percent=10, key="prize:pool:9:corrected")
    assert corrected.pk != prize.pk
    assert wallet(carol) == 2500 + 6750
    assert reconcile() == []


def test_only_staff_reverse_and_a_reversal_is_not_reversed(alice, sam):
    journal = post("in", JournalKind.ADJUSTMENT, [(cashier_spec(alice.pk), user_spec(alice.pk), 500)])

    with pytest.raises(WalletError) as refused:
        reverse(journal, "mistake", alice)
    assert refused.value.code == "not_staff"

    correction = reverse(journal, "mistake", sam)
    with pytest.raises(WalletError, match="cannot itself be reversed"):
        reverse(correction, "undo the undo", sam)
    assert wallet(alice) == 0


def test_a_reversal_never_takes_a_wallet_below_zero(alice, bob, sam):
    journal = post("gift", JournalKind.ADJUSTMENT, [(cashier_spec(alice.pk), user_spec(alice.pk), 500)])
    post("spent", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 400)])

    with pytest.raises(WalletError) as refused:
        reverse(journal, "mistake", sam)

    assert refused.value.code == "insufficient_funds"
    assert wallet(alice) == 100


def _seed(alice) -> Journal:
    return post("seed", JournalKind.ADJUSTMENT, [(cashier_spec(alice.pk), user_spec(alice.pk), 500)])


def test_the_database_refuses_a_negative_wallet(alice):
    _seed(alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(ref=f"user:{alice.pk}").update(balance=-1)


def test_the_database_refuses_a_transfer_of_nothing_or_to_itself(alice):
    journal = _seed(alice)
    account = Account.objects.get(ref=f"user:{alice.pk}")
    cashier = Account.objects.get(ref=cashier_spec(alice.pk).ref)
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(journal=journal, debit=cashier, credit=account, amount=0, currency="INR")
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(journal=journal, debit=account, credit=account, amount=5, currency="INR")


def test_the_database_refuses_a_second_journal_with_the_same_key(alice):
    journal = _seed(alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Journal.objects.create(
            key=journal.key,
            kind="adjustment",
            currency="INR",
            content_hash="x",
            created_at=journal.created_at,
        )


def test_the_database_refuses_two_entries_with_one_version(alice):
    """A lost update (two postings computing the same next version) cannot be stored."""
    journal = _seed(alice)
    entry = Entry.objects.get(journal=journal, amount__gt=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(
            account=entry.account,
            journal=journal,
            transfer=entry.transfer,
            amount=1,
            balance_after=501,
            version=1,
        )


def test_a_closed_pool_holds_nothing_by_constraint(alice):
    _seed(alice)
    with transaction.atomic():
        locks = lock(Currency.INR, [pool_spec("pool:5")])
    assert locks["pool:5"].balance == 0
    Account.objects.filter(ref="pool:5").update(balance=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(ref="pool:5").update(
            balance=10, allow_negative=False, closed_at="2030-01-01T00:00Z"
        )


def test_the_content_hash_of_a_request_never_changes():
    """A retry is recognised by the hash stored with the journal it repeats: the hash of a
    request must stay what every earlier version of the ledger stored (pinned values)."""
    meta = {"pool": "pool:7", "user": 12, "fee": 10000, "capacity": 6, "variant": "101", "note": "ünïcode"}
    legs = [Leg("user:12", "pool:7", 10000)]
    pinned = "f75d578186fc9891003f11f0237dbe21893a63ae595af8c600fc91494c843c8c"
    assert content_hash(JournalKind.ENTRY_FEE, Currency.INR, meta, legs) == pinned
    assert content_hash("entry_fee", "INR", canonical_json(meta), legs) == pinned
    without_legs = "12afc2e952c36266f6aab4e932d3a88e712268e6815c637bae61ab5bfa30ceb0"
    assert content_hash(JournalKind.ENTRY_FEE, Currency.INR, meta) == without_legs
    assert canonical_json({"b": 1, "a": ["ü"]}) == '{"a":["\\u00fc"],"b":1}'
    ascii_meta = {"pool": "pool:7", "user": 12, "fee": 10000, "capacity": 6, "variant": "101"}
    pinned_ascii = "60a168f8ed739ee076d16897889907c57c15ab3d7ab4a9b84891820decbb36f9"
    assert content_hash(JournalKind.ENTRY_FEE, Currency.INR, ascii_meta, legs) == pinned_ascii


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@hypothesis_settings(max_examples=400, deadline=None)
@given(_JSON)
def test_the_canonical_text_is_the_standard_librarys_byte_for_byte(value):
    """Stored hashes were made with ``json.dumps``: however the text is written now, it is that
    text (control characters, DEL, non-ASCII, floats, integers beyond 64 bits, tuples)."""
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    assert canonical_json(value) == expected


def test_the_canonical_text_of_what_orjson_writes_otherwise_is_the_standard_librarys():
    assert canonical_json({"k": "a\x7fb", "n": 2**64}) == '{"k":"a\\u007fb","n":18446744073709551616}'
    assert canonical_json([1.0, 1e16, float("nan")]) == "[1.0,1e+16,NaN]"
    assert canonical_json({"kind": JournalKind.ENTRY_FEE}) == '{"kind":"entry_fee"}'
