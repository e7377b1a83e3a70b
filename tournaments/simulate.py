"""Whole tournaments end to end, for ``manage.py simulate --tournaments N``.

Each tournament is created, filled and played to its end through the same services as live
play: registration and buy-ins (:mod:`tournaments.services`), each round's tables opened by
the tournament (:func:`games.services.open_round_table`) and played by the bots' solver
through ``games.services.act`` and ``expire``, each table's end recorded by the hook live play
uses (``games.services.after_commit``), the next round seated, the prizes paid. Nothing waits
for real time: the tables run on the simulator's clock, which jumps to a deadline when one is
let pass (a missed move now and then: R-TURN-6's drops and the auto-drop of an absent player).

Tournaments alternate: practice ones filled with bots (chips buy-in, rake, some with a
guarantee above the buy-ins, so the house adds an overlay), and money ones of simulated
accounts funded through the cashier's sandbox deposits (rupee buy-ins, rake, a guarantee).
Sizes are 18 to 60 players at tables of 3 to 6 with 1 to 3 going through.

Checks, each counted, a broken one a violation in plain words: every round's tables balanced
(sizes differ by one at most, each within the table size) and re-derived from the round's
revealed seed; at each table the game chips add up to what it started with (80 x deals x
players, R-TOUR-3); every player ranked exactly once, 1 to N; the prizes add up to the pool and
follow the prize table; pool = buy-ins - rake + overlay; the pool account closed at zero; the
ledger reconciled after every tournament.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from games import bots
from games import services as tables
from games.engine import deal as deals
from games.engine import table as engine
from games.engine.variants import CHIPS_PER_DEAL
from games.errors import GameError
from games.models import Table
from tournaments import engine as rules
from tournaments import services
from tournaments.models import Registration, Round, RoundTable, Tournament
from wallet import cashier, providers
from wallet.ledger import balance_of, get_account, pool_spec, user_spec
from wallet.models import Currency
from wallet.reconcile import reconcile

#: How often a player lets a move time out (auto-dropped after three, R-TURN-6).
MISSED_MOVE = 0.02
MAX_STEPS = 20_000
PRIZE_TABLES = ((10_000,), (6_000, 4_000), (5_000, 3_000, 2_000), (4_000, 2_500, 1_500, 1_200, 800))


@dataclass
class Summary:
    seed: int
    tournaments: int = 0
    players: int = 0
    rounds: int = 0
    tables: int = 0
    deals: int = 0
    checks: int = 0
    refused: int = 0
    """Moves the table refused (another got there first, or the time was up)."""
    seconds: float = 0.0
    money: dict[str, Counter[str]] = field(default_factory=lambda: {c: Counter() for c in Currency.values})
    violations: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [
            f"seed {self.seed}: {self.tournaments} tournaments, {self.players} players, "
            f"{self.rounds} rounds, "
            f"{self.tables} tables, {self.deals} deals in {self.seconds:.1f} s",
        ]
        for currency, figures in self.money.items():
            if figures:
                out.append(
                    f"{currency}: buy-ins {figures['buy_ins']}, rake {figures['rake']}, "
                    f"overlay {figures['overlay']}, prizes {figures['prizes']} (hundredths)"
                )
        out.append(
            f"moves refused: {self.refused}; checks: {self.checks}, violations: {len(self.violations)}"
        )
        out.extend(f"  {v}" for v in self.violations[:20])
        return out


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Deal, toss and seating seeds from ``seed``; only the tournaments' hook after each table
    write (no live publishing, no timers: the simulator applies every deadline itself)."""
    counter = itertools.count()

    def new_seed() -> bytes:
        return hashlib.sha256(f"tournaments:{seed}:{next(counter)}".encode()).digest()

    hooks = list(tables.after_commit)
    originals = tables.new_seed, services.new_seed
    tables.new_seed = services.new_seed = new_seed
    tables.after_commit[:] = [services.on_table_written]
    try:
        yield
    finally:
        tables.new_seed, services.new_seed = originals
        tables.after_commit[:] = hooks


class Simulator:
    def __init__(self, seed: int, *, log: Callable[[str], None] = lambda line: None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.clock = tables.now_ms()
        #: The latest time any table has seen: a round's tables play at once in life, one after
        #: another here, each on its own time from its opening; the next round opens at this.
        self.latest = self.clock
        self.log = log
        self.summary = Summary(seed=seed)
        self.people: list[Any] = []
        self.users: dict[str, Any] = {}

    def now_ms(self) -> int:
        """When a new round's tables open: after everything played so far."""
        self.latest = max(self.latest, self.clock)
        return self.latest

    def tick(self, low: int = 300, high: int = 3_000) -> int:
        self.clock += self.rng.randint(low, high)
        return self.clock

    def check(self, ok: bool, words: str) -> None:
        self.summary.checks += 1
        if not ok:
            self.summary.violations.append(words)
            self.log(f"VIOLATION: {words}")

    def run(self, count: int) -> Summary:
        started = time.perf_counter()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET synchronous_commit TO OFF")
        original_clock = services.now_ms
        services.now_ms = self.now_ms
        try:
            with seeded(self.seed):
                for index in range(count):
                    self.play(index)
        finally:
            services.now_ms = original_clock
        self.summary.seconds = time.perf_counter() - started
        return self.summary

    # --- one tournament -----------------------------------------------------------------------

    def play(self, index: int) -> None:
        money = index % 2 == 1
        size = self.rng.randint(3, 6)
        players = self.rng.randint(18, 60)
        prize_bps = self.rng.choice(PRIZE_TABLES)
        buy_in = self.rng.choice((100_00, 250_00)) if money else self.rng.choice((0, 50_00, 100_00))
        guarantee = self.rng.choice((0, buy_in * players, buy_in * players // 2, 5_000_00))
        tournament = services.create(
            name=f"sim {self.seed}-{index}",
            currency=Currency.INR if money else Currency.CHIPS,
            buy_in=buy_in,
            rake_percent=self.rng.choice((0, 5, 10)),
            guarantee=guarantee,
            min_players=players,
            max_players=players,
            table_size=size,
            qualify=self.rng.randint(1, size - 1),
            prize_bps=prize_bps,
            start_at=None,  # sit and go: starts as the last place is taken
            bots_allowed=not money,
        )
        if money:
            for person in self.money_players(players):
                self.fund(person, buy_in)
                services.register(tournament.pk, person)
        else:
            services.fill_with_bots(tournament.pk)
        tournament.refresh_from_db()
        self.check(tournament.status == "running", f"{tournament}: not running once full")
        self.summary.tournaments += 1
        self.summary.players += players
        self.drive(tournament)
        self.check_finish(tournament)
        problems = reconcile()
        self.check(not problems, "the ledger does not reconcile: " + "; ".join(problems[:3]))

    def money_players(self, count: int) -> list[Any]:
        user_model = get_user_model()
        while len(self.people) < count:
            # A run again with the same seed takes the same accounts (their wallets topped up).
            user, made = user_model.objects.get_or_create(
                username=f"tsim{self.seed}-{len(self.people):03d}", defaults={"region": "IN-KA"}
            )
            if made:
                user.set_unusable_password()
                user.save(update_fields=["password"])
            self.people.append(user)
        return self.rng.sample(self.people, count)

    def fund(self, user: Any, needed: int) -> None:
        spec = user_spec(user.pk, Currency.INR)
        if balance_of(spec) < needed:
            amount = max(needed * 4, cashier.limit("WALLET_MIN_DEPOSIT"))
            deposit = cashier.create_deposit(user, amount, provider=providers.SandboxProvider())
            cashier.confirm_deposit(deposit.provider_ref)

    def user(self, name: str) -> Any:
        if name not in self.users:
            self.users[name] = get_user_model().objects.get(pk=int(name))
        return self.users[name]

    # --- the rounds ----------------------------------------------------------------------------

    def drive(self, tournament: Tournament) -> None:
        seen: set[int] = set()
        for _ in range(200):
            tournament.refresh_from_db()
            if tournament.status != "running":
                return
            round_ = Round.objects.filter(tournament=tournament).order_by("-number").first()
            assert round_ is not None
            if round_.pk not in seen:
                seen.add(round_.pk)
                self.check_round(tournament, round_)
            open_tables = list(RoundTable.objects.filter(round=round_, ended_at__isnull=True))
            if not open_tables:
                services.sweep()
                continue
            for round_table in open_tables:
                assert round_table.table_id is not None
                self.play_table(Table.objects.get(pk=round_table.table_id))
        self.check(False, f"{tournament}: no end after 200 rounds")

    def check_round(self, tournament: Tournament, round_: Round) -> None:
        self.summary.rounds += 1
        seated = [rt.players for rt in round_.tables.all()]
        self.summary.tables += len(seated)
        sizes = [len(players) for players in seated]
        self.check(
            max(sizes) - min(sizes) <= 1 and min(sizes) >= 2,
            f"{round_}: table sizes {sizes} differ by more than one",
        )
        heads_up_three = tournament.table_size == 2 and max(sizes) == 3
        self.check(
            max(sizes) <= tournament.table_size or heads_up_three,
            f"{round_}: a table of {max(sizes)} at tables of {tournament.table_size}",
        )
        self.check(
            services.seating_of(round_).tables == tuple(tuple(p) for p in seated),
            f"{round_}: the seating is not the one its seed gives",
        )
        self.check(
            round_.final == (len(seated) == 1), f"{round_}: final {round_.final} with {len(seated)} tables"
        )

    def play_table(self, table: Table) -> None:
        self.latest = max(self.latest, self.clock)
        self.clock = engine.TableState.from_json(table.state).now_ms
        for _ in range(MAX_STEPS):
            table.refresh_from_db(fields=["state", "version", "status"])
            state = engine.TableState.from_json(table.state)
            if state.phase in (engine.Phase.FINISHED, engine.Phase.CANCELLED):
                self.table_done(table, state)
                return
            if state.phase is engine.Phase.PLAYING:
                self.deal_step(table, state)
            else:
                self.expire(table, state)
        self.check(False, f"table {table.pk}: no end after {MAX_STEPS} steps")

    def table_done(self, table: Table, state: engine.TableState) -> None:
        self.summary.deals += state.deal_number
        started = CHIPS_PER_DEAL * state.rules.deals * len(state.players)
        chips = sum(p.chips for p in state.players)
        self.check(chips == started, f"table {table.pk}: chips {chips}, started with {started}")
        self.check(
            len(state.qualified) == state.rules.qualify,
            f"table {table.pk}: {len(state.qualified)} through, {state.rules.qualify} wanted",
        )

    def expire(self, table: Table, state: engine.TableState) -> None:
        deadline = state.deadline_ms
        if deadline is None:
            return
        self.clock = max(self.clock, deadline) + self.rng.randint(1, 900)
        tables.expire(table.pk, table.version, at=self.clock)

    def deal_step(self, table: Table, state: engine.TableState) -> None:
        deal = state.deal
        assert deal is not None
        if deal.phase is deals.Phase.SHOW:
            for seat in deal.seats:
                action = bots.choose(deal, seat.player) if seat.in_deal else None
                if action is not None:
                    self.act(table, seat.player, action)
            now = Table.objects.get(pk=table.pk)
            after = engine.TableState.from_json(now.state)
            if (
                after.phase is engine.Phase.PLAYING
                and after.deal is not None
                and after.deal.phase is deals.Phase.SHOW
            ):
                self.expire(now, after)
            return
        if deal.phase is not deals.Phase.PLAY or self.rng.random() < MISSED_MOVE:
            self.expire(table, state)
            return
        name = deal.seats[deal.turn].player
        action = bots.choose(deal, name)
        if action is None:
            self.expire(table, state)
            return
        groups = action.pop("then", None)
        self.act(table, name, action)
        if groups is not None:
            self.act(table, name, {"type": "declare", "groups": [[c.code for c in g] for g in groups]})

    def act(self, table: Table, name: str, action: dict[str, Any]) -> None:
        try:
            tables.act(table.pk, self.user(name), action, at=self.tick())
        except GameError as error:
            if error.code not in ("not_your_turn", "time_up", "deal_over", "no_deal"):
                raise
            self.summary.refused += 1

    # --- the end -----------------------------------------------------------------------------------

    def check_finish(self, tournament: Tournament) -> None:
        tournament.refresh_from_db()
        self.check(tournament.status == "finished", f"{tournament}: ended {tournament.status}")
        entries = list(Registration.objects.filter(tournament=tournament, status="registered"))
        ranks = sorted(r.rank or 0 for r in entries)
        self.check(
            ranks == list(range(1, len(entries) + 1)), f"{tournament}: ranks {ranks[:5]}... not 1 to N once"
        )
        buy_ins = sum(r.buy_in for r in entries)
        expected = rules.prize_pool(buy_ins, tournament.rake_percent, tournament.guarantee)
        self.check(
            (tournament.rake, tournament.overlay, tournament.pool)
            == (expected.rake, expected.overlay, expected.pool),
            f"{tournament}: rake {tournament.rake}, overlay {tournament.overlay}, pool {tournament.pool}; "
            f"expected {expected}",
        )
        paid = sum(r.prize for r in entries)
        self.check(paid == tournament.pool, f"{tournament}: prizes {paid}, pool {tournament.pool}")
        by_rank = [r.prize for r in sorted(entries, key=lambda r: r.rank or 0)]
        wanted = rules.split_prizes(tournament.pool, tournament.prize_bps, len(entries))
        self.check(
            tuple(by_rank[: len(wanted)]) == wanted, f"{tournament}: prizes {by_rank[:5]} not {wanted}"
        )
        winner = next((r for r in entries if r.rank == 1), None)
        self.check(winner is not None and winner.won, f"{tournament}: the first is not the final's winner")
        account = get_account(pool_spec(tournament.pool_ref, Currency(tournament.currency)))
        self.check(
            account is None or (account.balance == 0 and account.closed_at is not None),
            f"{tournament}: its pool holds {account.balance if account else 0} or is open",
        )
        figures = self.summary.money[tournament.currency]
        figures["buy_ins"] += buy_ins
        figures["rake"] += tournament.rake
        figures["overlay"] += tournament.overlay
        figures["prizes"] += paid


def simulate(count: int, seed: int, *, log: Callable[[str], None] = lambda line: None) -> Summary:
    """Play ``count`` whole tournaments from ``seed``."""
    return Simulator(seed, log=log).run(count)


def run_for_command(count: int, seed: int, log: Callable[[str], None]) -> tuple[list[str], int]:
    """``manage.py simulate --tournaments N`` (registered in ``games.simulate.runs``)."""
    summary = simulate(count, seed, log=log)
    return summary.lines(), len(summary.violations)
