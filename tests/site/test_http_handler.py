"""Django's HTTP under daphne (rummysite.http): a request's middleware and view run in one call
to its thread, with no hop back to the event loop in between, and answer as Django's own
handler does."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import AsyncToSync
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished, request_started

from loadtest.pages import get
from rummysite.http import OneHopASGIHandler
from tests.conftest import run_python

pytestmark = pytest.mark.django_db(transaction=True)


def _get(app: Any, path: str) -> tuple[int, bytes]:
    return asyncio.run(get(app, path))


@pytest.fixture
def hops(monkeypatch):  # type: ignore[no-untyped-def]
    """Each trip from a request's thread back to the event loop (asgiref's AsyncToSync)."""
    made: list[AsyncToSync] = []
    real = AsyncToSync.__call__

    def counted(self: AsyncToSync, *args: Any, **kwargs: Any) -> Any:
        made.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(AsyncToSync, "__call__", counted)
    return made


@pytest.mark.parametrize("path", ["/accounts/login/", "/no-such-page/"])
def test_a_request_runs_in_one_hop_and_answers_as_djangos_handler(settings, hops, path):
    settings.SECURE_SSL_REDIRECT = False
    stock_status, stock_body = _get(ASGIHandler(), path)
    assert hops, "Django's own handler hops back to the loop for the view"
    hops.clear()

    status, body = _get(OneHopASGIHandler(), path)

    assert hops == []
    assert status == stock_status
    assert status == (200 if path == "/accounts/login/" else 404)
    # The same page, but for its CSRF token (a new one each request).
    assert body.split(b"csrfmiddlewaretoken")[0] == stock_body.split(b"csrfmiddlewaretoken")[0]


def test_daphne_serves_the_sites_pages_through_it():
    code = "import rummysite.asgi as site; print(type(site.django_asgi_app).__name__)"
    result = run_python(code, REDIS_URL="")

    assert result.stdout.split()[-1:] == ["OneHopASGIHandler"], result.stderr[-2000:]


@pytest.fixture
def threads_started(monkeypatch):  # type: ignore[no-untyped-def]
    """Each thread started from here on."""
    started: list[threading.Thread] = []
    real = threading.Thread.start

    def counted(self: threading.Thread) -> None:
        started.append(self)
        real(self)

    monkeypatch.setattr(threading.Thread, "start", counted)
    return started


@pytest.fixture
def request_threads():  # type: ignore[no-untyped-def]
    """The thread each request's ``request_started`` and ``request_finished`` ran in."""
    seen: list[tuple[str, int]] = []

    def started(**kwargs: Any) -> None:
        seen.append(("started", threading.get_ident()))

    def finished(**kwargs: Any) -> None:
        seen.append(("finished", threading.get_ident()))

    request_started.connect(started)
    request_finished.connect(finished)
    yield seen
    request_started.disconnect(started)
    request_finished.disconnect(finished)


def test_requests_run_in_threads_lent_from_a_pool_not_started_for_each(
    settings, threads_started, request_threads
):
    settings.SECURE_SSL_REDIRECT = False
    stock = ASGIHandler()
    for _ in range(5):
        assert _get(stock, "/accounts/login/")[0] == 200
    assert len(threads_started) >= 10, "Django's handler starts a thread a request, and one to join it"
    threads_started.clear()
    request_threads.clear()

    site = OneHopASGIHandler()
    answers = [_get(site, "/accounts/login/")[0] for _ in range(10)]

    assert answers == [200] * 10
    assert len(threads_started) == 1, "one thread, started for the first request and lent again"
    # Each request's signals (its database connections closed at the end) in its thread.
    assert [kind for kind, _ in request_threads] == ["started", "finished"] * 10
    assert len({thread for _, thread in request_threads}) == 1
    assert site.threads.idle() == 1


def test_requests_at_once_each_have_a_thread_of_their_own(settings, request_threads):
    """The first request's thread waits until the second has started: were they lent one thread,
    the second would wait for the first, and the first would give up."""
    settings.SECURE_SSL_REDIRECT = False
    second_started = threading.Event()
    arrived: list[int] = []
    waited: list[bool] = []

    def first_waits(**kwargs: Any) -> None:
        arrived.append(threading.get_ident())
        if len(arrived) == 1:
            waited.append(second_started.wait(timeout=10))
        else:
            second_started.set()

    request_started.connect(first_waits)
    try:
        site = OneHopASGIHandler()

        async def both() -> list[tuple[int, bytes]]:
            return list(await asyncio.gather(get(site, "/accounts/login/"), get(site, "/accounts/login/")))

        answers = asyncio.run(both())
    finally:
        request_started.disconnect(first_waits)
    assert [status for status, _ in answers] == [200, 200]
    assert waited == [True]
    started = [thread for kind, thread in request_threads if kind == "started"]
    assert len(set(started)) == 2
    assert site.threads.idle() == 2
