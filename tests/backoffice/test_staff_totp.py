"""TOTP for staff: with STAFF_TOTP_REQUIRED (DEBUG off), /admin/, the back
office and the staff API need a TOTP-verified session, set up with recovery codes; staff get no
API token without a code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice.models import AuditAction, AuditLog
from tests.api.support import _fresh_throttles  # noqa: F401
from tests.backoffice.support import _fast_passwords  # noqa: F401
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def totp_on(settings):
    settings.STAFF_TOTP_REQUIRED = True


def code_of(device: TOTPDevice) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{totp.token():0{device.digits}d}"


def test_totp_is_required_by_default_when_debug_is_off():
    source = Path(__file__).resolve().parents[2].joinpath("rummysite", "settings.py").read_text()
    assert 'STAFF_TOTP_REQUIRED = env_bool("STAFF_TOTP_REQUIRED", not DEBUG)' in source


def test_totp_staff_pages_need_a_verified_session(client):
    sam = make_user("sam", staff=True)
    client.force_login(sam)
    for path in ("/admin/", "/admin/wallet/journal/", "/backoffice/reports/"):
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/backoffice/totp/"), path
    api = client.get("/api/staff/withdrawals/")
    assert api.status_code == 403
    assert api.json()["error"] == "totp_required"


def test_totp_setup_confirms_a_device_shows_recovery_codes_once_and_is_audited(client):
    sam = make_user("sam", staff=True)
    client.force_login(sam)
    page = client.get("/backoffice/totp/setup/?next=/admin/")
    assert page.status_code == 200
    assert "<svg" in page.content.decode()
    device = TOTPDevice.objects.get(user=sam, confirmed=False)
    done = client.post("/backoffice/totp/setup/", {"code": code_of(device), "next": "/admin/"})
    assert done.status_code == 200
    codes = re.findall(r"<li><code>([^<]+)</code></li>", done.content.decode())
    assert len(codes) == 10
    assert client.get("/admin/").status_code == 200, "this session is verified now"
    assert "<svg" not in client.get("/backoffice/totp/setup/", follow=True).content.decode(), "set up once"
    assert AuditLog.objects.filter(actor=sam, action=AuditAction.TOTP_SETUP).count() == 1

    other = Client()
    other.force_login(sam)
    assert other.get("/admin/").status_code == 302
    assert other.post("/backoffice/totp/", {"code": codes[0], "next": "/admin/"}).status_code == 302
    assert other.get("/admin/").status_code == 200, "a recovery code verifies a session"
    third = Client()
    third.force_login(sam)
    again = third.post("/backoffice/totp/", {"code": codes[0], "next": "/admin/"})
    assert again.status_code == 400, "a recovery code is used once"
    assert third.post("/backoffice/totp/", {"code": "nonsense", "next": "/admin/"}).status_code == 400
    assert third.get("/admin/").status_code == 302


def test_totp_staff_get_no_api_token_without_a_code(client):
    from rest_framework.test import APIClient

    sam = make_user("sam", staff=True)
    password = "sam-password-for-tests-42"
    sam.set_password(password)
    sam.save()
    device = TOTPDevice.objects.create(user=sam, name="app", confirmed=True)
    api = APIClient()
    refused = api.post("/api/auth/token/", {"username": "sam", "password": password}, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"] == "totp_required"
    issued = api.post(
        "/api/auth/token/", {"username": "sam", "password": password, "totp": code_of(device)}, format="json"
    )
    assert issued.status_code == 200
    api.credentials(HTTP_AUTHORIZATION=f"Token {issued.json()['token']}")
    assert api.get("/api/staff/withdrawals/").status_code == 200


def test_totp_players_are_not_asked_for_a_code(alice, client):
    client.force_login(alice)
    assert client.get("/wallet/").status_code == 200
    from rest_framework.test import APIClient

    alice.set_password("alice-password-for-tests-42")
    alice.save()
    issued = APIClient().post(
        "/api/auth/token/", {"username": "alice", "password": "alice-password-for-tests-42"}, format="json"
    )
    assert issued.status_code == 200


def test_totp_a_code_refused_by_the_wait_after_a_wrong_one_says_to_wait(client):
    """django-otp waits 1 s after a wrong code (then 2, 4, ...) and refuses even the right code
    meanwhile: the page says to wait, not that the right code is wrong."""
    sam = make_user("sam", staff=True)
    client.force_login(sam)
    client.get("/backoffice/totp/setup/")
    device = TOTPDevice.objects.get(user=sam, confirmed=False)
    right = code_of(device)
    wrong = f"{(int(right) + 1) % 1_000_000:06d}"
    first = client.post("/backoffice/totp/setup/", {"code": wrong})
    assert "That code is not right. Check the time on your phone" in first.content.decode()
    # Four wrong codes in a row: 8 s to wait, so a slow machine still tries within the wait.
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=4)
    again = client.post("/backoffice/totp/setup/", {"code": right})
    assert again.status_code == 400
    wait = re.compile(r"Too many wrong codes in a row: wait (\d) seconds?, then enter the current code\.")
    said = wait.search(again.content.decode())
    assert said is not None
    assert 1 <= int(said.group(1)) <= 8
    device.refresh_from_db()
    assert device.confirmed is False


def test_totp_the_admin_names_the_two_factor_apps_in_words():
    from django.apps import apps

    assert apps.get_app_config("otp_totp").verbose_name == "Staff authenticator apps"
    assert apps.get_app_config("otp_static").verbose_name == "Staff recovery codes"


def test_totp_the_accounts_app_keeps_its_own_config_beside_django_otps():
    """accounts/apps.py holds three configs; "accounts" must still get its own (its ready()
    connects the logout that closes a session's sockets)."""
    from django.apps import apps

    from accounts.apps import AccountsConfig

    assert type(apps.get_app_config("accounts")) is AccountsConfig
