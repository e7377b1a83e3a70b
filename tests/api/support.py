"""Helpers for the API tests: clients logged in as a persona, JSON calls, throttles reset."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.test import APIClient

from api import throttling
from tests.backoffice.support import _fast_passwords  # noqa: F401 - a fixture, re-exported


def clear_throttles() -> None:
    """Forget the API's rate-limit counts. Under the tests they are in this process's memory
    (conftest.py); clearing a Redis cache would empty the whole Redis database."""
    throttles = throttling.counts()
    assert isinstance(throttles, LocMemCache), type(throttles)
    throttles.clear()


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    """Each test starts from no rate-limit count."""
    clear_throttles()


def client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The response is a JSON error of this status: {"error": code, "message": plain words}."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) <= {"error", "message", "field_errors"}, body
    assert isinstance(body["error"], str)
    assert body["error"]
    assert isinstance(body["message"], str)
    assert len(body["message"]) > 5
    if code is not None:
        assert body["error"] == code, body
    return body
