"""A dataclass of plain values (numbers, text, None, enums) as a JSON object's fields.

``dataclasses.asdict`` walks every value and deep-copies each leaf: for the engine's records,
whose fields are all plain, that walk was a twentieth of a move's CPU (docs/PERFORMANCE.md, "One
action in one process"). Here the fields are read one level deep, by names looked up once a type.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any


@cache
def _names(kind: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(kind))


def fields_of(record: Any) -> dict[str, Any]:
    """``record``'s fields by name, values as they are: for a dataclass whose fields hold no
    container or other dataclass (:func:`dataclasses.asdict` for those)."""
    return {name: getattr(record, name) for name in _names(type(record))}
