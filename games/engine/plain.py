"""A dataclass of plain values (numbers, text, None, enums) as a JSON object's fields.

``dataclasses.asdict`` walks every value and deep-copies each leaf: for the engine's records,
whose fields are all plain, that walk was a twentieth of a move's CPU (docs/PERFORMANCE.md, "One
action in one process"). Here the fields are read one level deep, by names looked up once a type.
"""

from __future__ import annotations

import dataclasses
from typing import Any

_names: dict[type, tuple[str, ...]] = {}


def fields_of(record: Any) -> dict[str, Any]:
    """``record``'s fields by name, values as they are: for a dataclass whose fields hold no
    container or other dataclass (:func:`dataclasses.asdict` for those)."""
    kind = type(record)
    names = _names.get(kind)
    if names is None:
        names = _names[kind] = tuple(field.name for field in dataclasses.fields(record))
    return {name: getattr(record, name) for name in names}
