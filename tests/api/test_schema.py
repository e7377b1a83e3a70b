"""The OpenAPI schema is valid, and every documented operation answers as documented.

The walk calls each path and method of the schema as the right user with valid input (the
request body is itself checked against the schema first), then checks that the status code is
one the schema lists and that the body matches the documented schema exactly: every required
property present, no property the schema does not name, each of the documented type.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from jsonschema import Draft202012Validator
from rest_framework.authtoken.models import Token

from backoffice.models import ReversalRequest
from backoffice.reports import REPORTS
from games.models import Deal, Table
from tests.api.support import _fast_passwords, _fresh_throttles, client_for  # noqa: F401
from tests.backoffice.support import DAY1, DAY3, play_a_deal, seed, template
from tests.conftest import make_user, off_site
from tournaments import services as tournament_services
from wallet.cashier import topup_chips
from wallet.models import Journal, JournalKind, Withdrawal
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db


def openapi_schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-any-return]


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0 schema -> JSON Schema: ``nullable`` becomes a null alternative and objects
    with named properties admit no others (a response field the schema does not name fails)."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: json_schema(value) for key, value in node.items() if key not in ("readOnly", "writeOnly")}
    if node.get("type") == "object" and "properties" in node and "additionalProperties" not in node:
        node["additionalProperties"] = False
    if node.pop("nullable", False):
        return {"anyOf": [node, {"type": "null"}]}
    return node


def validator(schema: dict[str, Any], part: dict[str, Any]) -> Draft202012Validator:
    root = {"components": json_schema(schema["components"]), "allOf": [json_schema(part)]}
    return Draft202012Validator(root)


def test_the_schema_is_a_valid_openapi_document():
    schema = openapi_schema()
    validate_schema(schema)  # raises on any violation of the OpenAPI 3 meta-schema
    assert schema["openapi"].startswith("3.")
    assert all(path.startswith("/api/") for path in schema["paths"])


def test_the_schema_is_served_and_the_docs_page_lists_every_endpoint(client):
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    served = response.json()
    assert served["paths"].keys() == openapi_schema()["paths"].keys()
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    for path in served["paths"]:
        assert path in html
    assert off_site(html) == []
    assert "<script" not in html.lower()


def _scenario(monkeypatch: Any) -> dict[str, Any]:
    data = seed(monkeypatch)
    users, sam = data.users, data.sam
    game = play_a_deal(users["alice"], users["bob"])
    walk_template = template("walk 101", "pool101", entry_fee=2500, seats=3)
    cup = tournament_services.create(
        name="Walk cup",
        buy_in=10_00,
        min_players=2,
        max_players=6,
        table_size=3,
        qualify=1,
        bots_allowed=True,
    )
    for name in ("alice", "carol"):
        topup_chips(users[name])
    return {"data": data, "users": users, "sam": sam, "game": game, "walk": walk_template, "cup": cup}


def _calls(ctx: dict[str, Any]) -> list[tuple[str, Any, dict[str, Any], dict[str, Any], Any, int]]:
    """(operation id, user, path parameters, query, body, expected status), in the order they run."""
    users, sam, game, data = ctx["users"], ctx["sam"], ctx["game"], ctx["data"]
    alice, carol, dave = users["alice"], users["carol"], users["dave"]
    deal = Deal.objects.get(table=game, number=1)
    # Pool money cannot be reversed (R-MONEY-5); a deposit can (a chargeback).
    split = Journal.objects.filter(kind=JournalKind.DEPOSIT).first()

    def walk_table() -> int:
        return Table.objects.filter(template=ctx["walk"]).latest("id").pk

    def latest_withdrawal() -> int:
        return Withdrawal.objects.filter(user=alice, status="requested").latest("id").pk

    def asked_by(member: Any) -> Any:
        """A reversal request of the deposit, asked by ``member``, for sam to close."""

        def ask() -> int:
            return ReversalRequest.objects.create(
                journal=split, requested_by=member, reason="a chargeback?"
            ).pk

        return ask

    rita = make_user("rita", staff=True, role="risk")
    period = {"start": DAY1.isoformat(), "end": DAY3.isoformat(), "currency": "INR"}
    return [
        (
            "auth_signup",
            None,
            {},
            {},
            {
                "username": "newcomer",
                "password": "green-felt-table-42",
                "date_of_birth": "1990-05-17",
                "region": "IN-KA",
            },
            201,
        ),
        ("auth_token_create", None, {}, {}, {"username": "alice", "password": "rummy-alice-demo"}, 200),
        ("auth_token_delete", alice, {}, {}, None, 204),
        ("lobby", alice, {}, {}, None, 200),
        ("table_play_now", carol, {"pk": ctx["walk"].pk}, {}, None, 200),
        ("table_join", dave, {"pk": walk_table}, {}, None, 200),
        ("table_leave", dave, {"pk": walk_table}, {}, None, 200),
        ("table_leave_after_deal", carol, {"pk": walk_table}, {}, None, 409),  # no deal yet
        ("table_stay", carol, {"pk": walk_table}, {}, None, 409),
        ("staff_table_cancel", sam, {"pk": walk_table}, {}, {"reason": "test table opened by mistake"}, 200),
        ("table_open_private", carol, {"pk": ctx["walk"].pk}, {}, None, 201),
        ("tournament_list", alice, {}, {}, None, 200),
        ("tournament_register", carol, {"pk": ctx["cup"].pk}, {}, None, 201),
        ("tournament_register", alice, {"pk": ctx["cup"].pk}, {}, None, 201),
        ("tournament_unregister", carol, {"pk": ctx["cup"].pk}, {}, None, 200),
        ("tournament_view", alice, {"pk": ctx["cup"].pk}, {}, None, 200),
        ("table_view", alice, {"pk": game.pk}, {}, None, 200),
        ("table_events", alice, {"pk": game.pk}, {"after": "0"}, None, 200),
        ("wallet_balance", alice, {}, {}, None, 200),
        ("wallet_statement", alice, {}, {"currency": "INR", "limit": "50"}, None, 200),
        ("deposit_list", alice, {}, {}, None, 200),
        ("deposit_create", alice, {}, {}, {"amount": 5000}, 201),
        ("withdrawal_list", alice, {}, {}, None, 200),
        ("withdrawal_create", alice, {}, {}, {"amount": 10000, "request_key": "walk-1"}, 201),
        ("chips_topup", alice, {}, {}, None, 200),
        ("protection_get", alice, {}, {}, None, 200),
        ("protection_limit", alice, {}, {}, {"kind": "deposit_day", "amount": 500000}, 200),
        ("protection_identity", carol, {}, {}, {"document_type": "pan", "number": "ABCDE1234F"}, 409),
        ("history_list", alice, {}, {}, None, 200),
        ("history_deal", alice, {"pk": deal.pk}, {}, None, 200),
        ("protection_break", users["bob"], {}, {}, {"choice": "break_1d"}, 200),
        *[("staff_report", sam, {"report": slug}, period, None, 200) for slug in REPORTS],
        ("staff_withdrawal_list", sam, {}, {"status": "requested"}, None, 200),
        (
            "staff_withdrawal_approve",
            sam,
            {"pk": data.withdrawals["carol"].pk},
            {},
            {"reason": "checked"},
            200,
        ),
        ("staff_withdrawal_reject", sam, {"pk": latest_withdrawal}, {}, {"reason": "duplicate request"}, 200),
        ("staff_user_wallet", sam, {"pk": alice.pk}, {"currency": "INR"}, None, 200),
        ("staff_journal", sam, {"pk": data.prize_journal.pk}, {}, None, 200),
        ("staff_reversal_withdraw", sam, {"pk": asked_by(sam)}, {}, {"reason": "asked by mistake"}, 200),
        ("staff_reversal_decline", sam, {"pk": asked_by(rita)}, {}, {"reason": "the charge stands"}, 200),
        (
            "staff_journal_reverse",
            sam,
            {"pk": split.pk},
            {},
            {"reason": "the bank charged the deposit back"},
            201,
        ),
    ]


def test_every_documented_operation_answers_as_documented(monkeypatch):
    schema = openapi_schema()
    operations = {
        op["operationId"]: (path, method, op)
        for path, methods in schema["paths"].items()
        for method, op in methods.items()
        if method in ("get", "post", "put", "patch", "delete")
    }
    ctx = _scenario(monkeypatch)
    calls = _calls(ctx)
    assert {call[0] for call in calls} == set(operations), "every operation is walked, and only those"
    for operation_id, user, params, query, body, expected in calls:
        path, method, op = operations[operation_id]
        placeholders = re.findall(r"\{(\w+)\}", path)
        assert len(placeholders) == len(params), f"{operation_id}: path parameters {placeholders}"
        for name, value in zip(placeholders, params.values(), strict=True):
            path = path.replace("{" + name + "}", str(value() if callable(value) else value))
        documented = {p["name"] for p in op.get("parameters", []) if p["in"] == "query"}
        assert set(query) <= documented, f"{operation_id}: undocumented query {set(query) - documented}"
        if body is not None:
            content = op["requestBody"]["content"]["application/json"]["schema"]
            validator(schema, content).validate(body)
        client = client_for(user)
        call = getattr(client, method)
        if method == "get":
            response = call(path, query)
        else:
            response = call(
                path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""),
                body,
                format="json",
            )
        assert response.status_code == expected, (operation_id, response.status_code, response.content[:400])
        assert str(expected) in op["responses"], f"{operation_id} answers {expected}, which is not documented"
        documented_response = op["responses"][str(expected)]
        if expected == 204:
            assert not response.content
            assert not Token.objects.filter(user=user).exists(), "the token is forgotten"
            continue
        content_schema = documented_response["content"]["application/json"]["schema"]
        errors = sorted(validator(schema, content_schema).iter_errors(response.json()), key=str)
        assert not errors, f"{operation_id}: {errors[0].message} at {list(errors[0].absolute_path)}"
    # The walk left the ledger whole: the reversal and every payment balance out.
    assert reconcile() == []
    assert Table.objects.filter(template=ctx["walk"], private=False).get().status == "cancelled"


def test_the_error_responses_match_the_documented_error_schema(monkeypatch):
    schema = openapi_schema()
    ctx = _scenario(monkeypatch)
    alice = ctx["users"]["alice"]
    error_schema = copy.deepcopy({"$ref": "#/components/schemas/Error"})
    check = validator(schema, error_schema)
    for response in (
        client_for(None).get("/api/wallet/"),  # 401
        client_for(alice).get("/api/staff/reports/rake/"),  # 403
        client_for(alice).get("/api/tables/999999/"),  # 404
        client_for(alice).post("/api/wallet/deposits/", {"amount": 12.5}, format="json"),  # 400
        client_for(alice).post(
            "/api/wallet/withdrawals/", {"amount": 10_000_000}, format="json"
        ),  # 400 limit
        client_for(alice).delete("/api/wallet/"),  # 405
    ):
        assert response.status_code in (400, 401, 403, 404, 405), response.status_code
        errors = list(check.iter_errors(response.json()))
        assert not errors, (response.status_code, response.json(), errors[0].message)


def test_the_response_check_catches_an_undocumented_or_missing_field():
    schema = openapi_schema()
    check = validator(schema, {"$ref": "#/components/schemas/Wallet"})
    good = {
        "user": 1,
        "username": "alice",
        "balances": [{"currency": "INR", "balance": 5, "withdrawals_held": 0}],
    }
    assert not list(check.iter_errors(good))
    assert list(check.iter_errors({**good, "password": "x"})), "an extra field must fail"
    assert list(check.iter_errors({"user": 1, "username": "alice"})), "a missing field must fail"
    assert list(check.iter_errors({**good, "user": "1"})), "a field of the wrong type must fail"


def test_points_and_deals_tables_and_a_four_format_lobby_answer_as_documented(
    alice, bob, monkeypatch, settings
):
    """The table view of a 13-card points table and of a deals table, in a deal and between
    deals (seat holds, game chips, the number of deals, the tie-break list, the result's money
    and chips lines), and a lobby of every format, each match the schema exactly."""
    from games.models import TableTemplate
    from tests.tables.support import Clock, in_turn_order, play_deal, scripted, seat_all

    scripted(monkeypatch, settings)
    schema = openapi_schema()
    table_schema = validator(schema, {"$ref": "#/components/schemas/TableView"})
    lobby_schema = validator(
        schema, {"type": "array", "items": {"$ref": "#/components/schemas/LobbyTemplate"}}
    )
    clock = Clock()
    users = [alice, bob]
    points = seat_all(
        TableTemplate.objects.create(
            name="Points", variant="points13", currency="INR", seats=2, point_value=50
        ),
        users,
        clock,
    )
    deals = seat_all(
        TableTemplate.objects.create(
            name="Deals", variant="deals", currency="INR", seats=2, entry_fee=2500, deals=2
        ),
        users,
        clock,
    )
    TableTemplate.objects.create(name="Pool", variant="pool61", currency="INR", seats=3, entry_fee=1000)
    TableTemplate.objects.create(name="21", variant="points21", currency="CHIPS", seats=3, point_value=10)
    seen = {}
    for table in (points, deals):
        for moment in ("in a deal", "between deals"):
            if moment == "between deals":
                first, _second = in_turn_order(table, users)
                play_deal(table, users, {first: "drop"}, clock)
            view = client_for(alice).get(f"/api/tables/{table.pk}/").json()
            errors = sorted(table_schema.iter_errors(view), key=str)
            assert not errors, (
                f"{table.template.variant} {moment}: {errors[0].message} at {list(errors[0].absolute_path)}"
            )
            seen[(table.template.variant, moment)] = view
    assert seen[("points13", "in a deal")]["players"][0]["held"] == 80 * 50
    assert seen[("deals", "in a deal")]["players"][0]["chips"] == 160
    assert seen[("deals", "in a deal")]["deals"] == 2
    assert "money_line" in seen[("points13", "between deals")]["last_result"]["players"][0]
    assert "chips_line" in seen[("deals", "between deals")]["last_result"]["players"][0]
    lobby = client_for(alice).get("/api/lobby/").json()
    errors = sorted(lobby_schema.iter_errors(lobby), key=str)
    assert not errors, f"lobby: {errors[0].message} at {list(errors[0].absolute_path)}"
    assert [row["format"] for row in lobby] == ["points", "pool", "deals", "points21"]
