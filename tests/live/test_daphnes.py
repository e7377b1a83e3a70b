"""``rummysite.daphnes``: several daphnes accepting from one listening socket (``make run-prod``,
the Procfile), so one busy interpreter does not hold up the port; a daphne that dies is replaced,
one that cannot start stops them all, and a TERM stops everything."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rummysite import daphnes
from tests.live.stack import ROOT, free_port, wait_until

APP = "tests.live.pid_app:application"


def _children(parent: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == parent:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _get(port: int, path: str = "/") -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return int(response.read())


def _answers(port: int) -> bool:
    try:
        _get(port)
    except OSError:
        return False
    return True


def _launch(port: int, *args: str, stderr: int | None = None) -> subprocess.Popen[str]:
    """The launcher on ``port``; its messages (and its daphnes') to the test's own stderr, or to
    ``stderr`` (``subprocess.PIPE``: read them once it has exited, or a full pipe stops it)."""
    env = {name: value for name, value in os.environ.items() if name != "PASSWORD_HASH_PROCESSES"}
    return subprocess.Popen(
        [sys.executable, "-m", "rummysite.daphnes", "-p", str(port), *args],
        cwd=ROOT,
        env=env,
        stderr=stderr,
        text=True,
    )


@pytest.fixture
def two() -> Iterator[tuple[subprocess.Popen[str], int]]:
    port = free_port()
    launcher = _launch(port, "--processes", "2", APP)
    try:
        wait_until(lambda: len(_children(launcher.pid)) == 2 and _answers(port), 30, "two daphnes serving")
        yield launcher, port
    finally:
        launcher.send_signal(signal.SIGTERM)
        launcher.wait(timeout=20)


def test_while_one_daphne_is_busy_the_other_answers_on_the_same_port(two, tmp_path: Path):
    launcher, port = two
    serving = _children(launcher.pid)
    mark = tmp_path / "held"
    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(_get, port, f"/hold?{mark}")
        wait_until(mark.exists, 20, "the held request has its daphne's event loop", interval=0.02)
        other = _get(port)
        answered_while_held = not held.done()
        busy = held.result(timeout=20)
    assert {busy, other} == serving  # both served, each a daphne of the launcher
    assert answered_while_held


def test_the_daphnes_hash_passwords_on_one_process_a_core_between_them(two):
    _launcher, port = two
    assert _get(port, "/hashing") == daphnes.hash_processes_each(2)


def test_a_daphne_that_dies_is_replaced_and_the_port_keeps_answering(two):
    launcher, port = two
    first = _children(launcher.pid)
    time.sleep(daphnes.STARTUP_SECONDS + 0.5)  # past starting: a later death is replaced
    victim = min(first)
    os.kill(victim, signal.SIGKILL)
    wait_until(lambda: not _alive(victim), 20, "the daphne killed")
    assert _get(port) in first - {victim}  # the other still serves meanwhile
    wait_until(lambda: len(_children(launcher.pid) - first) == 1, 30, "a new daphne started")
    replacement = (_children(launcher.pid) - first).pop()
    wait_until(lambda: _get(port) == replacement, 30, "the new daphne serving", interval=0.05)
    assert launcher.poll() is None


def test_a_term_stops_every_daphne_and_the_launcher_exits_0(two):
    launcher, _port = two
    started = _children(launcher.pid)
    launcher.send_signal(signal.SIGTERM)
    assert launcher.wait(timeout=20) == 0
    assert not any(_alive(pid) for pid in started)


def test_the_daphnes_die_with_a_killed_launcher(two):
    launcher, port = two
    started = _children(launcher.pid)
    launcher.kill()
    launcher.wait(timeout=10)
    wait_until(lambda: not any(_alive(pid) for pid in started), 20, "the daphnes gone with the launcher")
    assert not _answers(port)


def test_a_daphne_that_cannot_start_stops_them_all_with_its_failure():
    port = free_port()
    launcher = _launch(
        port, "--processes", "2", "tests.live.no_such_module:application", stderr=subprocess.PIPE
    )
    try:
        code = launcher.wait(timeout=60)
    finally:
        launcher.kill()
    assert code != 0
    assert launcher.stderr is not None
    assert "as it started: stopping every daphne" in launcher.stderr.read()
    assert not _children(launcher.pid)


def test_a_port_in_use_is_said_in_words():
    port = free_port()
    with daphnes.listen("127.0.0.1", port):
        done = subprocess.run(
            [sys.executable, "-m", "rummysite.daphnes", "-p", str(port), APP],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr


def test_the_cores_are_those_this_process_may_use():
    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no CPU affinity on this system")
    done = subprocess.run(
        [
            "taskset",
            "-c",
            "0",
            sys.executable,
            "-c",
            "from rummysite import daphnes; print(daphnes.usable_cores())",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.stdout.strip() == "1", done.stderr


def test_a_daphne_a_core_at_most_four_hashing_on_a_core_between_them():
    assert [daphnes.default_processes(cores) for cores in (1, 2, 4, 16)] == [1, 2, 4, 4]
    assert [daphnes.hash_processes_each(n, cores=2) for n in (1, 2, 4)] == [2, 1, 1]
    assert daphnes.hash_processes_each(4, cores=16) == 4
