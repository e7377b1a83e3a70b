"""The production processes for tests that need them for real: a ``redis-server`` of the test's
own on a spare port (so it can be stopped without touching anyone else's), daphne, a Celery
worker and Celery beat, each a subprocess logging to a file, all stopped at the end."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgresql://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )


def wait_until(condition: Any, timeout: float, what: str, interval: float = 0.1) -> float:
    """Poll ``condition`` until true; the seconds it took. AssertionError naming ``what`` if not."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(interval)
    raise AssertionError(f"{what}: not within {timeout} s")


class Stack:
    """Start with :meth:`redis`, :meth:`daphne`, :meth:`worker`, :meth:`beat`; :meth:`close` ends all."""

    def __init__(self, tmp: Path, **env: str) -> None:
        self.tmp = tmp
        self.redis_port = free_port()
        self.redis_process: subprocess.Popen[bytes] | None = None
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "DEBUG": "1",
            "GAME_TIMERS": "celery",
            "DJANGO_SETTINGS_MODULE": "rummysite.settings",
            "PYTHONUNBUFFERED": "1",
            **env,
        }

    # --- redis ---------------------------------------------------------------------------------

    def redis(self) -> None:
        """Start (or start again) this stack's redis-server, empty, on its port."""
        binary = shutil.which("redis-server")
        assert binary, "redis-server is needed on PATH"
        log = (self.tmp / "redis.log").open("ab")
        self.redis_process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        wait_until(self._redis_answers, 10, "redis-server answering")

    def _redis_answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.5) as probe:
                probe.sendall(b"PING\r\n")
                return probe.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop_redis(self) -> None:
        assert self.redis_process is not None
        self.redis_process.kill()  # as a crash would: no goodbye to the clients
        self.redis_process.wait(timeout=10)
        self.redis_process = None

    # --- the site's processes ------------------------------------------------------------------

    def start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.tmp / f"{name}.log").open("ab")
        process = subprocess.Popen(
            [sys.executable, *args], cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        self.processes[name] = process
        return process

    def log(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text(errors="replace")

    def daphne(self, name: str = "daphne", **env: str) -> int:
        port = free_port()
        saved = self.env
        self.env = {**self.env, **env}
        try:
            process = self.start(
                name, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "rummysite.asgi:application"
            )
        finally:
            self.env = saved

        def listening() -> bool:
            assert process.poll() is None, f"{name} exited: {self.log(name)[-3000:]}"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return True
            except OSError:
                return False

        wait_until(listening, 30, f"{name} listening")
        return port

    def worker(self) -> None:
        self.start(
            "worker", "-m", "celery", "-A", "rummysite", "worker", "--pool", "solo", "--loglevel", "INFO"
        )
        wait_until(lambda: "ready." in self.log("worker"), 30, "the Celery worker ready")

    def beat(self) -> None:
        schedule = str(self.tmp / "beat-schedule")
        self.start(
            "beat", "-m", "celery", "-A", "rummysite", "beat", "--loglevel", "INFO", "--schedule", schedule
        )

    def kill(self, name: str) -> None:
        process = self.processes.pop(name)
        process.kill()
        process.wait(timeout=10)

    def alive(self, name: str) -> bool:
        return self.processes[name].poll() is None

    def close(self) -> None:
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        self.processes.clear()
        if self.redis_process is not None:
            self.stop_redis()


def get(port: int, path: str, timeout: float = 15.0) -> tuple[int, str, dict[str, str]]:
    """GET ``path`` from 127.0.0.1:``port``: status, body text, headers (lower-case names)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Host": "127.0.0.1"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (our own server)
            return response.status, response.read().decode("utf-8", "replace"), _headers(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace"), _headers(error.headers)


def _headers(headers: Any) -> dict[str, str]:
    return {key.lower(): value for key, value in headers.items()}


def health(port: int) -> tuple[int, dict[str, Any], str]:
    status, body, _ = get(port, "/healthz")
    return status, json.loads(body), body
