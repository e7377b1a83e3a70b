"""The wallet's migrations that change the ledger's tables in place: back and forth on the
configured database, each leaving the constraints the ledger relies on."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from tests.conftest import make_user
from tests.wallet.support import _fast_password_hashing, fund  # noqa: F401 (fixture)
from wallet.ledger import post, user_spec
from wallet.models import Journal, JournalKind

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE, AFTER = ("wallet", "0006_entry_plural"), ("wallet", "0007_journal_indexes_written_at_each_posting")


def migrate(target: tuple[str, str]) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([target])


@pytest.fixture(autouse=True)
def latest_afterwards():  # type: ignore[no-untyped-def]
    """The wallet's newest migration again after each test: the tests after it use its tables."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("wallet"))


def journal_indexes() -> dict[str, dict]:  # type: ignore[type-arg]
    with connection.cursor() as cursor:
        return connection.introspection.get_constraints(cursor, "wallet_journal")  # type: ignore[no-any-return]


def test_0007_back_and_forth_keeps_the_key_unique_and_the_ledger_append_only(settings):
    migrate(BEFORE)
    migrate(AFTER)
    found = journal_indexes()
    unique_columns = sorted(
        tuple(c["columns"]) for c in found.values() if c["unique"] and not c["primary_key"]
    )
    assert unique_columns == [("key",), ("reverses_id",)], found
    assert "wallet_journal_reversed_once" in found
    if connection.vendor == "postgresql":  # the key's index kept and renamed, no LIKE index left
        assert "wallet_journal_key_uniq" in found
        assert not [name for name in found if name.endswith("_like")], found

    if connection.vendor != "postgresql":
        # SQLite rebuilt the table: its append-only triggers are there again. (Nothing is written
        # here: the flush after a test on SQLite deletes, which those triggers refuse.)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'wallet_journal'"
            )
            assert sorted(row[0] for row in cursor.fetchall()) == [
                "wallet_journal_no_delete",
                "wallet_journal_no_update",
            ]
        return
    # At 0007 there is no posting in one statement yet (0010): the portable path posts.
    settings.WALLET_FAST_PATH = False
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 1_000)
    journal = post("m:1", JournalKind.ADJUSTMENT, [(user_spec(alice.pk), user_spec(bob.pk), 100)])
    with pytest.raises(IntegrityError), transaction.atomic():
        Journal.objects.filter(pk=journal.pk).update(kind="refund")  # append-only, still
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(  # a second journal of the same key
            "INSERT INTO wallet_journal (key, kind, currency, meta, content_hash, created_at) "
            "SELECT key, kind, currency, meta, content_hash, created_at FROM wallet_journal WHERE id = %s",
            [journal.pk],
        )
