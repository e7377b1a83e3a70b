"""Concurrent random game money against the configured database, then the auditor.

Used by ``python manage.py wallet_stress``. Writers (forked processes, or threads of them; one
database connection each) run random operations on shared users, pools and tables: joins (many racing
for the last seat of a pool), rejoins, prizes, splits, refunds, retries of earlier keys,
deposits (some confirmed twice, some failed), withdrawals (approved or rejected), seats and
21-card deals, chips top-ups, and plain transfers between two players in both directions.

A refusal with a :class:`~wallet.errors.WalletError` (pool full, pool already settled,
insufficient funds ...) is a correct answer and is counted as such. A violation is anything
else: another exception (a deadlock, an integrity error), a retry that did not return the
original journal, a journal nobody asked for, or a difference found by the auditor.
"""

from __future__ import annotations

import gc
import multiprocessing
import random
import threading
import time
import traceback
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections

from hotpath.busy import close_before_fork
from protection import kyc
from wallet import cashier, providers
from wallet import operations as ops
from wallet.errors import WalletError
from wallet.ledger import post, user_spec
from wallet.models import Journal, JournalKind
from wallet.reconcile import reconcile

POOL_CAPACITY = 6
RAKE_PERCENT = 10
POINT_VALUE = 10  # paise per point: a seat needs 200 points = ₹20
START_BALANCE = 1_00_000_00  # each stress player starts with ₹1,00,000

#: Relative weights of the operations a worker picks from.
WEIGHTS: dict[str, int] = {
    "join": 34,
    "rejoin": 5,
    "prize": 7,
    "split": 4,
    "refund": 3,
    "retry": 14,
    "deposit": 5,
    "withdrawal": 5,
    "seat": 14,
    "chips": 3,
    "transfer": 6,
}


@dataclass
class WorkerReport:
    ops: int = 0
    done: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)


@dataclass
class StressResult:
    workers: int
    ops: int
    seconds: float
    done: Counter[str]
    refused: Counter[str]
    violations: list[str]

    @property
    def ops_per_second(self) -> float:
        return self.ops / self.seconds if self.seconds else 0.0


@dataclass
class Setup:
    run: str
    users: list[int]
    staff_id: int
    pools: int
    second_staff_id: int = 0


#: The most wallet calls one scenario makes (a withdrawal: request, approval, a second approval
#: for four eyes, and a deliberate repeat that must be refused): a worker may end this many
#: minus one past its share of the operations.
MOST_CALLS_PER_SCENARIO = 4


def prepare(workers: int, total_ops: int) -> Setup:
    """Create the stress players (funded through the cashier) and a staff member."""
    run = uuid.uuid4().hex[:8]
    user_model = get_user_model()
    count = max(8, workers * 4)
    users = [
        user_model.objects.create_user(username=f"stress-{run}-{i}", password=None) for i in range(count)
    ]
    staff = user_model.objects.create_user(username=f"stress-{run}-staff", password=None, is_staff=True)
    second = user_model.objects.create_user(username=f"stress-{run}-staff2", password=None, is_staff=True)
    for number, user in enumerate(users):
        deposit = cashier.create_deposit(user, START_BALANCE, provider=CALLBACK_LATER)
        cashier.confirm_deposit(deposit.provider_ref)
        # Withdrawals need a verified identity (R-PROT-7): the stress players have one, with a
        # document of the run's own (one verified on another account is held for a reviewer).
        kyc.submit(user, "pan", f"S{run}{number:04d}".upper(), provider=kyc.SandboxKyc())
        kyc.decide(user, True, by=None, reason="stress set-up")
    return Setup(
        run=run,
        users=[u.pk for u in users],
        staff_id=staff.pk,
        pools=max(8, total_ops // 25),
        second_staff_id=second.pk,
    )


#: Deposits confirmed by a callback later (as a real provider does), so the walk can also
#: confirm twice and fail them; the sandbox itself confirms at once. Payouts go through it too,
#: whatever ``PAYMENTS_SANDBOX`` says (with it off, every approval was refused as bad_request).
CALLBACK_LATER = providers.SandboxProvider(confirms_itself=False)


class Worker:
    """One worker's random walk; ``step`` runs one operation."""

    def __init__(self, setup: Setup, index: int, ops_count: int, seed: int) -> None:
        self.setup = setup
        self.index = index
        self.ops_count = ops_count
        self.rng = random.Random(seed * 1009 + index)
        self.report = WorkerReport()
        self.history: list[tuple[Callable[[], Journal], int]] = []
        self.seats: dict[str, list[tuple[str, int]]] = {}  # table ref -> open (seat ref, user id)
        # Entrants this worker saw join each pool: enough to pick winners without reading the
        # ledger (other workers' joins are unknown here, which is fine for random play).
        self.entrants: dict[str, list[int]] = {}
        self.serial = 0
        self.staff = get_user_model().objects.get(pk=setup.staff_id)
        self.second_staff = get_user_model().objects.get(pk=setup.second_staff_id)
        self.names = list(WEIGHTS)
        self.weights = [WEIGHTS[name] for name in self.names]

    # --- helpers

    def _uid(self) -> int:
        return self.rng.choice(self.setup.users)

    def _pool(self, done: int) -> tuple[str, int]:
        # A window of pools that moves with progress, so workers meet on the same pools.
        base = done * self.setup.pools // max(1, self.ops_count)
        k = min(self.setup.pools - 1, base + self.rng.randint(0, 7))
        return f"pool:stress-{self.setup.run}-{k}", 1000 * (1 + k % 5)

    def _next(self) -> str:
        self.serial += 1
        return f"{self.setup.run}-{self.index}-{self.serial}"

    def _record(self, call: Callable[[], Journal]) -> Journal:
        journal: Journal = self.call(call)
        self.report.keys.add(journal.key)
        self.history.append((call, journal.pk))
        if len(self.history) > 200:
            self.history.pop(self.rng.randrange(len(self.history)))
        return journal

    # --- operations

    def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Call one function of the wallet's API: each call is one operation."""
        self.report.ops += 1
        return function(*args, **kwargs)

    def step(self) -> None:
        """Run one random scenario (one to :data:`MOST_CALLS_PER_SCENARIO` operations)."""
        name = self.rng.choices(self.names, self.weights)[0]
        try:
            getattr(self, f"op_{name}")(self.report.ops)
            self.report.done[name] += 1
        except WalletError as error:
            self.report.refused[f"{name}:{error.code}"] += 1
        except Exception:
            self.report.violations.append(f"worker {self.index} {name}: {traceback.format_exc(limit=6)}")

    def run(self) -> None:
        while self.report.ops < self.ops_count:
            self.step()

    def op_join(self, done: int) -> None:
        pool, fee = self._pool(done)
        uid = self._uid()
        self._record(lambda: ops.charge_entry_fee(uid, pool, fee, capacity=POOL_CAPACITY, variant="101"))
        if uid not in self.entrants.setdefault(pool, []):
            self.entrants[pool].append(uid)

    def op_rejoin(self, done: int) -> None:
        pool, fee = self._pool(done)
        entrants = self.entrants.get(pool, [])
        if not entrants:
            return
        uid, number = self.rng.choice(entrants), self.rng.randint(1, 3)
        self._record(lambda: ops.charge_rejoin_fee(uid, pool, fee, rejoin_number=number, variant="101"))

    def op_prize(self, done: int) -> None:
        pool, _ = self._pool(done)
        entrants = self.entrants.get(pool, [])
        if not entrants:
            return
        winner = self.rng.choice(entrants)
        self._record(lambda: ops.pay_winner(pool, winner, rake_percent=RAKE_PERCENT, variant="101"))

    def op_split(self, done: int) -> None:
        pool, fee = self._pool(done)
        entrants = self.entrants.get(pool, [])
        if len(entrants) < 2:
            return
        players = self.rng.sample(entrants, self.rng.randint(2, min(4, len(entrants))))
        drops = [self.rng.randint(0, 3) for _ in players]
        self._record(
            lambda: ops.pay_split_by_drops(
                pool, players, drops, entry_fee=fee, rake_percent=RAKE_PERCENT, variant="201"
            )
        )

    def op_refund(self, done: int) -> None:
        pool, _ = self._pool(done)
        self._record(lambda: ops.refund_pool(pool))

    def op_retry(self, done: int) -> None:
        if not self.history:
            return
        call, journal_id = self.rng.choice(self.history)
        again = self.call(call)
        if again.pk != journal_id:
            self.report.violations.append(
                f"retry of {again.key} returned journal {again.pk}, not {journal_id}"
            )

    def op_deposit(self, done: int) -> None:
        deposit = self.call(
            cashier.create_deposit, self._uid(), self.rng.randint(10_00, 5_000_00), provider=CALLBACK_LATER
        )
        if self.rng.random() < 0.2:
            self.call(cashier.fail_deposit, deposit.provider_ref, "declined by the sandbox")
            return
        first = self.call(cashier.confirm_deposit, deposit.provider_ref)
        if self.rng.random() < 0.3:
            second = self.call(cashier.confirm_deposit, deposit.provider_ref)
            if second.journal_id != first.journal_id:
                self.report.violations.append(f"deposit {deposit.pk} confirmed twice with two journals")
        assert first.journal is not None
        self.report.keys.add(first.journal.key)

    def op_withdrawal(self, done: int) -> None:
        uid = self._uid()
        withdrawal = self.call(cashier.request_withdrawal, uid, self.rng.randint(100_00, 2_000_00))
        self.report.keys.add(withdrawal.hold_journal.key)
        if self.rng.random() < 0.5:
            decided = self.call(
                cashier.approve_withdrawal, withdrawal.pk, self.staff, provider=CALLBACK_LATER
            )
            if decided.status == "requested":  # four eyes: a large one needs a second approver
                decided = self.call(
                    cashier.approve_withdrawal, withdrawal.pk, self.second_staff, provider=CALLBACK_LATER
                )
        else:
            decided = self.call(cashier.reject_withdrawal, withdrawal.pk, self.staff, "stress")
        assert decided.decision_journal is not None
        self.report.keys.add(decided.decision_journal.key)
        if self.rng.random() > 0.2:
            return
        try:
            self.call(cashier.approve_withdrawal, withdrawal.pk, self.staff, provider=CALLBACK_LATER)
        except WalletError as error:
            if error.code != "already_decided":
                raise
        else:
            self.report.violations.append(f"withdrawal {withdrawal.pk} was decided twice")

    def op_seat(self, done: int) -> None:
        table = f"table:stress-{self.setup.run}-{self.index}-{self.rng.randint(0, 3)}"
        seated = self.seats.setdefault(table, [])
        roll = self.rng.random()
        if len(seated) < 2 or (roll < 0.3 and len(seated) < 6):
            uid = self._uid()
            seat = f"seat:{self._next()}"
            amount = 200 * POINT_VALUE * self.rng.randint(1, 3)
            self._record(
                lambda: ops.hold_seat(uid, seat, amount, point_value=POINT_VALUE, points=200, table_ref=table)
            )
            seated.append((seat, uid))
        elif roll < 0.45:
            seat, _ = seated.pop(self.rng.randrange(len(seated)))
            self._record(lambda: ops.release_seat(seat))
        else:
            refs = [seat for seat, _ in seated]
            winner = self.rng.choice(refs)
            transfers = [(ref, winner, self.rng.randint(0, 80)) for ref in refs if ref != winner]
            if len(refs) > 2:
                a, b = self.rng.sample([ref for ref in refs if ref != winner], 2)
                transfers.append((a, b, self.rng.randint(0, 30)))
            deal = self.serial
            self.serial += 1
            self._record(
                lambda: ops.settle_deal(
                    table, deal, transfers, point_value=POINT_VALUE, rake_percent=RAKE_PERCENT
                )
            )

    def op_chips(self, done: int) -> None:
        uid = self._uid()
        self._record(lambda: cashier.topup_chips(uid))

    def op_transfer(self, done: int) -> None:
        a, b = self.rng.sample(self.setup.users, 2)
        amount = self.rng.randint(1, 500_00)
        key = f"stress-transfer:{self._next()}"
        self._record(
            lambda: post(
                key,
                JournalKind.ADJUSTMENT,
                [(user_spec(a), user_spec(b), amount), (user_spec(b), user_spec(a), amount // 2 or 1)],
                meta={"stress": True},
            )
        )


def _work(setup: Setup, shares: dict[int, int], seed: int, start: Any, out: Any) -> None:
    """One process's writers (``shares``: worker index -> its operations), a thread each.

    Each writer connects before the clock starts, as pgbench reports its rate without the
    initial connection time."""
    connections.close_all()
    workers = [Worker(setup, index, ops_count, seed) for index, ops_count in shares.items()]
    connected = threading.Barrier(len(workers) + 1)
    threads = [threading.Thread(target=_write, args=(worker, connected)) for worker in workers]
    for thread in threads:
        thread.start()
    connected.wait()  # every writer of this process is connected
    start.wait()  # and every other process's: the clock starts
    began = time.perf_counter()
    connected.wait()  # go
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    connections.close_all()
    out.put(([(worker.index, worker.report) for worker in workers], elapsed))


def _write(worker: Worker, connected: threading.Barrier) -> None:
    """One writer's thread, on its own connection (Django's connections are per thread)."""
    try:
        try:
            connections[DEFAULT_DB_ALIAS].ensure_connection()
        except BaseException:
            connected.abort()  # the process fails at once rather than wait for this writer
            raise
        connected.wait()
        connected.wait()
        worker.run()
    finally:
        connections.close_all()


def run(
    workers: int,
    total_ops: int,
    seed: int = 0,
    log: Callable[[str], None] = print,
    processes: int = 0,
) -> StressResult:
    """Run the stress test and the auditor; the result lists every violation found.

    ``workers`` writers, each on its own connection, run in ``processes`` forked processes (0:
    one per writer, as a prefork server runs them), as threads of them when fewer. Threads of
    one process share its interpreter lock: with two processes of four writers, the writers
    waited for it mid-transaction, holding their rows (docs/PERFORMANCE.md, "What we tried").
    With one writer, it runs in this process.
    """
    setup = prepare(workers, total_ops)
    before = Journal.objects.order_by("-id").values_list("id", flat=True).first() or 0
    per_worker = [total_ops // workers + (1 if i < total_ops % workers else 0) for i in range(workers)]
    reports: list[WorkerReport] = []
    if workers == 1:
        worker = Worker(setup, 0, per_worker[0], seed)
        began = time.perf_counter()
        worker.run()
        seconds = time.perf_counter() - began
        reports.append(worker.report)
    else:
        processes = min(workers, processes or workers)
        log(f"{workers} writers in {processes} processes")
        context = multiprocessing.get_context("fork")
        start, out = context.Barrier(processes + 1), context.Queue()
        close_before_fork()
        gc.freeze()  # the workers share the parent's objects without copying their pages
        children = [
            context.Process(
                target=_work,
                args=(setup, {i: per_worker[i] for i in range(p, workers, processes)}, seed, start, out),
            )
            for p in range(processes)
        ]
        for child in children:
            child.start()
        start.wait()
        began = time.perf_counter()
        results = [out.get() for _ in children]
        seconds = time.perf_counter() - began
        for child in children:
            child.join()
        indexed = sorted((pair for answers, _ in results for pair in answers), key=lambda pair: pair[0])
        reports = [report for _, report in indexed]
        log(f"slowest process: {max(elapsed for _, elapsed in results):.2f} s")
    done: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    violations: list[str] = []
    asked: set[str] = set()
    for report in reports:
        done.update(report.done)
        refused.update(report.refused)
        violations.extend(report.violations)
        asked |= report.keys
    created = set(Journal.objects.filter(id__gt=before).values_list("key", flat=True))
    if created - asked:
        violations.append(
            f"{len(created - asked)} journals nobody was answered with: {sorted(created - asked)[:5]}"
        )
    if asked - created:
        violations.append(
            f"{len(asked - created)} journals answered but not stored: {sorted(asked - created)[:5]}"
        )
    violations.extend(f"auditor: {problem}" for problem in reconcile())
    return StressResult(workers, sum(r.ops for r in reports), seconds, done, refused, violations)
