"""Statements built once, for the hot paths: a move at a table, a deposit, a withdrawal.

Building a query costs the ORM more than the database takes to run it: for a table's lock,
1.55 ms through a queryset against 0.72 ms for the same SQL on a cursor (docs/PERFORMANCE.md,
"A move"). So the statements a hot path runs every time are built the first time and then only
sent:

- a :class:`Prepared` read is an ordinary queryset, compiled by the ORM the first time it runs
  on a database, and from then on sent as the SQL the ORM made, with new values. Its rows are
  the driver's own values: :func:`instance` turns one into a model, converting as the ORM does;
- an :class:`Insert` or :class:`Update` names a model's fields; its SQL comes from the model's
  ``_meta``, and each value goes through its field's ``get_db_prep_save``, as the ORM's own
  writes do. Neither sets ``auto_now`` fields nor sends signals: the caller passes every value;
- :func:`locked` reads one row by a column and locks it for the transaction.

On PostgreSQL every one of them runs through :func:`execute_many`: a server-side prepared
statement (parsed and planned once per connection, not at every move), and the statements of one
step pipelined into one round trip, with the transaction's ``BEGIN`` when it opens it. Elsewhere
(SQLite) they run one after the other on Django's cursor. The ledger's postings have their own
SQL (``wallet.sql``) and run the same way. This module imports Django only, so every layer may
use it (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from typing import Any, NamedTuple, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db import transaction as django_transaction
from django.db.models import Field, Model, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from hotpath import jsontext

ModelT = TypeVar("ModelT", bound=Model)
WriteT = TypeVar("WriteT", "Insert", "Update")

#: Stand-ins for the values while a read is compiled: each must reach the SQL as a parameter of
#: its own, so that its place can be found and the real value put there.
_MARKERS = (-7_300_001, -7_300_002, -7_300_003, -7_300_004)


def _default() -> Any:
    """This thread's default connection itself (``django.db.connection`` is a proxy that looks it
    up again at every attribute: on the hot paths, once a call is enough)."""
    return connections[DEFAULT_DB_ALIAS]


def _database() -> tuple[str, str]:
    """What a statement is built for: the database's kind and name."""
    db = _default()
    return db.vendor, str(db.settings_dict["NAME"])


# --- running statements -----------------------------------------------------------------------

Statement = tuple[str, Sequence[Any]]


class Result(NamedTuple):
    """What one statement gave: its rows (none for a write without ``RETURNING``) and the rows
    it changed or returned."""

    rows: list[tuple[Any, ...]]
    rowcount: int


#: psycopg.pq.TransactionStatus.IDLE (psycopg is imported only when PostgreSQL is used).
_IDLE = 0


def execute(sql: str, params: Sequence[Any]) -> Result:
    """Run one statement (see :func:`execute_many`)."""
    return execute_many([(sql, params)])[0]


def execute_many(statements: Sequence[Statement], *, commit: bool = False) -> list[Result]:
    """Run ``statements`` in order on the default connection and return what each gave.

    On PostgreSQL they are pipelined into one round trip (``pgpipe``), with the transaction's
    ``BEGIN`` if it has not been sent yet, each a server-side prepared statement unless
    ``PREPARED_STATEMENTS`` is off (behind a pooler that cannot keep them). The server still
    runs them one after the other, each with its own snapshot: a read sent after a locking
    ``SELECT`` sees what the lock waited for. With ``commit`` the transaction's ``COMMIT``
    goes in the same round trip: only for a caller that owns the transaction (see
    :func:`owns_transaction`) and has nothing left to run in it; Django's own commit at the end
    of its ``atomic`` block then finds nothing to do. Elsewhere (SQLite) the statements run one
    after the other on Django's cursor, and the commit is left to the ``atomic`` block. They
    appear in ``connection.queries`` as any query does.
    """
    db = _default()
    if db.vendor != "postgresql":
        return [_on_django_cursor(db, sql, params) for sql, params in statements]
    from hotpath import pgpipe

    db.validate_no_broken_transaction()
    prepare = bool(getattr(settings, "PREPARED_STATEMENTS", True))
    logged = db.queries_logged
    started = time.monotonic() if logged else 0.0
    with db.wrap_database_errors:
        raw = db.connection
        if raw is None:  # (once a thread: connecting checks it is not an event loop's)
            db.ensure_connection()
            raw = db.connection
        autocommit = raw.autocommit
        begin = not autocommit and raw.pgconn.transaction_status == _IDLE
        commit = commit and not autocommit
        answers = pgpipe.run(raw, statements, prepare=prepare, begin=begin, commit=commit)
    if logged:
        elapsed = f"{time.monotonic() - started:.3f}"
        for sql, params in statements:
            db.queries_log.append({"sql": f"{sql} -- {list(params)!r}", "time": elapsed})
    return [Result(rows, count) for rows, count in answers]


#: psycopg.pq.TransactionStatus: a transaction open and working.
_INTRANS = 2


@contextmanager
def transaction(*, savepoint: bool = False) -> Iterator[bool]:
    """A transaction for a hot path (a posting, a deposit); yields whether it is its own.

    Inside a caller's transaction, or on another database than PostgreSQL, this is
    ``atomic(savepoint=savepoint)``: without a savepoint, an error marks the caller's
    transaction for rollback; with one, only this block's work is undone.

    Otherwise the block owns its transaction, as Django's manual transaction management does
    (autocommit off, then on again), without the bookkeeping of an ``atomic`` block or the
    commit through psycopg's layers: together a fifth of a posting's Python time
    (docs/PERFORMANCE.md, "The ledger"):

    - its ``BEGIN`` goes with its first statements (:func:`execute_many`);
    - a write sent with ``commit=True`` carries its ``COMMIT``; a block that found nothing to
      keep ends it with :func:`roll_back`; otherwise the ``COMMIT`` goes alone, in one round trip;
    - an error rolls it back (Django's ``rollback``).

    ORM queries and ``atomic`` blocks inside are part of it, as in any transaction Django
    manages by hand; an ``on_commit`` hook is refused (Django allows none in one).
    """
    db = _default()
    if db.vendor != "postgresql" or db.in_atomic_block or not db.get_autocommit():
        with django_transaction.atomic(savepoint=savepoint):
            yield False
        return
    _set_autocommit(db, False)
    try:
        yield True
        raw = db.connection
        if raw.pgconn.transaction_status == _INTRANS:  # no write carried the COMMIT
            from hotpath import pgpipe

            with db.wrap_database_errors:
                pgpipe.run(raw, [], begin=False, commit=True)
    except BaseException:
        raw = db.connection
        if raw is not None and not (raw.closed or raw.broken):
            db.rollback()
        else:  # the connection broke: what the server did is its own
            db.close()
        raise
    finally:
        raw = db.connection
        if raw is not None and not (raw.closed or raw.broken):
            _set_autocommit(db, True)


def _set_autocommit(db: Any, on: bool) -> None:
    """``db.set_autocommit(on)`` for :func:`transaction`, without the checks it has made already
    (no ``atomic`` block, a connection open): the driver's flag, Django's, and on the way back
    the commit hooks Django would run. Its half of a posting's Python time was in Django's
    checks and its log of the ``BEGIN``; when queries are logged, Django's own does it all."""
    if db.queries_logged or db.in_atomic_block:
        db.set_autocommit(on)  # (and, in a block, Django's refusal)
        return
    db.close_if_health_check_failed()
    db._set_autocommit(on)
    db.autocommit = on
    if on and db.run_commit_hooks_on_set_autocommit_on:
        db.run_and_clear_commit_hooks()
        db.run_commit_hooks_on_set_autocommit_on = False


def roll_back() -> None:
    """End the transaction that the caller's :func:`transaction` block owns, keeping nothing
    (it found nothing to write): one round trip, and no flush of the log to wait for, as a
    ``COMMIT`` of a transaction that took row locks has."""
    db = _default()
    raw = db.connection
    if raw is not None and raw.pgconn.transaction_status == _INTRANS:
        from hotpath import pgpipe

        with db.wrap_database_errors:
            pgpipe.run(raw, [], begin=False, rollback=True)


def owns_transaction() -> bool:
    """Whether an ``atomic`` block entered now would own the transaction: the outermost block,
    on a connection in autocommit (so its statements may end with the ``COMMIT``)."""
    db = _default()
    return not db.in_atomic_block and db.get_autocommit()


def _on_django_cursor(db: Any, sql: str, params: Sequence[Any]) -> Result:
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.description:
            rows = list(cursor.fetchall())
            return Result(rows, len(rows))
        return Result([], cursor.rowcount)


class Prepared:
    """A read whose queryset ``build(*values)`` makes; :meth:`rows` runs it with new values."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]], arity: int) -> None:
        if not 1 <= arity <= len(_MARKERS):
            raise ValueError(f"a prepared read takes 1 to {len(_MARKERS)} values")
        self.build, self.arity = build, arity
        #: Per database: the SQL, and which value goes in each parameter.
        self._compiled: dict[tuple[str, str], tuple[str, list[int]]] = {}

    def _sql(self) -> tuple[str, list[int]]:
        key = _database()
        found = self._compiled.get(key)
        if found is None:
            markers = [str(marker) for marker in _MARKERS[: self.arity]]
            sql, params = self.build(*_MARKERS[: self.arity]).query.sql_with_params()
            # A text column gets the marker as text: match on the text of each.
            placed = [str(param) for param in params]
            if sorted(placed) != sorted(markers):
                raise ValueError("each value of a prepared read must be one parameter of its SQL")
            found = self._compiled[key] = (sql, [markers.index(param) for param in placed])
        return found

    def rows(self, *values: Any) -> Sequence[tuple[Any, ...]]:
        return execute(*self.statement(*values)).rows

    def statement(self, *values: Any) -> Statement:
        """The SQL and parameters that read ``values``: to run with others (:func:`execute_many`)."""
        if len(values) != self.arity:
            raise TypeError(f"this read takes {self.arity} values, not {len(values)}")
        sql, order = self._sql()
        return sql, [values[index] for index in order]


def _column(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or field.column is None:
        raise TypeError(f"{name} is not a column of {model.__name__}")
    return field


def from_db(field: Field[Any, Any], value: Any) -> Any:
    """A column's value as the driver gave it, as the model holds it: JSON from its text, a
    boolean from SQLite's 0 or 1, an aware time from SQLite's naive UTC (text, or a time the
    driver parsed)."""
    if value is None:
        return None
    if isinstance(field, models.JSONField) and isinstance(value, str):
        return jsontext.loads(value)
    if isinstance(field, models.BooleanField):
        return bool(value)
    if isinstance(field, models.DateTimeField):
        parsed = parse_datetime(value) if isinstance(value, str) else value
        return parsed.replace(tzinfo=UTC) if parsed is not None and timezone.is_naive(parsed) else parsed
    return value


def instance(model: type[ModelT], names: Sequence[str], values: Sequence[Any]) -> ModelT:
    """A model instance from a row's values for the fields ``names`` (attribute names, such as
    ``template_id``, in any order); the fields not named load from the database if they are read."""
    return _loaded(model, names, values, convert=True)


def instances(model: type[ModelT], rows: Sequence[Sequence[Any]]) -> list[ModelT]:
    """Model instances from the rows of a :class:`Prepared` read of ``model``'s whole rows (a
    queryset of the model itself, which selects every column in the order of its fields)."""
    names = [field.attname for field in model._meta.concrete_fields]
    return [_loaded(model, names, row, convert=True) for row in rows]


def _loaded(model: type[ModelT], names: Sequence[str], values: Sequence[Any], *, convert: bool) -> ModelT:
    # Model.from_db takes the values in the order of the model's fields, whatever the names say.
    given = dict(zip(names, values, strict=True))
    fields = [field for field in model._meta.concrete_fields if field.attname in given]
    if len(fields) != len(given):
        raise TypeError(f"not all of {list(names)} are columns of {model.__name__}")
    ordered = [from_db(field, given[field.attname]) if convert else given[field.attname] for field in fields]
    return model.from_db(DEFAULT_DB_ALIAS, [field.attname for field in fields], ordered)


@dataclass(frozen=True)
class IdOf:
    """A value for an :class:`Insert` or :class:`Update`: the primary key of the row of
    ``model`` whose field ``name`` is ``value``, looked up by the statement itself. For a row
    written earlier in the same round trip, whose key the caller cannot know yet (a journal
    the ledger writes with its key, see ``wallet.ledger.Then``)."""

    model: type[Model]
    name: str
    value: Any

    def sql(self) -> str:
        quote = connection.ops.quote_name
        primary = self.model._meta.pk
        assert primary is not None  # (every model of the project has one)
        table, column = quote(self.model._meta.db_table), quote(str(_column(self.model, self.name).column))
        # Only the model's own names and a %s placeholder are formatted in.
        return f"(SELECT {quote(str(primary.column))} FROM {table} WHERE {column} = %s)"  # noqa: S608

    def param(self) -> Any:
        return _column(self.model, self.name).get_db_prep_value(self.value, _default())


class _Write:
    def __init__(self, model: type[Model], fields: Sequence[str]) -> None:
        self.model = model
        self.fields = [_column(model, name) for name in fields]
        self._compiled: dict[tuple[Any, ...], str] = {}

    def _params(self, row: Sequence[Any]) -> list[Any]:
        db = _default()
        if db.vendor != "postgresql":
            return [
                value.param() if isinstance(value, IdOf) else field.get_db_prep_save(value, db)
                for field, value in zip(self.fields, row, strict=True)
            ]
        from psycopg.types.json import Jsonb

        return [
            value.param()
            if isinstance(value, IdOf)
            # A JSON column's value as the ORM sends it (``Jsonb``), written by orjson.
            else Jsonb(value, dumps=jsontext.dumps)
            if isinstance(field, models.JSONField) and value is not None
            else field.get_db_prep_save(value, db)
            for field, value in zip(self.fields, row, strict=True)
        ]

    @staticmethod
    def _placeholders(row: Sequence[Any]) -> list[str]:
        """``%s`` for each value, or the look-up of an :class:`IdOf`."""
        return [value.sql() if isinstance(value, IdOf) else "%s" for value in row]

    @staticmethod
    def _looked_up(row: Sequence[Any]) -> tuple[int, ...]:
        """Where a row has :class:`IdOf` values (part of its statement's cache key)."""
        return tuple(index for index, value in enumerate(row) if isinstance(value, IdOf))

    def _names(self) -> tuple[str, list[str], str]:
        """The table, the columns written and its primary key, quoted."""
        quote = connection.ops.quote_name
        primary = self.model._meta.pk
        if primary is None or primary.column is None:
            raise TypeError(f"{self.model.__name__} has no primary key")
        columns = [quote(str(field.column)) for field in self.fields]
        return quote(self.model._meta.db_table), columns, quote(primary.column)


class Insert(_Write):
    """``INSERT`` of rows of ``fields``, values in that order: many rows (:meth:`run`) or one,
    returning its primary key (:meth:`one`)."""

    def _sql(self, rows: Sequence[Sequence[Any]], returning: bool) -> str:
        key = (*_database(), len(rows), returning, *map(self._looked_up, rows))
        sql = self._compiled.get(key)
        if sql is None:
            table, columns, primary = self._names()
            values = ", ".join("(" + ", ".join(self._placeholders(row)) + ")" for row in rows)
            # Only the model's own names and %s placeholders are formatted in.
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values}"  # noqa: S608
            sql += f" RETURNING {primary}" if returning else ""
            self._compiled[key] = sql
        return sql

    def statement(self, rows: Sequence[Sequence[Any]], *, returning: bool = False) -> Statement:
        """The SQL and parameters that insert ``rows`` (at least one), returning their primary
        keys if ``returning``."""
        return self._sql(rows, returning), [value for row in rows for value in self._params(row)]

    def run(self, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            execute(*self.statement(rows))

    def one(self, row: Sequence[Any], *, commit: bool = False) -> Any:
        return execute_many([self.statement([row], returning=True)], commit=commit)[0].rows[0][0]


class Update(_Write):
    """``UPDATE`` of ``fields`` of one row by its primary key; :meth:`run` returns the rows
    changed (0 or 1)."""

    def statement(self, pk: Any, values: Sequence[Any]) -> Statement:
        """The SQL and parameters that write ``values`` to the row ``pk``."""
        key = (*_database(), self._looked_up(values))
        sql = self._compiled.get(key)
        if sql is None:
            table, columns, primary = self._names()
            placed = self._placeholders(values)
            assignments = ", ".join(
                f"{column} = {value}" for column, value in zip(columns, placed, strict=True)
            )
            sql = f"UPDATE {table} SET {assignments} WHERE {primary} = %s"  # noqa: S608 (as above)
            self._compiled[key] = sql
        return sql, [*self._params(values), pk]

    def run(self, pk: Any, values: Sequence[Any], *, commit: bool = False) -> int:
        return execute_many([self.statement(pk, values)], commit=commit)[0].rowcount


def locked(model: type[ModelT], name: str, value: Any) -> ModelT | None:
    """The row of ``model`` whose field ``name`` is ``value``, every column read and the row
    locked (``FOR UPDATE``, where the database has row locks) for this transaction."""
    field = _column(model, name)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(str(concrete.column)) for concrete in model._meta.concrete_fields)
    for_update = " FOR UPDATE" if connection.features.has_select_for_update else ""
    sql = (
        f"SELECT {columns} FROM {quote(model._meta.db_table)} "  # noqa: S608 (the model's names only)
        f"WHERE {quote(str(field.column))} = %s{for_update}"
    )
    rows = execute(sql, [field.get_db_prep_value(value, connection)]).rows
    return next(iter(instances(model, rows)), None)


#: The writes :func:`insert` and :func:`update` have built, by kind, model and fields.
_writes: dict[tuple[type[_Write], type[Model], tuple[str, ...]], Any] = {}


def _write(kind: type[WriteT], model: type[Model], names: Sequence[str]) -> WriteT:
    key = (kind, model, tuple(names))
    found = _writes.get(key)
    if found is None:
        found = _writes[key] = kind(model, names)
    written: WriteT = found  # the key holds its kind
    return written


def insert(model: type[ModelT], values: dict[str, Any], *, commit: bool = False) -> ModelT:
    """Insert one row of the fields named (attribute names, such as ``user_id``) and return it.
    With ``commit`` (the last statement of a block that owns its transaction, see
    :func:`transaction`) the ``COMMIT`` goes with it."""
    pk = _write(Insert, model, list(values)).one(list(values.values()), commit=commit)
    return inserted(model, values, pk)


def inserted(model: type[ModelT], values: dict[str, Any], pk: Any) -> ModelT:
    """The instance of a row inserted with ``values`` (as :func:`insert` takes them) and given
    the primary key ``pk``."""
    primary = model._meta.pk
    assert primary is not None  # _Write checked it
    return _loaded(model, [primary.attname, *values], [pk, *values.values()], convert=False)


def insert_statement(model: type[Model], values: dict[str, Any]) -> Statement:
    """The SQL and parameters that insert one row as :func:`insert` does, returning its primary
    key: to run with others (:func:`execute_many`). A value may be an :class:`IdOf`."""
    return _write(Insert, model, list(values)).statement([list(values.values())], returning=True)


def update(row: Model, names: Sequence[str], *, commit: bool = False) -> int:
    """Write the fields named (attribute names) of a model instance to its row (with the
    ``COMMIT``, as :func:`insert`, if ``commit``)."""
    return _write(Update, type(row), names).run(row.pk, [getattr(row, name) for name in names], commit=commit)


def update_statement(model: type[Model], pk: Any, values: dict[str, Any]) -> Statement:
    """The SQL and parameters that write ``values`` (by attribute name; a value may be an
    :class:`IdOf`) to the row ``pk`` of ``model``: to run with others."""
    return _write(Update, model, list(values)).statement(pk, list(values.values()))
