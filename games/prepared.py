"""Reads on the hot path of live play, built by the ORM once per process and then run as plain SQL.

Building a query costs the ORM more than PostgreSQL takes to run it: for the seats' names and
presence, 1.09 ms through a queryset against 0.44 ms for the same SQL on a cursor
(docs/PERFORMANCE.md). A :class:`Prepared` read is written as an ordinary queryset, compiled the
first time it runs on a database, and from then on sent as the SQL the ORM made, with new values.

Its rows are the database driver's own values, without Django's converters: use it for columns
read as they come (whole numbers, text, nulls), and wrap booleans in ``bool()``, which SQLite
returns as 0 or 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.models import QuerySet

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
