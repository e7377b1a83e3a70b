"""Players who arrive as players do, for ``python -m loadtest --arrive``: they sign up through the
API, log in on the web page (its CSRF form: the session the websocket uses), deposit through the
sandbox payment provider, read their wallet, and sit down with "play now", all over HTTP against
the running site, never through its database.

Before a step, the step's tables are filled this way (:func:`seat_through_the_site`); during
the step, more players keep arriving at the same pace (:class:`Arrivals`): one a second for every
ten tables. Each request's status and time is kept, so a step can report what the arrivals met
while the tables played: a sign-up that answers 500 or 503 fails the step like a lost move.

The server needs sandbox deposits and money play (``PAYMENTS_SANDBOX=1 MONEY_PLAY=1``) and an
anonymous API throttle that lets the arrivals through (``API_THROTTLE_ANON=100000/min``).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from loadtest.crowd import CSRF_FIELD, PASSWORD, Client, Tally
from loadtest.setup import Seat

#: The deposit each arriving player makes, in paise (₹100).
DEPOSIT = 10_000


@dataclass
class Arrived:
    """A player who came in through the site: their user id, session and table."""

    user: str
    session: str
    table: int | None


def arrive(
    url: str, name: str, template: int | None, tally: Tally, seating: threading.Lock | None = None
) -> Arrived | None:
    """One new player: sign up, log in, deposit, read the wallet, and play now at ``template``
    (None: stay in the lobby), one play now at a time under ``seating``. None if the site
    refused them somewhere on the way."""
    client = Client(url, tally)
    answer = client.call(
        "sign-up",
        "POST",
        "/api/auth/signup/",
        {"username": name, "password": PASSWORD, "date_of_birth": "1990-05-17", "region": "IN-KA"},
    )
    if not isinstance(answer, dict) or "token" not in answer:
        return None
    client.token = answer["token"]
    page = client.call("page", "GET", "/accounts/login/")
    found = CSRF_FIELD.search(page) if isinstance(page, str) else None
    if found is None:
        return None
    client.call(
        "log-in",
        "POST",
        "/accounts/login/",
        form={"csrfmiddlewaretoken": found[1], "username": name, "password": PASSWORD},
    )
    session = client.cookie("sessionid")
    if session is None:
        return None
    client.call("deposit", "POST", "/api/wallet/deposits/", {"amount": DEPOSIT})
    client.call("wallet", "GET", "/api/wallet/")
    table = None
    if template is not None:
        with seating or threading.Lock():
            seated = client.call("play now", "POST", f"/api/templates/{template}/play/", {})
        table = seated.get("table") if isinstance(seated, dict) else None
    return Arrived(str(answer["user"]), session, table)


def seat_through_the_site(
    url: str, template: int, count: int, seats: int, rate: float
) -> tuple[list[list[Seat]], list[list[Seat]]]:
    """``count`` full tables of ``seats`` players who each arrived through the site and sat down
    with play now, at most ``rate`` arrivals a second: the tables they filled, in order, and any
    they left short (a play now that found a table waiting from before, or a refused arrival),
    which the caller ends with the step. Their sign-ups, log-ins and deposits run at once; their
    play nows one after another, so each fills the table the one before opened (play now seats
    at the waiting table nearest to full)."""
    tally = Tally()
    seating = threading.Lock()
    run = secrets.token_hex(3)
    names = [f"arrive-{run}-{n}" for n in range(count * seats)]
    arrived: list[Arrived | None] = []
    with ThreadPoolExecutor(max(4, min(64, int(rate * 4)))) as pool:
        started = time.monotonic()
        futures = []
        for number, name in enumerate(names):
            delay = started + number / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            futures.append(pool.submit(arrive, url, name, template, tally, seating))
        arrived = [future.result() for future in futures]
    by_table: dict[int, list[Seat]] = {}
    for player in arrived:
        if player is not None and player.table is not None:
            by_table.setdefault(player.table, []).append(Seat(player.table, player.user, player.session))
    tables = [players for _, players in sorted(by_table.items())]
    return [one for one in tables if len(one) == seats], [one for one in tables if len(one) < seats]


@dataclass
class Arrivals:
    """Players arriving in the background at ``rate`` a second (sign-up, log-in, deposit, wallet;
    they stay in the lobby), until :meth:`stop`."""

    url: str
    rate: float
    tally: Tally = field(default_factory=Tally)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> Tally:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=120)
        return self.tally

    def _run(self) -> None:
        run = secrets.token_hex(3)
        with ThreadPoolExecutor(max(4, min(64, int(self.rate * 4)))) as pool:
            started = time.monotonic()
            for number in range(10**9):
                if self._stop.wait(max(0.0, started + number / self.rate - time.monotonic())):
                    return
                pool.submit(arrive, self.url, f"arrive-{run}-{number}", None, self.tally)


def summary(tally: Tally, describe: Callable[[str, list[float]], str]) -> tuple[int, list[str]]:
    """The arrivals' failures (no answer, or 5xx) and a line per kind of request."""
    failed = sum(count for (_, status), count in tally.statuses.items() if status == 0 or status >= 500)
    return failed, [describe(kind, times) for kind, times in sorted(tally.times.items())]
