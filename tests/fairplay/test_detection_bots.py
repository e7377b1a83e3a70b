"""The bot detectors on constructed timings: a script's regular or too-fast moves and its
endless session are flagged, people's varied timing is not, and scripts with the same pace are
grouped as one machine."""

from __future__ import annotations

import random

from fairplay.tablelog import TableLog
from fairplay.thresholds import thresholds
from fairplay.timing import bot_timing, longest_session_hours
from tests.fairplay.tablelogs import timed

T = thresholds()


def people(log: TableLog, seed: int, count: int = 40) -> None:
    """Players 10 and up think 0.3 to 6 s, skewed as people are (log-normal around 2 s)."""
    rng = random.Random(seed)
    for player in range(10, 10 + count):
        timed(log, player, [int(min(6000, max(300, rng.lognormvariate(7.6, 0.5)))) for _ in range(80)])


def test_it_flags_a_script_too_regular_for_a_person():
    log = TableLog()
    people(log, 1)
    rng = random.Random(2)
    timed(log, 1, [900 + rng.randint(-40, 40) for _ in range(80)])
    found, groups = bot_timing(log, T)
    assert [f.subjects for f in found] == [(1,)]
    figures = found[0].figures
    assert figures["cv"] < 0.05
    assert list(figures["reasons"]) == ["too_regular"]
    assert 0.3 < figures["baseline"]["cv"] < 0.7, "people's spread"
    assert found[0].score > 5
    assert groups == [], "one script alone is no group"


def test_it_flags_moves_faster_than_a_person_reads_the_table():
    log = TableLog()
    people(log, 3)
    rng = random.Random(4)
    timed(log, 2, [rng.randint(50, 300) for _ in range(80)])
    found, _ = bot_timing(log, T)
    assert [f.subjects for f in found] == [(2,)]
    assert "too_fast" in found[0].figures["reasons"]


def test_it_flags_a_session_no_person_plays():
    log = TableLog()
    people(log, 5)
    rng = random.Random(6)
    timed(log, 3, [int(rng.lognormvariate(7.6, 0.5)) for _ in range(80)])
    hours = 20
    log.acted_at_ms[3] = [i * hours * 3_600_000 // 79 for i in range(80)]  # a move every 15 minutes
    found, _ = bot_timing(log, T)
    assert [f.subjects for f in found] == [(3,)]
    assert found[0].figures["longest_session_hours"] == 20
    assert list(found[0].figures["reasons"]) == ["session_too_long"]


def test_people_are_not_flagged():
    log = TableLog()
    people(log, 7, count=200)
    assert bot_timing(log, T) == ([], [])


def test_it_needs_the_minimum_of_timed_actions():
    log = TableLog()
    people(log, 8)
    timed(log, 1, [900] * (T.bot_min_actions - 1))
    assert bot_timing(log, T) == ([], [])


def test_scripts_with_the_same_pace_are_one_machine():
    log = TableLog()
    people(log, 9)
    rng = random.Random(10)
    for bot in (1, 2, 3):
        timed(log, bot, [900 + rng.randint(-40, 40) for _ in range(80)])
    timed(log, 4, [2500 + rng.randint(-40, 40) for _ in range(80)])
    found, groups = bot_timing(log, T)
    assert {f.subjects for f in found} == {(1,), (2,), (3,), (4,)}
    assert [g.subjects for g in groups] == [(1, 2, 3)], "the 2.5 s script runs at another pace"
    assert groups[0].figures["accounts"] == 3


def test_a_session_ends_at_a_long_pause():
    minute = 60_000
    moments = [0, 10 * minute, 19 * minute, 60 * minute, 61 * minute]
    assert longest_session_hours(moments, gap_minutes=20) == 19 / 60
    assert longest_session_hours([], gap_minutes=20) == 0


def test_a_few_odd_delays_do_not_hide_a_script():
    """The spread is taken robustly: a script that now and then waits longer (a leave asked
    for between its moves) is still far too regular."""
    log = TableLog()
    people(log, 11)
    rng = random.Random(12)
    times = [900 + rng.randint(-40, 40) for _ in range(76)] + [1245, 1333, 1773, 2400]
    timed(log, 1, times)
    found, _ = bot_timing(log, T)
    assert [f.subjects for f in found] == [(1,)]
    assert found[0].figures["plain_cv"] > T.bot_max_cv, "the plain figure alone would miss it"
    assert found[0].figures["cv"] < 0.1


def test_a_group_too_big_to_spell_out_keeps_a_stable_key_a_case_can_hold():
    from fairplay.figures import KEY_LENGTH, Finding
    from fairplay.models import Case

    small = Finding("bot_pattern", (3, 17, 42), 9.0, {})
    assert small.key == "bot_pattern:3-17-42"
    big = Finding("bot_pattern", tuple(range(100_000, 100_040)), 9.0, {})
    assert len(big.key) <= KEY_LENGTH == Case._meta.get_field("key").max_length
    assert big.key == Finding("bot_pattern", tuple(range(100_000, 100_040)), 1.0, {}).key
    assert big.key != Finding("bot_pattern", tuple(range(100_001, 100_041)), 9.0, {}).key
