"""Backups restore (docs/DEPLOY.md): deploy/backup.sh dumps the database, deploy/restore.sh
loads the dump into an empty copy, and the copy has the same users, tables and ledger, with the
ledger still append-only and still balanced."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.live.support import make_user, seat

pytestmark = [pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]

FACTS = {
    "users": "SELECT count(*) FROM accounts_user",
    "tables": "SELECT count(*) FROM games_table",
    "journals": "SELECT count(*) FROM wallet_journal",
    "entries": "SELECT count(*) FROM wallet_entry",
    # Double entry: every currency's entries sum to zero.
    "unbalanced": "SELECT count(*) FROM (SELECT 1 FROM wallet_entry e "
    "JOIN wallet_account a ON a.id = e.account_id GROUP BY a.currency HAVING sum(e.amount) <> 0) AS t",
    "entry_total": "SELECT coalesce(sum(abs(amount)), 0) FROM wallet_entry",
    "triggers": "SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'wallet_%_append_only'",
}


def url(name: str) -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgresql://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def facts(database_url: str) -> dict[str, int]:
    with psycopg.connect(database_url) as conn:
        return {name: conn.execute(query).fetchone()[0] for name, query in FACTS.items()}


def run(*command: str) -> None:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, env=os.environ)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_backup_restores_into_an_empty_copy(transactional_db, tmp_path):
    users = [make_user(name) for name in ("alice", "bob")]
    seat(users, seats=2, name="101 for two")  # entry fees: ledger rows beyond the chips top-ups
    source = connection.settings_dict["NAME"]
    copy = f"{source}_restore"
    before = facts(url(source))
    assert before["journals"] > 0
    assert before["triggers"] == 3
    dump = tmp_path / "backups" / "rummy.dump"
    run(str(ROOT / "deploy" / "backup.sh"), url(source), str(dump))
    assert dump.stat().st_size > 0
    with psycopg.connect(url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{copy}"')
        admin.execute(f'CREATE DATABASE "{copy}"')
    try:
        run(str(ROOT / "deploy" / "restore.sh"), str(dump), url(copy))
        after = facts(url(copy))
        assert after == before
        assert after["unbalanced"] == 0
        with psycopg.connect(url(copy)) as conn, pytest.raises(psycopg.errors.RestrictViolation):
            conn.execute("DELETE FROM wallet_entry")
    finally:
        with psycopg.connect(url("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
