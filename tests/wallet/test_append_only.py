"""Journals, transfers and entries are append-only: the database refuses UPDATE and DELETE."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.utils import ConnectionHandler

from tests.wallet.support import _fast_password_hashing  # noqa: F401 (fixture)
from wallet.ledger import cashier_spec, post, user_spec
from wallet.models import Account, Entry, Journal, JournalKind, Transfer

migration = importlib.import_module("wallet.migrations.0002_append_only")

CHANGES = [
    "UPDATE wallet_journal SET kind = 'refund'",
    "UPDATE wallet_journal SET meta = meta",
    "DELETE FROM wallet_journal",
    "UPDATE wallet_transfer SET amount = amount + 1",
    "DELETE FROM wallet_transfer",
    "UPDATE wallet_entry SET balance_after = 0",
    "DELETE FROM wallet_entry",
]


def _refused(sql: str) -> str:
    with pytest.raises(IntegrityError) as error, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    return str(error.value)


@pytest.mark.django_db
@pytest.mark.parametrize("sql", CHANGES)
def test_the_configured_database_refuses_changes_to_the_ledger(alice, sql):
    post("seed", JournalKind.ADJUSTMENT, [(cashier_spec(alice.pk), user_spec(alice.pk), 500)])

    message = _refused(sql)

    assert "append-only" in message
    assert (Journal.objects.count(), Transfer.objects.count(), Entry.objects.count()) == (1, 1, 2)
    assert Account.objects.get(ref=f"user:{alice.pk}").balance == 500


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_refuses_changes_to_the_ledger(alice):
    assert connection.vendor == "postgresql"
    post("seed", JournalKind.ADJUSTMENT, [(cashier_spec(alice.pk), user_spec(alice.pk), 500)])

    for sql in CHANGES:
        assert "append-only" in _refused(sql), sql

    assert Entry.objects.count() == 2


@pytest.fixture
def sqlite(django_db_blocker: Any) -> Iterator[Any]:
    """A fresh in-memory SQLite database with the ledger tables and the migration's triggers.

    Runs whatever database the suite is configured with, so the SQLite triggers are always
    checked, even when the suite runs on PostgreSQL.
    """
    handler = ConnectionHandler({"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    db = handler["default"]
    with django_db_blocker.unblock():
        yield from _prepared(db)


def _prepared(db: Any) -> Iterator[Any]:
    with db.schema_editor() as editor:
        for model in (get_user_model(), Account, Journal, Transfer, Entry):
            editor.create_model(model)
        for statement in migration.SQLITE_FORWARD:
            editor.execute(statement, params=None)
    with db.cursor() as cursor:
        cursor.execute(
            "INSERT INTO wallet_account "
            "(id, kind, currency, ref, balance, version, allow_negative, created_at) "
            "VALUES (1, 'cashier', 'INR', 'cashier:0', -500, 1, 1, '2030-01-01'), "
            "(2, 'user', 'INR', 'user:1', 500, 1, 0, '2030-01-01')"
        )
        cursor.execute(
            "INSERT INTO wallet_journal (id, key, kind, currency, meta, content_hash, created_at) "
            "VALUES (1, 'seed', 'adjustment', 'INR', '{}', 'x', '2030-01-01')"
        )
        cursor.execute(
            "INSERT INTO wallet_transfer (id, journal_id, debit_id, credit_id, amount, currency) "
            "VALUES (1, 1, 1, 2, 500, 'INR')"
        )
        cursor.execute(
            "INSERT INTO wallet_entry (account_id, journal_id, transfer_id, amount, balance_after, version) "
            "VALUES (1, 1, 1, -500, -500, 1), (2, 1, 1, 500, 500, 1)"
        )
    yield db
    db.close()


@pytest.mark.parametrize("sql", CHANGES)
def test_sqlite_refuses_changes_to_the_ledger(sqlite, sql):
    with pytest.raises(IntegrityError, match="append-only"), sqlite.cursor() as cursor:
        cursor.execute(sql)

    with sqlite.cursor() as cursor:
        cursor.execute("SELECT (SELECT COUNT(*) FROM wallet_journal), (SELECT COUNT(*) FROM wallet_entry)")
        assert cursor.fetchone() == (1, 2)


def test_sqlite_still_takes_new_rows(sqlite):
    with sqlite.cursor() as cursor:
        cursor.execute(
            "INSERT INTO wallet_journal (id, key, kind, currency, meta, content_hash, created_at) "
            "VALUES (2, 'next', 'adjustment', 'INR', '{}', 'y', '2030-01-02')"
        )
        cursor.execute("SELECT COUNT(*) FROM wallet_journal")
        assert cursor.fetchone() == (2,)
