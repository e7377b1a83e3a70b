"""On PostgreSQL a posting that owns its transaction sends the COMMIT with its write.

Two round trips a posting instead of three (the lock with its reads and the BEGIN; the write
with the COMMIT). Inside a caller's transaction the posting leaves the commit to it, and a
write that fails commits nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

import pgpipe
from tests.conftest import make_user
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401 (fixtures)
from wallet import ledger, sql
from wallet.ledger import post, user_spec
from wallet.models import Journal, JournalKind

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: psycopg.pq.TransactionStatus: no transaction open, and one open and working.
IDLE, INTRANS = 0, 2


@pytest.fixture
def sent(monkeypatch: Any) -> list[tuple[list[str], bool, bool, int]]:
    """Each round trip of the ledger: its statements' first words, whether it opened and
    closed the transaction, and the transaction's state right after it."""
    calls: list[tuple[list[str], bool, bool, int]] = []
    real = pgpipe.run

    def spy(raw: Any, statements: Any, **flags: bool) -> Any:
        try:
            return real(raw, statements, **flags)
        finally:
            words = [sql.split()[0] for sql, _ in statements]
            calls.append((words, flags["begin"], flags["commit"], raw.info.transaction_status))

    monkeypatch.setattr(pgpipe, "run", spy)
    return calls


def transfer(key: str, payer: Any, payee: Any, amount: int) -> Journal:
    return post(key, JournalKind.ADJUSTMENT, [(user_spec(payer.pk), user_spec(payee.pk), amount)])


def test_a_posting_that_owns_its_transaction_commits_with_its_write(sent):
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10_000)
    transfer("pay:0", alice, bob, 500)  # both accounts exist from here on
    sent.clear()
    journal = transfer("pay:1", alice, bob, 2_500)
    assert sent == [
        (["SELECT", "SELECT"], True, False, INTRANS),  # BEGIN, the lock and the key's read
        (["WITH"], False, True, IDLE),  # the write and the COMMIT: nothing left for Django
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
            assert sent[-1] == (["WITH"], False, False, INTRANS)
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
