"""``python -m loadtest.crowd``: a crowd of new players arriving at a running site at once, and the
database connections the site holds meanwhile.

    python -m loadtest.crowd --requests 2000 --signups 200 --concurrency 40

Each arrival signs up through the API, logs in (the API's token, and the web page's form every
other time), then reads its wallet, the lobby, its history and the rules, as a new player
does; the requests are spread over ``--concurrency`` clients at once until ``--requests`` have
been sent. Meanwhile the PostgreSQL connections the site holds are sampled from
``pg_stat_activity`` by process kind (``DB_APPLICATION_NAME``). It prints the answers by status
and kind, their latency, and the most connections each process kind held: under ``make
run-prod`` the site's bound is daphne's ``DB_POOL_SIZE`` plus two for the worker's processes and
beat (docs/DEPLOY.md, "Database connections").

Start the server with the anonymous throttle raised, or the crowd meets it instead of the
database: ``API_THROTTLE_ANON=100000/min make run-prod``. Run the crowd with the server's
``DATABASE_URL`` in the environment (it reads pg_stat_activity there). See docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import itertools
import json
import os
import re
import secrets
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from loadtest import procs

PASSWORD = "crowd-of-new-players-42"  # noqa: S105 (the crowd's own throwaway accounts)
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Tally:
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    times: dict[str, list[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, status: int, seconds: float) -> None:
        with self.lock:
            self.statuses[(kind, status)] += 1
            self.times.setdefault(kind, []).append(seconds)

    @property
    def sent(self) -> int:
        return sum(self.statuses.values())

    def statuses_of(self, kind: str) -> int:
        """How many requests of ``kind`` were answered (any status)."""
        return sum(count for (name, _), count in self.statuses.items() if name == kind)


class _LocalPolicy(http.cookiejar.DefaultCookiePolicy):
    """Send the site's secure cookies (``DEBUG=0``) to 127.0.0.1 and localhost over http, as a
    browser does for a site on the machine itself."""

    def return_ok_secure(self, cookie: http.cookiejar.Cookie, request: urllib.request.Request) -> bool:
        host = urllib.parse.urlparse(request.get_full_url()).hostname
        return host in ("127.0.0.1", "localhost") or bool(super().return_ok_secure(cookie, request))


class Client:
    """One player's browser or program: cookies, an API token."""

    def __init__(self, url: str, tally: Tally) -> None:
        self.url, self.tally = url, tally
        self.jar = http.cookiejar.CookieJar(policy=_LocalPolicy())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.token: str | None = None

    def cookie(self, name: str) -> str | None:
        """The value of the site's cookie ``name``, if it set one."""
        return next((cookie.value for cookie in self.jar if cookie.name == name), None)

    def call(
        self, kind: str, method: str, path: str, body: Any = None, form: dict[str, str] | None = None
    ) -> Any:
        headers = {"Host": urllib.parse.urlparse(self.url).netloc}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = self.url + path
        if self.token and path.startswith("/api/"):
            headers["Authorization"] = f"Token {self.token}"
        request = urllib.request.Request(self.url + path, data, headers, method=method)  # noqa: S310 (http only)
        started = time.perf_counter()
        try:
            with self.opener.open(request, timeout=60) as response:
                status, text = response.status, response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode(errors="replace")
        except OSError:
            status, text = 0, ""
        self.tally.add(kind, status, time.perf_counter() - started)
        if text.startswith("{"):
            return json.loads(text)
        return text


def arrive(url: str, number: int, tag: str, reads: int, tally: Tally) -> None:
    """A new player: sign up, log in, and ``reads`` pages and API reads."""
    client = Client(url, tally)
    username = f"crowd-{tag}-{number}"
    answer = client.call(
        "sign-up",
        "POST",
        "/api/auth/signup/",
        {"username": username, "password": PASSWORD, "date_of_birth": "1990-05-17", "region": "IN-KA"},
    )
    if not isinstance(answer, dict) or "token" not in answer:
        return
    login = client.call(
        "log-in (API)", "POST", "/api/auth/token/", {"username": username, "password": PASSWORD}
    )
    client.token = (login.get("token") if isinstance(login, dict) else None) or answer["token"]
    if number % 2 == 0:
        page = client.call("page", "GET", "/accounts/login/")
        found = CSRF_FIELD.search(page) if isinstance(page, str) else None
        if found:
            client.call(
                "log-in (web)",
                "POST",
                "/accounts/login/",
                form={"csrfmiddlewaretoken": found[1], "username": username, "password": PASSWORD},
            )
    paths = itertools.cycle(("/api/wallet/", "/api/lobby/", "/api/history/", "/rules/", "/api/protection/"))
    for path in itertools.islice(paths, reads):
        client.call("read", "GET", path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loadtest.crowd", description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--requests", type=int, default=2000, help="requests in all")
    parser.add_argument("--signups", type=int, default=200, help="new players among them")
    parser.add_argument("--concurrency", type=int, default=40, help="clients at once")
    args = parser.parse_args(argv)
    if not args.url.startswith(("http://", "https://")):
        parser.error("--url is the site's http:// or https:// address")
    os.environ.setdefault("DB_APPLICATION_NAME", "rummy-loadtest")
    gauge = _gauge()
    tally = Tally()
    # Each arrival makes 2 or 4 requests of its own (sign-up, log-ins); the reads fill the rest.
    own = args.signups * 3
    reads = max(0, (args.requests - own) // max(args.signups, 1))
    tag = secrets.token_hex(3)
    if gauge is not None:
        gauge.start()
    started = time.perf_counter()
    with ThreadPoolExecutor(args.concurrency) as crowd:
        list(crowd.map(lambda n: arrive(args.url, n, tag, reads, tally), range(args.signups)))
    seconds = time.perf_counter() - started
    most = gauge.stop() if gauge is not None else {}
    print(
        f"crowd: {tally.sent} requests from {args.signups} new players,"
        f" {args.concurrency} at once, {seconds:.1f} s"
    )
    for (kind, status), count in sorted(tally.statuses.items()):
        print(f"  {kind:13} {status}: {count}")
    for kind, times in sorted(tally.times.items()):
        ordered = sorted(times)
        p50, p99 = ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        print(f"  {kind:13} p50 {1000 * p50:7.1f} ms  p99 {1000 * p99:7.1f} ms")
    if gauge is not None:
        kinds = ", ".join(f"{name} {count}" for name, count in sorted(most.items()))
        print(f"database connections at most: {gauge.most_total} ({kinds})")
    failed = sum(count for (_, status), count in tally.statuses.items() if status == 0 or status >= 500)
    return 1 if failed else 0


def _gauge() -> procs.ConnectionGauge | None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    parsed = urllib.parse.urlparse(url)
    name = parsed.path.lstrip("/")
    return procs.ConnectionGauge(url, name)


if __name__ == "__main__":
    raise SystemExit(main())
