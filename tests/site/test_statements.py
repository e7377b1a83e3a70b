"""statements.execute_many: the one way the hot paths run their statements.

On any database it runs the statements in order and returns each one's rows and row count. On
PostgreSQL it pipelines them into one round trip and prepares each on the server, planned once
(a generic plan) unless PREPARED_STATEMENTS is off.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import ActionReceipt
from hotpath import statements
from tests.tables.support import Clock, in_turn_order, seat_all, template

pytestmark = pytest.mark.django_db

SEAT_ROWS = 'SELECT "user_id", "position" FROM "games_seat" WHERE "table_id" = %s ORDER BY "position"'
LEAVE = 'UPDATE "games_seat" SET "connections" = "connections" + %s WHERE "table_id" = %s'


@pytest.fixture
def table(alice, bob):
    from games import services

    # Seated a little before now: a websocket action runs at server time.
    return seat_all(template(seats=2), [alice, bob], Clock(start=services.now_ms() - 10_000))


def test_statements_run_in_order_and_each_gives_its_rows_and_count(table, alice, bob):
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        before, changed, after = statements.execute_many(
            [
                (SEAT_ROWS, [table.pk]),
                (LEAVE, [1, table.pk]),
                ('SELECT SUM("connections") FROM "games_seat" WHERE "table_id" = %s', [table.pk]),
            ]
        )
    assert sorted(user for user, _ in before.rows) == sorted([alice.pk, bob.pk])
    assert before.rowcount == 2
    assert changed.rows == []
    assert changed.rowcount == 2
    assert after.rows == [(2,)]  # the read after the write sees it
    assert [query["sql"].split()[0] for query in captured.captured_queries] == ["SELECT", "UPDATE", "SELECT"]


def test_a_failing_statement_raises_the_databases_error_and_its_transaction_rolls_back(table):
    with pytest.raises(DatabaseError), transaction.atomic():
        statements.execute_many([(LEAVE, [5, table.pk]), ("SELECT * FROM no_such_table", [])])
    assert statements.execute(
        'SELECT MAX("connections") FROM "games_seat" WHERE "table_id" = %s', [table.pk]
    ).rows == [(0,)]


def test_a_websocket_action_is_two_round_trips_and_the_commit(table, alice, bob, monkeypatch):
    """The lock with the receipt's read (and, on PostgreSQL, the BEGIN); then the events, the
    table, the receipt and the seats the snapshots show. Nothing else reaches the database."""
    from games import client_actions, services

    sent = []
    real = statements.execute_many

    def spy(batch, **flags):
        sent.append([sql.split()[0] for sql, _ in batch])
        assert not flags.get("commit"), "inside the test's transaction the action does not commit"
        return real(batch, **flags)

    monkeypatch.setattr(services, "execute_many", spy)
    first, _ = in_turn_order(table, [alice, bob])
    with CaptureQueriesContext(connection) as captured:
        answer = client_actions.perform(table.pk, first, {"id": "x1", "type": "draw", "source": "closed"})
    assert "ack" in answer, answer
    assert sent == [["SELECT", "SELECT"], ["INSERT", "UPDATE", "INSERT", "SELECT"]]
    assert len([query for query in captured.captured_queries if "SAVEPOINT" not in query["sql"]]) == 6
    assert ActionReceipt.objects.get(table_id=table.pk, client_id="x1").version == answer["v"]


@pytest.mark.postgres
def test_on_postgresql_statements_are_prepared_once_with_a_generic_plan(table, settings):
    def plans():
        # The connection outlives a test: an earlier test may have prepared it already.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE %s",
                ['%FROM "games_seat" WHERE "table_id" = $1 ORDER BY "position"'],
            )
            return cursor.fetchall()

    statements.execute(SEAT_ROWS, [table.pk])
    [(generic, custom)] = plans()
    for _ in range(3):
        statements.execute(SEAT_ROWS, [table.pk])
    assert plans() == [(generic + 3, custom)]  # prepared once, run three more times on its generic plan
    assert custom == 0
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == ("force_generic_plan",)
        settings.PREPARED_STATEMENTS = False
        statements.execute(SEAT_ROWS.replace('"position"', '"position" DESC'), [table.pk])
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ['%"position" DESC']
        )
        assert cursor.fetchone() == (0,)


@pytest.mark.postgres
def test_a_statement_the_server_cannot_prepare_is_not_kept_as_prepared(table):
    broken = "SELECT FROM games_seat WHERE table_id = %s AND"  # a syntax error, found at PREPARE
    for _ in range(2):  # the second time it is prepared again, and fails the same way
        with pytest.raises(DatabaseError, match="syntax error"), transaction.atomic():
            statements.execute(broken, [table.pk])
    assert statements.execute(SEAT_ROWS, [table.pk]).rowcount == 2


@pytest.mark.postgres
def test_a_value_the_database_cannot_hold_is_refused_before_anything_is_sent(table):
    with pytest.raises(DatabaseError, match="NUL"), transaction.atomic():
        statements.execute_many(
            [(LEAVE, [1, table.pk]), (SEAT_ROWS.replace("%s", "%s::text::bigint"), ["a\x00"])]
        )
    assert statements.execute(
        'SELECT MAX("connections") FROM "games_seat" WHERE "table_id" = %s', [table.pk]
    ).rows == [(0,)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_action_that_owns_its_transaction_commits_with_its_writes(table, alice, bob, monkeypatch):
    """Two round trips a move on PostgreSQL: the BEGIN with the lock and the receipt's read;
    the writes with the COMMIT. The after-commit hooks still run (the move is published)."""
    from games import client_actions, services
    from hotpath import pgpipe

    sent = []
    real = pgpipe.run

    def spy(raw, batch, **flags):
        try:
            return real(raw, batch, **flags)
        finally:
            sent.append((len(batch), flags["begin"], flags["commit"], raw.info.transaction_status))

    published = []
    monkeypatch.setattr(pgpipe, "run", spy)
    monkeypatch.setattr(services, "_announce", published.append)
    first, _ = in_turn_order(table, [alice, bob])
    answer = client_actions.perform(table.pk, first, {"id": "c1", "type": "draw", "source": "closed"})
    assert "ack" in answer, answer
    idle, in_transaction = 0, 2
    assert sent == [(2, True, False, in_transaction), (4, False, True, idle)]
    assert [written.version for written in published] == [answer["v"]]
    assert ActionReceipt.objects.get(table_id=table.pk, client_id="c1").version == answer["v"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_round_trip_cut_short_closes_the_connection_and_the_next_one_opens_anew(table, monkeypatch):
    from hotpath import pgpipe

    def interrupted(fileno, event):
        raise KeyboardInterrupt  # as a signal would, in the middle of the wait

    monkeypatch.setattr(pgpipe, "_wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        statements.execute("SELECT pg_sleep(0.05)", [])  # the answer cannot be there yet
    monkeypatch.undo()
    assert connection.connection.closed
    connection.close()  # what Django does with a closed connection at the end of a request
    assert statements.execute(SEAT_ROWS, [table.pk]).rowcount == 2


def _new_connection_plan(sql: str, params: list[object]) -> tuple[str, str]:
    """Run ``sql`` once on a new connection (in a transaction, as the hot paths do), then its
    cached plan and the connection's ``enable_seqscan`` after the round trip.

    The connection is the test's own, opened as the site opens one: the pool's may have run
    ``sql`` in an earlier test and re-planned it since (a ``TRUNCATE`` between tests, as a
    ``VACUUM`` or an ``ANALYZE`` on a site, invalidates a cached plan)."""
    import psycopg

    from hotpath import pgpipe

    with psycopg.connect(**connection.get_connection_params()) as raw:
        pgpipe.run(raw, [(sql, params)], begin=True, rollback=True)
        prepared = pgpipe._sessions[raw].prepared
        [name] = [name for (query, _), name in prepared.items() if query == pgpipe._query(sql)]
        with raw.cursor() as cursor:
            literals = ", ".join(["%s"] * len(params))
            cursor.execute(f"EXPLAIN EXECUTE {name.decode()}({literals})", params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            cursor.execute("SHOW enable_seqscan")
            (seqscan,) = cursor.fetchone()
    return plan, seqscan


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_hot_statement_is_planned_for_its_index_even_on_a_small_table():
    """Planned while the table is a few pages (a new site: here 400 accounts), the generic plan
    of the ledger's lock scanned the whole table, at every posting for the connection's life
    (until some 1,500 accounts, where the index wins again): its plan is made with sequential
    scans off, and the setting is back on after."""
    from wallet import sql

    with connection.cursor() as cursor:  # a few pages of accounts
        cursor.execute(
            "INSERT INTO wallet_account (kind, currency, ref, owner_id, allow_negative, balance, version, "
            "created_at) SELECT 'cashier', 'INR', 'cashier:' || i, NULL, true, 0, 0, now() "
            "FROM generate_series(1, 400) i"
        )
    plan, seqscan = _new_connection_plan(sql._LOCK_PG, ["INR", "{cashier:1,cashier:2}"])
    assert "Index Scan using wallet_account_ref_currency_uniq" in plan, plan
    assert "Seq Scan" not in plan, plan
    assert seqscan == "on"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("in_transaction", [False, True])
def test_a_first_run_that_fails_leaves_sequential_scans_on(in_transaction):
    """The setting goes back with the round trip's transaction (or the implicit one a round
    trip outside a transaction runs in) when a statement fails before it is reset."""
    failing = "SELECT 1 / (COUNT(*) - COUNT(*)) FROM wallet_account WHERE id = %s"
    connection.close()

    def run() -> None:
        if in_transaction:
            with transaction.atomic():
                statements.execute(failing, [1])
        else:
            statements.execute(failing, [1])

    with pytest.raises(DatabaseError, match="division by zero"):
        run()
    with connection.connection.cursor() as cursor:
        cursor.execute("SHOW enable_seqscan")
        assert cursor.fetchone() == ("on",)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_round_trips_own_begin_and_commit_are_prepared_once_for_the_connection(table):
    """BEGIN and COMMIT go with the statements as prepared statements too: the server parses
    them once for the connection, not at every transaction."""
    from django.db import connection as db

    def prepared(text: str) -> int:
        with db.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement = %s", [text])
            return int(cursor.fetchone()[0])

    for _ in range(3):
        with statements.transaction() as own:
            assert own
            statements.execute_many([(SEAT_ROWS, [table.pk])])
            statements.execute_many([(LEAVE, [0, table.pk])], commit=True)
    assert (prepared("BEGIN"), prepared("COMMIT")) == (1, 1)
    assert db.connection.info.transaction_status == 0  # idle: each transaction was committed
