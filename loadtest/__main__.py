"""``python -m loadtest``: drive a running server with bots over websockets and print figures.

    make loadtest ARGS="--tables 10 --duration 20"   # one step against http://127.0.0.1:8000
    make loadtest ARGS="--step"                      # double the tables until the knee
    make loadtest ARGS="--baseline"                  # the same beside a bare echo server, as ratios

Run it against a server of this project (``make run`` or ``make run-prod``) on a scratch
database: it creates players and practice tables there. See docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from loadtest import procs
from loadtest.players import Table
from loadtest.setup import Seat

ROOT = Path(__file__).resolve().parent.parent

#: The knee: the highest load whose ack p99 and fan-out p99 are both under this, with nothing
#: lost or refused (a move must reach the other players as fast as it is acknowledged).
P99_LIMIT_MS = 100.0
#: A step reaches its load when it achieves at least this share of the offered actions.
ACHIEVED_SHARE = 0.95
#: ``--arrive``: the p99 every kind of an arriving player's request must keep (a sign-up, a
#: log-in, a deposit...): a site that lets players in only slowly has not held its load, however
#: well the tables play.
ARRIVAL_P99_LIMIT_MS = 1000.0
#: The generator is saturated when it used this share of one core.
GENERATOR_SATURATED = 0.90


@dataclass
class Step:
    """The figures of one step of load."""

    target: str
    tables: int
    seats: int
    offered: float
    achieved: float = 0.0
    actions: int = 0
    ack_p50: float = 0.0
    ack_p95: float = 0.0
    ack_p99: float = 0.0
    fanout_p99: float = 0.0
    errors: int = 0
    closes: int = 0
    missing: int = 0
    gaps: int = 0
    server_cpu: dict[str, float] = field(default_factory=dict)
    generator_cpu: float = 0.0
    error_kinds: dict[str, int] = field(default_factory=dict)
    db_connections: dict[str, int] = field(default_factory=dict)
    """PostgreSQL: the most connections each process kind held at once during the step."""
    db_connections_total: int = 0
    arrivals: int = 0
    """``--arrive``: players who arrived through the site during the step."""
    arrival_failures: int = 0
    """``--arrive``: their requests that got no answer or a 5xx."""
    arrival_lines: list[str] = field(default_factory=list)
    arrival_p99: float = 0.0
    """``--arrive``: the slowest p99 of a kind of their requests, in ms."""
    daphne_mb: float = 0.0
    """daphne's resident memory at the end of the step, its connections still open."""
    memory: list[tuple[float, float]] = field(default_factory=list)
    """daphne's resident memory during the step: (seconds, MiB), sampled each ``--memory-every``."""

    @property
    def cpu_per_1000(self) -> float:
        return 1000 * sum(self.server_cpu.values()) / self.actions if self.actions else 0.0

    @property
    def cpu_per_1000_without_hashing(self) -> float:
        """The same without the password hashing's processes (``--arrive``: the arrivals' Argon2)."""
        spent = sum(seconds for role, seconds in self.server_cpu.items() if role != "hashing")
        return 1000 * spent / self.actions if self.actions else 0.0

    @property
    def clean(self) -> bool:
        return not (self.errors or self.closes or self.missing or self.gaps or self.arrival_failures)

    @property
    def holds(self) -> bool:
        """Within the knee's standard: the ack's and the fan-out's p99 under the limit, nothing
        lost, the load reached; with ``--arrive``, every kind of the arrivals' requests under its
        own limit and none failed."""
        fast = self.ack_p99 < P99_LIMIT_MS and self.fanout_p99 < P99_LIMIT_MS
        fast = fast and self.arrival_p99 <= ARRIVAL_P99_LIMIT_MS
        return self.clean and fast and self.achieved >= ACHIEVED_SHARE * self.offered

    @property
    def saturated(self) -> bool:
        return self.generator_cpu >= GENERATOR_SATURATED


@dataclass(frozen=True)
class OwnWork:
    """An action's own work, measured apart from any server (``loadtest.inprocess``: the lock,
    the receipt, the rules, the write and the snapshots, in one process with no socket and no
    channel layer): what no websocket plumbing can take away. The ratios put the project's CPU
    per action beside it, so a figure says how much of the gap to the echo is the game itself."""

    cpu_ms: float
    python_ms: float
    database_ms: float
    action_ms_p50: float

    @classmethod
    def measure(cls, actions: int) -> OwnWork:
        from loadtest import inprocess

        figures = inprocess.run(actions, profile=False)
        python, database = figures["python_cpu_ms"], figures["database_cpu_ms"]
        return cls(python + database, python, database, figures["action_ms_p50"])


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def phases(tables: int, rate: float, lockstep: bool) -> list[float]:
    """Each table's delay before its first action: spread evenly over one action's interval, as
    independent tables are on a real site, or none at all with ``lockstep`` (every table acts in
    the same instant: a burst of one action per table each interval, the worst case)."""
    if lockstep:
        return [0.0] * tables
    return [index / (tables * rate) for index in range(tables)]


async def _run_step(
    url: str,
    origin: str,
    layout: list[list[Seat]],
    rate: float,
    warmup: float,
    duration: float,
    echo: bool,
    lockstep: bool,
    meter: procs.CpuMeter,
) -> tuple[list[Table], float, float]:
    """Open the tables, warm up, then measure ``duration`` seconds: the tables, the measured
    seconds, and the generator's CPU seconds meanwhile. The server's CPU is metered over the
    measured actions alone (and the half second their last events take to arrive), not over
    opening the connections or the warm-up."""
    tables = [Table(url, origin, seats, echo=echo) for seats in layout]
    for start in range(0, len(tables), 20):
        await asyncio.gather(*(table.open() for table in tables[start : start + 20]))
    await asyncio.sleep(0.5)  # the first snapshots
    began = time.monotonic()
    until = began + warmup
    for table, offset in zip(tables, phases(len(tables), rate, lockstep), strict=True):
        table.next_at = began + offset
    await asyncio.gather(*(table.drive(rate, until, timeout=10) for table in tables))
    for table in tables:
        table.samples.clear()
        for player in table.players:
            player.errors.clear()
            player.gaps = 0
    meter.start()
    own_before = procs.own_cpu_seconds()
    measured = time.monotonic()
    await asyncio.gather(*(table.drive(rate, measured + duration, timeout=10) for table in tables))
    elapsed = time.monotonic() - measured
    await asyncio.sleep(0.5)  # let the last events arrive
    meter.stop()
    own = procs.own_cpu_seconds() - own_before
    for table in tables:
        await table.close()
    return tables, elapsed, own


def run_step(
    target: str,
    url: str,
    layout: list[list[Seat]],
    *,
    rate: float,
    warmup: float,
    duration: float,
    meter: procs.CpuMeter,
    echo: bool,
    lockstep: bool = False,
) -> Step:
    parsed = urlparse(url)
    origin = f"{parsed.scheme}://{parsed.netloc}"
    ws_url = ("wss://" if parsed.scheme == "https" else "ws://") + parsed.netloc
    step = Step(target=target, tables=len(layout), seats=len(layout[0]), offered=rate * len(layout))
    tables, elapsed, own = asyncio.run(
        _run_step(ws_url, origin, layout, rate, warmup, duration, echo, lockstep, meter)
    )
    step.server_cpu = {role: round(seconds, 2) for role, seconds in meter.used.items()}
    step.daphne_mb = round(meter.resident, 1)
    step.generator_cpu = own / (elapsed + 0.5)
    samples = [sample for table in tables for sample in table.samples]
    acks = [1000 * (s.answered - s.sent) for s in samples if s.answered is not None and s.error is None]
    fanout = [1000 * span for table in tables for span in table.fan_out()]
    step.actions = len(acks)
    step.achieved = len(acks) / elapsed if elapsed else 0.0
    step.ack_p50, step.ack_p95, step.ack_p99 = (quantile(acks, q) for q in (0.50, 0.95, 0.99))
    step.fanout_p99 = quantile(fanout, 0.99)
    for sample in samples:
        if sample.error is not None:
            step.error_kinds[sample.error] = step.error_kinds.get(sample.error, 0) + 1
    for table in tables:
        for player in table.players:
            for error in player.errors:
                step.error_kinds[error] = step.error_kinds.get(error, 0) + 1
            step.gaps += player.gaps
            if player.closed not in (None, "by us"):
                step.closes += 1
        step.missing += table.missing()
    step.errors = sum(step.error_kinds.values())
    return step


def echo_layout(tables: int, seats: int, first: int) -> list[list[Seat]]:
    return [
        [Seat(table=first + number, player=str(position), cookie="") for position in range(seats)]
        for number in range(tables)
    ]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_echo(layer: str = "memory") -> tuple[subprocess.Popen[bytes], int]:
    """The echo server on a free port, on the in-memory channel layer or on Redis (the
    ``REDIS_URL`` of the environment, the server's own)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    if layer == "redis":
        if not os.environ.get("REDIS_URL"):
            raise SystemExit("--echo-layer redis needs REDIS_URL, as the server under test has")
        env["ECHO_REDIS_URL"] = os.environ["REDIS_URL"]
    server = subprocess.Popen(  # noqa: S603 (our own interpreter and module, no input)
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "loadtest.echo:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, port
        except OSError:
            if server.poll() is not None:
                raise SystemExit("the echo server did not start") from None
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the echo server did not open its port")


def describe_times(kind: str, times: list[float]) -> str:
    """A kind of request's count and its latency's median and p99, in words."""
    ms = sorted(1000 * t for t in times)
    return f"{kind:9} {len(ms):5}  p50 {quantile(ms, 0.5):7.1f} ms  p99 {quantile(ms, 0.99):7.1f} ms"


def print_step(step: Step) -> None:
    cpu = ", ".join(f"{role} {seconds:.1f}" for role, seconds in sorted(step.server_cpu.items())) or "-"
    print(
        f"{step.target:7} {step.tables:5} tables  offered {step.offered:7.1f}/s"
        f"  achieved {step.achieved:7.1f}/s"
        f"  ack p50 {step.ack_p50:6.1f} p95 {step.ack_p95:6.1f} p99 {step.ack_p99:6.1f} ms"
        f"  fan-out p99 {step.fanout_p99:6.1f} ms  errors {step.errors} closes {step.closes}"
        f" missing {step.missing} gaps {step.gaps}  cpu/1000 {step.cpu_per_1000:5.1f} s ({cpu})"
        f"  generator {100 * step.generator_cpu:3.0f}%",
        flush=True,
    )
    if step.error_kinds:
        print(f"        errors by kind: {json.dumps(step.error_kinds)}", flush=True)
    if step.arrivals or step.arrival_lines:
        print(
            f"        arrivals during the step: {step.arrivals} new players,"
            f" {step.arrival_failures} requests failed",
            flush=True,
        )
        for line in step.arrival_lines:
            print(f"          {line}", flush=True)
    if step.daphne_mb:
        players = step.tables * step.seats
        series = "".join(f"{seconds / 60:.0f} min {mib:.0f}, " for seconds, mib in step.memory)
        print(
            f"        daphne's resident memory (MiB): {series}at the end {step.daphne_mb:.0f},"
            f" {1024 * step.daphne_mb / players:.0f} KiB a connected player",
            flush=True,
        )
    if step.db_connections:
        kinds = ", ".join(f"{name} {count}" for name, count in sorted(step.db_connections.items()))
        print(f"        database connections at most: {step.db_connections_total} ({kinds})", flush=True)


def stepping(args: argparse.Namespace, run: Callable[[int], Step]) -> tuple[list[Step], str]:
    """Double the tables from ``--tables`` until a step fails the standard, the generator
    saturates, or ``--max-tables``; then halve the gap between the last step that held and the
    one that failed ``--refine`` times, so the knee is found to a quarter of a doubling (by
    default), not just to a power of two. A step that fails is measured again ``--confirm``
    times (once by default) before it counts as failed: on a shared machine one stall of a
    fifth of a second is the p99 of a small step. The steps and why it stopped."""
    steps: list[Step] = []

    def measured(tables: int) -> Step:
        step = run(tables)
        steps.append(step)
        print_step(step)
        for _ in range(args.confirm):
            if step.holds or step.saturated:
                break
            print(f"  {tables} tables missed the standard: measuring them again", flush=True)
            step = run(tables)
            steps.append(step)
            print_step(step)
        return step

    tables = args.tables
    while True:
        step = measured(tables)
        if not args.step:
            return steps, "one step"
        if not step.holds:
            held = [s.tables for s in steps if s.holds]
            good, bad = (max(held) if held else None), tables
            for _ in range(args.refine):
                if good is None or bad - good <= 1:
                    break
                middle = (good + bad) // 2
                step = measured(middle)
                good, bad = (middle, bad) if step.holds else (good, middle)
            return steps, "knee"
        if step.saturated:
            return steps, "generator saturated"
        if tables * 2 > args.max_tables:
            return steps, "max tables"
        tables *= 2


def knee(steps: list[Step]) -> Step | None:
    holding = [step for step in steps if step.holds]
    return max(holding, key=lambda step: step.achieved) if holding else None


def more_open_files() -> int:
    """Raise this process's soft limit of open files to its hard limit (each seat is a socket:
    1,280 tables of 2 seats need 2,560, over a shell's usual 1,024; the echo server it starts
    inherits the limit). Returns the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return wanted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loadtest", description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server under test")
    parser.add_argument("--tables", type=int, default=5, help="tables (the first step with --step)")
    parser.add_argument("--seats", type=int, default=2, choices=range(2, 7), help="players per table")
    parser.add_argument("--rate", type=float, default=1.0, help="actions a second per table")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds measured per step")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of load before measuring")
    parser.add_argument("--step", action="store_true", help="double the tables until the knee")
    parser.add_argument(
        "--lockstep",
        action="store_true",
        help="every table acts in the same instant (default: tables spread over the interval)",
    )
    parser.add_argument("--max-tables", type=int, default=1280, help="the largest step")
    parser.add_argument(
        "--refine", type=int, default=2, help="halvings of the last doubling to place the knee (0: none)"
    )
    parser.add_argument(
        "--echo-layer",
        choices=("memory", "redis"),
        default="memory",
        help="the echo's channel layer: in memory (the baseline), or Redis as production's",
    )
    parser.add_argument(
        "--confirm", type=int, default=1, help="times a failed step is measured again before it counts"
    )
    parser.add_argument(
        "--baseline", action="store_true", help="also step a bare echo server (implies --step)"
    )
    parser.add_argument(
        "--own-work",
        type=int,
        default=600,
        help="with --baseline, actions timed in this process to measure an action's own work (0: none)",
    )
    parser.add_argument(
        "--arrive",
        action="store_true",
        help="bring the players in through the site (sign-up, log-in, deposit, play now) and keep"
        " them arriving during each step, --arrivals a second per 10 tables (loadtest.arrivals)",
    )
    parser.add_argument(
        "--arrivals",
        type=float,
        default=1.0,
        help="with --arrive, new players a second for every 10 tables during a step (1)",
    )
    parser.add_argument(
        "--web-url",
        help="with --arrive, send the arrivals' pages and API here instead of --url (a daphne of"
        " its own for the pages, as a proxy sending /ws/ to the tables' daphne would: docs/DEPLOY.md)",
    )
    parser.add_argument(
        "--memory-every",
        type=float,
        default=0.0,
        help="sample daphne's resident memory every this many seconds of each step (0: at its end only)",
    )
    parser.add_argument("--json", type=Path, help="write every step's figures here")
    parser.add_argument(
        "--fail-on-errors",
        action="store_true",
        help="exit 1 if any step had an error, a drop or an unexpected close (for CI; speed never fails)",
    )
    args = parser.parse_args(argv)
    more_open_files()
    if args.baseline:
        args.step = True

    from loadtest.arrivals import Arrivals, seat_through_the_site
    from loadtest.arrivals import summary as arrival_summary
    from loadtest.setup import (
        arrival_template,
        django_setup,
        end_tables,
        seat_tables,
        vacuum_if_autovacuum_is_off,
    )

    django_setup()
    from django.conf import settings

    database = settings.DATABASES["default"]
    db_name = database["NAME"] if database["ENGINE"].endswith("postgresql") else None
    port = urlparse(args.url).port or 80
    web_url = args.web_url or args.url
    print(
        f"project at {args.url} ({database['ENGINE'].rsplit('.', 1)[-1]}), {args.seats} seats a table,"
        f" {args.rate:g} action/s a table, {args.duration:g} s a step",
        flush=True,
    )

    def connection_gauge() -> procs.ConnectionGauge | None:
        if db_name is None:
            return None
        parts = {
            "host": database.get("HOST"),
            "port": database.get("PORT"),
            "user": database.get("USER"),
            "password": database.get("PASSWORD"),
        }
        conninfo = " ".join(f"{key}={value}" for key, value in parts.items() if value)
        return procs.ConnectionGauge(f"{conninfo} dbname={db_name}", db_name)

    def measure(target: str, url: str, layout: list[list[Any]], meter: procs.CpuMeter) -> Step:
        return run_step(
            target,
            url,
            layout,
            rate=args.rate,
            warmup=args.warmup,
            duration=args.duration,
            meter=meter,
            echo=target != "project",
            lockstep=args.lockstep,
        )

    # The echo runs from the start: each project step comes just after the echo at the same
    # number of tables ("paired"), and the ratios are taken pair by pair. On a shared
    # machine the speed drifts by a third from one minute to the next, more than the ratios
    # measure; an echo stepped minutes later would measure the drift.
    server, echo_port = start_echo(args.echo_layer) if args.baseline else (None, 0)
    own: OwnWork | None = None
    first = 1
    pairs: list[tuple[Step, Step]] = []
    vacuumed: list[bool] = []

    def echo(tables: int, target: str = "echo") -> Step:
        nonlocal first
        layout = echo_layout(tables, args.seats, first)
        first += tables
        return measure(target, f"http://127.0.0.1:{echo_port}", layout, procs.CpuMeter(echo_port, None))

    def project(tables: int) -> Step:
        twin = None
        if server is not None:
            twin = echo(tables, "paired")
            print_step(twin)
        if vacuum_if_autovacuum_is_off() and not vacuumed:
            vacuumed.append(True)
            print(
                "autovacuum is off on this PostgreSQL: the game's tables are vacuumed before each step",
                flush=True,
            )
        pace = max(1.0, tables / 10)
        short: list[list[Seat]] = []
        if args.arrive:
            layout, short = seat_through_the_site(
                web_url, arrival_template(args.seats), tables, args.seats, pace
            )
        else:
            layout = seat_tables(tables, args.seats)
        gauge = connection_gauge()
        arriving = None
        if args.arrive and args.arrivals > 0:
            arriving = Arrivals(web_url, args.arrivals * tables / 10)
        memory = procs.MemoryGauge(port, args.memory_every or 10**6)
        try:
            memory.start()
            if gauge is not None:
                gauge.start()
            if arriving is not None:
                arriving.start()
            web_port = urlparse(web_url).port if args.web_url else None
            step = measure("project", args.url, layout, procs.CpuMeter(port, db_name, web_port))
        finally:
            if gauge is not None:
                step_connections = gauge.stop()
            tally = arriving.stop() if arriving is not None else None
            samples = memory.stop()
            end_tables(layout + short)  # a table left short would wait into the next step
        step.memory = samples if args.memory_every else []
        if gauge is not None:
            step.db_connections, step.db_connections_total = step_connections, gauge.most_total
        if tally is not None:
            step.arrivals = tally.statuses_of("sign-up")
            step.arrival_failures, step.arrival_lines = arrival_summary(tally, describe_times)
            slowest = (quantile(times, 0.99) for times in tally.times.values())
            step.arrival_p99 = 1000 * max(slowest, default=0.0)
        if twin is not None:
            pairs.append((step, twin))
        return step

    try:  # from here on the echo server is stopped however the run ends
        own = OwnWork.measure(args.own_work) if args.baseline and args.own_work > 0 else None
        if own is not None:
            print(
                f"an action's own work (loadtest.inprocess, {args.own_work} actions in this process,"
                f" no socket): {own.cpu_ms:.2f} ms of CPU ({own.python_ms:.2f} Python,"
                f" {own.database_ms:.2f} database), {own.action_ms_p50:.2f} ms median",
                flush=True,
            )
        steps, why = stepping(args, project)
        ours = knee(steps)
        print(f"project: stopped at {why}; knee {_describe(ours)}", flush=True)
        # In the order measured: each paired echo step just before its project step.
        everything = [step for pair in pairs for step in reversed(pair)] if pairs else list(steps)
        if server is not None:
            echo_steps, echo_why = stepping(args, echo)
            theirs = knee(echo_steps)
            print(f"echo: stopped at {echo_why}; knee {_describe(theirs)}", flush=True)
            everything += echo_steps
            print_ratios(pairs, ours, theirs, echo_why, own)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)

    if args.json:
        figures = [{**asdict(s), "cpu_per_1000": s.cpu_per_1000} for s in everything]
        if own is not None:
            figures.insert(0, {"target": "own work", **asdict(own)})
        args.json.write_text(json.dumps(figures, indent=1))
    if args.fail_on_errors and any(not step.clean for step in everything):
        print("FAILED: errors, drops or unexpected closes (see above)", flush=True)
        return 1
    return 0


def _describe(step: Step | None) -> str:
    if step is None:
        return "none: even the first step missed the standard"
    return f"{step.tables} tables, {step.achieved:.1f} actions/s, ack p99 {step.ack_p99:.1f} ms"


def print_ratios(
    pairs: list[tuple[Step, Step]],
    ours: Step | None,
    theirs: Step | None,
    echo_why: str,
    own: OwnWork | None = None,
) -> None:
    print("\nproject / echo, each step against the echo measured just before it at the same tables:")
    for step, echo in pairs:
        if not echo.actions or not step.actions:
            continue
        per_action = max(echo.cpu_per_1000, 0.001)  # ms of CPU an action, like OwnWork's
        split = (
            f"  (own work x{own.cpu_ms / per_action:4.1f},"
            f" the rest x{max(step.cpu_per_1000 - own.cpu_ms, 0.0) / per_action:4.1f})"
            if own is not None
            else ""
        )
        hashing = (
            f"  without the hashing x{step.cpu_per_1000_without_hashing / per_action:5.1f}"
            if "hashing" in step.server_cpu
            else ""
        )
        print(
            f"  {step.tables:5} tables  ack p50 x{step.ack_p50 / max(echo.ack_p50, 0.01):5.1f}"
            f"  ack p99 x{step.ack_p99 / max(echo.ack_p99, 0.01):5.1f}"
            f"  cpu/action x{step.cpu_per_1000 / per_action:5.1f}{split}{hashing}"
        )
    if own is not None:
        print(
            "  own work: an action's lock, rules, write and snapshots alone, with no socket (above);"
            " the rest: websockets, the channel layer, thread hops and the timers"
        )
    if ours is not None and theirs is not None:
        floor = " (at most: the echo did not reach its knee)" if echo_why != "knee" else ""
        print(f"capacity: {100 * ours.achieved / theirs.achieved:.0f}% of the echo's{floor}")


if __name__ == "__main__":
    sys.exit(main())
