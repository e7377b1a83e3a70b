"""Who may call what: a player never reaches staff endpoints, another player's wallet,
statement or cards; staff can. Session and token authentication."""

from __future__ import annotations

import pytest

from games import services
from tests.api.support import _fast_passwords, _fresh_throttles, assert_error, client_for  # noqa: F401
from tests.backoffice.support import play_a_deal, seed
from wallet.ledger import balance_of, user_spec
from wallet.reports import statement as wallet_statement

pytestmark = pytest.mark.django_db

STAFF_GETS = [
    "/api/staff/reports/rake/",
    "/api/staff/reports/reconcile/",
    "/api/staff/withdrawals/",
    "/api/staff/users/{alice}/wallet/",
    "/api/staff/journals/{journal}/",
]
STAFF_POSTS = [
    "/api/staff/withdrawals/{withdrawal}/approve/",
    "/api/staff/withdrawals/{withdrawal}/reject/",
    "/api/staff/journals/{journal}/reverse/",
    "/api/staff/tables/{table}/cancel/",
]


@pytest.fixture
def seeded(monkeypatch):
    return seed(monkeypatch)


def _fill(path, seeded):
    return path.format(
        alice=seeded.users["alice"].pk,
        journal=seeded.prize_journal.pk,
        withdrawal=seeded.withdrawals["carol"].pk,
        table=seeded.tables["D"].pk,
    )


def test_it_refuses_every_staff_endpoint_to_a_player_and_writes_nothing(seeded):
    from backoffice.models import AuditLog
    from wallet.models import Journal

    journals, audits = Journal.objects.count(), AuditLog.objects.count()
    bob = client_for(seeded.users["bob"])
    for path in STAFF_GETS:
        assert_error(bob.get(_fill(path, seeded)), 403, "permission_denied")
    for path in STAFF_POSTS:
        assert_error(bob.post(_fill(path, seeded), {"reason": "I am not staff"}, format="json"), 403)
    assert (Journal.objects.count(), AuditLog.objects.count()) == (journals, audits)


def test_it_asks_anonymous_callers_to_authenticate(seeded):
    anonymous = client_for(None)
    for path in ["/api/wallet/", "/api/lobby/", "/api/history/", *STAFF_GETS]:
        response = anonymous.get(_fill(path, seeded))
        assert_error(response, 401, "not_authenticated")
        assert response["WWW-Authenticate"].startswith("Token")


def test_staff_reach_every_staff_endpoint(seeded):
    sam = client_for(seeded.sam)
    for path in STAFF_GETS:
        assert sam.get(_fill(path, seeded)).status_code == 200, path
    statement = sam.get(_fill("/api/staff/users/{alice}/wallet/", seeded)).json()
    assert statement["username"] == "alice"
    assert statement["statement"][-1]["balance"] == statement["balances"][0]["balance"]


def test_a_player_sees_only_their_own_wallet_and_statement(seeded):
    alice, bob = seeded.users["alice"], seeded.users["bob"]
    mine = client_for(bob).get("/api/wallet/").json()
    assert mine["user"] == bob.pk
    assert mine["balances"][0]["balance"] == balance_of(user_spec(bob.pk))
    # There is no parameter naming another user: ``user`` is ignored and bob gets his own lines.
    statement = client_for(bob).get("/api/wallet/statement/", {"user": alice.pk}).json()
    assert [line["key"] for line in statement["lines"]] == [line.key for line in wallet_statement(bob.pk)]
    assert [line["key"] for line in statement["lines"]] != [line.key for line in wallet_statement(alice.pk)]
    assert_error(client_for(bob).get(f"/api/staff/users/{alice.pk}/wallet/"), 403)


def _lists(node):
    if isinstance(node, dict):
        for value in node.values():
            yield from _lists(value)
    elif isinstance(node, list):
        yield node
        for value in node:
            yield from _lists(value)


def test_a_player_never_sees_another_players_cards(alice, bob, carol):
    table = play_a_deal(alice, bob)
    services.expire(table.pk, table.version, at=services.now_ms() + 60_000)  # deal 2 starts now
    table.refresh_from_db()
    assert table.state["phase"] == "playing"
    hands = {seat["player"]: sorted(seat["hand"]) for seat in table.state["deal"]["seats"]}
    alice_view = client_for(alice).get(f"/api/tables/{table.pk}/").json()
    assert sorted(alice_view["deal"]["hand"]) == hands[str(alice.pk)]
    seen = [sorted(item) for item in _lists(alice_view) if all(isinstance(x, str) for x in item)]
    assert hands[str(bob.pk)] not in seen, "bob's hand appears in alice's view"
    spectator = client_for(carol).get(f"/api/tables/{table.pk}/").json()
    assert "hand" not in spectator["deal"]
    assert not [
        item
        for item in _lists(spectator)
        if all(isinstance(x, str) for x in item) and sorted(item) in hands.values()
    ]
    events = client_for(carol).get(f"/api/tables/{table.pk}/events/").json()
    assert [e for e in events if e.get("type") in ("dealt", "drew_card")] == []
    assert len(events) == table.version, "the spectator still gets every version"
    own = client_for(alice).get(f"/api/tables/{table.pk}/events/").json()
    dealt = [e["data"]["hand"] for e in own if e.get("type") == "dealt"]
    assert dealt
    assert all(sorted(hand) != hands[str(bob.pk)] for hand in dealt[-1:])


def test_a_player_cannot_open_a_deal_they_did_not_play(alice, bob, carol):
    table = play_a_deal(alice, bob)
    deal = table.deals.get(number=1)
    assert_error(client_for(carol).get(f"/api/history/deals/{deal.pk}/"), 404, "not_found")
    mine = client_for(alice).get(f"/api/history/deals/{deal.pk}/").json()
    assert mine["verified"] is True
    assert {hand["name"] for hand in mine["hands"]} == {"alice", "bob"}


def test_it_authenticates_with_a_token(seeded):
    anonymous = client_for(None)
    response = anonymous.post(
        "/api/auth/token/", {"username": "alice", "password": "rummy-alice-demo"}, format="json"
    )
    token = response.json()["token"]
    with_token = client_for(None)
    with_token.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert with_token.get("/api/wallet/").json()["username"] == "alice"
    wrong = anonymous.post("/api/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert_error(wrong, 401, "authentication_failed")
    bad = client_for(None)
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert_error(bad.get("/api/wallet/"), 401, "authentication_failed")
    assert with_token.delete("/api/auth/token/").status_code == 204
    assert_error(with_token.get("/api/wallet/"), 401)
