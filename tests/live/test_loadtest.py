"""The load harness in CI: a short run against a real daphne (the embedded default), which fails
on errors, lost events, unexpected closes or leaked connections, never on speed (the speed
figures are the benchmark's, docs/PERFORMANCE.md)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.live.test_multiprocess import ROOT, free_port, wait_for_port


def open_sockets(pid: int) -> int:
    """How many sockets the process holds open."""
    fds = Path(f"/proc/{pid}/fd")
    count = 0
    for fd in fds.iterdir():
        try:
            count += os.readlink(fd).startswith("socket:")
        except OSError:
            continue
    return count


def scratch_site(database: Path) -> dict[str, str]:
    """The environment of the embedded default on a new SQLite database, migrated."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "GAME_TIMERS")}
    env.update(DEBUG="1", SQLITE_PATH=str(database), DJANGO_SETTINGS_MODULE="rummysite.settings")
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True, timeout=120)
    return env


@contextmanager
def scratch_daphne(env: dict[str, str], log_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A daphne of ``env`` on a free port, its output in ``log_path``; its port and process,
    stopped (killed if it will not stop) after the block."""
    port = free_port()
    with log_path.open("wb") as log:
        daphne = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "rummysite.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_port(port, daphne)
            yield port, daphne
        finally:
            daphne.terminate()
            try:
                daphne.wait(timeout=10)
            except subprocess.TimeoutExpired:
                daphne.kill()
                daphne.wait(timeout=10)


def test_a_short_load_loses_nothing_and_leaks_no_connection(tmp_path: Path):
    env = scratch_site(tmp_path / "load.sqlite3")
    with scratch_daphne(env, tmp_path / "daphne.log") as (port, daphne):
        before = open_sockets(daphne.pid)
        figures = tmp_path / "figures.json"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "loadtest",
                f"--url=http://127.0.0.1:{port}",
                "--tables=3",
                "--duration=3",
                "--warmup=1",
                "--baseline",  # stepping from 3 tables to at most 3: one step, beside the echo's
                "--max-tables=3",
                "--refine=0",
                "--confirm=0",  # one pair, also on a busy machine: a slow step is not measured again
                "--own-work=20",
                f"--json={figures}",
                "--fail-on-errors",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert run.returncode == 0, run.stdout + run.stderr[-3000:]
        own, paired, step, echo = json.loads(figures.read_text())
        # An action's own work, timed in the harness's process before the steps, beside the ratios.
        assert own["target"] == "own work"
        # (SQLite runs in the harness's process: its database CPU is counted as Python.)
        assert own["python_ms"] > 0, own
        assert own["database_ms"] == 0, own
        assert own["action_ms_p50"] > 0, own
        assert own["cpu_ms"] == own["python_ms"] + own["database_ms"]
        assert "an action's own work (loadtest.inprocess, 20 actions" in run.stdout
        assert "(own work x" in run.stdout
        assert "the rest x" in run.stdout
        # The echo measured just before the project's step, beside it, and the ratios from that pair.
        assert [paired["target"], step["target"], echo["target"]] == ["paired", "project", "echo"]
        assert paired["tables"] == step["tables"] == 3
        assert paired["actions"] >= 6, paired
        assert "each step against the echo measured just before it" in run.stdout
        assert step["actions"] >= 6, step  # every table acted, and each action was acknowledged
        assert (step["errors"], step["closes"], step["missing"], step["gaps"]) == (0, 0, 0, 0), step
        # The six connections are gone from the server once the clients have closed them.
        end = time.monotonic() + 10
        while open_sockets(daphne.pid) > before and time.monotonic() < end:
            time.sleep(0.2)
        assert open_sockets(daphne.pid) <= before, "daphne still holds the load test's sockets"
        # The step's games and the own work's are voided, so they do not go on timing out on the server.
        with sqlite3.connect(tmp_path / "load.sqlite3") as database:
            statuses = [row[0] for row in database.execute("SELECT status FROM games_table")]
        assert statuses == ["cancelled"] * (1 + 3), statuses


def test_players_who_arrive_through_the_site_fill_the_tables_and_keep_arriving(tmp_path: Path):
    """``--arrive``: the step's players sign up, log in on the page, deposit and sit down with
    play now over HTTP (nothing through the database), and more arrive during the step."""
    env = scratch_site(tmp_path / "arrive.sqlite3")
    env.update(API_THROTTLE_ANON="100000/min", API_THROTTLE_USER="100000/min")
    with scratch_daphne(env, tmp_path / "daphne.log") as (port, _):
        figures = tmp_path / "figures.json"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "loadtest",
                f"--url=http://127.0.0.1:{port}",
                "--tables=2",
                "--duration=4",
                "--warmup=1",
                "--arrive",
                f"--json={figures}",
                "--fail-on-errors",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stdout + run.stderr[-3000:]
        # One step, or two when the first missed the knee's standard (a busy machine: the
        # arrivals' p99 over a second) and was measured again: each on its own tables.
        steps = json.loads(figures.read_text())
        assert 1 <= len(steps) <= 2, steps
        step = steps[0]
        assert all(one["tables"] == 2 and one["arrival_failures"] == 0 for one in steps), steps
        assert step["tables"] == 2
        assert step["actions"] >= 4, step
        assert step["arrivals"] >= 2, step  # one a second (at least) during the step
        assert step["arrival_failures"] == 0, step
        assert "arrivals during the step" in run.stdout
        with sqlite3.connect(tmp_path / "arrive.sqlite3") as database:
            arrived = database.execute(
                "SELECT count(*) FROM accounts_user WHERE username LIKE 'arrive-%'"
            ).fetchone()[0]
            deposits = database.execute("SELECT count(*) FROM wallet_deposit").fetchone()[0]
        seated = 4 * len(steps) + sum(one["arrivals"] for one in steps)
        assert arrived >= seated, "each step's four players and the ones during it"
        assert deposits >= arrived - 1, "each paid in through the sandbox"


def test_tables_are_spread_over_the_interval_unless_in_lockstep():
    """Independent tables do not all act in the same millisecond: each starts at its own phase
    of the interval. ``--lockstep`` keeps the burst (every table at once) for comparison."""
    from loadtest.__main__ import phases

    assert phases(4, 1.0, lockstep=False) == [0.0, 0.25, 0.5, 0.75]
    assert phases(4, 2.0, lockstep=False) == [0.0, 0.125, 0.25, 0.375]
    assert phases(3, 1.0, lockstep=True) == [0.0, 0.0, 0.0]


def test_stepping_doubles_to_the_first_miss_then_halves_the_gap_to_place_the_knee():
    """A server that holds up to 57 tables: doubling from 5 misses at 80, and two halvings of
    the 40-80 gap place the knee at 50 (60 missed, 50 held)."""
    import argparse

    from loadtest.__main__ import Step, knee, stepping

    def run(tables: int) -> Step:
        p99 = 20.0 if tables <= 57 else 500.0
        return Step(target="fake", tables=tables, seats=2, offered=tables, achieved=tables, ack_p99=p99)

    args = argparse.Namespace(tables=5, step=True, max_tables=640, refine=2, confirm=0)
    steps, why = stepping(args, run)
    assert [s.tables for s in steps] == [5, 10, 20, 40, 80, 60, 50]
    assert why == "knee"
    found = knee(steps)
    assert found is not None
    assert found.tables == 50
    args.refine = 0
    assert [s.tables for s in stepping(args, run)[0]] == [5, 10, 20, 40, 80]


def test_a_step_holds_only_when_the_moves_reach_the_other_players_in_time():
    """The knee's standard counts the fan-out too: an ack in time while the other players see
    the move 300 ms later is not a table that holds."""
    from loadtest.__main__ import Step

    fast = Step(target="fake", tables=8, seats=2, offered=8, achieved=8, ack_p99=40.0, fanout_p99=60.0)
    late = Step(target="fake", tables=8, seats=2, offered=8, achieved=8, ack_p99=40.0, fanout_p99=330.0)
    slow = Step(target="fake", tables=8, seats=2, offered=8, achieved=8, ack_p99=130.0, fanout_p99=60.0)
    assert (fast.holds, late.holds, slow.holds) == (True, False, False)


def test_with_arrivals_a_step_holds_only_when_the_players_get_in_in_time():
    """``--arrive``: tables that play fast while sign-ups or log-ins queue for seconds (a site
    that puts its arrivals behind the tables) have not held the load."""
    from loadtest.__main__ import Step

    def step(arrival_p99: float, failures: int = 0) -> Step:
        return Step(
            target="fake",
            tables=8,
            seats=2,
            offered=8,
            achieved=8,
            ack_p99=40.0,
            fanout_p99=60.0,
            arrival_p99=arrival_p99,
            arrival_failures=failures,
        )

    assert (step(400.0).holds, step(1400.0).holds, step(400.0, failures=1).holds) == (True, False, False)


def test_the_servers_cpu_counts_the_password_hashing_processes_daphne_started():
    """Arrivals hash their passwords in daphne's own processes (``PASSWORD_HASH_PROCESSES``):
    the harness counts them as the server's, apart, never as nobody's."""
    from loadtest import procs

    port = free_port()
    script = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(30)\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", script, "daphne", "-p", str(port)], stdout=subprocess.PIPE, text=True
    )
    child = 0
    try:
        assert server.stdout is not None
        child = int(server.stdout.readline())
        found = {(p.pid, p.role) for p in procs.server_processes(port, None)}
        assert (server.pid, "daphne") in found
        assert (child, "hashing") in found
    finally:
        if child:
            os.kill(child, signal.SIGKILL)
        server.kill()
        server.wait(timeout=10)


def test_the_daphnes_one_launcher_started_are_the_servers_and_the_launcher_is_not_one_of_them():
    """``make run-prod`` serves a port through ``rummysite.daphnes``: its daphnes (which carry no
    port in their command line) are counted as daphne, their own children as hashing, and the
    launcher apart, so daphne's memory is the daphnes' alone."""
    from loadtest import procs

    port = free_port()
    daphne = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
        "print('hashing', child.pid, flush=True)\n"
        "time.sleep(30)\n"
    )
    launcher = (
        "import subprocess, sys, time\n"
        f"daphne = subprocess.Popen([sys.executable, '-c', {daphne!r}, '-m', 'daphne', '--fd', '3'])\n"
        "print('daphne', daphne.pid, flush=True)\n"
        "time.sleep(30)\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", launcher, "-m", "rummysite.daphnes", "-p", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    pids: dict[str, int] = {}
    try:
        assert server.stdout is not None
        for _ in range(2):
            role, pid = server.stdout.readline().split()
            pids[role] = int(pid)
        found = procs.server_processes(port, None)
        assert {(server.pid, "launcher"), (pids["daphne"], "daphne"), (pids["hashing"], "hashing")} <= {
            (p.pid, p.role) for p in found
        }
        assert [p.pid for p in found if p.role == "daphne"] == [pids["daphne"]]
    finally:
        for pid in pids.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        server.kill()
        server.wait(timeout=10)


def run_benchmark(database: Path, module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m module args`` on a scratch site of its own (``database``), which must succeed."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=scratch_site(database),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_the_in_process_benchmark_plays_moves_and_prints_its_figures(tmp_path: Path):
    """``python -m loadtest.inprocess`` (docs/PERFORMANCE.md) runs end to end: every move it
    sends is acknowledged (it stops on a refusal), and it prints its timings and CPU."""
    done = run_benchmark(tmp_path / "bench.sqlite3", "loadtest.inprocess", "--actions", "30")
    figures = [
        line for line in done.stdout.splitlines() if line.startswith(("live.perform:", "CPU per action:"))
    ]
    assert len(figures) == 2, done.stdout[-2000:]
    assert " ms median" in figures[0]
    assert "ms in this process" in figures[1]
    with sqlite3.connect(tmp_path / "bench.sqlite3") as db:
        moves = db.execute("SELECT count(*) FROM games_actionreceipt WHERE error = ''").fetchone()[0]
    assert moves == 30


#: The pages ``loadtest.pages`` times, in its order.
PAGES = ["log-in page", "lobby", "lobby's refresh", "wallet API"]


def test_the_pages_benchmark_times_both_handlers_on_each_page(tmp_path: Path):
    """``python -m loadtest.pages`` (docs/PERFORMANCE.md) serves each page through Django's
    handler and the site's (it stops on any answer but 200) and prints both figures a page."""
    done = run_benchmark(tmp_path / "pages.sqlite3", "loadtest.pages", "--rounds", "2", "--requests", "3")
    lines = [line for line in done.stdout.splitlines() if "CPU a request" in line]
    assert [line.split("  ")[0] for line in lines] == PAGES, done.stdout
    assert all("Django's" in line and "the site's" in line and "of 2 rounds" in line for line in lines)


def test_the_pages_benchmark_weighs_a_setting_against_the_site_as_configured(tmp_path: Path):
    """``--against LOBBY_COUNTS_MS=0``: the site's application with the setting changed stands
    where Django's handler stood; a setting that is not NAME=VALUE is refused."""
    done = run_benchmark(
        tmp_path / "pages.sqlite3",
        "loadtest.pages",
        "--rounds",
        "2",
        "--requests",
        "3",
        "--against",
        "LOBBY_COUNTS_MS=0",
    )
    lines = [line for line in done.stdout.splitlines() if "CPU a request" in line]
    assert [line.split("  ")[0] for line in lines] == PAGES, done.stdout
    assert all("LOBBY_COUNTS_MS=0 " in line and "Django's" not in line for line in lines), done.stdout
    refused = subprocess.run(
        [sys.executable, "-m", "loadtest.pages", "--against", "lobby"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2
    assert "'lobby' is not NAME=VALUE" in refused.stderr


def test_the_pages_benchmark_times_a_request_while_threads_keep_the_interpreter_busy(tmp_path: Path):
    done = run_benchmark(
        tmp_path / "pages.sqlite3", "loadtest.pages", "--rounds", "2", "--requests", "3", "--busy", "1"
    )
    lines = [line for line in done.stdout.splitlines() if "wall time a request, 1 thread busy" in line]
    assert [line.split("  ")[0] for line in lines] == PAGES, done.stdout


def test_a_step_that_misses_once_is_measured_again_before_it_counts():
    """One stall makes the p99 of a small step: the 10-table step misses once, holds when
    measured again, and the stepping goes on; at 80 it misses twice, and that is the knee."""
    import argparse

    from loadtest.__main__ import Step, knee, stepping

    tried: list[int] = []

    def run(tables: int) -> Step:
        tried.append(tables)
        stalled = tables == 10 and tried.count(10) == 1
        p99 = 500.0 if stalled or tables > 57 else 20.0
        return Step(target="fake", tables=tables, seats=2, offered=tables, achieved=tables, ack_p99=p99)

    args = argparse.Namespace(tables=5, step=True, max_tables=640, refine=2, confirm=1)
    steps, why = stepping(args, run)
    assert [s.tables for s in steps] == [5, 10, 10, 20, 40, 80, 80, 60, 60, 50]
    assert why == "knee"
    found = knee(steps)
    assert found is not None
    assert found.tables == 50


def test_the_echo_runs_on_the_in_memory_layer_or_on_redis_as_production():
    """``--echo-layer redis`` gives the echo production's channel layer, so the two baselines
    tell the project's own cost from the layer's (docs/PERFORMANCE.md)."""
    script = (
        "import loadtest.echo; from django.conf import settings; print(settings.CHANNEL_LAYERS['default'])"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "ECHO_REDIS_URL")}
    memory = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert "InMemoryChannelLayer" in memory.stdout, memory.stderr[-2000:]
    env["ECHO_REDIS_URL"] = "redis://127.0.0.1:6399/3"
    redis = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert "RedisPubSubChannelLayer" in redis.stdout, redis.stderr[-2000:]
    assert "redis://127.0.0.1:6399/3" in redis.stdout


@pytest.mark.postgres
def test_the_harness_vacuums_the_games_tables_when_the_server_does_not(transactional_db):
    """This machine's PostgreSQL runs without autovacuum: the harness vacuums between steps,
    so that a step does not measure the dead rows of the steps before it."""
    from django.db import connection

    from loadtest.setup import vacuum_if_autovacuum_is_off
    from tests.live.support import make_user, seat

    table = seat([make_user("alice"), make_user("bob")], seats=2, name="101 for two")

    def dead_rows() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'games_table'")
            return int(cursor.fetchone()[0])

    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        autovacuum = cursor.fetchone()[0]
        for _ in range(20):
            cursor.execute("UPDATE games_table SET updated_at = now() WHERE id = %s", [table.pk])
    vacuumed = vacuum_if_autovacuum_is_off()
    assert vacuumed is (autovacuum == "off")
    if vacuumed:
        assert dead_rows() == 0


def test_the_harness_raises_its_limit_of_open_files_for_a_socket_a_seat():
    import resource

    from loadtest.__main__ import more_open_files

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # a shell's low default
        raised = more_open_files()
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == raised
        assert raised == (hard if hard != resource.RLIM_INFINITY else 1 << 20)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.django_db
def test_a_table_left_waiting_by_an_earlier_run_is_cancelled_before_players_arrive():
    """Play now fills the waiting table nearest to full: one left half full by a run that
    stopped while seating would take the step's first arrival, and the step would fill one
    table fewer than asked. The arrivals' template cancels it first, and only it."""
    from games import services
    from games.models import Table, TableTemplate
    from loadtest.setup import arrival_template
    from tests.conftest import make_user
    from wallet.cashier import topup_chips

    template = TableTemplate.objects.get(pk=arrival_template(2))
    left = services.open_table(template)
    stranded = make_user("stranded")
    topup_chips(stranded)
    services.join(left.pk, stranded)
    other = services.open_table(
        TableTemplate.objects.create(name="Not the load test's", variant="pool101", seats=2)
    )
    assert arrival_template(2) == template.pk
    assert Table.objects.get(pk=left.pk).status == "cancelled"
    assert Table.objects.get(pk=other.pk).status == "waiting"
