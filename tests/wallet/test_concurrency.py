"""Real concurrency on PostgreSQL: threads with their own connections racing on the ledger."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError, connection, transaction

from tests.conftest import make_user
from tests.wallet.support import _fast_password_hashing, fund, pool, posting_path, wallet  # noqa: F401 (fixtures)
from wallet import operations as ops
from wallet import sql
from wallet.errors import WalletError
from wallet.ledger import post, user_spec
from wallet.models import Journal, JournalKind
from wallet.reconcile import reconcile

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("posting_path"),
]


def race(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released together; return results or exceptions."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = work(index)
        except Exception as error:  # returned to the test, which asserts on it
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread hung (deadlock?)"
    return results


def test_of_many_players_racing_for_the_last_seat_exactly_one_is_charged():
    seated = [make_user(f"seated{i}") for i in range(5)]
    racers = [make_user(f"racer{i}") for i in range(8)]
    for user in seated + racers:
        fund(user, 2500)
    for user in seated:
        ops.charge_entry_fee(user, "pool:1", 2500, capacity=6)

    results = race(len(racers), lambda i: ops.charge_entry_fee(racers[i], "pool:1", 2500, capacity=6))

    charged = [r for r in results if isinstance(r, Journal)]
    refused = [r for r in results if isinstance(r, WalletError)]
    assert len(charged) == 1, results
    assert [r.code for r in refused] == ["pool_full"] * 7
    assert pool("pool:1") == 6 * 2500
    assert sorted(wallet(user) for user in racers) == [0] + [2500] * 7
    assert reconcile() == []


def test_the_same_key_sent_at_once_makes_one_journal():
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10000)

    results = race(
        8,
        lambda i: post(
            "double-click", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 3000)]
        ),
    )

    assert all(isinstance(r, Journal) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert sum(not r.replayed for r in results) == 1
    assert Journal.objects.filter(key="double-click").count() == 1
    assert (wallet(alice), wallet(bob)) == (7000, 3000)


def test_the_same_entry_sent_at_once_charges_once():
    alice = make_user("alice")
    fund(alice, 10000)

    results = race(6, lambda i: ops.charge_entry_fee(alice, "pool:1", 2500, capacity=6))

    assert len({r.pk for r in results}) == 1, results
    assert (wallet(alice), pool("pool:1")) == (7500, 2500)


def test_transfers_in_opposite_directions_at_once_do_not_deadlock():
    users = [make_user(name) for name in ("alice", "bob", "carol")]
    for user in users:
        fund(user, 100000)
    rounds = 60

    def shuffle_money(index: int) -> int:
        # Even threads pay alice->bob->carol, odd threads carol->bob->alice: journals that
        # touch the same three accounts in opposite orders at the same time.
        a, b, c = users if index % 2 == 0 else users[::-1]
        for n in range(rounds):
            post(
                f"t{index}-{n}",
                JournalKind.ADJUSTMENT,
                [(user_spec(a.pk), user_spec(b.pk), 100), (user_spec(b.pk), user_spec(c.pk), 50)],
            )
        return rounds

    results = race(4, shuffle_money)

    assert results == [rounds] * 4, results
    assert sum(wallet(user) for user in users) == 300000
    # Each round of an even and an odd thread: alice -100 +50, bob +50 +50, carol +50 -100.
    assert [wallet(user) for user in users] == [100000 - 6000, 100000 + 12000, 100000 - 6000]
    assert reconcile() == []


def _pay(alice: Any, bob: Any, key: str, *, in_callers_transaction: bool) -> Journal:
    def pay() -> Journal:
        return post(key, JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 3000)])

    if not in_callers_transaction:
        return pay()
    with transaction.atomic():  # the caller's transaction: the posting leaves the commit to it
        return pay()


def _around_the_write(monkeypatch: Any, around: Callable[..., Any]) -> None:
    """Run ``around(real, *args, **kwargs)`` in place of the ledger's write: ``sql.write`` after
    the lock, or ``sql.post_once``, which locks and writes in one statement (a posting of known
    legs that owns its transaction)."""
    for name in ("write", "post_once"):
        real = getattr(sql, name)
        monkeypatch.setattr(sql, name, lambda *args, real=real, **kwargs: around(real, *args, **kwargs))


def _committed_with_the_write(in_callers_transaction: bool) -> bool:
    """Whether the write carried the COMMIT (PostgreSQL's fast path, owning the transaction)."""
    return sql.fast() and not in_callers_transaction


@pytest.mark.parametrize("in_callers_transaction", [False, True])
def test_a_crash_after_the_write_leaves_nothing_or_the_whole_posting(monkeypatch, in_callers_transaction):
    """A crash after the write and before the commit leaves nothing. When the write carried
    the COMMIT there is no such moment: the posting is whole, and its retry answers it."""
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10000)

    def write_then_fail(real_write: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        real_write(*args, **kwargs)
        raise RuntimeError("crash right after the write")

    _around_the_write(monkeypatch, write_then_fail)
    with pytest.raises(RuntimeError):
        _pay(alice, bob, "doomed", in_callers_transaction=in_callers_transaction)
    monkeypatch.undo()

    if _committed_with_the_write(in_callers_transaction):
        assert Journal.objects.filter(key="doomed").count() == 1
        assert (wallet(alice), wallet(bob)) == (7000, 3000)
    else:
        assert not Journal.objects.filter(key="doomed").exists()
        assert (wallet(alice), wallet(bob)) == (10000, 0)
    assert reconcile() == []
    _pay(alice, bob, "doomed", in_callers_transaction=in_callers_transaction)  # the retry
    assert Journal.objects.filter(key="doomed").count() == 1
    assert (wallet(alice), wallet(bob)) == (7000, 3000)


@pytest.mark.parametrize("after_the_write", [False, True])
def test_a_connection_killed_mid_transaction_leaves_nothing(monkeypatch, after_the_write):
    """The backend dies under the posting: after the lock (before the write is sent), or after
    the write inside a caller's transaction (the commit still to come). Nothing is left."""
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10000)
    victims: set[int] = set()

    def die() -> None:
        if threading.get_ident() in victims:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    def write_and_die(real_write: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not after_the_write:
            die()
        written = real_write(*args, **kwargs)
        if after_the_write:
            die()
        return written

    _around_the_write(monkeypatch, write_and_die)

    def doomed(index: int) -> Journal:
        victims.add(threading.get_ident())
        return _pay(alice, bob, "killed", in_callers_transaction=after_the_write)

    (result,) = race(1, doomed)
    monkeypatch.undo()

    assert isinstance(result, OperationalError), result
    assert not Journal.objects.filter(key="killed").exists()
    assert (wallet(alice), wallet(bob)) == (10000, 0)
    assert reconcile() == []


def test_a_connection_killed_after_a_write_that_committed_leaves_the_whole_posting(monkeypatch, settings):
    """On PostgreSQL's fast path a posting that owns its transaction commits with its write: a
    backend that dies just after has nothing to undo, and the retry of the key answers it."""
    settings.WALLET_FAST_PATH = True
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10000)

    def write_then_die(real_write: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        written = real_write(*args, **kwargs)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return written

    _around_the_write(monkeypatch, write_then_die)
    (result,) = race(1, lambda index: _pay(alice, bob, "committed", in_callers_transaction=False))
    monkeypatch.undo()

    assert isinstance(result, OperationalError), result
    assert (wallet(alice), wallet(bob)) == (7000, 3000)
    first = Journal.objects.get(key="committed")
    assert _pay(alice, bob, "committed", in_callers_transaction=False).pk == first.pk
    assert (wallet(alice), wallet(bob)) == (7000, 3000)
    assert reconcile() == []


def test_a_connection_killed_while_its_one_statement_waits_for_a_lock_leaves_nothing():
    """A posting of known legs locks, checks and writes in one statement: killed while that
    statement waits for a lock another transaction holds, it leaves nothing, and its key
    posts once afterwards."""
    if not sql.fast():
        pytest.skip("the posting in one statement is PostgreSQL's fast path")
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 10000)
    holding, waiting = threading.Event(), threading.Event()

    def hold_alice() -> None:
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT id FROM wallet_account WHERE ref = %s FOR UPDATE", [f"user:{alice.pk}"]
                    )
                holding.set()
                waiting.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_alice)
    holder.start()
    assert holding.wait(timeout=30)

    def kill_the_waiter() -> None:
        try:
            with connection.cursor() as cursor:
                for _ in range(300):
                    cursor.execute(
                        "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE %s",
                        ["%wallet_post(%"],
                    )
                    found = cursor.fetchall()
                    if found:
                        cursor.execute("SELECT pg_terminate_backend(%s)", [found[0][0]])
                        return
                    threading.Event().wait(0.05)
        finally:
            waiting.set()
            connection.close()

    killer = threading.Thread(target=kill_the_waiter)
    killer.start()
    (result,) = race(1, lambda index: _pay(alice, bob, "killed-waiting", in_callers_transaction=False))
    killer.join(timeout=60)
    holder.join(timeout=60)

    assert isinstance(result, OperationalError), result
    assert not Journal.objects.filter(key="killed-waiting").exists()
    assert (wallet(alice), wallet(bob)) == (10000, 0)
    assert reconcile() == []
    _pay(alice, bob, "killed-waiting", in_callers_transaction=False)
    _pay(alice, bob, "killed-waiting", in_callers_transaction=False)  # its retry
    assert Journal.objects.filter(key="killed-waiting").count() == 1
    assert (wallet(alice), wallet(bob)) == (7000, 3000)
    assert reconcile() == []
