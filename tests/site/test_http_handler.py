"""Django's HTTP under daphne (rummysite.http): a request's middleware and view run in one call
to its thread, with no hop back to the event loop in between, and answer as Django's own
handler does."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import AsyncToSync
from django.core.handlers.asgi import ASGIHandler

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
