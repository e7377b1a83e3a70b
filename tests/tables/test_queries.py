"""Query counts on the hot path (zulip style): a move costs a fixed, small number of queries.

A move is one transaction: lock and read the table row (SELECT ... FOR UPDATE, the template
joined), insert its events (one bulk INSERT), save the table row (UPDATE) and read the seats
for the snapshots it publishes. In these tests the transaction is a savepoint inside the
test's own transaction, which adds SAVEPOINT and RELEASE SAVEPOINT; in production those two
are the BEGIN and COMMIT around the same statements. On PostgreSQL the BEGIN goes with the lock
and the last three go together (``statements.execute_many``): a move is three round trips.
Seats are only touched when someone's seat or status changes.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Table
from games.views_state import events_for, table_view
from tests.tables.support import Clock, hand_of, in_turn_order, scripted, seat_all, template

pytestmark = pytest.mark.django_db

MOVE_QUERIES = 6
"""SAVEPOINT, SELECT ... FOR UPDATE, INSERT events, UPDATE table, SELECT seats, RELEASE SAVEPOINT."""


@pytest.fixture(autouse=True)
def seeds(monkeypatch, settings):
    return scripted(monkeypatch, settings)


def test_it_applies_a_draw_and_a_discard_in_six_queries_each(alice, bob, django_assert_num_queries):
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    first, _second = in_turn_order(table, [alice, bob])
    with django_assert_num_queries(MOVE_QUERIES):
        services.act(table.pk, first, {"type": "draw", "source": "closed"}, at=clock())
    card = hand_of(table, first)[0]
    with django_assert_num_queries(MOVE_QUERIES):
        services.act(table.pk, first, {"type": "discard", "card": card}, at=clock())


def test_it_reads_a_players_view_and_events_in_few_queries(alice, bob, django_assert_num_queries):
    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    table = Table.objects.select_related("template").get(pk=table.pk)
    with django_assert_num_queries(1):  # the seats' names
        view = table_view(table, alice)
    assert view["version"] == table.version
    with django_assert_num_queries(1):
        events = events_for(table, alice, 0)
    assert len(events) == table.version


WEBSOCKET_ACTION_QUERIES = 8
"""SAVEPOINT (the test's transaction; BEGIN in production), SELECT ... FOR UPDATE of the table
alone, SELECT the receipt, INSERT events, UPDATE table, INSERT the receipt, SELECT seats,
RELEASE SAVEPOINT (COMMIT): one lock, and no savepoint of the action's own."""


def test_a_websocket_action_is_one_lock_and_its_receipt_with_no_savepoint(
    alice, bob, django_assert_num_queries
):
    from games import client_actions

    clock = Clock(start=services.now_ms() - 10_000)  # the action runs at server time
    table = seat_all(template(seats=2), [alice, bob], clock)
    first, _second = in_turn_order(table, [alice, bob])
    with django_assert_num_queries(WEBSOCKET_ACTION_QUERIES) as captured:
        answer = client_actions.perform(table.pk, first, {"id": "d1", "type": "draw", "source": "closed"})
    assert answer == {"ack": "d1", "v": Table.objects.get(pk=table.pk).version}
    statements = [query["sql"] for query in captured.captured_queries]
    assert sum("SAVEPOINT" in sql and "RELEASE" not in sql for sql in statements) == 1
    assert [sql.split()[0] for sql in statements[1:-1]] == [
        "SELECT",
        "SELECT",
        "INSERT",
        "UPDATE",
        "INSERT",
        "SELECT",
    ]
    locks = [sql for sql in statements if "FOR UPDATE" in sql]
    if locks:  # SQLite has no row locks
        assert len(locks) == 1
        assert 'FOR UPDATE OF "games_table"' in locks[0]


def test_a_prepared_read_is_compiled_once_and_answers_as_its_queryset_does(
    alice, bob, django_assert_num_queries
):
    """statements: the ORM's SQL, built once, run with new values in the right places (the
    values here reach the SQL in another order than they are given, one of them as text)."""
    from games.models import ActionReceipt
    from hotpath.statements import Prepared

    clock = Clock()
    table = seat_all(template(seats=2), [alice, bob], clock)
    for client_id, user in (("a", alice), ("b", bob), ("c", alice)):
        ActionReceipt.objects.create(
            table_id=table.pk, user_id=user.pk, client_id=client_id, type="draw", version=3
        )

    def build(client_id, user_id):
        return ActionReceipt.objects.filter(user_id=user_id, client_id=client_id).values_list(
            "client_id", "user_id"
        )

    read = Prepared(build, arity=2)
    for client_id, user in (("a", alice), ("b", bob), ("c", bob)):
        expected = list(build(client_id, user.pk))
        with django_assert_num_queries(1):
            assert list(read.rows(client_id, user.pk)) == expected
    assert read.rows("c", alice.pk) == [("c", alice.pk)]
    with pytest.raises(TypeError):
        read.rows("a")
    with pytest.raises(ValueError, match="one parameter"):
        Prepared(lambda user_id: ActionReceipt.objects.filter(user_id=alice.pk), arity=1).rows(bob.pk)


def test_the_moves_writes_built_once_store_what_the_orm_would(alice, bob, django_assert_num_queries):
    """statements.Insert and Update: each value through its field (JSON, a foreign key, an
    aware time), one statement for many rows, and the number of rows an update changed."""
    from datetime import UTC, datetime

    from games.models import TableEvent, Visibility
    from hotpath.statements import Insert, Update

    table = seat_all(template(seats=2), [alice, bob], Clock())
    at = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    insert = Insert(TableEvent, ["table", "version", "type", "data", "visibility", "user", "created_at"])
    rows = [
        (table.pk, 900, "note", {"cards": ["7H", "JK"], "n": 1}, Visibility.EVERYONE, None, at),
        (table.pk, 901, "secret", {"hand": "private"}, Visibility.USER, bob.pk, at),
    ]
    with django_assert_num_queries(1):
        insert.run(rows)
    stored = list(
        TableEvent.objects.filter(table=table, version__gte=900)
        .order_by("version")
        .values_list("version", "type", "data", "visibility", "user_id", "created_at")
    )
    assert stored == [
        (900, "note", {"cards": ["7H", "JK"], "n": 1}, "everyone", None, at),
        (901, "secret", {"hand": "private"}, "user", bob.pk, at),
    ]
    update = Update(Table, ["status", "deadline"])
    with django_assert_num_queries(1):
        assert update.run(table.pk, ["finished", at]) == 1
    assert Table.objects.values_list("status", "deadline").get(pk=table.pk) == ("finished", at)
    assert update.run(-1, ["finished", at]) == 0
    with pytest.raises(TypeError, match="not a column"):
        Insert(Table, ["seats"])


def test_the_lock_reads_the_table_and_its_template_as_the_orm_does(alice, bob, django_assert_num_queries):
    """games.services.lock builds its statement once; what it does not read loads when used."""
    from django.db import transaction

    table = seat_all(template(seats=2), [alice, bob], Clock())
    expected = Table.objects.select_related("template").get(pk=table.pk)
    with transaction.atomic():
        with django_assert_num_queries(1):
            locked = services.lock(table.pk)
            its_template = locked.template
            read = [
                locked.pk,
                locked.status,
                locked.version,
                locked.state,
                locked.private,
                locked.invite_code,
            ]
            names = [field.attname for field in its_template._meta.concrete_fields]
            assert [getattr(its_template, name) for name in names] == [
                getattr(expected.template, name) for name in names
            ]
            assert isinstance(its_template.bots_allowed, bool)
            assert isinstance(locked.private, bool)
        assert read == [
            expected.pk,
            expected.status,
            expected.version,
            expected.state,
            expected.private,
            expected.invite_code,
        ]
        with django_assert_num_queries(1):  # a column the lock left out
            assert locked.created_at == expected.created_at
        with pytest.raises(Table.DoesNotExist):
            services.lock(-1)
        assert services.lock(-1, skip_locked=True) is None


def test_a_row_becomes_a_model_whatever_the_order_of_its_columns(alice, bob):
    """statements.instance and insert: values land on their own fields (Model.from_db alone
    would take them in the model's order), converted from what a driver returns."""
    from datetime import UTC, datetime

    from games.models import ActionReceipt
    from hotpath import statements

    table = seat_all(template(seats=2), [alice, bob], Clock())
    row = statements.instance(
        Table,
        ["state", "private", "updated_at", "id"],
        ['{"phase": "waiting"}', 1, "2030-01-02 03:04:05", table.pk],
    )
    assert (row.pk, row.state, row.private) == (table.pk, {"phase": "waiting"}, True)
    assert row.updated_at == datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    with pytest.raises(TypeError, match="not all"):
        statements.instance(Table, ["id", "seats"], [1, 2])
    at = datetime(2030, 1, 2, tzinfo=UTC)
    receipt = statements.insert(
        ActionReceipt,
        {"version": 7, "client_id": "x1", "user_id": bob.pk, "table_id": table.pk, "type": "draw"}
        | {"message": "", "error": "", "created_at": at},
    )
    stored = ActionReceipt.objects.get(pk=receipt.pk)
    fields = ("table_id", "user_id", "client_id", "type", "version", "created_at")
    assert [getattr(receipt, name) for name in fields] == [getattr(stored, name) for name in fields]
    assert (stored.client_id, stored.version, stored.user_id) == ("x1", 7, bob.pk)
