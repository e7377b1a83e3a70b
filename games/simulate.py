"""Whole games end to end, for ``manage.py simulate``: the proof that the rules, the lifecycle and
the money hold together over many games.

Simulated players (ordinary accounts, moved by the bots' solver) play pool, deals, 13-card
points and 21-card tables through the same services, ledger and deadline handling as live play
(``games.services``: play now, join, act, leave, leave after the deal, rejoin, split answers,
``expire`` for every deadline). Nothing waits for real time: the simulator keeps its own clock
and hands it to every call, moving it to a deadline when it lets one pass. Money play is funded
through the cashier's sandbox deposits, practice through the chips top-up.

Random events come from ``random.Random(seed)``: first and middle drops, wrong shows, missed
moves and show timeouts, leaves mid-deal and between deals, leave-after-deal, rejoins, split
votes, new players at points tables, and wallets too thin for a points top-up. Each game of
the deals variant is three games, best of 2, 3 and 6. Deal and toss
seeds are derived from the seed too (``services.new_seed`` is swapped for the run only), so a
run is deterministic for a seed on a fresh database; live play keeps its CSPRNG.

Invariants are checked as the games go (each one a ``violation`` in plain words when broken):
the pool account holds exactly the prize pool while a game runs and nothing after; payouts plus
rake are the pool; the rake is the pool's percent rounded down (R-MONEY-2); a started pool
refunds nothing (R-MONEY-5); a deals game's chips add up to what it started with and never go
below zero, and never touch the ledger (R-DEALS-2, R-DEALS-3); each points deal's nets add up to
zero and each seat's account holds what the engine says; every seat is closed at the end; and
the ledger reconciles.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Sum

from games import bots, planted, services
from games.engine import deal as deals
from games.engine import table as engine
from games.engine.variants import CHIPS_PER_DEAL, DEALS_CHOICES, variant_named
from games.errors import GameError
from games.models import Deal, Seat, Table, TableEvent, TableTemplate, Variant
from wallet import cashier, providers
from wallet.errors import WalletError
from wallet.ledger import balance_of, pool_spec, seat_spec, user_spec
from wallet.models import Currency, Journal, JournalKind, Transfer
from wallet.money import money
from wallet.reconcile import reconcile

POOL_VARIANTS = (Variant.POOL101, Variant.POOL201, Variant.POOL61)
POINTS_VARIANTS = (Variant.POINTS13, Variant.POINTS21)
VARIANTS = (Variant.POINTS13, *POOL_VARIANTS, Variant.DEALS, Variant.POINTS21)
#: Whole runs of the apps above the games, by name (``manage.py simulate --<name> N``): each
#: takes a count, a seed and a log, and answers its summary's lines and its violations. The
#: tournaments register theirs from their ``AppConfig.ready``.
runs: dict[str, Callable[[int, int, Callable[[str], None]], tuple[list[str], int]]] = {}
#: The simulated clock starts here (ms since the epoch): 1 Jan 2030, UTC.
START_MS = 1_893_456_000_000
#: Entry fees (paise): below ₹2,000 (rejoins, manual splits) and above it (automatic splits).
FEES = (50_000, 250_000)
#: Points tables' point values (paise): on 21-card tables ₹1 a point holds ₹200 and ₹0.50 a
#: point ₹100; on 13-card tables ₹80 and ₹40.
POINT_VALUES = (100, 50)
#: How often each random event comes up, per chance to happen.
CHANCES = {
    "missed_move": 0.03,
    "leave_mid_deal": 0.006,
    "first_drop": 0.3,
    "middle_drop": 0.12,
    "wrong_show": 0.08,
    "no_show": 0.12,
    "rejoin": 0.6,
    "split_accept": 0.8,
    "split_decline": 0.05,
    "leave_between": 0.03,
    "leave_after_deal": 0.03,
    "newcomer": 0.15,
    "thin_wallet": 0.25,
    "waiting_leave": 0.15,
}
MAX_STEPS = 20_000


@dataclass
class Summary:
    seed: int
    variants: tuple[str, ...]
    games: Counter[str] = field(default_factory=Counter)
    deals: Counter[str] = field(default_factory=Counter)
    money: dict[str, Counter[str]] = field(default_factory=lambda: {kind: Counter() for kind in Currency})
    events: Counter[str] = field(default_factory=Counter)
    checks: int = 0
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0
    planted: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)

    @property
    def pool_games(self) -> int:
        """Games with a prize pool: pool and deals rummy."""
        return sum(n for kind, n in self.games.items() if kind not in POINTS_VARIANTS)

    @property
    def deals_total(self) -> int:
        return sum(self.deals.values())

    def lines(self, *, timing: bool = True) -> list[str]:
        """The summary in words; ``timing=False`` leaves out the one part that is not
        deterministic (the time it took)."""

        out = [
            f"simulate: seed {self.seed}, variants {', '.join(self.variants)}",
            "games: "
            + ", ".join(f"{kind} {self.games[kind]}" for kind in VARIANTS if kind in self.games)
            + f" (pool games {self.pool_games})",
            "deals: " + ", ".join(f"{kind} {self.deals[kind]}" for kind in VARIANTS if kind in self.deals),
        ]
        for currency, figures in self.money.items():
            if figures:
                out.append(
                    f"money {currency}: "
                    + ", ".join(f"{name} {money(figures[name], currency)}" for name in sorted(figures))
                )
        out.append("events: " + ", ".join(f"{name} {n}" for name, n in sorted(self.events.items())))
        verdict = "all held" if not self.violations else f"{len(self.violations)} VIOLATED"
        out.append(f"invariants: {self.checks} checks, {verdict}")
        out.extend(f"  violation: {v}" for v in self.violations[:50])
        out.extend(f"planted {kind}: users {', '.join(map(str, ids))}" for kind, ids in self.planted)
        if timing:
            seconds = max(self.seconds, 1e-9)
            games = sum(self.games.values())
            out.append(
                f"time: {self.seconds:.1f} s, {games / seconds:.2f} games/s, "
                f"{self.deals_total / seconds:.2f} deals/s"
            )
        return out


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Deal and toss seeds derived from ``seed`` for the run, and no live publishing; the CSPRNG
    and the after-commit hooks again afterwards."""
    counter = itertools.count()
    original = services.new_seed

    def new_seed() -> bytes:
        return hashlib.sha256(f"simulate:{seed}:{next(counter)}".encode()).digest()

    hooks = list(services.after_commit)
    services.new_seed = new_seed
    # Nothing is published and no timer is scheduled for simulated tables: the simulator applies
    # each deadline itself (services.expire, as the timers do), at its own clock.
    services.after_commit.clear()
    try:
        yield
    finally:
        services.new_seed = original
        services.after_commit[:] = hooks


class Simulator:
    def __init__(
        self,
        seed: int,
        *,
        log: Callable[[str], None] = lambda line: None,
        players: int = 24,
        cheats: dict[str, int] | None = None,
    ) -> None:
        self.seed = seed
        self.player_count = players
        self.cheats = {kind: n for kind, n in (cheats or {}).items() if n}
        self.planted: planted.Planted | None = None
        self.rng = random.Random(seed)
        self.clock = START_MS
        self.log = log
        self.summary = Summary(seed=seed, variants=())
        self.templates: dict[tuple[Any, ...], TableTemplate] = {}
        self.players: list[Any] = []
        self.extras: list[Any] = []
        self.chip_days: Counter[int] = Counter()
        self.run_tag = ""

    # --- the clock, the people, the tables ------------------------------------------------

    def tick(self, low: int = 300, high: int = 4_000) -> int:
        self.clock += self.rng.randint(low, high)
        return self.clock

    def chance(self, name: str) -> bool:
        return self.rng.random() < CHANCES[name]

    def make_players(self, count: int) -> None:
        user_model = get_user_model()
        runs = user_model.objects.filter(username__startswith=f"sim{self.seed}-").count()
        self.run_tag = f"sim{self.seed}-{runs}"
        for index in range(count):
            user = user_model(username=f"{self.run_tag}-{index:02d}")
            user.set_unusable_password()
            user.save()
            self.players.append(user)

    def template(self, variant: str, currency: str, high: bool, seats: int, deals: int = 0) -> TableTemplate:
        key = (variant, currency, high, seats, deals)
        if key not in self.templates:
            pool = variant_named(variant).has_prize_pool
            fee = FEES[1] if high else FEES[0]
            point = POINT_VALUES[1] if high else POINT_VALUES[0]
            best_of = f" best of {deals}" if deals else ""
            self.templates[key] = TableTemplate.objects.create(
                name=f"{self.run_tag} {variant}{best_of} {currency} {'high' if high else 'low'} {seats}",
                variant=variant,
                currency=currency,
                seats=seats,
                entry_fee=fee if pool else 0,
                point_value=0 if pool else point,
                deals=deals,
                active=True,
            )
        return self.templates[key]

    def fund(self, user: Any, currency: str, needed: int, *, margin: int = 100_000) -> None:
        """Money through the cashier's sandbox deposits; chips through the daily top-up (the
        simulated day moves on per player when one day's top-up is not enough)."""
        spec = user_spec(user.pk, Currency(currency))
        if currency == Currency.INR:
            while balance_of(spec) < needed:
                want = min(needed - balance_of(spec) + margin, cashier.limit("WALLET_MAX_DEPOSIT"))
                want = max(want, cashier.limit("WALLET_MIN_DEPOSIT"))
                deposit = cashier.create_deposit(user, want, provider=providers.SandboxProvider())
                cashier.confirm_deposit(deposit.provider_ref)
                self.summary.money[Currency.INR]["deposits"] += want
            return
        while balance_of(spec) < needed:
            self.chip_days[user.pk] += 1
            day = datetime.fromtimestamp(START_MS / 1000, tz=UTC) + timedelta(days=self.chip_days[user.pk])
            try:
                cashier.topup_chips(user, now=day)
            except WalletError:
                return  # at the top-up amount already: the join will say if it is not enough

    def new_player(self) -> Any:
        user = get_user_model()(username=f"{self.run_tag}-x{len(self.extras):03d}")
        user.set_unusable_password()
        user.save()
        self.extras.append(user)
        return user

    def seated(self, people: list[Any], variant: str, currency: str) -> list[Any]:
        """The players of a new table: a planted pair of cheaters may take two of the seats."""
        return people if self.planted is None else self.planted.seat(people, variant, currency)

    def moment(self, name: str) -> int:
        """When ``name`` acts: a planted regular bot at its fixed pace, anyone else after a think."""
        at = None if self.planted is None else self.planted.moment(name, self.clock)
        if at is None:
            return self.tick()
        self.clock = at
        return at

    def user(self, name: str) -> Any:
        return next(p for p in (*self.players, *self.extras) if str(p.pk) == name)

    def state(self, table: Table) -> engine.TableState:
        table.refresh_from_db(fields=["state", "version", "status"])
        return engine.TableState.from_json(table.state)

    def expire(self, table: Table, state: engine.TableState) -> None:
        """Let the table's deadline pass, as the timers would."""
        deadline = state.deadline_ms
        assert deadline is not None
        self.clock = max(self.clock, deadline) + self.rng.randint(1, 900)
        table.refresh_from_db(fields=["version"])
        services.expire(table.pk, table.version, at=self.clock)

    def violation(self, words: str) -> None:
        self.summary.violations.append(words)
        self.log(f"VIOLATION: {words}")

    def check(self, ok: bool, words: str) -> None:
        self.summary.checks += 1
        if not ok:
            self.violation(words)

    # --- the run ------------------------------------------------------------------------------

    def run(self, games: int, variants: tuple[str, ...]) -> Summary:
        self.summary.variants = variants
        started = time.perf_counter()
        if connection.vendor == "postgresql":
            # The run's own session only: a commit does not wait for its WAL flush. Every write
            # is still one transaction; only the last moments could be lost in a crash.
            with connection.cursor() as cursor:
                cursor.execute("SET synchronous_commit TO OFF")
        with seeded(self.seed):
            self.make_players(self.player_count)
            if self.cheats:  # its own random source: the honest players' draws stay as they were
                self.planted = planted.Planted.among(self.players, self.cheats, random.Random(self.seed + 1))
                self.summary.planted = self.planted.listing()
            number = 0
            for index in range(games):
                for variant in variants:
                    number += 1
                    if variant in POINTS_VARIANTS:
                        self.play_points(variant, index)
                    elif variant == Variant.DEALS:
                        for deals_count in DEALS_CHOICES:
                            self.play_pool(variant, index, deals=deals_count)
                    else:
                        self.play_pool(variant, index)
                    if number % 10 == 0:
                        self.check_ledger()
            self.check_ledger()
        for template in self.templates.values():  # the run's templates leave the lobby
            template.active = False
            template.save(update_fields=["active"])
        self.summary.seconds = time.perf_counter() - started
        return self.summary

    def check_ledger(self) -> None:
        problems = reconcile()
        self.check(not problems, "the ledger does not reconcile: " + "; ".join(problems[:3]))

    # --- pool ---------------------------------------------------------------------------------

    def play_pool(self, variant: str, index: int, deals: int = 0) -> None:
        """A pool or deals game from the first seat to the payout."""
        currency = Currency.INR if index % 2 == 0 else Currency.CHIPS
        high = (index // 2) % 2 == 1
        seats = self.rng.randint(2, 6)
        tmpl = self.template(variant, currency, high, seats, deals)
        people = self.seated(self.rng.sample(self.players, seats + 1), variant, currency)
        for person in people:
            self.fund(person, currency, tmpl.entry_fee * 4)
        table = services.play_now(people[0], tmpl, at=self.tick())
        if seats > 2 and self.chance("waiting_leave"):  # someone sits and leaves before the start
            visitor = people[-1]
            assert services.play_now(visitor, tmpl, at=self.tick()).pk == table.pk, "nearest to full"
            services.leave(table.pk, visitor, at=self.tick())
            self.summary.events["leaves before the start"] += 1
        for person in people[1:seats]:
            services.join(table.pk, person, at=self.tick())
        state = self.state(table)
        if state.phase is engine.Phase.WAITING:
            self.expire(table, state)  # the start countdown
        self.drive(table)
        self.finish_pool(table, currency)

    def finish_pool(self, table: Table, currency: str) -> None:
        state = self.state(table)
        self.summary.games[state.variant.name] += 1
        self.summary.deals[state.variant.name] += state.deal_number
        if state.is_deals:
            self.check_chips(table, state)
            self.summary.events["deals tie-breakers"] += TableEvent.objects.filter(
                table=table, type="tie_breaker"
            ).count()
        pool_balance = balance_of(pool_spec(table.pool_ref, Currency(currency)))
        rake = rake_of(Transfer.objects.filter(debit__ref=pool_spec(table.pool_ref, Currency(currency)).ref))
        paid = sum(amount for _, amount in state.payouts)
        self.check(state.phase is engine.Phase.FINISHED, f"table {table.pk}: the pool game did not finish")
        self.check(pool_balance == 0, f"table {table.pk}: {pool_balance} paise left in the pool")
        self.check(
            paid + rake == state.prize_pool,
            f"table {table.pk}: payouts {paid} + rake {rake} != prize pool {state.prize_pool}",
        )
        self.check(
            rake == state.prize_pool * state.rules.rake_percent // 100,
            f"table {table.pk}: rake {rake} is not {state.rules.rake_percent}% of {state.prize_pool}, "
            "rounded down (R-MONEY-2)",
        )
        refunds = Journal.objects.filter(kind=JournalKind.REFUND, key__contains=table.pool_ref).count()
        waiting_leaves = TableEvent.objects.filter(table=table, type="left", data__forfeit=False).count()
        self.check(
            refunds <= waiting_leaves,
            f"table {table.pk}: {refunds} refund(s) for {waiting_leaves} leave(s) before the start "
            "(R-MONEY-5)",
        )
        figures = self.summary.money[currency]
        fees = TableEvent.objects.filter(table=table, type="rejoined").count()
        figures["fees"] += state.prize_pool
        figures["rake"] += rake
        figures["payouts"] += paid
        self.summary.events["rejoins"] += fees
        over = TableEvent.objects.filter(table=table, type="game_over").first()
        split = over.data.get("split") if over is not None else None
        self.summary.events[f"{split} splits" if split else "games won outright"] += 1

    def check_chips(self, table: Table, state: engine.TableState) -> None:
        """Deals: the game chips add up to what the game started with, none below zero, and the
        winner holds the most among those still in (R-DEALS-2..4)."""
        total = sum(p.chips for p in state.players)
        start = CHIPS_PER_DEAL * state.rules.deals * state.started
        self.check(total == start, f"table {table.pk}: the chips add up to {total}, not {start}")
        self.check(all(p.chips >= 0 for p in state.players), f"table {table.pk}: chips below zero")
        if state.phase is engine.Phase.FINISHED and state.winner is not None and len(state.remaining) > 1:
            most = max(p.chips for p in state.remaining)
            self.check(
                state.player(state.winner).chips == most,
                f"table {table.pk}: the winner does not hold the most chips (R-DEALS-4)",
            )

    # --- points (13 and 21 cards) ---------------------------------------------------------------

    def play_points(self, variant: str, index: int) -> None:
        currency = Currency.INR if index % 2 == 0 else Currency.CHIPS
        high = (index // 2) % 2 == 1
        seats = self.rng.randint(2, 6)
        tmpl = self.template(variant, currency, high, seats)
        hold = variant_named(variant).seat_hold_points * tmpl.point_value
        people = self.seated(self.rng.sample(self.players, seats), variant, currency)
        for index, person in enumerate(people):
            if currency == Currency.INR and self.chance("thin_wallet"):
                # A newcomer who brings just enough to sit: a top-up may be more than they have.
                person = people[index] = self.new_player()
                self.fund(person, currency, hold + self.rng.randint(0, hold // 10), margin=0)
            else:
                self.fund(person, currency, hold * 5)
        table = services.play_now(people[0], tmpl, at=self.tick())
        for person in people[1:]:
            services.join(table.pk, person, at=self.tick())
        state = self.state(table)
        if state.phase is engine.Phase.WAITING:
            self.expire(table, state)
        target = self.rng.randint(3, 6)
        self.drive(table, deals_wanted=target)
        self.summary.games[variant] += 1
        self.finish_points(table, currency)

    def finish_points(self, table: Table, currency: str) -> None:
        state = self.state(table)
        self.summary.deals[state.variant.name] += state.deal_number
        for name in [p.name for p in state.seated]:
            self.leave(table, name, "leaves when done")
        state = self.state(table)
        if state.phase is engine.Phase.PLAYING:  # the last deal is settled as everyone leaves
            self.violation(f"table {table.pk}: a points deal still runs after everyone left")
        while state.deadline_ms is not None:  # the table waits, then closes
            self.expire(table, state)
            state = self.state(table)
        for seat in Seat.objects.filter(table=table):
            self.check(seat.left_at is not None, f"table {table.pk}: {seat} is still open")
            balance = balance_of(seat_spec(seat.seat_ref, seat.user_id, Currency(currency)))
            self.check(balance == 0, f"table {table.pk}: {balance} paise left on {seat}")
        figures = self.summary.money[currency]
        figures["rake"] += rake_of(
            Transfer.objects.filter(journal__key__startswith=f"deal:{table.table_ref}:")
        )
        topped = TableEvent.objects.filter(table=table, type="topped_up").values_list("data", flat=True)
        figures["top-ups"] += sum(data["amount"] for data in topped)
        self.summary.events["points top-ups"] += len(topped)
        self.summary.events["points stand-ups"] += TableEvent.objects.filter(
            table=table, type="stood_up"
        ).count()

    def check_settlement(self, table: Table, state: engine.TableState, currency: str) -> None:
        deal = Deal.objects.filter(table=table, number=state.deal_number).first()
        if deal is None or deal.result is None:
            return
        nets = [p["net"] for p in deal.result["players"]]
        self.check(sum(nets) == 0, f"table {table.pk} deal {deal.number}: nets {nets} do not add up to 0")
        seats = {
            str(s.user_id): s for s in Seat.objects.filter(table=table, left_at__isnull=True).order_by("id")
        }
        for player in state.seated:
            seat = seats.get(player.name)
            if seat is None:
                continue
            held = balance_of(seat_spec(seat.seat_ref, seat.user_id, Currency(currency)))
            self.check(
                held == player.held,
                f"table {table.pk}: seat of {player.name} holds {held}, the table says {player.held}",
            )

    # --- one table, step by step -----------------------------------------------------------------

    def drive(self, table: Table, *, deals_wanted: int | None = None) -> None:
        currency = table.template.currency
        last_over = 0
        for _ in range(MAX_STEPS):
            state = self.state(table)
            if state.phase in (engine.Phase.FINISHED, engine.Phase.CANCELLED):
                return
            if state.phase is engine.Phase.BETWEEN and state.deal_number != last_over:
                last_over = state.deal_number
                self.after_deal(table, state, currency)
                if deals_wanted is not None and state.deal_number >= deals_wanted:
                    return
                continue
            if state.phase is engine.Phase.PLAYING:
                self.deal_step(table, state)
            elif state.phase is engine.Phase.BETWEEN:
                self.between_step(table, state, currency)
            elif deals_wanted is not None and state.deal_number >= deals_wanted:
                return
            else:
                self.waiting_step(table, state, currency)
        self.violation(f"table {table.pk}: no end after {MAX_STEPS} steps")

    def after_deal(self, table: Table, state: engine.TableState, currency: str) -> None:
        """Checks at the end of each deal."""
        if state.has_prize_pool:
            held = balance_of(pool_spec(table.pool_ref, Currency(currency)))
            self.check(
                held == state.prize_pool,
                f"table {table.pk}: the pool account holds {held}, the prize pool is {state.prize_pool}",
            )
            if state.is_deals:
                self.check_chips(table, state)
        else:
            self.check_settlement(table, state, currency)

    def waiting_step(self, table: Table, state: engine.TableState, currency: str) -> None:
        """A points table waiting for players: a newcomer sits, or the wait runs out."""
        wanted = state.is_points and len(state.seated) >= 1 and self.rng.random() < 0.7
        if wanted and self.newcomer(table, state, currency):
            return
        self.expire(table, state)

    def newcomer(self, table: Table, state: engine.TableState, currency: str) -> bool:
        free = [p for p in self.players if not state.has(str(p.pk))]
        if not free:
            return False
        person = self.rng.choice(free)
        self.fund(person, currency, state.seat_hold * 3)
        try:
            services.join(table.pk, person, at=self.tick())
        except GameError as error:
            if error.code in ("table_full", "insufficient_balance"):
                return False
            raise
        self.summary.events["points newcomers"] += 1
        return True

    def between_step(self, table: Table, state: engine.TableState, currency: str) -> None:
        if state.is_pool:
            for name in state.rejoin_open:
                if self.chance("rejoin"):
                    try:
                        services.rejoin(table.pk, self.user(name), at=self.tick(100, 1_500))
                    except GameError as error:
                        if error.code != "insufficient_balance":
                            raise
            state = self.state(table)
            if state.phase is not engine.Phase.BETWEEN:
                return
            if state.split_offer:
                for player in state.remaining:
                    if self.chance("split_accept"):
                        self.summary.events["split votes"] += 1
                        services.answer_split(
                            table.pk, self.user(player.name), True, at=self.tick(100, 1_500)
                        )
                    elif self.chance("split_decline"):
                        self.summary.events["split votes"] += 1
                        services.answer_split(
                            table.pk, self.user(player.name), False, at=self.tick(100, 1_500)
                        )
                    state = self.state(table)
                    if not state.split_offer or state.phase is not engine.Phase.BETWEEN:
                        break
            state = self.state(table)
            if state.phase is engine.Phase.BETWEEN and state.remaining and self.chance("leave_between"):
                self.leave(table, self.rng.choice(state.remaining).name, "leaves between deals")
        elif state.is_deals:
            if state.remaining and self.chance("leave_between"):
                self.leave(table, self.rng.choice(state.remaining).name, "leaves between deals")
        else:
            if state.seated and self.chance("leave_between"):
                self.leave(table, self.rng.choice(state.seated).name, "leaves between deals")
            elif self.chance("newcomer"):
                self.newcomer(table, self.state(table), currency)
        state = self.state(table)
        if state.phase is engine.Phase.BETWEEN and state.deadline_ms is not None:
            self.expire(table, state)

    def leave(self, table: Table, name: str, why: str) -> None:
        try:
            services.leave(table.pk, self.user(name), at=self.tick(100, 1_500))
        except GameError as error:
            if error.code in ("already_left", "table_closed"):
                return
            raise
        self.summary.events[why] += 1

    def deal_step(self, table: Table, state: engine.TableState) -> None:
        deal = state.deal
        assert deal is not None
        if deal.phase is deals.Phase.SHOW:
            for seat in deal.seats:
                if seat.in_deal and not self.chance("no_show"):
                    action = bots.choose(deal, seat.player)
                    if action is not None:
                        services.act(table.pk, self.user(seat.player), action, at=self.tick(100, 2_000))
                        self.summary.events["shows"] += 1
            now = self.state(table)
            if (
                now.deal is not None
                and now.phase is engine.Phase.PLAYING
                and now.deal.phase is deals.Phase.SHOW
            ):
                self.summary.events["show timeouts"] += 1
                self.expire(table, now)
            return
        if deal.phase is deals.Phase.DECLARING:  # a finish left without its declaration
            self.summary.events["declarations not sent"] += 1
            self.expire(table, state)
            return
        name = deal.seats[deal.turn].player
        user = self.user(name)
        seat = deal.seats[deal.turn]
        cheat = None if self.planted is None else self.planted.action(deal, name)
        if cheat is not None:
            self.play(table, user, cheat, self.moment(name))
            self.summary.events["planted cheats' moves"] += 1
            return
        if self.chance("missed_move"):
            self.summary.events["missed moves"] += 1
            self.expire(table, state)
            return
        if self.chance("leave_mid_deal"):
            self.leave(table, name, "leaves mid-deal")
            return
        if state.is_points and self.chance("leave_after_deal") and not state.player(name).leaving:
            services.leave_after_deal(table.pk, user, True, at=self.tick(100, 1_000))
            self.summary.events["leave after the deal"] += 1
            return
        at = self.moment(name)
        if deal.drawn is None:
            first = not seat.has_drawn and seat.turns == 0
            if self.chance("first_drop" if first else "middle_drop"):
                services.act(table.pk, user, {"type": "drop"}, at=at)
                self.summary.events["first drops" if first else "middle drops"] += 1
                return
            if self.chance("wrong_show"):
                services.act(table.pk, user, {"type": "draw", "source": "closed"}, at=at)
                drawn = self.state(table).deal
                assert drawn is not None, "the deal runs: the player just drew"
                hand = [c.code for c in drawn.seats[deal.turn].hand]
                services.act(table.pk, user, {"type": "finish", "card": hand[0]}, at=self.tick(100, 1_000))
                services.act(
                    table.pk, user, {"type": "declare", "groups": [hand[1:]]}, at=self.tick(100, 1_000)
                )
                self.summary.events["wrong shows"] += 1
                return
        action = bots.choose(deal, name)
        if action is None:
            self.expire(table, state)
            return
        self.play(table, user, action, at)

    def play(self, table: Table, user: Any, action: dict[str, Any], at: int) -> None:
        """A bot's move; a finish is followed by its declaration."""
        groups = action.pop("then", None)
        services.act(table.pk, user, action, at=at)
        if groups is not None:
            declare = {"type": "declare", "groups": [[c.code for c in g] for g in groups]}
            services.act(table.pk, user, declare, at=self.tick(100, 2_000))
            self.summary.events["declarations"] += 1


def rake_of(transfers: Any) -> int:
    """The rake among ``transfers``: what went to the house (its accounts are shared shards)."""
    return int(transfers.filter(credit__kind="house").aggregate(total=Sum("amount"))["total"] or 0)


@dataclass(frozen=True)
class Cheat:
    """A way of cheating the simulator plays after the games when asked (``--<flag> N``), to show
    what catches it: registered by the apps above from their ``AppConfig.ready`` (fair play).
    ``play`` counts what it saw in the summary's events and checks its invariants."""

    flag: str
    help: str
    play: Callable[[Simulator, int], None]


#: The cheats on offer, by their flags (``--cheat-...``).
CHEATS: list[Cheat] = []


def simulate(
    games: int,
    variant: str,
    seed: int,
    *,
    log: Callable[[str], None] = lambda line: None,
    players: int = 24,
    planted: Mapping[str, int] | None = None,
    cheats: Mapping[str, int] | None = None,
) -> Summary:
    """Play ``games`` games of ``variant`` (or of each variant for ``all``) from ``seed``, among
    ``players`` simulated players; ``planted`` plants that many pairs (or bots) of each kind of
    :mod:`games.planted` among them. Then each cheat the apps above registered (:data:`CHEATS`)
    that ``cheats`` asks for (its flag: how many times)."""
    variants = VARIANTS if variant == "all" else (variant,)
    simulator = Simulator(seed, log=log, players=players, cheats=dict(planted or {}))
    summary = simulator.run(games, variants)
    for cheat in CHEATS:
        count = (cheats or {}).get(cheat.flag, 0)
        if count > 0:
            with seeded(seed):
                cheat.play(simulator, count)
    return summary


def money_in_run(summary: Summary) -> dict[str, Any]:
    """The summary's figures as plain data (for tests and JSON)."""
    return {
        "games": dict(summary.games),
        "deals": dict(summary.deals),
        "money": {k: dict(v) for k, v in summary.money.items()},
        "events": dict(summary.events),
        "checks": summary.checks,
        "violations": list(summary.violations),
    }
