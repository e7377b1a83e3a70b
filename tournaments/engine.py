"""A knock-out tournament's rules as values (R-TOUR-1..6): no Django, no clock, no unseeded random.

Like :mod:`games.engine`, everything here is a pure function of its inputs, so each rule is
tested on plain numbers, and one service layer (:mod:`tournaments.services`) stores what these
functions answer and pays what they compute.

- The state machine (:data:`ARROWS`): announced -> registering -> running -> finished, or
  cancelled (short of the minimum at the start, or by the staff before it runs) or voided (by
  the staff, four eyes, while it runs). :func:`move` is the only way from one to the next.
- :func:`can_run`: the one question that moves a registering tournament: run, wait or cancel.
- :func:`table_sizes` and :func:`seat`: each round's random, balanced seating (R-TOUR-3), a
  pure function of the players, the table size, a seed (the deal's shuffle, so anyone given
  the revealed seed can re-derive it) and the pairs kept apart.
- :func:`qualifiers_at`, :func:`is_final`: how many go through from a table, and when the
  players left fit at one table (the final).
- :func:`ranking`: the final order (R-TOUR-3, R-TOUR-4).
- :func:`prize_pool` and :func:`split_prizes`: the money (R-TOUR-5), integers only.

Decisions beyond the rules:

- A table of ``n`` players sends through ``min(qualify, n - 1)``: a table always knocks out
  someone, so every round has fewer players than the last and a tournament always ends.
- A heads-up tournament (tables of two) with an odd number of players left seats one table of
  three rather than give anyone a bye: the sizes still differ by one at most.
- The final table plays for one winner; its other players rank by their game chips, then by
  the earlier registration (R-TOUR-4's order among players knocked out together).
- Fewer players than places paid: the places nobody reached are not paid, and the pool is split
  among the filled places in proportion to their shares, so it is still paid out whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from games.engine.shuffle import shuffled

MIN_TABLE = 2
MAX_TABLE = 6
BASIS_POINTS = 10_000


class TournamentRuleError(ValueError):
    """A request the tournament's rules refuse; ``code`` is machine-readable, the message plain."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- the state machine ------------------------------------------------------------------------


class Status(StrEnum):
    ANNOUNCED = "announced"
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    VOIDED = "voided"


class Step(StrEnum):
    """What moves a tournament from one status to the next."""

    OPEN = "open"
    """Registration opens (R-TOUR-2)."""
    START = "start"
    """The start time came (or the last place was taken) with enough players."""
    FINISH = "finish"
    """The final table is over: ranking and prizes."""
    CANCEL = "cancel"
    """Short of the minimum at the start (R-TOUR-2), or the staff's cancel before it runs."""
    VOID = "void"
    """The staff's void of a running tournament, four eyes (R-TOUR-6)."""


#: Every arrow of the state machine, and nothing else.
ARROWS: Mapping[tuple[Status, Step], Status] = {
    (Status.ANNOUNCED, Step.OPEN): Status.REGISTERING,
    (Status.ANNOUNCED, Step.CANCEL): Status.CANCELLED,
    (Status.REGISTERING, Step.START): Status.RUNNING,
    (Status.REGISTERING, Step.CANCEL): Status.CANCELLED,
    (Status.RUNNING, Step.FINISH): Status.FINISHED,
    (Status.RUNNING, Step.VOID): Status.VOIDED,
}

#: Statuses a tournament never leaves.
OVER = frozenset({Status.FINISHED, Status.CANCELLED, Status.VOIDED})


def move(status: Status, step: Step) -> Status:
    """The status ``step`` leads to from ``status``; ``not_now`` if there is no such arrow."""
    try:
        return ARROWS[(Status(status), Step(step))]
    except KeyError:
        raise TournamentRuleError(
            "not_now", f"a tournament that is {Status(status).value} cannot {Step(step).value}"
        ) from None


class Verdict(StrEnum):
    RUN = "run"
    WAIT = "wait"
    CANCEL = "cancel"


def can_run(*, registered: int, minimum: int, maximum: int, sit_and_go: bool, time_come: bool) -> Verdict:
    """R-TOUR-1, R-TOUR-2: a registering tournament's start is due when its time has come, or
    for a sit-and-go when its maximum has registered; then it runs with at least its minimum, or
    is cancelled short of it. Before its start it waits (a scheduled one that fills early too)."""
    due = registered >= maximum if sit_and_go else time_come
    if not due:
        return Verdict.WAIT
    return Verdict.RUN if registered >= minimum else Verdict.CANCEL


# --- settings ---------------------------------------------------------------------------------


def check_settings(
    *,
    minimum: int,
    maximum: int,
    table_size: int,
    qualify: int,
    prize_bps: Sequence[int],
    buy_in: int,
    rake_percent: int,
    guarantee: int,
) -> None:
    """R-TOUR-1: what a tournament fixes at its creation, checked once; ``bad_settings`` names
    the first thing wrong."""

    def bad(message: str) -> TournamentRuleError:
        return TournamentRuleError("bad_settings", message)

    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise bad(f"a table seats {MIN_TABLE} to {MAX_TABLE} players, not {table_size}")
    if not 1 <= qualify < table_size:
        raise bad(f"1 to {table_size - 1} players go through from a table of {table_size}, not {qualify}")
    if not MIN_TABLE <= minimum <= maximum:
        raise bad(f"the fewest players ({minimum}) must be 2 or more and at most the most ({maximum})")
    if not prize_bps or any(share <= 0 for share in prize_bps):
        raise bad("the prize table pays at least one place, each a share above zero")
    if sum(prize_bps) != BASIS_POINTS:
        raise bad(f"the prize table's shares add up to {sum(prize_bps)} basis points, not {BASIS_POINTS}")
    if list(prize_bps) != sorted(prize_bps, reverse=True):
        raise bad("a place is never paid more than a higher place")
    if len(prize_bps) > maximum:
        raise bad(f"the prize table pays {len(prize_bps)} places, more than the {maximum} players")
    if buy_in < 0 or guarantee < 0:
        raise bad("the buy-in and the guarantee are zero or more")
    if not 0 <= rake_percent <= 25:
        raise bad(f"the rake is 0 to 25%, not {rake_percent}")


# --- seating ----------------------------------------------------------------------------------


def table_sizes(players: int, table_size: int) -> tuple[int, ...]:
    """The sizes of a round's tables for ``players`` at tables of ``table_size`` (R-TOUR-3):
    as few tables as hold everyone, their sizes differing by one at most, largest first. Two
    players or more; a heads-up round of an odd number seats one table of three."""
    if players < MIN_TABLE:
        raise TournamentRuleError("too_few", f"a round needs at least {MIN_TABLE} players, not {players}")
    tables = -(-players // table_size)
    while tables > 1 and players // tables < MIN_TABLE:
        tables -= 1
    base, extra = divmod(players, tables)
    return tuple(base + 1 if i < extra else base for i in range(tables))


def is_final(players: int, table_size: int) -> bool:
    """R-TOUR-3: the players left fit at one table."""
    return players <= table_size


def qualifiers_at(seated: int, qualify: int) -> int:
    """How many go through from a table of ``seated``: the tournament's number, but never all
    of them (a table always knocks out someone, so a tournament always ends)."""
    return max(1, min(qualify, seated - 1))


@dataclass(frozen=True, slots=True)
class Seating:
    """A round's tables, each a tuple of player ids, and the pairs that could not be kept apart
    (none unless the links leave no other way)."""

    tables: tuple[tuple[int, ...], ...]
    together_anyway: tuple[frozenset[int], ...] = ()


def seat(
    players: Sequence[int],
    table_size: int,
    seed: bytes,
    apart: Iterable[frozenset[int]] = (),
) -> Seating:
    """R-TOUR-3: seat ``players`` at random at balanced tables.

    The order is the deal's shuffle (:func:`games.engine.shuffle.shuffled`) of the players
    sorted by id, from ``seed``; each player in that order (those with a pair in ``apart``,
    fair play's linked accounts, first) takes the emptiest table (the first among equals) that
    still has room and seats nobody they must be kept apart from; if every table with room seats
    such a player, the emptiest with room. So the seating is re-derived from the revealed seed
    and the pairs."""
    sizes = table_sizes(len(players), table_size)
    order = shuffled(sorted(players), seed)
    pairs = {pair for pair in apart if len(pair) == 2}
    kept: dict[int, set[int]] = {}
    for pair in pairs:
        a, b = tuple(pair)
        kept.setdefault(a, set()).add(b)
        kept.setdefault(b, set()).add(a)
    tables: list[list[int]] = [[] for _ in sizes]
    anyway: list[frozenset[int]] = []
    # Players with links first, while every table still has room for them.
    linked = [p for p in order if p in kept]
    for player in [*linked, *(p for p in order if p not in kept)]:
        with_room = sorted(
            (i for i in range(len(sizes)) if len(tables[i]) < sizes[i]), key=lambda i: (len(tables[i]), i)
        )
        enemies = kept.get(player, set())
        clear = [i for i in with_room if not enemies.intersection(tables[i])]
        chosen = clear[0] if clear else with_room[0]
        anyway.extend(frozenset((player, other)) for other in enemies.intersection(tables[chosen]))
        tables[chosen].append(player)
    return Seating(tuple(tuple(t) for t in tables), tuple(anyway))


# --- ranking ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finish:
    """How far one player got: ``round_reached`` (the round they were knocked out in, or the
    final's number), whether they ``won`` the final, their game ``chips`` at the end of that
    round, and their ``registered`` order (0 first)."""

    player: int
    round_reached: int
    chips: int
    registered: int
    won: bool = False


def ranking(finishes: Iterable[Finish]) -> tuple[int, ...]:
    """R-TOUR-3, R-TOUR-4: every player once, first to last: the further they got, the higher;
    at the final its winner first; then by game chips at the end of the round they went out in;
    then by the earlier registration."""
    ordered = sorted(finishes, key=lambda f: (-f.round_reached, not f.won, -f.chips, f.registered))
    ranked = tuple(f.player for f in ordered)
    if len(set(ranked)) != len(ranked):
        raise TournamentRuleError("bad_ranking", "a player finished twice")
    return ranked


# --- money ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PrizePool:
    """R-TOUR-5: the ``buy_ins`` taken, the ``rake`` kept, the ``overlay`` the house adds to
    reach the guarantee, and the ``pool`` paid out (buy-ins - rake + overlay)."""

    buy_ins: int
    rake: int
    overlay: int

    @property
    def pool(self) -> int:
        return self.buy_ins - self.rake + self.overlay


def prize_pool(buy_ins: int, rake_percent: int, guarantee: int) -> PrizePool:
    """R-TOUR-5: the pool is the buy-ins less the rake (``floor(buy-ins x percent / 100)``, as
    the tables take it), or the guarantee if that is more, the house paying the difference."""
    if buy_ins < 0 or guarantee < 0 or not 0 <= rake_percent <= 25:
        raise TournamentRuleError("bad_amount", "buy-ins and guarantee are zero or more, the rake 0 to 25%")
    rake = buy_ins * rake_percent // 100
    return PrizePool(buy_ins, rake, max(0, guarantee - (buy_ins - rake)))


def split_prizes(pool: int, shares_bps: Sequence[int], players: int) -> tuple[int, ...]:
    """R-TOUR-5: each paid place's prize in whole paise (or chips), first place first.

    Each place gets ``pool x share / total`` rounded down, ``total`` being the shares of the
    places filled (all of them, unless fewer players than places paid); what the rounding
    leaves goes one paisa at a time to the highest places. The prizes add up to ``pool``."""
    if pool < 0:
        raise TournamentRuleError("bad_amount", f"a prize pool is zero or more, not {pool}")
    shares = list(shares_bps[: max(0, players)])
    total = sum(shares)
    if pool == 0 or total == 0:
        return tuple(0 for _ in shares)
    prizes = [pool * share // total for share in shares]
    for place in range(pool - sum(prizes)):
        prizes[place] += 1
    return tuple(prizes)
