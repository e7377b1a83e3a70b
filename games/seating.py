"""Who may not sit together at a table where it matters: the tables' one question to fair play,
"which of these players must be kept apart?".

The fair-play rules live above the games (the ``fairplay`` app); the tables ask through this
hook, which that app answers by registering a function here from its ``AppConfig.ready`` (as
``games.services.after_commit`` is wired explicitly, never by import side effects). With
nothing registered, nobody is kept apart. Every path that seats a player at a money table asks
(:func:`check_seat`), and so does anything that seats many at once, such as a tournament's
rounds (:func:`pairs_apart`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

#: Given some players' ids, the pairs among them that must never share a table.
KeepApart = Callable[[Iterable[int]], set[frozenset[int]]]

_answers: list[KeepApart] = []


def register(answer: KeepApart) -> None:
    """Add an answer (the fair-play app's, at start-up); registering one twice adds it once."""
    if answer not in _answers:
        _answers.append(answer)


def unregister(answer: KeepApart) -> None:
    if answer in _answers:
        _answers.remove(answer)


def pairs_apart(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """Every pair among ``user_ids`` that some registered answer keeps apart."""
    ids = list(dict.fromkeys(user_ids))
    found: set[frozenset[int]] = set()
    for answer in _answers:
        found |= answer(ids)
    return found


def kept_from(user_id: int, seated: Iterable[int]) -> bool:
    """Whether ``user_id`` must be kept apart from anyone ``seated``."""
    others = [uid for uid in seated if uid != user_id]
    return any(user_id in pair for pair in pairs_apart([user_id, *others])) if others else False


#: What a player refused a seat reads: it never names the other account.
LINKED = (
    "linked_account",
    "You can't sit at this table: an account linked to yours is playing here. Another table of "
    "the same kind is fine.",
)


def check_seat(user_id: int, seated: Iterable[int]) -> None:
    """Raise ``linked_account`` if ``user_id`` must be kept apart from anyone ``seated`` (at a
    money table: practice tables do not ask)."""
    from games.errors import GameError

    if kept_from(user_id, seated):
        raise GameError(*LINKED)
