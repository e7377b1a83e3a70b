"""Helpers for the tournament tests: tournaments made quickly, and rounds played to their end by
the bots' solver on the simulator's clock (tournaments.simulate)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tournaments import services
from tournaments.models import RoundTable, Tournament
from tournaments.simulate import Simulator, seeded


def make(**fields: Any) -> Tournament:
    values: dict[str, Any] = {
        "name": "Sunday knock-out",
        "currency": "INR",
        "buy_in": 100_00,
        "rake_percent": 10,
        "guarantee": 0,
        "min_players": 3,
        "max_players": 9,
        "table_size": 3,
        "qualify": 1,
        "prize_bps": [7000, 3000],
        "start_at": None,
    }
    values.update(fields)
    return services.create(**values)


@contextmanager
def playing(seed: int = 1) -> Iterator[Simulator]:
    """Seeded deals and seatings, the tournaments' hook alone after each table write, and the
    round tables on the simulator's clock."""
    simulator = Simulator(seed)
    original = services.now_ms
    services.now_ms = lambda: simulator.clock
    try:
        with seeded(seed):
            yield simulator
    finally:
        services.now_ms = original


def play_round(simulator: Simulator, tournament: Tournament) -> None:
    """Play every table of the tournament's round in play to its end, then let the sweep record
    them (a test's transaction never commits, so the hook after each table's commit never runs
    here; ``test_rounds`` runs it)."""
    for round_table in RoundTable.objects.filter(round__tournament=tournament, ended_at__isnull=True):
        assert round_table.table is not None
        simulator.play_table(round_table.table)
    services.sweep()


def play_to_the_end(simulator: Simulator, tournament: Tournament) -> Tournament:
    for _ in range(20):
        tournament.refresh_from_db()
        if tournament.status != "running":
            return tournament
        play_round(simulator, tournament)
    raise AssertionError("the tournament did not end in 20 rounds")
