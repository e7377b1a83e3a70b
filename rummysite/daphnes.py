"""Several daphnes on one port: ``python -m rummysite.daphnes --port 8000 --processes 2``.

One daphne runs the whole site in one Python interpreter, so it can use one core at most: the
tables' moves, the pages and the API all wait for the same interpreter lock. This process binds
the port once and starts ``--processes`` daphnes that all accept connections from that one
listening socket (daphne's ``--fd``); the kernel hands each new connection, a page or a
websocket, to one of them. Every daphne shares PostgreSQL and the Redis channel layer, so a
player on one sees the moves made through another (docs/DEPLOY.md, "More than one daphne").

It restarts a daphne that dies after running a while; a websocket it held reconnects, to any
of them, and catches up from its last version. A daphne that dies within ``STARTUP_SECONDS`` of
starting (a bad setting, a missing module) would only die again: then every daphne is stopped
and this process exits with the failure, for ``make run-prod`` or the process manager to report.
TERM, INT or HUP stops them all. The daphnes die with this process, even when it is killed.

Each daphne gets ``PASSWORD_HASH_PROCESSES`` (unless set) so that together they hash on one
process a core (accounts/password_work.py). This module imports no Django: it only starts and
watches processes.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

#: A daphne that dies sooner than this after it started is not restarted: it would fail again.
STARTUP_SECONDS = 10.0
#: The pause before a daphne that died is replaced.
RESTART_PAUSE = 0.5
#: How long the daphnes get to close their connections after a TERM, before a KILL.
STOP_SECONDS = 10.0
#: Connections waiting to be accepted, for every daphne together.
BACKLOG = 1024
#: The default count: a daphne a core, up to this many (each holds a pool of database
#: connections: docs/DEPLOY.md, "Database connections").
MOST_BY_DEFAULT = 4

_PR_SET_PDEATHSIG = 1


def usable_cores() -> int:
    """The cores this process may run on (as ``nproc`` counts them: a container's or a
    ``taskset``'s share, not the whole machine's)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def default_processes(cores: int | None = None) -> int:
    """A daphne a core, at most :data:`MOST_BY_DEFAULT`."""
    return max(1, min(cores or usable_cores(), MOST_BY_DEFAULT))


def hash_processes_each(processes: int, cores: int | None = None) -> int:
    """Password-hashing processes for each daphne: one a core between them, at least one each."""
    return max(1, (cores or usable_cores()) // processes)


def listen(host: str, port: int) -> socket.socket:
    """The listening socket every daphne accepts from, inherited by each (IPv4: daphne adopts
    an inherited socket as IPv4)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(BACKLOG)
    sock.set_inheritable(True)
    return sock


def _die_with_parent() -> None:
    """In each daphne, before it starts: the kernel sends it a TERM when this process dies, so
    no daphne outlives it holding the port (Linux; elsewhere they outlive a KILL only)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Daphnes:
    """The daphnes serving one listening socket."""

    sock: socket.socket
    application: str
    processes: int
    env: dict[str, str]
    running: dict[int, tuple[subprocess.Popen[bytes], float]] = field(default_factory=dict)
    stopping: bool = False

    def command(self) -> list[str]:
        fd = str(self.sock.fileno())
        return [sys.executable, "-m", "daphne", "--fd", fd, self.application]

    def start_one(self) -> int:
        daphne = subprocess.Popen(  # noqa: S603 (our own interpreter, daphne, the application named)
            self.command(), pass_fds=[self.sock.fileno()], env=self.env, preexec_fn=_die_with_parent
        )
        self.running[daphne.pid] = (daphne, time.monotonic())
        return daphne.pid

    def stop(self, *_: object) -> None:
        """Stop every daphne (the signal handler): TERM now, KILL after :data:`STOP_SECONDS`."""
        self.stopping = True
        for daphne, _started in list(self.running.values()):
            if daphne.returncode is None:
                daphne.send_signal(signal.SIGTERM)
        signal.signal(signal.SIGALRM, self._kill)
        signal.alarm(int(STOP_SECONDS))

    def _kill(self, *_: object) -> None:
        for daphne, _started in list(self.running.values()):
            if daphne.returncode is None:
                daphne.kill()

    def serve(self) -> int:
        """Start the daphnes and watch them until stopped (0) or one fails as it starts (its
        exit status, or 1)."""
        for _ in range(self.processes):
            self.start_one()
        pids = ", ".join(str(pid) for pid in self.running)
        _say(f"{self.processes} daphne(s) serving {self.application} on one socket (pids {pids})")
        failure = 0
        while self.running:
            try:
                pid, status = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            daphne, started = self.running.pop(pid, (None, 0.0))
            if daphne is None:
                continue
            daphne.returncode = code = os.waitstatus_to_exitcode(status)
            if self.stopping:
                continue
            if time.monotonic() - started < STARTUP_SECONDS:
                _say(f"daphne {pid} exited with {code} as it started: stopping every daphne")
                failure = code if code > 0 else 1
                self.stop()
                continue
            time.sleep(RESTART_PAUSE)  # a stop signal on its way lands first
            if not self.stopping:
                _say(f"daphne {pid} exited with {code}: starting another (pid {self.start_one()})")
        signal.alarm(0)
        return failure


def _say(text: str) -> None:
    print(f"rummysite.daphnes: {text}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rummysite.daphnes", description=__doc__.split("\n")[0])
    parser.add_argument("-b", "--bind", default="127.0.0.1", help="the IPv4 address to listen on")
    parser.add_argument("-p", "--port", type=int, default=8000)
    parser.add_argument(
        "--processes",
        type=int,
        help=f"daphnes to run (default WEB_PROCESSES, else a core each, at most {MOST_BY_DEFAULT})",
    )
    parser.add_argument("application", nargs="?", default="rummysite.asgi:application")
    args = parser.parse_args(argv)
    if args.processes is None:
        configured = os.environ.get("WEB_PROCESSES", "").strip()
        if configured and not configured.isdigit():
            parser.error(f"WEB_PROCESSES must be a whole number, not {configured!r}")
        args.processes = int(configured or 0) or default_processes()
    if args.processes < 1:
        parser.error("--processes must be 1 or more")
    env = dict(os.environ)
    env.setdefault("PASSWORD_HASH_PROCESSES", str(hash_processes_each(args.processes)))
    try:
        sock = listen(args.bind, args.port)
    except OSError as error:
        _say(f"cannot listen on {args.bind}:{args.port}: {error.strerror}")
        return 1
    daphnes = Daphnes(sock, args.application, args.processes, env)
    for stop_signal in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(stop_signal, daphnes.stop)
    return daphnes.serve()


if __name__ == "__main__":
    sys.exit(main())
