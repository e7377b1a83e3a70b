"""Statements on the hot path of live play, built once per process and then run as plain SQL.

Building a query costs the ORM more than PostgreSQL takes to run it: for the seats' names and
presence, 1.09 ms through a queryset against 0.44 ms for the same SQL on a cursor
(docs/PERFORMANCE.md). So every statement of a move is built once:

- a :class:`Prepared` read is written as an ordinary queryset, compiled the first time it runs
  on a database, and from then on sent as the SQL the ORM made, with new values. Its rows are
  the database driver's own values, without Django's converters: use it for columns read as
  they come (whole numbers, text, nulls, JSON as text), and wrap booleans in ``bool()``, which
  SQLite returns as 0 or 1;
- an :class:`Insert` or :class:`Update` names a model's fields; its SQL comes from the model's
  ``_meta`` and each value goes through its field's ``get_db_prep_save``, as the ORM's own
  writes do. Neither sets ``auto_now`` fields nor sends signals: the caller passes every value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model, QuerySet

#: Stand-ins for the values while the query is compiled: each must reach the SQL as a parameter
#: of its own, so that its place can be found and the real value put there.
_MARKERS = (-7_300_001, -7_300_002, -7_300_003, -7_300_004)


class Prepared:
    """A read whose queryset ``build(*values)`` makes; :meth:`rows` runs it with new values."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]], arity: int) -> None:
        if not 1 <= arity <= len(_MARKERS):
            raise ValueError(f"a prepared read takes 1 to {len(_MARKERS)} values")
        self.build, self.arity = build, arity
        #: Per database (its vendor and name): the SQL, and which value goes in each parameter.
        self._compiled: dict[tuple[str, str], tuple[str, list[int]]] = {}

    def _sql(self) -> tuple[str, list[int]]:
        key = (connection.vendor, str(connection.settings_dict["NAME"]))
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
        if len(values) != self.arity:
            raise TypeError(f"this read takes {self.arity} values, not {len(values)}")
        sql, order = self._sql()
        with connection.cursor() as cursor:
            cursor.execute(sql, [values[index] for index in order])
            found: list[tuple[Any, ...]] = cursor.fetchall()
        return found


def _database() -> tuple[str, str]:
    return connection.vendor, str(connection.settings_dict["NAME"])


class _Write:
    def __init__(self, model: type[Model], fields: Sequence[str]) -> None:
        self.model = model
        self.fields: list[Field[Any, Any]] = []
        self.columns: list[str] = []
        for name in fields:
            field = model._meta.get_field(name)
            if not isinstance(field, Field) or field.column is None:
                raise TypeError(f"{name} is not a column of {model.__name__}")
            self.fields.append(field)
            self.columns.append(field.column)
        self._compiled: dict[tuple[str, str, int], str] = {}

    def _values(self, row: Sequence[Any]) -> list[Any]:
        pairs = zip(self.fields, row, strict=True)
        return [field.get_db_prep_save(value, connection) for field, value in pairs]


class Insert(_Write):
    """``INSERT`` of rows of ``fields`` (values in that order): :meth:`run` takes one or many."""

    def run(self, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        key = (*_database(), len(rows))
        sql = self._compiled.get(key)
        if sql is None:
            quote = connection.ops.quote_name
            columns = ", ".join(quote(column) for column in self.columns)
            row = "(" + ", ".join(["%s"] * len(self.fields)) + ")"
            table = quote(self.model._meta.db_table)
            # Only the model's own names and %s placeholders are formatted in.
            sql = f"INSERT INTO {table} ({columns}) VALUES {', '.join([row] * len(rows))}"  # noqa: S608
            self._compiled[key] = sql
        with connection.cursor() as cursor:
            cursor.execute(sql, [value for row in rows for value in self._values(row)])


class Update(_Write):
    """``UPDATE`` of ``fields`` of one row by its primary key: :meth:`run` returns the rows changed."""

    def run(self, pk: Any, values: Sequence[Any]) -> int:
        key = (*_database(), 1)
        sql = self._compiled.get(key)
        if sql is None:
            quote = connection.ops.quote_name
            assignments = ", ".join(f"{quote(column)} = %s" for column in self.columns)
            table = quote(self.model._meta.db_table)
            pk_field = self.model._meta.pk
            if pk_field is None or pk_field.column is None:
                raise TypeError(f"{self.model.__name__} has no primary key")
            primary = quote(pk_field.column)
            sql = f"UPDATE {table} SET {assignments} WHERE {primary} = %s"  # noqa: S608 (as above)
            self._compiled[key] = sql
        with connection.cursor() as cursor:
            cursor.execute(sql, [*self._values(values), pk])
            changed: int = cursor.rowcount
        return changed
