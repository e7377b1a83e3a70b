"""Browser tests: Debian's Chromium through Playwright, against the site served by daphne in a
subprocess (its own SQLite file, embedded timers). Without Chromium or Playwright they skip,
and fail when ``REQUIRE_SERVICES=1`` (CI: ``scripts/ensure-chromium`` installs Chromium)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _missing() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"needs Chromium at {CHROMIUM} (run scripts/ensure-chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "needs Playwright for Python (pip install -r requirements-dev.txt)"
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
    """On a failed browser test, report what each page showed when it failed and the end of
    each site's log: a failure in CI must say what the player saw and what the server did."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    funcargs = getattr(item, "funcargs", {})
    browser = funcargs.get("browser")
    for title, text in getattr(browser, "last_seen", []):
        report.sections.append((title, text))
    if "start_site" in funcargs:  # its tmp_path holds each site's log
        for log in sorted(Path(funcargs["tmp_path"]).glob("daphne*.log")):
            report.sections.append((f"site log {log.name}", log.read_text(errors="replace")[-6_000:]))


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("browser") is None:
        return
    reason = _missing()
    if reason is None:
        return
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"{reason} (REQUIRE_SERVICES=1: browser tests are mandatory here)", pytrace=False)
    pytest.skip(reason)


def _env(db: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "GAME_TIMERS")
    }
    env.update(
        DEBUG="1",
        SQLITE_PATH=str(db),
        GAME_TIMERS="embedded",
        DJANGO_SETTINGS_MODULE="rummysite.settings",
        **extra,
    )
    return env


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file with the players and templates, copied for each site."""
    if _missing():
        pytest.skip(_missing() or "")
    db = tmp_path_factory.mktemp("browser-db") / "template.sqlite3"
    subprocess.run(
        [sys.executable, "-m", "tests.browser.site", "setup"],
        cwd=ROOT,
        env=_env(db),
        check=True,
        timeout=120,
    )
    return db


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Site:
    def __init__(self, url: str, db: Path) -> None:
        self.url = url
        self.db = db

    def check(self, table_id: int) -> list[dict]:  # type: ignore[type-arg]
        import json

        out = subprocess.run(
            [sys.executable, "-m", "tests.browser.site", "check", str(table_id)],
            cwd=ROOT,
            env=_env(self.db),
            check=True,
            timeout=60,
            capture_output=True,
            text=True,
        )
        return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def start_site(template_db: Path, tmp_path: Path) -> Iterator:  # type: ignore[type-arg]
    """``start_site(seeds=N)``: serve a fresh copy of the database; stopped after the test.
    ``prepare`` names a subcommand of tests.browser.site (and its arguments) run on the copy
    first; ``bot_think``
    the seconds a bot waits before it moves."""
    processes: list[subprocess.Popen] = []  # type: ignore[type-arg]

    def start(seeds: int | None = None, prepare: str | None = None, bot_think: float | None = None) -> Site:
        db = tmp_path / f"site{len(processes)}.sqlite3"
        shutil.copy(template_db, db)
        if prepare:  # a subcommand of tests.browser.site that adds to this copy before serving
            subprocess.run(
                [sys.executable, "-m", "tests.browser.site", *prepare.split()],
                cwd=ROOT,
                env=_env(db),
                check=True,
                timeout=120,
            )
        port = _free_port()
        extra = {} if seeds is None else {"BROWSER_DEAL_SEEDS": str(seeds)}
        if bot_think is not None:
            extra["BROWSER_BOT_THINK_SECONDS"] = str(bot_think)
        log = open(tmp_path / f"daphne{len(processes)}.log", "w")  # noqa: SIM115
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.browser.site", "serve", str(port)],
            cwd=ROOT,
            env=_env(db, **extra),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        processes.append(process)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2):  # noqa: S310
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the site did not start: see {log.name}") from None
                time.sleep(0.2)
        return Site(url, db)

    yield start
    for process in processes:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    """Chromium for one test module. Not session-wide: while Playwright's sync API runs, the
    thread has a running asyncio loop, and every Django ORM call in a later test on the same
    worker would fail with SynchronousOnlyOperation."""
    if _missing():
        pytest.skip(_missing() or "")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield Witness(chromium)
        chromium.close()


class Witness:
    """The browser, whose contexts note what their pages show when a test closes them while
    failing (``last_seen``, reported by ``pytest_runtest_makereport``): the tests close their
    contexts in ``finally``, before any report is made."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self.last_seen: list[tuple[str, str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def new_context(self, **options: Any) -> Any:
        self.last_seen.clear()
        context = self._browser.new_context(**options)
        close = context.close

        def close_noting_pages(**kwargs: Any) -> None:
            if sys.exc_info()[0] is not None:  # closed by a finally block of a failing test
                for page in context.pages:
                    try:
                        text = page.inner_text("body", timeout=2_000)[-3_000:]
                    except Exception as error:  # a diagnosis never hides the failure
                        text = f"(unreadable: {error})"
                    self.last_seen.append((f"page at {page.url}", text))
            close(**kwargs)

        context.close = close_noting_pages
        return context
