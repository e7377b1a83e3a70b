"""Constructed table logs for the detectors: an honest crowd seated at random, and a pair
planted in it. Numbers only (no database): each test says what the pair did."""

from __future__ import annotations

import random
from collections.abc import Callable

from fairplay.tablelog import DealRecord, HeadsUp, Pick, TableLog

#: The pair the tests plant; the honest crowd are players 10 and up.
A, B = 1, 2
CROWD = range(10, 70)


def crowd_log(
    seed: int,
    *,
    tables: int = 400,
    variant: str = "points13",
    pair_tables: int = 0,
    shape: Callable[[DealRecord, random.Random], None] | None = None,
) -> TableLog:
    """``tables`` tables of one deal each, four players drawn from the crowd; then
    ``pair_tables`` tables where the pair sits with two of the crowd. Every deal has a winner
    drawn at random, a settlement, picks and turns alone with the last opponent, all honest;
    ``shape`` then changes what it wants of each deal."""
    rng = random.Random(seed)
    log = TableLog()
    for number in range(tables + pair_tables):
        players = rng.sample(list(CROWD), 4 if number < tables else 2)
        if number >= tables:
            players = [A, B, *players]
            rng.shuffle(players)
        deal = DealRecord(number, 1, variant, tuple(players), winner=rng.choice(players))
        honest(deal, rng)
        if shape is not None:
            shape(deal, rng)
        log.deals.append(deal)
        log.tables[number] = ("INR", 100)
    return log


def honest(deal: DealRecord, rng: random.Random) -> None:
    """An honest deal: losers pay the winner 5 to 80 points; each player draws after the one
    before them, taking the discard one time in six; the last two left drop one turn in eight."""
    players = deal.players
    winner = deal.winner
    assert winner is not None
    deal.transfers = [(p, winner, rng.randint(5, 80)) for p in players if p != winner]
    for _ in range(3):
        for before, after in zip(players, players[1:] + players[:1], strict=True):
            deal.picks.append(Pick(before, after, rng.random() < 1 / 6))
    last = rng.sample(players, 2)
    for _ in range(rng.randint(1, 4)):
        deal.heads_up.append(HeadsUp(last[0], last[1], False, rng.random() < 1 / 8))
        last.reverse()


def timed(log: TableLog, player: int, times: list[int], *, start: int = 0) -> None:
    """``player``'s timed actions, one every ten seconds from ``start`` (ms)."""
    log.response_ms[player] = list(times)
    log.acted_at_ms[player] = [start + 10_000 * i for i in range(len(times))]
