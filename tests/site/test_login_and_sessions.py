"""Log-in and sessions: lock-out after failed log-ins on the web form and the
API token endpoint, client addresses from the trusted-proxy setting only, logout and password
change ending sessions and tokens, a date of birth at sign-up, normalised usernames and no
look-alikes."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.client_ip import client_ip
from accounts.models import User
from accounts.usernames import skeleton
from tests.api.support import clear_throttles
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "green-felt-table-42"


@pytest.fixture
def dana(db):
    return User.objects.create_user(username="dana", password=PASSWORD)


def login(client, password, **extra):
    return client.post(reverse("accounts:login"), {"username": "dana", "password": password}, **extra)


def test_login_lockout_after_repeated_failures_on_the_web_form(dana, client, settings):
    settings.AXES_FAILURE_LIMIT = 5
    for _ in range(5):
        assert login(client, "wrong-password").status_code in (200, 400, 429)
    locked = login(client, PASSWORD)
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    other_address = login(client, PASSWORD, REMOTE_ADDR="10.9.8.7")
    assert other_address.status_code == 302, "the lock is for this username from this address"


def test_login_lockout_on_the_api_token_endpoint(dana, settings):
    settings.AXES_FAILURE_LIMIT = 3
    clear_throttles()
    api = APIClient()
    for attempt in range(3):
        response = api.post("/api/auth/token/", {"username": "dana", "password": "nope"}, format="json")
        assert response.status_code == (429 if attempt == 2 else 401), response.content
    assert response.json()["error"] == "locked_out"
    locked = api.post("/api/auth/token/", {"username": "dana", "password": PASSWORD}, format="json")
    assert locked.status_code == 429
    assert locked.json()["error"] == "locked_out"
    assert not Token.objects.filter(user=dana).exists()


def test_client_address_ignores_a_forged_forwarded_for_without_trusted_proxies(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(request) == "203.0.113.9"
    settings.TRUSTED_PROXY_COUNT = 1
    forged = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.7")
    assert client_ip(forged) == "198.51.100.7", "the proxy's own entry, not what the client wrote"


def test_client_address_forwarded_for_does_not_evade_the_api_throttle(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "600/min", "anon": "3/min"},
    }
    from rest_framework.settings import api_settings

    api_settings.reload()
    clear_throttles()
    api = APIClient()
    codes = [
        api.post(
            "/api/auth/token/", {}, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}", REMOTE_ADDR="203.0.113.5"
        ).status_code
        for i in range(6)
    ]
    assert codes.count(429) >= 3, codes
    api_settings.reload()


def test_logout_ends_that_token_and_that_session(dana, client):
    api = APIClient()
    key = api.post("/api/auth/token/", {"username": "dana", "password": PASSWORD}, format="json").json()[
        "token"
    ]
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.delete("/api/auth/token/").status_code == 204
    assert api.get("/api/wallet/").status_code in (401, 403)
    client.force_login(dana)
    client.post(reverse("accounts:logout"))
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_a_password_change_revokes_every_token_and_session(dana, client):
    other = type(client)()
    other.force_login(dana)
    Token.objects.create(user=dana)
    client.force_login(dana)
    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "blue-felt-table-77",
            "new_password2": "blue-felt-table-77",
        },
    )
    assert response.status_code == 302
    assert not Token.objects.filter(user=dana).exists()
    assert other.get(reverse("accounts:profile")).status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 200


def signup(client, **fields):
    data = {
        "username": "newplayer",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "date_of_birth": "1990-01-01",
        "region": "IN-KA",
    } | fields
    return client.post(reverse("accounts:signup"), data)


def test_sign_up_asks_a_date_of_birth_and_refuses_anyone_under_18(client):
    today = timezone.localdate()
    almost = today.replace(year=today.year - 18) + dt.timedelta(days=1)
    refused = signup(client, date_of_birth=almost.isoformat())
    assert refused.status_code == 400
    assert "18 or older" in refused.content.decode()
    assert not User.objects.exists()
    exactly = today.replace(year=today.year - 18) if not (today.month == 2 and today.day == 29) else today
    assert signup(client, date_of_birth=exactly.isoformat()).status_code == 302
    assert User.objects.get(username="newplayer").date_of_birth == exactly


def test_usernames_are_normalised_nfkc_and_casefolded(client):
    assert signup(client, username="ＮｅｗＰｌａｙｅｒ").status_code == 302
    user = User.objects.get()
    assert user.username == "newplayer"
    client.logout()
    assert (
        client.post(reverse("accounts:login"), {"username": "NEWPLAYER", "password": PASSWORD}).status_code
        == 302
    )


def test_usernames_confusable_with_an_existing_one_are_refused(client):
    make_user("alice")
    make_user("paypal")
    for lookalike in ("аlice", "ALICE", "аlicе", "a1ice", "paypa1", "pаypal", "alíce"):
        response = signup(client, username=lookalike)
        assert response.status_code == 400, lookalike
        assert not User.objects.filter(username_skeleton=skeleton("alice")).exclude(username="alice").exists()
    assert skeleton("аlice") == skeleton("alice")  # Cyrillic а
    assert skeleton("rnary") == skeleton("mary")
    assert signup(client, username="alicia").status_code == 302
