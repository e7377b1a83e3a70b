"""``make run-prod`` as an operator runs it: it serves through ``WEB_PROCESSES`` daphnes on its one
port, and a TERM to its recipe's shell (what a process manager or a container runtime sends)
stops the daphnes, the Celery worker and beat at once.
The shell used to wait for daphne, its foreground child, before running its trap, and daphne
never got the signal: all three kept running."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.live.stack import ROOT, Stack, free_port, health, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.usefixtures("live_db")]


def _processes() -> list[tuple[int, int, int]]:
    """Every process: (pid, parent pid, process group)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # pid (comm) state ppid pgrp ...: the command may hold spaces and parentheses.
        fields = stat[stat.rindex(")") + 2 :].split()
        found.append((int(entry.name), int(fields[1]), int(fields[2])))
    return found


def _serving(port: int) -> bool:
    try:
        return health(port)[0] == 200
    except OSError:
        return False


def _daphnes(group: int) -> list[str]:
    """The command lines of the daphnes in a process group."""
    found = []
    for pid, _, pgrp in _processes():
        if pgrp == group:
            with contextlib.suppress(OSError):
                line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                if " -m daphne " in line:
                    found.append(line)
    return found


def test_a_term_to_run_prods_shell_stops_the_daphnes_the_worker_and_beat(tmp_path: Path):
    stack = Stack(
        tmp_path,
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        SECRET_KEY="run-prod-test-" + "k" * 50,
        STATIC_ROOT=str(tmp_path / "static"),
        SECURE_SSL_REDIRECT="0",
        WEB_PROCESSES="2",
    )
    stack.redis()
    port = free_port()
    log = (tmp_path / "run-prod.log").open("ab")
    make = subprocess.Popen(
        ["make", "--no-print-directory", "run-prod", f"PORT={port}"],
        cwd=ROOT,
        env=stack.env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: everything it starts is in it
    )
    group = make.pid
    try:
        wait_until(lambda: _serving(port), 120, "run-prod serving, /healthz all ok", interval=0.5)
        [shell] = [pid for pid, parent, _ in _processes() if parent == make.pid]
        started = {pid for pid, _, pgrp in _processes() if pgrp == group} - {make.pid, shell}
        assert len(started) >= 3, started  # the daphnes, the worker (and its pool) and beat
        daphnes = _daphnes(group)
        assert len(daphnes) == 2, daphnes  # WEB_PROCESSES, on the one port
        assert all(" --fd " in line and "rummysite.asgi:application" in line for line in daphnes), daphnes

        os.kill(shell, signal.SIGTERM)

        assert make.wait(timeout=30) != 0
        gone = "every process of run-prod gone"
        wait_until(lambda: not any(pgrp == group for _, _, pgrp in _processes()), 20, gone)
    finally:
        with contextlib.suppress(ProcessLookupError):  # (nothing left, as it should be)
            os.killpg(group, signal.SIGKILL)
        make.wait(timeout=10)
        stack.close()
        log.close()
