"""Sign-up, log in and out, password change, profile."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import identify_hasher
from django.urls import reverse

from accounts.models import User
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "green-felt-table-42"


def signup(client, **overrides):  # type: ignore[no-untyped-def]
    data = {
        "username": "newplayer",
        "display_name": "New Player",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
        "date_of_birth": "1990-05-17",
        "region": "IN-KA",
    }
    data.update(overrides)
    return client.post(reverse("accounts:signup"), data)


def test_it_signs_up_and_logs_in(client):
    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
    user = User.objects.get(username="newplayer")
    assert user.display_name == "New Player"
    assert user.adult_confirmed_at is not None
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_it_never_stores_a_password_in_clear(client):
    signup(client)
    user = User.objects.get(username="newplayer")
    assert GOOD_PASSWORD not in user.password
    assert identify_hasher(user.password).algorithm in {"pbkdf2_sha256", "argon2", "bcrypt_sha256", "scrypt"}
    assert user.check_password(GOOD_PASSWORD)


def test_it_requires_the_adult_confirmation(client):
    """A date of birth, not a checkbox (tests/site/test_login_and_sessions.py)."""
    response = signup(client, date_of_birth="")
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    assert not User.objects.filter(username="newplayer").exists()


def test_it_shows_password_mismatch(client):
    response = signup(client, password2="something-else-99")
    assert response.status_code == 400
    assert "password fields didn" in response.content.decode()
    assert not User.objects.exists()


def test_it_refuses_weak_passwords(client):
    response = signup(client, password1="12345678", password2="12345678")
    assert response.status_code == 400
    assert "This password is too common." in response.content.decode()
    # Under the password the player typed, not under its confirmation.
    form = response.context["form"]
    assert "This password is too common." in form.errors["password1"]
    assert "password2" not in form.errors


def test_it_refuses_duplicate_usernames_in_any_case(client, alice):
    response = signup(client, username="ALICE")
    assert response.status_code == 400
    assert "That username is taken" in response.content.decode()
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_it_redirects_anonymous_users_to_login(client):
    for name in ("accounts:profile", "accounts:password_change"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))


def test_it_logs_in_and_out(client, alice):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "rummy-alice-demo"})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
    assert client.get(reverse("accounts:profile")).status_code == 200
    client.post(reverse("accounts:logout"))
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_it_refuses_a_wrong_password(client, alice):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_it_changes_the_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": "rummy-alice-demo", "new_password1": GOOD_PASSWORD, "new_password2": GOOD_PASSWORD},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(GOOD_PASSWORD)


def test_it_edits_the_display_name(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("accounts:profile"), {"display_name": "Queen of Spades", "email": "", "region": "IN-KA"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.public_name == "Queen of Spades"


def test_it_seeds_demo_users_once(capsys):
    from django.core.management import call_command

    call_command("seed_demo")
    call_command("seed_demo")
    assert User.objects.filter(username="sam", is_staff=True).count() == 1
    assert User.objects.filter(is_staff=False).count() == 6
    assert "rummy-alice-demo" in capsys.readouterr().out
    assert User.objects.get(username="alice").check_password("rummy-alice-demo")


def test_staff_persona_is_staff(sam):
    assert sam.is_staff
    assert make_user("frank").is_staff is False
