"""A page's server work under Django's own ASGI handler and under the site's application (the
one daphne serves, named by ``ASGI_APPLICATION``), in turn, in one process: ``python -m
loadtest.pages``.

Each request goes through the whole ASGI application (the middleware, the view, the template),
with no server and no socket, against the database of the current settings: the log-in page
for a visitor, then the lobby, its live refresh and ``GET /api/wallet/`` for a signed-in
player. The two handlers alternate in blocks of ``--requests``; the CPU a request is the block's
process time over its requests (the request's thread included). With ``DEBUG=0`` the static
files' manifest must be there (``manage.py collectstatic``), as under ``make run-prod``.

``--busy N``: N threads keep the interpreter busy meanwhile, as a daphne's database threads do
while the tables play, and the figure is a request's wall time instead: what it waits for the
interpreter, the starting of threads included (``rummysite.http``).

``--against NAME=VALUE``: the site's application with a setting changed takes the place of
Django's handler, to weigh the setting (``--against LOBBY_COUNTS_MS=0``: the lobby counted at
every request).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time
from typing import Any

from loadtest import setup

PAGES = [
    ("log-in page", "/accounts/login/", False),
    ("lobby", "/games/", True),
    ("lobby's refresh", "/games/lobby/live/", True),
    ("wallet API", "/api/wallet/", True),
]


async def get(app: Any, path: str, cookie: bytes = b"") -> tuple[int, bytes]:
    """One GET of ``path`` through the ASGI application ``app``: its status and body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"cookie", cookie)],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    sent: list[dict[str, Any]] = []
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    body = b"".join(message.get("body", b"") for message in sent if message["type"] == "http.response.body")
    return int(sent[0]["status"]), body


def _signed_in_cookie() -> bytes:
    from django.conf import settings

    from accounts.models import User

    user, _ = User.objects.get_or_create(username="pages-benchmark", defaults={"region": "IN-KA"})
    return f"{settings.SESSION_COOKIE_NAME}={setup.signed_in(user)}".encode()


def against(setting: str) -> tuple[str, Any]:
    """``NAME=VALUE`` as a setting's name and value, the value as the settings would read it
    (a whole number, or else the text)."""
    name, equals, text = setting.partition("=")
    if not equals or not name.isupper():
        raise argparse.ArgumentTypeError(f"{setting!r} is not NAME=VALUE")
    try:
        return name, int(text)
    except ValueError:
        return name, text


async def _measure(
    rounds: int, requests: int, wall: bool = False, changed: tuple[str, Any] | None = None
) -> dict[str, dict[str, list[float]]]:
    from asgiref.sync import sync_to_async
    from django.conf import settings
    from django.core.handlers.asgi import ASGIHandler
    from django.test.utils import override_settings
    from django.utils.module_loading import import_string

    # The site's application as daphne loads it: named by the settings (its HTTP through
    # rummysite.http), beside Django's own handler or beside itself with a setting changed.
    site = import_string(settings.ASGI_APPLICATION)
    if changed is None:
        handlers: dict[str, tuple[Any, dict[str, Any]]] = {"Django's": (ASGIHandler(), {})}
    else:
        name, value = changed
        handlers = {f"{name}={value}": (site, {name: value})}
    handlers["the site's"] = (site, {})
    clock = time.perf_counter if wall else time.process_time
    cookie = await sync_to_async(_signed_in_cookie)()
    figures: dict[str, dict[str, list[float]]] = {page: {name: [] for name in handlers} for page, *_ in PAGES}
    for page, path, signed_in in PAGES:
        for app, overrides in handlers.values():  # a first request of each: the caches warm
            with override_settings(**overrides):
                status, _ = await get(app, path, cookie if signed_in else b"")
            if status != 200:
                raise SystemExit(f"{path} answered {status}: SECURE_SSL_REDIRECT=0? ALLOWED_HOSTS?")
        for round_ in range(rounds):
            order = list(handlers.items()) if round_ % 2 == 0 else list(reversed(handlers.items()))
            for name, (app, overrides) in order:
                with override_settings(**overrides):
                    started = clock()
                    for _ in range(requests):
                        await get(app, path, cookie if signed_in else b"")
                    figures[page][name].append(1000 * (clock() - started) / requests)
    return figures


def _keep_busy(threads: int) -> threading.Event:
    """``threads`` threads running Python until the event is set."""
    done = threading.Event()

    def spin() -> None:
        while not done.is_set():
            sum(range(1000))

    for _ in range(threads):
        threading.Thread(target=spin, daemon=True).start()
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=12, help="blocks of each handler, in turn")
    parser.add_argument("--requests", type=int, default=100, help="requests a block")
    parser.add_argument("--busy", type=int, default=0, help="threads keeping the interpreter busy meanwhile")
    parser.add_argument(
        "--against",
        type=against,
        metavar="NAME=VALUE",
        help="measure the site's application with this setting changed instead of Django's handler",
    )
    args = parser.parse_args(argv)
    setup.django_setup()
    busy = _keep_busy(args.busy)
    try:
        figures = asyncio.run(_measure(args.rounds, args.requests, wall=args.busy > 0, changed=args.against))
    finally:
        busy.set()
    threads = f"{args.busy} thread{'s' if args.busy != 1 else ''}"
    what = f"wall time a request, {threads} busy" if args.busy else "CPU a request"
    for page, by_handler in figures.items():
        (stock_name, stock), (site_name, site) = by_handler.items()
        fewer = sum(1 for a, b in zip(site, stock, strict=True) if a < b)
        print(
            f"{page:16} {what}, median (least): {stock_name} {statistics.median(stock):.2f} ms"
            f" ({min(stock):.2f}), {site_name} {statistics.median(site):.2f} ms ({min(site):.2f});"
            f" less in {fewer} of {len(site)} rounds"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
