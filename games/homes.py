"""Where a table belongs, for its page's way back: the lobby, unless an app above seated it for
something of its own (a tournament's round), which says so through a hook it registers in its
``AppConfig.ready``. The tables know nothing of what those apps are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from django.urls import reverse


class Home(NamedTuple):
    """The page a table's player goes back to, its name in words ("the lobby"), and what the
    table's bar says in place of its stake ("Evening cup · round 2"; empty: the stake)."""

    url: str
    name: str
    caption: str = ""


#: Given a table, its home, or None when the table is not one of the hook's.
Finder = Callable[[Any], Home | None]

_finders: list[Finder] = []


def register(finder: Finder) -> None:
    if finder not in _finders:
        _finders.append(finder)


def unregister(finder: Finder) -> None:
    if finder in _finders:
        _finders.remove(finder)


def home_of(table: Any) -> Home:
    """The first home a registered hook finds for ``table``, else the lobby."""
    for finder in list(_finders):
        found = finder(table)
        if found is not None:
            return found
    return Home(reverse("games:lobby"), "the lobby")
