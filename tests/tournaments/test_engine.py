"""The tournament's rules as values (tournaments.engine): every arrow of the state machine, the
seating, the ranking and the prize split, on plain numbers."""

from __future__ import annotations

import hashlib
import itertools

import pytest

from games.engine.shuffle import shuffled
from tournaments import engine
from tournaments.engine import Finish, Status, Step, TournamentRuleError, Verdict


def seed(n: int) -> bytes:
    return hashlib.sha256(b"seating %d" % n).digest()


# --- the state machine ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "step", "after"),
    [
        (Status.ANNOUNCED, Step.OPEN, Status.REGISTERING),
        (Status.ANNOUNCED, Step.CANCEL, Status.CANCELLED),
        (Status.REGISTERING, Step.START, Status.RUNNING),
        (Status.REGISTERING, Step.CANCEL, Status.CANCELLED),
        (Status.RUNNING, Step.FINISH, Status.FINISHED),
        (Status.RUNNING, Step.VOID, Status.VOIDED),
    ],
)
def test_each_arrow_of_the_state_machine_leads_where_it_says(
    before: Status, step: Step, after: Status
) -> None:
    assert engine.move(before, step) is after


def test_the_arrows_are_exactly_six() -> None:
    assert len(engine.ARROWS) == 6


def test_every_other_move_is_refused_with_not_now() -> None:
    refused = [
        (status, step)
        for status, step in itertools.product(Status, Step)
        if (status, step) not in engine.ARROWS
    ]
    assert len(refused) == len(Status) * len(Step) - 6
    for status, step in refused:
        with pytest.raises(TournamentRuleError) as caught:
            engine.move(status, step)
        assert caught.value.code == "not_now"


def test_an_ended_tournament_goes_nowhere() -> None:
    for status in engine.OVER:
        assert not [step for step in Step if (status, step) in engine.ARROWS]


def test_r_tour_2_can_run_waits_runs_or_cancels() -> None:
    """R-TOUR-2: before the start it waits; at the start it runs with the minimum, else it is
    cancelled; a sit-and-go's start is its maximum registering, a scheduled one's its time, even
    when it filled early (R-TOUR-1)."""

    def verdict(registered: int, *, sit_and_go: bool = False, time_come: bool = False) -> Verdict:
        return engine.can_run(
            registered=registered, minimum=4, maximum=9, sit_and_go=sit_and_go, time_come=time_come
        )

    assert verdict(5) is Verdict.WAIT
    assert verdict(9) is Verdict.WAIT, "a scheduled tournament full early waits for its time"
    assert verdict(4, time_come=True) is Verdict.RUN
    assert verdict(3, time_come=True) is Verdict.CANCEL
    assert verdict(9, sit_and_go=True) is Verdict.RUN
    assert verdict(8, sit_and_go=True) is Verdict.WAIT


def test_r_tour_1_settings_are_checked_once() -> None:
    good = {
        "minimum": 4,
        "maximum": 60,
        "table_size": 6,
        "qualify": 2,
        "prize_bps": [6000, 4000],
        "buy_in": 100,
        "rake_percent": 10,
        "guarantee": 0,
    }
    engine.check_settings(**good)  # type: ignore[arg-type]
    for bad in (
        {"table_size": 7},
        {"table_size": 1},
        {"qualify": 6},
        {"qualify": 0},
        {"minimum": 1},
        {"minimum": 61},
        {"prize_bps": [6000, 3000]},
        {"prize_bps": [4000, 6000]},
        {"prize_bps": []},
        {"rake_percent": 26},
        {"buy_in": -1},
    ):
        with pytest.raises(TournamentRuleError) as caught:
            engine.check_settings(**{**good, **bad})  # type: ignore[arg-type]
        assert caught.value.code == "bad_settings", bad


# --- seating ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_r_tour_3_table_sizes_differ_by_one_at_most(size: int) -> None:
    """R-TOUR-3: as few tables as hold everyone, sizes differing by at most one."""
    for players in range(2, 200):
        sizes = engine.table_sizes(players, size)
        assert sum(sizes) == players
        assert max(sizes) - min(sizes) <= 1
        assert min(sizes) >= 2
        if size > 2 or players % 2 == 0:
            assert max(sizes) <= size
            assert len(sizes) == -(-players // size)


def test_table_sizes_of_examples() -> None:
    assert engine.table_sizes(13, 6) == (5, 4, 4)
    assert engine.table_sizes(7, 6) == (4, 3)
    assert engine.table_sizes(6, 6) == (6,)
    assert engine.table_sizes(5, 2) == (3, 2), "heads-up, odd: one table of three"


def test_seating_is_the_shuffle_of_the_seed_and_balanced() -> None:
    """R-TOUR-3: at random (the deal's shuffle of the players by id), balanced, re-derived from
    the seed: the same seed the same tables, another seed other tables."""
    players = list(range(101, 124))
    first = engine.seat(players, 6, seed(1))
    assert first == engine.seat(list(reversed(players)), 6, seed(1))
    assert first != engine.seat(players, 6, seed(2))
    assert sorted(p for t in first.tables for p in t) == players
    assert [len(t) for t in first.tables] == [6, 6, 6, 5]
    order = shuffled(sorted(players), seed(1))
    assert first.tables[0][0] == order[0]
    assert first.tables[1][0] == order[1]


def test_linked_players_are_seated_apart() -> None:
    players = list(range(1, 13))
    apart = {frozenset((1, 2)), frozenset((1, 3)), frozenset((2, 3))}
    for n in range(20):
        seating = engine.seat(players, 4, seed(n), apart)
        for table in seating.tables:
            assert len({1, 2, 3} & set(table)) <= 1
        assert seating.together_anyway == ()


def test_links_that_leave_no_way_are_seated_anyway_and_said() -> None:
    apart = {frozenset(pair) for pair in itertools.combinations(range(1, 5), 2)}
    seating = engine.seat([1, 2, 3, 4], 4, seed(0), apart)
    assert seating.tables == (tuple(shuffled([1, 2, 3, 4], seed(0))),)
    assert len(seating.together_anyway) == 6


def test_qualifiers_at_a_table_never_all() -> None:
    assert engine.qualifiers_at(6, 2) == 2
    assert engine.qualifiers_at(3, 3) == 2
    assert engine.qualifiers_at(2, 5) == 1


def test_final_when_the_players_left_fit_at_one_table() -> None:
    assert engine.is_final(6, 6)
    assert not engine.is_final(7, 6)


# --- ranking ----------------------------------------------------------------------------------


def test_r_tour_4_ranking() -> None:
    """R-TOUR-4: knocked out later ranks higher; in the same round by chips, then by the earlier
    registration; the final's winner first (R-TOUR-3)."""
    finishes = [
        Finish(player=10, round_reached=1, chips=100, registered=0),
        Finish(player=11, round_reached=1, chips=300, registered=1),
        Finish(player=12, round_reached=1, chips=300, registered=2),
        Finish(player=13, round_reached=3, chips=50, registered=3, won=True),
        Finish(player=14, round_reached=3, chips=400, registered=4),
        Finish(player=15, round_reached=2, chips=0, registered=5),
    ]
    assert engine.ranking(finishes) == (13, 14, 15, 11, 12, 10)


def test_a_player_ranked_twice_is_refused() -> None:
    with pytest.raises(TournamentRuleError):
        engine.ranking([Finish(1, 1, 0, 0), Finish(1, 2, 0, 1)])


# --- money ------------------------------------------------------------------------------------


def test_r_tour_5_pool_is_buy_ins_less_rake_or_the_guarantee() -> None:
    """R-TOUR-5: the pool is the buy-ins less the rake, or the guarantee if higher (overlay)."""
    assert engine.prize_pool(60_000, 10, 0) == engine.PrizePool(60_000, 6_000, 0)
    assert engine.prize_pool(60_000, 10, 0).pool == 54_000
    topped = engine.prize_pool(60_000, 10, 1_00_000)
    assert (topped.rake, topped.overlay, topped.pool) == (6_000, 46_000, 1_00_000)
    assert engine.prize_pool(999, 10, 0).rake == 99, "rounded down, as the tables take it"
    assert engine.prize_pool(0, 10, 5_000).pool == 5_000, "a free tournament: the house's guarantee"


def test_r_tour_5_prizes_add_up_to_the_pool_remainders_to_the_top() -> None:
    """R-TOUR-5: integer amounts, remainders one paisa at a time to the highest places."""
    assert engine.split_prizes(10_001, [5000, 3000, 2000], 9) == (5_001, 3_000, 2_000)
    assert engine.split_prizes(10_002, [3334, 3333, 3333], 9) == (3_335, 3_334, 3_333)
    for pool in (0, 1, 7, 99_999, 1_23_45_678):
        for shares in ([10_000], [6000, 4000], [4000, 2500, 1500, 1200, 800]):
            prizes = engine.split_prizes(pool, shares, 40)
            assert sum(prizes) == pool
            assert list(prizes) == sorted(prizes, reverse=True)


def test_fewer_players_than_places_split_the_whole_pool_among_them() -> None:
    assert engine.split_prizes(1_000, [5000, 3000, 2000], 2) == (625, 375)
