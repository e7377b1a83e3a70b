"""The first-party device id: the ``rd`` cookie every browser gets, the API's ``X-Device-Id``
header, and what a log-in records of the client."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.personas import demo_password
from fairplay import device
from fairplay.models import Signal
from tests.api.support import _fast_passwords  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

GOOD = "Zk3_-" + "a" * 30


def test_a_browser_gets_a_long_lived_http_only_cookie_once(settings):
    settings.DEBUG = False
    client = Client()
    first = client.get("/rules/")
    cookie = first.cookies[device.COOKIE]
    assert device.valid(cookie.value) == cookie.value
    assert len(cookie.value) == 43
    assert cookie["max-age"] == 2 * 365 * 24 * 3600
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["secure"] is True, "Secure when DEBUG is off"
    again = client.get("/rules/")
    assert device.COOKIE not in again.cookies, "a well-formed cookie is kept as it is: stable"


def test_the_cookie_is_not_secure_only_in_debug(settings):
    settings.DEBUG = True
    assert Client().get("/rules/").cookies[device.COOKIE]["secure"] == ""


@pytest.mark.parametrize("garbage", ["", "short", "x" * 65, "has space" + "a" * 20, "é" * 30, "a;b" * 10])
def test_a_garbage_cookie_is_ignored_and_replaced(garbage):
    client = Client()
    client.cookies[device.COOKIE] = garbage
    fresh = client.get("/rules/").cookies[device.COOKIE].value
    assert fresh != garbage
    assert device.valid(fresh) == fresh


def test_a_web_log_in_records_the_address_the_device_and_the_agent(alice, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    client = Client(HTTP_USER_AGENT="Mozilla/5.0 " + "x" * 300, HTTP_X_FORWARDED_FOR="1.2.3.4, 49.36.1.2")
    client.cookies[device.COOKIE] = GOOD
    response = client.post("/accounts/login/", {"username": "alice", "password": demo_password("alice")})
    assert response.status_code == 302
    row = Signal.objects.get(user=alice, kind="login")
    assert row.device == GOOD
    assert row.address == "49.36.1.2", "the outermost trusted proxy's view, not what the client wrote"
    assert row.agent.startswith("Mozilla/5.0 ")
    assert len(row.agent) == 200


def test_an_api_log_in_records_the_x_device_id_header(alice):
    client = Client(HTTP_X_DEVICE_ID=GOOD)
    response = client.post(
        "/api/auth/token/",
        {"username": "alice", "password": demo_password("alice")},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert device.COOKIE not in response.cookies, "the API's clients send the header: no cookie"
    assert Signal.objects.get(user=alice, kind="login").device == GOOD


def test_a_garbage_header_is_ignored(alice):
    client = Client(HTTP_X_DEVICE_ID="<script>")
    client.post(
        "/api/auth/token/",
        {"username": "alice", "password": demo_password("alice")},
        content_type="application/json",
    )
    assert Signal.objects.get(user=alice, kind="login").device == ""


def test_a_signal_that_cannot_be_recorded_never_fails_the_log_in(alice, monkeypatch, caplog):
    from fairplay import signals

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the signals table is away")

    monkeypatch.setattr(signals, "record", broken)
    response = Client().post("/accounts/login/", {"username": "alice", "password": demo_password("alice")})
    assert response.status_code == 302
    assert "a login signal of user" in caplog.text
    assert not Signal.objects.filter(user=alice, kind="login").exists()
