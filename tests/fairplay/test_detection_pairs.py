"""The pair detectors on constructed logs: each flags a planted pair and none of the honest
crowd around it, and none flags a pair below its minimum of chances however lopsided."""

from __future__ import annotations

import random

import pytest

from fairplay import pairs
from fairplay.tablelog import DealRecord, HeadsUp, Pick
from fairplay.thresholds import thresholds
from tests.fairplay.tablelogs import A, B, crowd_log

T = thresholds()


def subjects(findings):  # type: ignore[no-untyped-def]
    return {f.subjects for f in findings}


def test_it_flags_a_pair_seated_together_far_more_than_chance():
    log = crowd_log(1, pair_tables=30)
    findings = pairs.co_seating(log, T)
    assert subjects(findings) == {(A, B)}
    (found,) = findings
    assert found.figures["tables_together"] == 30
    assert 1 < found.figures["expected_tables"] < 2, "30 tables each, among 430 tables of four"
    assert found.score >= T.co_seating_min_ratio
    assert len(found.deals) == 30


def test_it_does_not_flag_the_crowd_seated_at_random():
    assert pairs.co_seating(crowd_log(2, tables=600), T) == []


def test_it_needs_the_minimum_of_tables_together_however_unlikely():
    log = crowd_log(3, pair_tables=T.co_seating_min_tables - 1)
    assert pairs.co_seating(log, T) == []


def soft(deal: DealRecord, rng: random.Random) -> None:
    """A drops whenever only B is left, on a first turn as on a later one."""
    if {A, B} <= set(deal.players):
        deal.heads_up = [HeadsUp(A, B, False, True), HeadsUp(A, B, True, True)]


def test_it_flags_soft_play_and_not_the_honest_drops():
    log = crowd_log(4, pair_tables=10, shape=soft)
    findings = pairs.soft_play(log, T)
    assert subjects(findings) == {(A, B)}
    figures = findings[0].figures
    assert (figures["player"], figures["partner"]) == (A, B)
    assert figures["turns_alone_with_partner"] == 20
    assert figures["first_turns"] == 10
    assert figures["played_on"] == 0
    assert 0.83 < figures["baseline_play_on_rate"]["later_turn"] < 0.92, (
        "the crowd drops one such turn in eight"
    )
    assert findings[0].score == pytest.approx(figures["expected_to_play_on"] / 0.5, abs=0.01)
    assert figures["chance_by_luck"] < 1e-8, "ten later turns, none played on"
    assert len(findings[0].deals) == 10


def test_soft_play_needs_the_minimum_of_turns():
    log = crowd_log(6, pair_tables=T.soft_play_min_turns // 2 - 1, shape=soft)
    assert pairs.soft_play(log, T) == []


def test_playing_on_as_often_as_anyone_is_not_soft_play():
    """The pair sits together often but plays its turns alone together like the crowd."""
    assert pairs.soft_play(crowd_log(5, pair_tables=40), T) == []


def dump(deal: DealRecord, rng: random.Random) -> None:
    """A loses the full count to B whenever they play together, and B always wins."""
    if {A, B} <= set(deal.players):
        deal.winner = B
        deal.transfers = [(p, B, 80 if p == A else rng.randint(5, 40)) for p in deal.players if p != B]


def test_it_flags_chip_dumping_with_its_direction_and_money():
    log = crowd_log(7, pair_tables=25, shape=dump)
    findings = pairs.chip_dumping(log, T)
    assert subjects(findings) == {(A, B)}
    figures = findings[0].figures
    assert (figures["payer"], figures["payee"]) == (A, B)
    assert figures["net_points"] == 25 * 80
    assert figures["net_by_currency"] == {"INR": 25 * 80 * 100}, "points times the table's point value"
    assert figures["times_usual"] >= T.chip_dump_min_ratio


def test_chip_dumping_reads_only_points_tables():
    assert pairs.chip_dumping(crowd_log(8, pair_tables=25, shape=dump, variant="pool101"), T) == []


def test_it_does_not_flag_honest_settlements():
    """The crowd plays pairs of up to 20 deals; none is flagged, and neither is the pair playing
    honestly at its own tables."""
    assert pairs.chip_dumping(crowd_log(9, tables=1200, pair_tables=30), T) == []


def feed(deal: DealRecord, rng: random.Random) -> None:
    """B takes every discard of A's from the open pile."""
    deal.picks = [
        Pick(p.discarder, p.drawer, True) if (p.discarder, p.drawer) == (A, B) else p for p in deal.picks
    ]


def test_it_flags_discard_feeding_and_not_the_usual_picks():
    log = crowd_log(10, pair_tables=20, shape=feed)
    findings = pairs.discard_feeding(log, T)
    assert subjects(findings) == {(A, B)}
    figures = findings[0].figures
    assert (figures["discarder"], figures["taker"]) == (A, B)
    assert figures["taken_from_open_pile"] == figures["chances"]
    assert 0.12 < figures["baseline_take_rate"]["points13"] < 0.22, "one in six"


def test_feeding_needs_the_minimum_of_chances():
    log = crowd_log(11, pair_tables=2, shape=feed)
    assert pairs.discard_feeding(log, T) == []


def test_it_flags_wins_against_one_opponent():
    def beaten(deal: DealRecord, rng: random.Random) -> None:
        if {A, B} <= set(deal.players):
            deal.winner = B

    log = crowd_log(12, pair_tables=40, shape=beaten)
    findings = pairs.win_rate(log, T)
    assert subjects(findings) == {(A, B)}
    assert findings[0].figures["winner"] == B
    assert findings[0].figures["wins"] == 40
    assert findings[0].figures["expected_wins"] == pytest.approx(40 / 4, rel=0.5)


def test_it_does_not_flag_wins_that_chance_explains():
    assert pairs.win_rate(crowd_log(13, tables=1200, pair_tables=40), T) == []


def test_the_chance_of_so_few_successes_is_exact():
    from fairplay.figures import at_most_chance, poisson_tail

    assert at_most_chance(0, [0.5, 0.5, 0.5]) == pytest.approx(1 / 8)
    assert at_most_chance(1, [0.5, 0.5, 0.5]) == pytest.approx(4 / 8)
    assert at_most_chance(0, [0.3] * 30 + [0.9] * 3) == pytest.approx(0.7**30 * 0.1**3)
    assert at_most_chance(3, [0.2, 0.4]) == 1.0
    assert poisson_tail(1, 2.0) == pytest.approx(1 - 2.718281828**-2)
    assert poisson_tail(0, 2.0) == 1.0


def test_the_thresholds_come_from_one_place_and_a_typo_is_refused(settings):
    settings.FAIRPLAY_THRESHOLDS = {"feed_min_chances": 50}
    assert thresholds().feed_min_chances == 50
    assert thresholds(feed_min_chances=7).feed_min_chances == 7, "a caller's override wins"
    assert thresholds().min_z == 5.0, "the others keep their defaults"
    settings.FAIRPLAY_THRESHOLDS = {"feed_min_chance": 50}
    with pytest.raises(ValueError, match="feed_min_chance"):
        thresholds()
