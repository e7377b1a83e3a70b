"""The audit log is append-only: triggers refuse UPDATE and DELETE (as the wallet's ledger does).

PostgreSQL TRUNCATE is left alone (test databases are flushed with it).
"""

from django.db import migrations

TABLE = "backoffice_auditlog"

POSTGRESQL_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION backoffice_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the audit log is append-only: % on % refused', TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'restrict_violation';
    END
    $$
    """,
    f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
    "FOR EACH ROW EXECUTE FUNCTION backoffice_refuse_change()",
]
POSTGRESQL_BACKWARD = [
    f"DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE}",
    "DROP FUNCTION IF EXISTS backoffice_refuse_change()",
]
SQLITE_FORWARD = [
    f"CREATE TRIGGER {TABLE}_no_{op.lower()} BEFORE {op} ON {TABLE} BEGIN "
    f"SELECT RAISE(ABORT, 'the audit log is append-only: {op} on {TABLE} refused'); END"
    for op in ("UPDATE", "DELETE")
]
SQLITE_BACKWARD = [f"DROP TRIGGER IF EXISTS {TABLE}_no_{op.lower()}" for op in ("UPDATE", "DELETE")]

SQL = {
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_BACKWARD),
    "sqlite": (SQLITE_FORWARD, SQLITE_BACKWARD),
}


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor not in SQL:
        raise RuntimeError(f"backoffice: no append-only triggers written for {vendor}")
    for statement in SQL[vendor][0]:
        schema_editor.execute(statement, params=None)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in SQL.get(vendor, ((), ()))[1]:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("backoffice", "0001_initial")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
