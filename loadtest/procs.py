"""CPU seconds of the server's processes, read from /proc (Linux), so a step can report the
server's CPU per 1,000 actions without touching the server.

The server is every process whose command line matches: daphne on the port under test (and the
processes it started, the password hashing's: role ``hashing``), the Celery worker and beat of
``rummysite``, and PostgreSQL backends connected to the server's database. The load generator
(this process) is measured apart.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Process:
    pid: int
    role: str


def _cmdline(pid: str) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def _environ(pid: str) -> dict[str, str]:
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    pairs = (item.decode(errors="replace").partition("=") for item in raw.split(b"\0") if item)
    return {key: value for key, _, value in pairs}


def server_processes(port: int, database: str | None, web_port: int | None = None) -> list[Process]:
    """The processes serving ``port`` (and ``web_port``, a daphne of its own for the pages: role
    ``web``), with the database backends and, when the server uses Redis and a database, the
    Celery processes of the same site (same ``REDIS_URL``).

    A port is served by one daphne, or by several started by ``rummysite.daphnes`` on one
    socket (``make run-prod``): those are each ``daphne`` (or ``web``), and the process that
    started them ``launcher``. Whatever a daphne started (the password hashing) is ``hashing``."""
    redis_url = os.environ.get("REDIS_URL")
    found = []
    parents, lines = {}, {}
    launchers: dict[int, str] = {}  # a launcher's pid: the role of the daphnes it started
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        args = _cmdline(pid)
        line = lines[int(pid)] = " ".join(args)
        parents[int(pid)] = _parent(pid)
        serves = "daphne" if str(port) in args else "web" if web_port and str(web_port) in args else ""
        if serves and "daphne" in line:
            if LAUNCHER_MODULE in args:
                launchers[int(pid)] = serves
                found.append(Process(int(pid), "launcher"))
            else:
                found.append(Process(int(pid), serves))
        elif database and redis_url and "celery" in line and "rummysite" in line:
            if _environ(pid).get("REDIS_URL") == redis_url:
                found.append(Process(int(pid), "celery"))
        elif database and line.startswith("postgres: ") and f" {database} " in f"{line} ":
            found.append(Process(int(pid), "postgres"))
    serving = {p.pid for p in found if p.role in ("daphne", "web", "launcher")}
    for child, parent in parents.items():
        if child in serving:
            continue
        ancestor, hops = parent, 0
        while ancestor > 1 and ancestor not in serving and hops < 8:
            ancestor, hops = parents.get(ancestor, 0), hops + 1
        if ancestor not in serving:
            continue
        if hops == 0 and ancestor in launchers and "daphne" in lines[child]:
            found.append(Process(child, launchers[ancestor]))
        else:
            found.append(Process(child, "hashing"))
    return found


#: The module that starts several daphnes on one port (``make run-prod``).
LAUNCHER_MODULE = "rummysite.daphnes"


def _parent(pid: str) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of one process so far (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICKS


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class CpuMeter:
    """CPU used by the server's processes, per role, between :meth:`start` and :meth:`stop`."""

    def __init__(self, port: int, database: str | None, web_port: int | None = None) -> None:
        self.port, self.database, self.web_port = port, database, web_port
        self.before: dict[int, float] = {}
        self.processes: list[Process] = []
        #: CPU seconds per role between the last start and stop.
        self.used: dict[str, float] = {}
        #: daphne's resident memory at the last stop, in MiB.
        self.resident = 0.0

    def start(self) -> None:
        self.processes = server_processes(self.port, self.database, self.web_port)
        self.before = {p.pid: cpu_seconds(p.pid) for p in self.processes}

    def stop(self) -> dict[str, float]:
        # Backends that appeared during the step are counted from zero.
        seen = {p.pid for p in self.processes}
        found = server_processes(self.port, self.database, self.web_port)
        self.processes += [p for p in found if p.pid not in seen]
        used: dict[str, float] = {}
        for process in self.processes:
            spent = cpu_seconds(process.pid) - self.before.get(process.pid, 0.0)
            used[process.role] = used.get(process.role, 0.0) + max(spent, 0.0)
        self.used = used
        # While the step's connections are still open: the memory they hold.
        self.resident = resident_mb_of(self.port)
        return used


class ConnectionGauge:
    """The most connections each process kind held to the server's PostgreSQL database at once
    during a step, by the ``application_name`` they show (``DB_APPLICATION_NAME``: rummy-web,
    rummy-worker, rummy-beat under ``make run-prod``), sampled every ``interval`` seconds from
    ``pg_stat_activity`` on a connection of its own."""

    def __init__(self, conninfo: str, database: str, interval: float = 0.2) -> None:
        import threading

        self.conninfo, self.database, self.interval = conninfo, database, interval
        self.most: dict[str, int] = {}
        self.most_total = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> dict[str, int]:
        self._stop.set()
        self._thread.join(timeout=5)
        return dict(self.most)

    def _sample(self) -> None:
        import psycopg

        query = (
            "SELECT coalesce(nullif(application_name, ''), '(unnamed)'), count(*) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid() GROUP BY 1"
        )
        with psycopg.connect(self.conninfo, autocommit=True) as connection:
            while not self._stop.is_set():
                rows = connection.execute(query, [self.database]).fetchall()
                for name, count in rows:
                    self.most[name] = max(self.most.get(name, 0), int(count))
                self.most_total = max(self.most_total, sum(int(count) for _, count in rows))
                self._stop.wait(self.interval)


def resident_mb(pid: int) -> float:
    """A process's resident memory (VmRSS), in MiB; 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def resident_mb_of(port: int) -> float:
    """The resident memory of every daphne serving ``port``, in MiB."""
    return sum(resident_mb(p.pid) for p in server_processes(port, None) if p.role == "daphne")


class MemoryGauge:
    """The resident memory of the daphne serving ``port``, sampled every ``interval`` seconds
    from /proc while a step runs: (seconds since the start, MiB) pairs."""

    def __init__(self, port: int, interval: float = 60.0) -> None:
        import threading

        self.port, self.interval = port, interval
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> list[tuple[float, float]]:
        self._stop.set()
        self._thread.join(timeout=5)
        return list(self.samples)

    def _sample(self) -> None:
        import time

        started = time.monotonic()
        while True:
            self.samples.append((time.monotonic() - started, resident_mb_of(self.port)))
            if self._stop.wait(self.interval):
                return
