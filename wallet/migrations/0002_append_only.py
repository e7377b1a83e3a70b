"""Journals, transfers and entries are append-only: triggers refuse UPDATE and DELETE.

PostgreSQL and SQLite get their own trigger SQL. Both raise an integrity error, so Django
raises ``IntegrityError``. PostgreSQL TRUNCATE is left alone (test databases are flushed with
it); in production the application's role should not hold the TRUNCATE privilege.

SQLite drops a table's triggers when Django rebuilds the table (some AlterField
migrations): a later migration that alters one of these tables must run this SQL again.
"""

from typing import Any

from django.db import migrations

TABLES = ("wallet_journal", "wallet_transfer", "wallet_entry")

POSTGRESQL_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION wallet_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'wallet ledger is append-only: % on % refused; post a reversing journal instead',
            TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'restrict_violation';
    END
    $$
    """,
    *(
        f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION wallet_refuse_change()"
        for table in TABLES
    ),
]
POSTGRESQL_BACKWARD = [
    *(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}" for table in TABLES),
    "DROP FUNCTION IF EXISTS wallet_refuse_change()",
]

SQLITE_FORWARD = [
    f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} BEGIN "
    f"SELECT RAISE(ABORT, 'wallet ledger is append-only: {op} on {table} refused; "
    "post a reversing journal instead'); END"
    for table in TABLES
    for op in ("UPDATE", "DELETE")
]
SQLITE_BACKWARD = [
    f"DROP TRIGGER IF EXISTS {table}_no_{op.lower()}" for table in TABLES for op in ("UPDATE", "DELETE")
]

SQL = {
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_BACKWARD),
    "sqlite": (SQLITE_FORWARD, SQLITE_BACKWARD),
}


def _run(schema_editor: Any, statements: list[str]) -> None:
    for statement in statements:
        schema_editor.execute(statement, params=None)


def forward(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in SQL:
        raise RuntimeError(f"wallet: no append-only triggers written for {vendor}")
    _run(schema_editor, SQL[vendor][0])


def backward(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor in SQL:
        _run(schema_editor, SQL[vendor][1])


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
