"""Who sat down where, from which client: the tables' word to the apps above.

A page or API view that seated a player calls :func:`arrived` with its request; the fair-play
app records the client's address, device and user agent (``fairplay.signals``) from a hook it
registers in its ``AppConfig.ready``. Nothing here runs on a move: only on sitting down.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Given the request, the player's id and the table's id, after the seat was committed.
Arrival = Callable[[Any, int, int], None]

_hooks: list[Arrival] = []


def register(hook: Arrival) -> None:
    if hook not in _hooks:
        _hooks.append(hook)


def unregister(hook: Arrival) -> None:
    if hook in _hooks:
        _hooks.remove(hook)


def arrived(request: Any, user_id: int, table_id: int) -> None:
    """Tell every registered hook that ``user_id`` sat down at ``table_id`` through ``request``."""
    for hook in list(_hooks):
        hook(request, user_id, table_id)
