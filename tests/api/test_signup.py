"""A program signs up through the API with the sign-up page's own checks, gets a token, and
is funded for practice like any new player (docs/API.md, "A client without a browser")."""

from __future__ import annotations

import datetime as dt

import pytest

from accounts.models import User
from tests.api.support import _fast_passwords, _fresh_throttles, assert_error, client_for  # noqa: F401
from wallet.ledger import balance_of, user_spec
from wallet.models import Currency

pytestmark = pytest.mark.django_db

PASSWORD = "green-felt-table-42"


def sign_up(**fields):
    body = {
        "username": "newcomer",
        "password": PASSWORD,
        "date_of_birth": "1990-05-17",
        "region": "IN-KA",
        **fields,
    }
    return client_for(None).post("/api/auth/signup/", body, format="json")


def test_it_opens_an_account_whose_token_works_and_which_holds_the_welcome_chips():
    response = sign_up(display_name="New Comer")
    assert response.status_code == 201, response.json()
    answer = response.json()
    user = User.objects.get(pk=answer["user"])
    assert (answer["username"], user.display_name) == ("newcomer", "New Comer")
    assert user.adult_confirmed_at is not None
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer['token']}")
    assert client.get("/api/wallet/").status_code == 200
    assert balance_of(user_spec(user.pk, Currency.CHIPS)) == 10_000_00, "the welcome practice chips"


def test_an_under_18_is_refused_with_the_field_named():
    sixteen = (dt.date.today() - dt.timedelta(days=16 * 365)).isoformat()
    body = assert_error(sign_up(date_of_birth=sixteen), 400, "invalid")
    assert "date_of_birth" in body["field_errors"]
    assert not User.objects.filter(username="newcomer").exists()


def test_a_look_alike_of_an_existing_username_is_refused(alice):
    body = assert_error(sign_up(username="аlice"), 400, "invalid")  # a Cyrillic "а"
    assert "username" in body["field_errors"]


def test_a_weak_password_is_refused_as_on_the_page():
    body = assert_error(sign_up(password="12345678"), 400, "invalid")
    assert "password" in body["field_errors"]
