"""Every API error is a JSON body {"error": code, "message": plain words}, whatever the status."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.support import _fast_passwords, _fresh_throttles, assert_error, client_for  # noqa: F401
from tests.backoffice.support import deposit, seed, template
from wallet.models import Journal

pytestmark = pytest.mark.django_db


def test_an_unknown_url_under_api_is_a_json_404(alice):
    for client in (client_for(alice), client_for(None)):
        body = assert_error(client.get("/api/no/such/thing/"), 404, "not_found")
        assert "/api/no/such/thing/" in body["message"]
        assert_error(client.post("/api/nothing-here/", {}, format="json"), 404, "not_found")


def test_a_missing_object_is_a_json_404(alice, sam):
    assert_error(client_for(alice).get("/api/tables/424242/"), 404, "not_found")
    assert_error(client_for(alice).post("/api/templates/424242/play/"), 404, "not_found")
    assert_error(client_for(sam).get("/api/staff/journals/424242/"), 404, "not_found")
    assert_error(client_for(sam).get("/api/staff/reports/nonsense/"), 404, "not_found")
    assert_error(
        client_for(sam).post("/api/staff/withdrawals/424242/approve/", {"reason": "x"}, format="json"), 404
    )


def test_journals_cannot_be_changed_or_deleted_through_the_api(monkeypatch):
    data = seed(monkeypatch)
    sam = client_for(data.sam)
    journal = data.prize_journal
    before = list(Journal.objects.values_list("id", "key", "kind", "meta").order_by("id"))
    for path in (f"/api/staff/journals/{journal.pk}/", f"/api/staff/journals/{journal.pk}/reverse/"):
        for method in ("put", "patch", "delete"):
            response = getattr(sam, method)(path, {"meta": {"reason": "edited"}}, format="json")
            body = assert_error(response, 405, "method_not_allowed")
            assert method.upper() in body["message"]
    for path in ("/api/wallet/statement/", "/api/wallet/"):
        assert_error(client_for(data.users["alice"]).delete(path), 405, "method_not_allowed")
    assert list(Journal.objects.values_list("id", "key", "kind", "meta").order_by("id")) == before


def test_validation_errors_name_the_field(alice):
    client = client_for(alice)
    for amount in (12.5, "12.5", True, -100, 0, "ten", None):
        body = assert_error(
            client.post("/api/wallet/deposits/", {"amount": amount}, format="json"), 400, "invalid"
        )
        assert body["message"].startswith("amount:"), body
        assert "amount" in body["field_errors"]
    body = assert_error(client.post("/api/wallet/deposits/", {}, format="json"), 400, "invalid")
    assert body["message"] == "amount: This field is required."
    assert_error(client.get("/api/wallet/statement/", {"currency": "USD"}), 400, "invalid")
    assert_error(client.get("/api/wallet/statement/", {"limit": "0"}), 400, "invalid")
    assert_error(
        client.post("/api/wallet/deposits/", "{not json", content_type="application/json"), 400, "parse_error"
    )


def test_wallet_refusals_keep_the_wallets_code(alice):
    client = client_for(alice)
    body = assert_error(client.post("/api/wallet/withdrawals/", {"amount": 20000}, format="json"), 409)
    assert body["error"] == "insufficient_funds"
    assert "₹" in body["message"]
    assert_error(client.post("/api/wallet/deposits/", {"amount": 500}, format="json"), 400, "limit_exceeded")


def test_table_refusals_keep_the_tables_code(alice, bob, carol):
    tmpl = template("2 seats", "pool101", entry_fee=2500, seats=2)
    client = client_for(alice)
    body = assert_error(client.post(f"/api/templates/{tmpl.pk}/play/"), 409)
    assert body["error"] == "insufficient_balance"
    for user in (alice, bob, carol):
        deposit(user, 10000)
    table_id = client.post(f"/api/templates/{tmpl.pk}/play/").json()["table"]
    assert client_for(bob).post(f"/api/tables/{table_id}/join/").status_code == 200
    assert_error(client_for(carol).post(f"/api/tables/{table_id}/join/"), 409, "game_running")
    assert_error(client_for(alice).post(f"/api/tables/{table_id}/join/"), 409)


def test_a_session_post_without_the_csrf_token_is_a_json_403(alice):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(alice)
    body = assert_error(client.post("/api/wallet/deposits/", {"amount": 5000}, format="json"), 403)
    assert "CSRF" in body["message"]


def test_too_many_requests_is_a_json_429_per_user(alice, bob, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "3/min", "anon": "2/min"},
    }
    client = client_for(alice)
    for _ in range(3):
        assert client.get("/api/wallet/").status_code == 200
    response = client.get("/api/wallet/")
    body = assert_error(response, 429, "throttled")
    assert "try again in" in body["message"]
    assert int(response["Retry-After"]) > 0
    assert client_for(bob).get("/api/wallet/").status_code == 200, "the limit is per user"
    anonymous = client_for(None)
    for _ in range(2):
        anonymous.post("/api/auth/token/", {"username": "x", "password": "y"}, format="json")
    assert_error(anonymous.post("/api/auth/token/", {"username": "x", "password": "y"}, format="json"), 429)


def test_an_unexpected_failure_is_a_json_500(alice, monkeypatch):
    from api import views

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "wallet_of", broken)
    client = client_for(alice)
    client.raise_request_exception = False
    assert_error(client.get("/api/wallet/"), 500, "server_error")
