"""JSON text for the hot paths: a move's state read and written, its frames and snapshots.

orjson writes and reads the same JSON as the standard library's ``json`` at a fraction of its
cost (it took 7% off a move's Python time: docs/PERFORMANCE.md, "A move").
The text is compact, in UTF-8 (not ``\\u`` escapes), and keys that are not strings (an int)
are written as strings, as ``json`` does. This module imports nothing of the project, so every
layer may use it (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from typing import Any

import orjson


def dumps(value: Any) -> str:
    """``value`` as compact JSON text."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def loads(text: str | bytes) -> Any:
    """The value of JSON text (``orjson.JSONDecodeError``, a ``ValueError``, if it is not)."""
    return orjson.loads(text)
