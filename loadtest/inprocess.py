"""One websocket action's server work, timed in one process: ``python -m loadtest.inprocess``.

It runs what a daphne database thread runs for each action (``games.live.perform``: the lock,
the receipt, the write, the snapshots of every viewer) on a two-seat practice table, draw and
discard in turn, against the database of the current settings (``DATABASE_URL`` or
``SQLITE_PATH``), with no server, no socket and no channel layer. Next to it, as the baseline
of the same run, the same number of round trips as bare statements in one transaction: what
the action would cost if Python cost nothing.

``--profile`` prints where the time goes (cProfile, the functions with the most own time).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from typing import Any

from loadtest import procs, setup


def _move(state: Any) -> tuple[str, dict[str, Any]] | None:
    deal = state.deal
    if deal is None or deal.phase.value != "play":
        return None
    seat = deal.seats[deal.turn]
    if deal.drawn is None:
        return seat.player, {"type": "draw", "source": "closed"}
    return seat.player, {"type": "discard", "card": str(deal.drawn)}


def run(actions: int, profile: bool, sort: str = "tottime") -> dict[str, float]:
    setup.django_setup()
    from django.db import connection

    from accounts.models import User
    from games import live, services
    from games.engine import table as engine
    from games.models import Table

    ((seat, *_),) = setup.seat_tables(1, 2)
    time.sleep(1.2)  # the start countdown
    waiting = engine.TableState.from_json(Table.objects.get(pk=seat.table).state).waiting_for
    if waiting == "countdown":
        services.start(seat.table)
    users = {str(user.pk): user for user in User.objects.filter(seats__table_id=seat.table)}

    backend = _backend_pid(connection)
    python_cpu = database_cpu = 0.0
    timings = []
    profiler = cProfile.Profile() if profile else None
    for number in range(actions):
        state = engine.TableState.from_json(Table.objects.values_list("state", flat=True).get(pk=seat.table))
        move = _move(state)
        if move is None:
            raise SystemExit(f"the deal stopped at action {number}: {state.waiting_for}")
        player, frame = move
        # Only the action's own CPU counts (not the harness's read of the state above).
        database_before = procs.cpu_seconds(backend) if backend else 0.0
        python_before = time.process_time()
        started = time.perf_counter()
        if profiler is not None:
            profiler.enable()
        performed = live.perform(seat.table, users[player], {"id": f"b{number}", **frame})
        if profiler is not None:
            profiler.disable()
        timings.append(time.perf_counter() - started)
        python_cpu += time.process_time() - python_before
        database_cpu += (procs.cpu_seconds(backend) if backend else 0.0) - database_before
        if "ack" not in performed.answer:
            raise SystemExit(f"refused: {performed.answer}")
    bare = [_bare_round_trips(connection) for _ in range(actions)]
    setup.end_tables([[seat]])
    if profiler is not None:
        pstats.Stats(profiler).sort_stats(sort).print_stats(40)
    warm = timings[len(timings) // 10 :]
    return {
        "action_ms_p50": statistics.median(warm) * 1000,
        "action_ms_mean": statistics.fmean(warm) * 1000,
        "bare_ms_p50": statistics.median(bare) * 1000,
        "python_cpu_ms": python_cpu / actions * 1000,
        "database_cpu_ms": database_cpu / actions * 1000,
    }


def _bare_round_trips(connection: Any) -> float:
    """The baseline: an action's round trips as bare statements, in seconds. On PostgreSQL those
    are three (the BEGIN with the lock and the receipt's read; the writes with the seats' read;
    the COMMIT); SQLite runs each statement in the process."""
    started = time.perf_counter()
    if connection.vendor == "postgresql":
        connection.ensure_connection()
        raw = connection.connection
        with raw.pipeline():
            raw.execute("BEGIN")
            raw.execute("SELECT 1")
        raw.execute("SELECT 1")
        raw.execute("COMMIT")
    else:
        with connection.cursor() as cursor:
            for statement in ("BEGIN", "SELECT 1", "SELECT 1", "COMMIT"):
                cursor.execute(statement)
    return time.perf_counter() - started


def _backend_pid(connection: Any) -> int | None:
    """The PostgreSQL backend's process, to meter its CPU (None on SQLite)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="tottime", help="the profile's order: tottime or cumulative")
    args = parser.parse_args(argv)
    figures = run(args.actions, args.profile, args.sort)
    print(
        f"live.perform: {figures['action_ms_p50']:.2f} ms median, {figures['action_ms_mean']:.2f} ms mean; "
        f"the same round trips as bare SQL: {figures['bare_ms_p50']:.2f} ms\n"
        f"CPU per action: {figures['python_cpu_ms']:.2f} ms in this process, "
        f"{figures['database_cpu_ms']:.2f} ms in its database backend"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
