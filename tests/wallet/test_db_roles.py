"""Least privilege in PostgreSQL (deploy/roles.sql): the site's role can post to the ledger and
read it, and cannot rewrite it: no TRUNCATE, DELETE or UPDATE of ledger rows, no trigger off."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.conftest import make_user
from wallet.cashier import topup_chips
from wallet.models import Entry, Journal

pytestmark = [pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
APP, OWNER, PASSWORD = "rummy_app", "rummy_owner", "rummy-app-test-password"


def apply_roles() -> None:
    db = connection.settings_dict
    psql = shutil.which("psql")
    assert psql, "psql is needed on PATH"
    result = subprocess.run(
        [
            psql, "-h", db["HOST"] or "127.0.0.1", "-p", str(db["PORT"] or 5432),
            "-U", db["USER"], "-d", db["NAME"],
            "-q", "-v", f"owner={OWNER}", "-v", f"app={APP}", "-v", f"app_password={PASSWORD}",
            "-f", str(ROOT / "deploy" / "roles.sql"),
        ],
        env={"PGPASSWORD": db.get("PASSWORD") or "", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def as_app() -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        dbname=db["NAME"],
        user=APP,
        password=PASSWORD,
        autocommit=True,
    )


def refused(conn: psycopg.Connection, statement: str) -> str:
    """The error PostgreSQL gives the app role for ``statement`` (which must fail)."""
    with pytest.raises(psycopg.Error) as caught:
        conn.execute(statement)
    return caught.value.sqlstate or ""


def test_the_app_role_cannot_rewrite_the_ledger_nor_change_a_table(transactional_db):
    alice = make_user("alice")
    topup_chips(alice)
    journals, entries = Journal.objects.count(), Entry.objects.count()
    assert journals
    assert entries
    apply_roles()
    apply_roles()  # safe to run again (after every migrate)
    with as_app() as conn:
        assert conn.execute("SELECT current_user").fetchone() == (APP,)
        assert conn.execute("SELECT count(*) FROM wallet_entry").fetchone() == (entries,)
        insufficient = "42501"  # insufficient_privilege
        for table in ("wallet_journal", "wallet_transfer", "wallet_entry"):
            assert refused(conn, f"TRUNCATE {table}") == insufficient, table
            assert refused(conn, f"DELETE FROM {table}") == insufficient, table  # noqa: S608
            assert refused(conn, f"UPDATE {table} SET id = id") == insufficient, table  # noqa: S608
            assert refused(conn, f"ALTER TABLE {table} DISABLE TRIGGER ALL") == insufficient, table
            assert refused(conn, f"DROP TRIGGER {table}_append_only ON {table}") == insufficient, table
        for table in ("backoffice_auditlog", "protection_protectionevent", "protection_exclusion"):
            assert refused(conn, f"DELETE FROM {table}") == insufficient, table  # noqa: S608
            assert refused(conn, f"UPDATE {table} SET id = id") == insufficient, table  # noqa: S608
        assert refused(conn, "SET session_replication_role = replica") == insufficient
        # No DDL at all, and nothing else truncated either.
        assert refused(conn, "CREATE TABLE sneaky (id int)") == insufficient
        assert refused(conn, "ALTER TABLE games_table ADD COLUMN sneaky int") == insufficient
        assert refused(conn, "TRUNCATE games_table CASCADE") == insufficient
        # What the site does need still works: read and write rows of the other tables.
        conn.execute("UPDATE accounts_user SET display_name = display_name WHERE id = %s", [alice.pk])
    assert (Journal.objects.count(), Entry.objects.count()) == (journals, entries)


def test_the_wallet_posts_under_the_app_role(transactional_db):
    """The posting function itself runs with only the app role's privileges."""
    apply_roles()
    alice = make_user("alice")
    from django.db import transaction

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL ROLE {APP}")
        topup_chips(alice)
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            assert cursor.fetchone() == (APP,)
    assert Entry.objects.filter(account__owner=alice).exists()
