"""``python -m loadtest.tournament --players 600``: a whole sit-and-go played by bots as real
clients of a running server, beside ordinary tables, and its figures.

1. **Registration**: every player registers over the API (``POST
   /api/tournaments/{id}/registration/``, a token each), a few at a time; the last fills the
   sit-and-go and round 1 is seated. Each player holds the tournament's page socket
   (``/ws/tournaments/{id}/``) and learns their table from its ``seated`` frame.
2. **Rounds**: each player opens their table's socket and plays as a player of the live table
   does (docs/PROTOCOL.md): on their turn a drop now and then (``--drop``), else a draw from the
   closed pile and a discard; each table acts ``--rate`` times a second, as ``python -m
   loadtest`` does. A table's game over, its players wait for the next seating; those knocked
   out leave. After ``--rounds`` rounds the tournament is voided (the buy-ins back).
3. **Other tables**: ``--others`` ordinary two-seat tables play throughout at the same rate;
   their ack p99 while a round's players are reseated (from the last action of the round's
   last table to one second after the last reseated player has their new table's snapshot) is
   set beside their p99 the rest of the time.
4. **Beside it** (``--compare``): one step of ordinary tables of the same seats, as many as
   the first round's, measured by ``python -m loadtest``'s own step.

The server's CPU (daphne, Celery, PostgreSQL: ``loadtest.procs``) is metered over
registration and over the rounds, per registration and per 1,000 actions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from loadtest import procs
from loadtest.players import Connection, Table
from loadtest.setup import Entrant, Seat


def quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class RoundTable(Table):
    """A tournament's table: its players drop now and then, so its deals end (a deal ends when
    one player is left in it), and it plays until its game is over."""

    def __init__(self, url: str, origin: str, seats: list[Seat], *, drop: float, rng: random.Random) -> None:
        super().__init__(url, origin, seats, echo=False)
        self.drop, self.rng = drop, rng

    async def read(self, player: Connection) -> None:
        """As :meth:`Table.read`, answering the server's pings: a player out of the deal (a
        drop) sends nothing until the next deal, longer than the server waits before it pings."""
        assert player.socket is not None
        try:
            async for message in player.socket:
                frame = json.loads(message)
                if frame.get("type") == "ping":
                    await player.socket.send('{"type": "pong"}')
                player.take(frame)
        except ConnectionClosed as closed:
            player.closed = player.closed or f"{closed.rcvd.code if closed.rcvd else 'none'}"
        else:
            player.closed = player.closed or "closed"

    def over(self) -> bool:
        return any(player.status in ("finished", "cancelled", "voided") for player in self.players)

    def mover(self) -> tuple[Connection, dict[str, Any]] | None:
        for player in self.players:
            if player.phase == "play" and player.turn == player.player and player.hand:
                if not player.has_drawn:
                    if self.rng.random() < self.drop:
                        return player, {"type": "drop"}
                    return player, {"type": "draw", "source": "closed"}
                card = player.drawn if player.drawn in player.hand else player.hand[-1]
                return player, {"type": "discard", "card": card}
        return None

    async def play(self, rate: float, timeout: float, give_up: float) -> None:
        """Act ``rate`` times a second until the game is over (or ``give_up``, monotonic)."""
        interval = 1.0 / rate
        self.next_at = time.monotonic() + random.random() * interval
        while not self.over() and time.monotonic() < give_up:
            wait = self.next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.next_at = max(self.next_at + interval, time.monotonic() - interval)
            await self.act(timeout)
        self.last_sent = max((s.sent for s in self.samples), default=0.0)
        await self.close()


@dataclass
class Watcher:
    """One player's tournament page socket: the seatings it announced."""

    entrant: Entrant
    socket: ClientConnection | None = None
    #: round -> (table, monotonic time the frame arrived)
    seated: dict[int, tuple[int, float]] = field(default_factory=dict)
    status: str | None = None
    closed: str | None = None
    errors: list[str] = field(default_factory=list)


@dataclass
class Report:
    players: int
    tables_by_round: list[int] = field(default_factory=list)
    registration_seconds: float = 0.0
    registration_cpu: dict[str, float] = field(default_factory=dict)
    registration_failures: int = 0
    play_seconds: float = 0.0
    play_cpu: dict[str, float] = field(default_factory=dict)
    actions: int = 0
    ack_p50: float = 0.0
    ack_p99: float = 0.0
    errors: dict[str, int] = field(default_factory=dict)
    closes: int = 0
    reseat_seconds: list[float] = field(default_factory=list)
    others_tables: int = 0
    others_p99_reseating: float = 0.0
    others_p99_rest: float = 0.0
    others_actions_reseating: int = 0
    compare: dict[str, Any] = field(default_factory=dict)
    end: str = ""

    def per_1000(self, cpu: dict[str, float], count: int) -> float:
        return 1000 * sum(cpu.values()) / count if count else 0.0

    def lines(self) -> list[str]:
        def cpu(used: dict[str, float]) -> str:
            return ", ".join(f"{role} {seconds:.1f} s" for role, seconds in sorted(used.items()))

        out = [
            f"{self.players} players, tables by round {self.tables_by_round}",
            f"registration: {self.registration_seconds:.1f} s, failures {self.registration_failures},"
            f" server CPU {self.per_1000(self.registration_cpu, self.players):.1f} s per 1,000"
            f" registrations ({cpu(self.registration_cpu)})",
            f"rounds: {self.play_seconds:.0f} s, {self.actions} actions, ack p50 {self.ack_p50:.1f} ms,"
            f" p99 {self.ack_p99:.1f} ms, server CPU {self.per_1000(self.play_cpu, self.actions):.2f} s"
            f" per 1,000 actions ({cpu(self.play_cpu)})",
            f"errors {self.errors or 'none'}, unexpected closes {self.closes}",
            "reseating (last action of a round to the last player at the new table): "
            + ", ".join(f"{seconds:.1f} s" for seconds in self.reseat_seconds),
        ]
        if self.others_tables:
            out.append(
                f"{self.others_tables} other two-seat tables: ack p99 {self.others_p99_reseating:.1f} ms"
                f" while reseating ({self.others_actions_reseating} actions),"
                f" {self.others_p99_rest:.1f} ms the rest of the time"
            )
        if self.compare:
            c = self.compare
            out.append(
                f"ordinary tables beside it: {c['tables']} tables of {c['seats']},"
                f" ack p99 {c['ack_p99']:.1f} ms, server CPU {c['cpu_per_1000']:.2f} s per 1,000 actions"
            )
        out.append(f"tournament: {self.end}")
        return out


def register_all(url: str, tournament: int, people: list[Entrant], workers: int) -> int:
    """Every player registers over the API; how many failed."""

    def one(entrant: Entrant) -> bool:
        request = urllib.request.Request(  # noqa: S310 - the server under test, http(s) only
            f"{url}/api/tournaments/{tournament}/registration/",
            method="POST",
            headers={"Authorization": f"Token {entrant.token}", "Accept": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310 - our own server
                return bool(answer.status == 201)
        except urllib.error.HTTPError as refused:
            print(f"registration of {entrant.player}: {refused.code} {refused.read()[:200]!r}", flush=True)
            return False
        except (urllib.error.URLError, TimeoutError):
            return False

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return sum(not ok for ok in pool.map(one, people))


async def open_page(ws_url: str, origin: str, tournament: int, watcher: Watcher) -> None:
    """Open the player's tournament page socket (three tries: a handshake may time out while
    the server takes hundreds at once)."""
    for attempt in range(3):
        try:
            watcher.socket = await connect(
                f"{ws_url}/ws/tournaments/{tournament}/",
                additional_headers={"Origin": origin, "Cookie": f"sessionid={watcher.entrant.cookie}"},
                open_timeout=60,
                ping_interval=None,
            )
            return
        except (OSError, TimeoutError, ConnectionClosed) as failure:
            watcher.errors.append(f"open: {type(failure).__name__}")
            await asyncio.sleep(1.0 + attempt)
    watcher.closed = "never opened"


async def watch(watcher: Watcher) -> None:
    if watcher.socket is None:
        return
    try:
        async for message in watcher.socket:
            frame = json.loads(message)
            if frame.get("type") == "seated":
                watcher.seated[int(frame["round"])] = (int(frame["table"]), time.monotonic())
            elif frame.get("type") in ("tournament", "changed"):
                watcher.status = frame.get("status")
                if frame.get("type") == "tournament" and frame.get("table"):
                    watcher.seated.setdefault(1, (int(frame["table"]), time.monotonic()))
            elif "error" in frame:
                watcher.errors.append(str(frame["error"]))
    except ConnectionClosed as closed:
        watcher.closed = f"{closed.rcvd.code if closed.rcvd else 'none'}"


async def wait_for(condition: Any, timeout: float, step: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        await asyncio.sleep(step)
    return bool(condition())


async def drive_others(others: list[Table], rate: float, stop: asyncio.Event) -> None:
    async def one(table: Table, offset: float) -> None:
        table.next_at = time.monotonic() + offset
        while not stop.is_set():
            await table.drive(rate, time.monotonic() + 1.0, timeout=10)

    await asyncio.gather(*(one(table, index / (len(others) * rate)) for index, table in enumerate(others)))


async def run(
    args: argparse.Namespace,
    meter: procs.CpuMeter,
    report: Report,
    tournament: int,
    people: list[Entrant],
    other_seats: list[list[Seat]],
) -> None:
    """Register, play ``--rounds`` rounds beside the other tables, and fill ``report`` (no
    Django here: the harness's own database work is done before and after, in ``main``)."""
    parsed = urlparse(args.url)
    origin = f"{parsed.scheme}://{parsed.netloc}"
    ws_url = ("wss://" if parsed.scheme == "https" else "ws://") + parsed.netloc
    rng = random.Random(args.seed)
    print(f"tournament {tournament}: {args.players} players at tables of {args.table_size}", flush=True)

    others: list[Table] = []
    stop_others = asyncio.Event()
    others_task: asyncio.Future[None] | None = None
    if other_seats:
        others = [Table(ws_url, origin, seats, echo=False) for seats in other_seats]
        for table in others:
            await table.open()
        await asyncio.sleep(0.5)
        others_task = asyncio.ensure_future(drive_others(others, args.rate, stop_others))

    watchers = [Watcher(entrant) for entrant in people]
    readers = []
    for start in range(0, len(watchers), 20):
        batch = watchers[start : start + 20]
        await asyncio.gather(*(open_page(ws_url, origin, tournament, w) for w in batch))
        readers += [asyncio.ensure_future(watch(w)) for w in batch]
    await wait_for(lambda: all(w.status is not None or w.closed for w in watchers), 60)

    meter.start()
    began = time.monotonic()
    loop = asyncio.get_running_loop()
    report.registration_failures = await loop.run_in_executor(
        None, register_all, args.url, tournament, people, args.workers
    )
    report.registration_seconds = time.monotonic() - began
    report.registration_cpu = meter.stop()
    print(f"registered in {report.registration_seconds:.1f} s", flush=True)
    if report.registration_failures:
        print(f"{report.registration_failures} registrations failed: no round to play", flush=True)
        for w in watchers:
            if w.socket is not None:
                await w.socket.close()
        return

    meter.start()
    began = time.monotonic()
    round_tables: list[RoundTable] = []
    windows: list[tuple[float, float]] = []
    last_sent = 0.0
    for number in range(1, args.rounds + 1):
        if not await wait_for(lambda n=number: any(n in w.seated for w in watchers), args.round_timeout):
            print(f"round {number} was never seated", flush=True)
            break
        # Every player of the round: their table from their own page socket.
        await asyncio.sleep(1.0)
        seats: dict[int, list[Seat]] = {}
        for w in watchers:
            if number in w.seated:
                table_id, _ = w.seated[number]
                seats.setdefault(table_id, []).append(Seat(table_id, w.entrant.player, w.entrant.cookie))
        report.tables_by_round.append(len(seats))
        tables = [
            RoundTable(ws_url, origin, sorted(s, key=lambda x: int(x.player)), drop=args.drop, rng=rng)
            for s in seats.values()
        ]
        for start in range(0, len(tables), 20):
            await asyncio.gather(*(table.open() for table in tables[start : start + 20]))
        connected = time.monotonic()
        if number > 1:
            await wait_for(lambda t=tables: all(p.status is not None for x in t for p in x.players), 30)
            connected = time.monotonic()
            windows.append((last_sent, connected + 1.0))
            report.reseat_seconds.append(connected - last_sent)
        print(f"round {number}: {len(tables)} tables, playing", flush=True)
        give_up = time.monotonic() + args.round_timeout
        await asyncio.gather(*(table.play(args.rate, 10, give_up) for table in tables))
        round_tables += tables
        last_sent = max((table.last_sent for table in tables), default=time.monotonic())
        print(f"round {number}: over after {time.monotonic() - began:.0f} s", flush=True)
    if args.rounds >= 1:
        # The reseating after the last round played (the next round's seating) is measured too.
        await wait_for(
            lambda: any(args.rounds + 1 in w.seated or w.status in ("finished",) for w in watchers), 30
        )
        seated_next = [w.seated[args.rounds + 1][1] for w in watchers if args.rounds + 1 in w.seated]
        if seated_next:
            windows.append((last_sent, max(seated_next) + 1.0))
            report.reseat_seconds.append(max(seated_next) - last_sent)
    report.play_seconds = time.monotonic() - began
    report.play_cpu = meter.stop()

    samples = [s for t in round_tables for s in t.samples]
    acks = [1000 * (s.answered - s.sent) for s in samples if s.answered is not None and s.error is None]
    report.actions = len(acks)
    report.ack_p50, report.ack_p99 = quantile(acks, 0.5), quantile(acks, 0.99)
    for sample in samples:
        if sample.error is not None:
            report.errors[sample.error] = report.errors.get(sample.error, 0) + 1
    for table in round_tables:
        for player in table.players:
            for error in player.errors:
                report.errors[error] = report.errors.get(error, 0) + 1
            if player.closed not in (None, "by us"):
                report.closes += 1
    report.closes += sum(1 for w in watchers if w.closed)

    if others_task is not None:
        stop_others.set()
        await others_task
        during: list[float] = []
        rest: list[float] = []
        for table in others:
            for s in table.samples:
                if s.answered is None or s.error is not None:
                    continue
                ms = 1000 * (s.answered - s.sent)
                (during if any(a <= s.sent <= b for a, b in windows) else rest).append(ms)
            await table.close()
        report.others_tables = len(others)
        report.others_actions_reseating = len(during)
        report.others_p99_reseating, report.others_p99_rest = quantile(during, 0.99), quantile(rest, 0.99)

    for w in watchers:
        if w.socket is not None:
            await w.socket.close()
    for reader in readers:
        reader.cancel()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m loadtest.tournament", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server under test")
    parser.add_argument("--players", type=int, default=36)
    parser.add_argument("--table-size", type=int, default=6, choices=range(2, 7))
    parser.add_argument("--qualify", type=int, default=3, help="players through from each table")
    parser.add_argument("--rounds", type=int, default=2, help="rounds played before the tournament is voided")
    parser.add_argument("--rate", type=float, default=1.0, help="actions a second per table")
    parser.add_argument("--drop", type=float, default=0.3, help="the chance a player drops on their turn")
    parser.add_argument("--move-seconds", type=int, default=60, help="the tables' move timer")
    parser.add_argument("--others", type=int, default=20, help="ordinary two-seat tables playing beside it")
    parser.add_argument(
        "--compare", action="store_true", help="then one step of ordinary tables of the same size"
    )
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of the --compare step")
    parser.add_argument("--workers", type=int, default=8, help="registrations sent at once")
    parser.add_argument("--round-timeout", type=float, default=900.0, help="seconds a round may take")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args(argv)

    from loadtest.__main__ import more_open_files, run_step
    from loadtest.setup import (
        django_setup,
        end_tables,
        end_tournament,
        entrants,
        open_tournament,
        seat_tables,
    )

    more_open_files()
    django_setup()
    from django.conf import settings

    database = settings.DATABASES["default"]
    db_name = database["NAME"] if database["ENGINE"].endswith("postgresql") else None
    meter = procs.CpuMeter(urlparse(args.url).port or 80, db_name)
    report = Report(players=args.players)
    people = entrants(args.players)
    tournament = open_tournament(args.players, args.table_size, args.qualify, args.move_seconds)
    other_seats = seat_tables(args.others, 2) if args.others else []
    try:
        asyncio.run(run(args, meter, report, tournament, people, other_seats))
    finally:
        end_tables(other_seats)
        report.end = end_tournament(tournament)
    if args.compare and report.tables_by_round:
        layout = seat_tables(report.tables_by_round[0], args.table_size)
        step = run_step(
            "project",
            args.url,
            layout,
            rate=args.rate,
            warmup=3.0,
            duration=args.duration,
            meter=meter,
            echo=False,
        )
        end_tables(layout)
        report.compare = {
            "tables": step.tables,
            "seats": step.seats,
            "ack_p99": step.ack_p99,
            "cpu_per_1000": step.cpu_per_1000,
            "actions": step.actions,
            "errors": step.errors,
        }
    for line in report.lines():
        print(line)
    if args.json:
        from dataclasses import asdict

        with open(args.json, "w") as out:
            json.dump(asdict(report), out, indent=1)
    failed = report.registration_failures or report.errors or report.closes
    return 1 if failed or len(report.tables_by_round) < args.rounds else 0


if __name__ == "__main__":
    raise SystemExit(main())
