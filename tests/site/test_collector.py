"""The garbage collector as daphne runs it (rummysite.collector): what starting made is frozen
out of the collector's passes, and the youngest generation waits for more allocations."""

from __future__ import annotations

import gc

import pytest

from rummysite.collector import settle_after_startup
from tests.conftest import run_python


@pytest.fixture
def collector():  # type: ignore[no-untyped-def]
    """Put the test process's collector back as it was."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_it_freezes_what_starting_made_and_raises_the_youngest_threshold(collector, settings):
    settings.GC_YOUNG_THRESHOLD = 10_000
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    made: list[object] = []  # made while starting: it lives as long as the process

    settle_after_startup()
    young: list[object] = []  # made after: the collector's passes still look at it

    watched = gc.get_objects()  # (every generation's objects; the frozen ones are in none)
    assert not any(found is made for found in watched)
    assert any(found is young for found in watched)
    assert gc.get_freeze_count() > 1_000
    assert gc.get_threshold() == (10_000, 10, 10)


def test_zero_leaves_pythons_threshold(collector, settings):
    settings.GC_YOUNG_THRESHOLD = 0
    gc.set_threshold(700, 10, 10)

    settle_after_startup()

    assert gc.get_threshold() == (700, 10, 10)


def test_daphne_settles_the_collector_once_it_has_started():
    code = "import gc, rummysite.asgi; print(gc.get_freeze_count() > 50_000, gc.get_threshold()[0])"
    result = run_python(code, GC_YOUNG_THRESHOLD="12000", REDIS_URL="")

    assert result.stdout.split()[-2:] == ["True", "12000"], result.stderr[-2000:]
