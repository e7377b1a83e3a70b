"""The pair detectors: players seated together far more than chance, soft play, chip dumping,
discard feeding and wins against one opponent. Each counts, for every pair, the chances it had
and what it did with them, against what the window's whole population did with the same kind
of chance; a pair is flagged only with enough chances, a figure many times the usual, and a count
luck does not explain (:mod:`fairplay.thresholds`)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from itertools import combinations

from fairplay.figures import Finding, at_most_chance, bernoulli_z, poisson_tail, ratio, rounded, z_above
from fairplay.tablelog import DealRecord, TableLog
from fairplay.thresholds import Thresholds

Pair = tuple[int, int]


def _pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def _strongest(findings: list[Finding]) -> list[Finding]:
    """One finding per case key (a pair found in both directions keeps the stronger)."""
    best: dict[str, Finding] = {}
    for finding in findings:
        if finding.key not in best or finding.score > best[finding.key].score:
            best[finding.key] = finding
    return list(best.values())


def co_seating(log: TableLog, t: Thresholds) -> list[Finding]:
    """Tables a pair shared, against random seating of players with their volume of play:
    with ``T`` a player's tables and ``k`` a table's players, a pair is expected at
    ``T_a * T_b * sum(k * (k - 1)) / (sum k) ** 2`` tables."""
    seated: dict[int, set[int]] = defaultdict(set)
    shared: dict[Pair, list[tuple[int, int]]] = defaultdict(list)
    for deal in log.deals:
        seated[deal.table].update(deal.players)
        for a, b in combinations(sorted(deal.players), 2):
            shared[(a, b)].append(deal.key)
    tables_of: dict[int, int] = defaultdict(int)
    for players in seated.values():
        for player in players:
            tables_of[player] += 1
    seatings = sum(len(p) for p in seated.values())
    pairs_of_seats = sum(len(p) * (len(p) - 1) for p in seated.values())
    if not seatings:
        return []
    findings = []
    for (a, b), deals in shared.items():
        together = len({table for table, _ in deals})
        if together < t.co_seating_min_tables:
            continue
        expected = tables_of[a] * tables_of[b] * pairs_of_seats / seatings**2
        times = ratio(together, expected)
        chance = poisson_tail(together, expected)
        if times >= t.co_seating_min_ratio and chance <= t.co_seating_max_chance:
            findings.append(
                Finding(
                    "co_seating",
                    (a, b),
                    times,
                    {
                        "tables_together": together,
                        "expected_tables": rounded(expected),
                        "times_expected": rounded(times, 1),
                        "chance_by_luck": chance,
                        "deals_together": len(deals),
                        "tables_played": {str(a): tables_of[a], str(b): tables_of[b]},
                        "baseline": "random seating of players with the same volume of play",
                    },
                    deals,
                )
            )
    return findings


def soft_play(log: TableLog, t: Thresholds) -> list[Finding]:
    """How often a player plays on (draws instead of dropping) on their turns with only the
    partner left in the deal, against how often players play on in that spot: a first turn and a
    later one apart, as a first drop is cheap and common (a hopeless hand) and a later one rare.
    The score is the plays-on expected over those seen (at least half a play, so none seen is
    not infinitely many times fewer); the chance is the exact probability of so few plays-on by
    luck alone, each turn at its usual rate."""
    turns: dict[tuple[int, int], list[tuple[bool, bool, tuple[int, int]]]] = defaultdict(list)
    dropped = {True: 0, False: 0}
    seen = {True: 0, False: 0}
    for deal in log.deals:
        for h in deal.heads_up:
            turns[(h.player, h.other)].append((h.first_turn, h.dropped, deal.key))
            seen[h.first_turn] += 1
            dropped[h.first_turn] += h.dropped
    play_on = {first: 1 - dropped[first] / seen[first] if seen[first] else 1.0 for first in (True, False)}
    findings = []
    for (player, other), rows in turns.items():
        if len(rows) < t.soft_play_min_turns:
            continue
        played = sum(1 for _, d, _ in rows if not d)
        chances = [play_on[first] for first, _, _ in rows]
        expected = sum(chances)
        luck = at_most_chance(played, chances)
        times = ratio(expected, max(played, 0.5))
        if times >= t.soft_play_min_ratio and luck <= t.soft_play_max_chance:
            findings.append(
                Finding(
                    "soft_play",
                    _pair(player, other),
                    times,
                    {
                        "player": player,
                        "partner": other,
                        "turns_alone_with_partner": len(rows),
                        "first_turns": sum(1 for first, _, _ in rows if first),
                        "played_on": played,
                        "expected_to_play_on": rounded(expected),
                        "times_fewer_than_usual": rounded(times, 1),
                        "chance_by_luck": luck,
                        "baseline_play_on_rate": {
                            "first_turn": rounded(play_on[True]),
                            "later_turn": rounded(play_on[False]),
                        },
                    },
                    sorted({key for _, d, key in rows if d}),
                )
            )
    return _strongest(findings)


def chip_dumping(log: TableLog, t: Thresholds) -> list[Finding]:
    """On points tables (13-card and 21-card), the points a pair's settlements moved between the
    two, net, per deal they were both dealt into; against the population's usual flow between
    two players of a deal (the mean size of it over every pair of every points deal), and the
    pair's own deal-to-deal spread (so a lucky run of a few big wins is not enough)."""
    flows: dict[Pair, list[tuple[int, tuple[int, int], int]]] = defaultdict(list)
    total = count = 0
    for deal in log.deals:
        if not deal.is_points:
            continue
        paid: dict[Pair, int] = defaultdict(int)
        for payer, payee, points in deal.transfers:
            paid[(payer, payee)] += points
        for a, b in combinations(sorted(deal.players), 2):
            flow = paid[(a, b)] - paid[(b, a)]
            flows[(a, b)].append((flow, deal.key, deal.table))
            total, count = total + abs(flow), count + 1
    if not total:
        return []
    baseline = total / count
    findings = []
    for (a, b), rows in flows.items():
        n = len(rows)
        if n < t.chip_dump_min_deals:
            continue
        values = [f for f, _, _ in rows]
        mean = statistics.fmean(values)
        z = z_above(abs(mean), 0.0, statistics.pvariance(values) / n)
        times = ratio(abs(mean), baseline)
        if times < t.chip_dump_min_ratio or z < t.min_z:
            continue
        payer, payee = (a, b) if mean > 0 else (b, a)
        money: dict[str, int] = defaultdict(int)
        for flow, _, table in rows:
            currency, point_value = log.tables.get(table, ("", 0))
            money[currency] += (flow if payer == a else -flow) * point_value
        findings.append(
            Finding(
                "chip_dumping",
                (a, b),
                times,
                {
                    "payer": payer,
                    "payee": payee,
                    "deals_together": n,
                    "net_points": abs(sum(values)),
                    "net_points_per_deal": rounded(abs(mean), 2),
                    "baseline_points_per_deal": rounded(baseline, 2),
                    "times_usual": rounded(times, 1),
                    "z": rounded(z, 1),
                    "net_by_currency": {currency: amount for currency, amount in money.items() if amount},
                },
                [key for flow, key, _ in rows if flow],
            )
        )
    return findings


def discard_feeding(log: TableLog, t: Thresholds) -> list[Finding]:
    """How often a player takes the partner's discard from the open pile, against how often
    anyone takes the discard just before them in the same format."""
    picks: dict[tuple[int, int], list[tuple[str, bool, tuple[int, int]]]] = defaultdict(list)
    taken: dict[str, int] = defaultdict(int)
    chances: dict[str, int] = defaultdict(int)
    for deal in log.deals:
        for p in deal.picks:
            picks[(p.discarder, p.drawer)].append((deal.variant, p.from_open, deal.key))
            chances[deal.variant] += 1
            taken[deal.variant] += p.from_open
    rate = {variant: taken[variant] / chances[variant] for variant in chances}
    findings = []
    for (discarder, drawer), rows in picks.items():
        if len(rows) < t.feed_min_chances:
            continue
        took = sum(1 for _, o, _ in rows if o)
        expected, z = bernoulli_z(took, [rate[v] for v, _, _ in rows])
        times = ratio(took, expected)
        if times >= t.feed_min_ratio and z >= t.min_z:
            findings.append(
                Finding(
                    "discard_feeding",
                    _pair(discarder, drawer),
                    times,
                    {
                        "discarder": discarder,
                        "taker": drawer,
                        "chances": len(rows),
                        "taken_from_open_pile": took,
                        "expected": rounded(expected),
                        "times_expected": rounded(times, 1),
                        "z": rounded(z, 1),
                        "baseline_take_rate": {v: rounded(r) for v, r in sorted(rate.items())},
                    },
                    sorted({key for _, o, key in rows if o}),
                )
            )
    return _strongest(findings)


def win_rate(log: TableLog, t: Thresholds) -> list[Finding]:
    """A player's wins in deals with one opponent, against their own winning form without that
    opponent: each deal's fair chance is one in its number of players, times the player's form
    (wins over fair chances in their other deals)."""
    wins: dict[int, int] = defaultdict(int)
    fair: dict[int, float] = defaultdict(float)
    count: dict[int, int] = defaultdict(int)
    together: dict[tuple[int, int], list[DealRecord]] = defaultdict(list)
    for deal in log.deals:
        k = len(deal.players)
        for player in deal.players:
            fair[player] += 1 / k
            count[player] += 1
            wins[player] += deal.winner == player
        for a, b in combinations(deal.players, 2):
            together[(a, b)].append(deal)
            together[(b, a)].append(deal)
    findings = []
    for (player, other), deals in together.items():
        n = len(deals)
        if n < t.win_rate_min_deals:
            continue
        won = sum(1 for d in deals if d.winner == player)
        shared_fair = sum(1 / len(d.players) for d in deals)
        apart_fair = fair[player] - shared_fair
        apart_wins = wins[player] - won
        form = 1.0
        if count[player] - n >= t.win_rate_min_deals and apart_fair > 0:
            form = min(max(apart_wins / apart_fair, 0.25), 4.0)
        chances = [min(form / len(d.players), 0.95) for d in deals]
        expected, z = bernoulli_z(won, chances)
        times = ratio(won, expected)
        if times >= t.win_rate_min_ratio and z >= t.min_z:
            findings.append(
                Finding(
                    "win_rate",
                    _pair(player, other),
                    times,
                    {
                        "winner": player,
                        "against": other,
                        "deals_together": n,
                        "wins": won,
                        "expected_wins": rounded(expected),
                        "times_expected": rounded(times, 1),
                        "z": rounded(z, 1),
                        "form_without_opponent": rounded(form),
                        "baseline": "one in the deal's number of players, times the player's form elsewhere",
                    },
                    [d.key for d in deals if d.winner == player],
                )
            )
    return _strongest(findings)
