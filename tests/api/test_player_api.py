"""The player's endpoints: lobby, play and leave, wallet with deposits and withdrawals, history."""

from __future__ import annotations

import pytest

from backoffice.models import AuditAction, AuditLog
from tests.api.support import _fast_passwords, _fresh_throttles, client_for  # noqa: F401
from tests.backoffice.support import deposit, play_a_deal, template
from wallet.ledger import balance_of, user_spec, withdrawal_hold_spec
from wallet.models import Currency
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db


def test_it_lists_the_lobby_and_seats_a_player_then_refunds_on_leaving(alice, bob):
    tmpl = template("101 pool", "pool101", entry_fee=2500, seats=3)
    template("retired", "pool61", entry_fee=100, active=False)
    deposit(alice, 10000)
    client = client_for(alice)
    lobby = client.get("/api/lobby/").json()
    assert [t["name"] for t in lobby] == ["101 pool"]
    assert lobby[0]["entry_fee"] == 2500
    assert lobby[0]["open_tables"] == []
    view = client.post(f"/api/templates/{tmpl.pk}/play/").json()
    assert view["status"] == "waiting"
    assert view["prize_pool"] == 2500
    # What the winner would be paid: the pool less the table's rake (R-MONEY-5).
    assert view["prize"] == 2500 - 2500 * tmpl.rake_percent // 100
    assert [p["name"] for p in view["players"]] == ["alice"]
    assert balance_of(user_spec(alice.pk)) == 7500
    lobby = client_for(bob).get("/api/lobby/").json()
    assert lobby[0]["open_tables"] == [{"id": view["table"], "status": "waiting", "seats_taken": 1}]
    left = client.post(f"/api/tables/{view['table']}/leave/").json()
    assert left["players"][0]["status"] == "left"
    assert balance_of(user_spec(alice.pk)) == 10000, "R-MONEY-4: refunded before the start"
    assert reconcile() == []


def test_a_deposit_is_credited_once_and_the_statement_runs(alice):
    client = client_for(alice)
    # The sandbox confirms its own deposits (as a provider's callback would); the
    # endpoint where a player confirmed their own deposit is gone.
    created = client.post("/api/wallet/deposits/", {"amount": 250050}, format="json")
    assert created.status_code == 201
    confirmed = created.json()
    assert confirmed["status"] == "confirmed"
    assert confirmed["amount"] == 250050
    assert client.post(f"/api/wallet/deposits/{confirmed['id']}/confirm/").status_code == 404
    assert client.get("/api/wallet/").json()["balances"][0] == {
        "currency": "INR",
        "balance": 250050,
        "withdrawals_held": 0,
    }
    withdrawal = client.post("/api/wallet/withdrawals/", {"amount": 50000}, format="json").json()
    assert withdrawal["status"] == "requested"
    statement = client.get("/api/wallet/statement/").json()
    assert [(line["kind"], line["amount"], line["balance"]) for line in statement["lines"]] == [
        ("deposit", 250050, 250050),
        ("withdrawal_hold", -50000, 200050),
    ]
    assert statement["balance"] == 200050
    assert client.get("/api/wallet/").json()["balances"][0]["withdrawals_held"] == 50000
    assert [d["id"] for d in client.get("/api/wallet/deposits/").json()] == [confirmed["id"]]


def test_staff_decide_withdrawals_through_the_api_each_audited(alice, sam):
    deposit(alice, 100000)
    client = client_for(alice)
    first = client.post("/api/wallet/withdrawals/", {"amount": 30000}, format="json").json()
    second = client.post("/api/wallet/withdrawals/", {"amount": 20000}, format="json").json()
    staff = client_for(sam)
    assert {w["id"] for w in staff.get("/api/staff/withdrawals/").json()} == {first["id"], second["id"]}
    missing_reason = staff.post(f"/api/staff/withdrawals/{first['id']}/approve/", {}, format="json")
    assert missing_reason.status_code == 400
    paid = staff.post(f"/api/staff/withdrawals/{first['id']}/approve/", {"reason": "KYC ok"}, format="json")
    assert paid.json()["status"] == "paid"
    rejected = staff.post(
        f"/api/staff/withdrawals/{second['id']}/reject/", {"reason": "bank closed"}, format="json"
    )
    assert rejected.json() | {"reason": "bank closed", "status": "rejected"} == rejected.json()
    again = staff.post(f"/api/staff/withdrawals/{first['id']}/reject/", {"reason": "oops"}, format="json")
    assert again.status_code == 409
    assert again.json()["error"] == "already_decided"
    assert balance_of(user_spec(alice.pk)) == 100000 - 30000
    assert balance_of(withdrawal_hold_spec(alice.pk)) == 0
    rows = list(AuditLog.objects.order_by("id").values_list("actor__username", "action", "target", "reason"))
    assert rows == [
        ("sam", AuditAction.APPROVE_WITHDRAWAL, f"withdrawal:{first['id']}", "KYC ok"),
        ("sam", AuditAction.REJECT_WITHDRAWAL, f"withdrawal:{second['id']}", "bank closed"),
    ]
    assert reconcile() == []


def test_chips_top_up_once_a_day(alice):
    client = client_for(alice)
    first = client.post("/api/wallet/chips/").json()
    assert first["balance"] == 10_000_00
    assert client.post("/api/wallet/chips/").json() == first, "the same day: the first top-up again"
    assert balance_of(user_spec(alice.pk, Currency.CHIPS)) == 10_000_00


def test_history_lists_my_games_and_verifies_each_deal(alice, bob):
    table = play_a_deal(alice, bob)
    history = client_for(alice).get("/api/history/").json()
    assert [game["table"] for game in history] == [table.pk]
    deals = history[0]["deals"]
    assert deals[0]["number"] == 1
    assert deals[0]["finished_at"] is not None
    detail = client_for(alice).get(f"/api/history/deals/{deals[0]['id']}/").json()
    assert detail["verified"] is True
    assert len(detail["seed"]) == 64
    assert len(detail["commitment"]) == 64
    assert sum(len(hand["hand"]) for hand in detail["hands"]) == 26
    # R-DROP-1: in 101 pool a first drop scores 20; the other player wins the deal with 0.
    assert sorted(hand["score"] for hand in detail["hands"]) == [0, 20]
    mine = next(hand for hand in detail["hands"] if hand["name"] == "alice")
    assert (deals[0]["score"], deals[0]["outcome"]) == (mine["score"], mine["outcome"])
    types = [event.get("type") for event in detail["events"]]
    assert types[0] == "deal_number"
    assert types[-1] == "deal_over"
