"""The tables' question to fair play: which players must be kept apart (games.seating)."""

from __future__ import annotations

import pytest

from games import seating


@pytest.fixture(autouse=True)
def only_these_answers(monkeypatch):
    """The hook on its own: without the answer the fair-play app registers at start-up."""
    monkeypatch.setattr(seating, "_answers", [])


@pytest.fixture
def linked():
    """An answer keeping 1 and 2 apart, registered for the test only."""

    def answer(ids):  # type: ignore[no-untyped-def]
        ids = set(ids)
        return {frozenset({1, 2})} if {1, 2} <= ids else set()

    seating.register(answer)
    seating.register(answer)  # once only
    yield answer
    seating.unregister(answer)


def test_with_no_answer_registered_nobody_is_kept_apart():
    assert seating.pairs_apart([1, 2, 3]) == set()
    assert seating.kept_from(1, [2, 3]) is False


def test_the_registered_answers_name_the_pairs_kept_apart(linked):
    assert seating.pairs_apart([1, 2, 3]) == {frozenset({1, 2})}
    assert seating.kept_from(1, [2, 3]) is True
    assert seating.kept_from(3, [1, 2]) is False
    assert seating.kept_from(1, [1]) is False, "a player is not kept from themselves"
