"""Bad input: one strict rupee parser for forms, API amounts only JSON integers
in range, NaN/Infinity/oversized/deeply nested bodies refused before parsing, invisible
reasons refused, bad JSON to every API endpoint never a 500 nor a balance change
(Hypothesis), CSV text cells escaped against formulas."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.urls import URLPattern, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.text import csv_cell
from api import urls as api_urls
from games.models import Deal, Table
from tests.api.support import _fast_passwords, _fresh_throttles, client_for  # noqa: F401
from tests.backoffice.support import DAY1, DAY3, play_a_deal, seed
from wallet import cashier
from wallet.amounts import AmountError, paise_from_rupees
from wallet.models import Account, Deposit, Journal, Withdrawal

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "paise"),
    [("250", 25000), ("99.50", 9950), (" 7 ", 700), ("0.01", 1), ("100000", 10000000)],
)
def test_rupee_parser_reads_digits_and_two_decimals(typed, paise):
    assert paise_from_rupees(typed) == paise


@pytest.mark.parametrize(
    "typed",
    [
        "100,00",
        "1,000",
        "99.5",
        "99.505",
        "-5",
        "+5",
        "1e3",
        "₹250",
        "¹²³",
        "１２３",
        "٣",
        "0",
        "0.00",
        "",
        " ",
        "NaN",
    ],
)
def test_rupee_parser_refuses_anything_else(typed):
    with pytest.raises(AmountError):
        paise_from_rupees(typed)


def test_rupee_parser_is_the_one_the_wallet_forms_use(alice, client):
    client.force_login(alice)
    response = client.post("/wallet/deposit/", {"amount": "100,00"})
    assert response.status_code == 400
    assert "no commas" in response.content.decode()
    assert not Deposit.objects.exists()


@pytest.mark.parametrize(
    "amount", ["2500", 2500.0, 2500.5, True, None, [2500], {"v": 2500}, 0, -1, 10**30, "２５００"]
)
def test_api_amounts_are_only_json_integers_in_range(alice, amount):
    response = client_for(alice).post("/api/wallet/deposits/", {"amount": amount}, format="json")
    assert response.status_code == 400, (amount, response.content)
    assert response.json()["error"] == "invalid"
    assert not Deposit.objects.exists()


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ('{"amount": NaN}', 400),
        ('{"amount": Infinity}', 400),
        ('{"amount": -Infinity}', 400),
        ('{"amount": ¹²³}', 400),
        ("[" * 5000 + "]" * 5000, 400),
        ('{"a":' * 50 + "1" + "}" * 50, 400),
        ('{"amount": 5000, "pad": "' + "x" * (5 * 1024 * 1024) + '"}', 413),
    ],
)
def test_nan_infinity_oversized_and_deep_bodies_are_refused_before_parsing(alice, body, status):
    for path in ("/api/wallet/deposits/", "/api/wallet/withdrawals/"):
        response = client_for(alice).generic("POST", path, body.encode(), content_type="application/json")
        assert response.status_code == status, (path, response.status_code, response.content[:200])
        assert response.json()["error"] in ("parse_error", "too_large")
    assert not Deposit.objects.exists()
    assert not Withdrawal.objects.exists()


@pytest.mark.parametrize("reason", ["", "   ", "\u200b", "\u200b\u200c\u200d\ufeff", "\u2060 \u00ad", "\t\n"])
def test_empty_or_invisible_reasons_are_refused(alice, sam, reason):
    cashier.create_deposit(alice, 50000)
    withdrawal = cashier.request_withdrawal(alice, 20000)
    response = client_for(sam).post(
        f"/api/staff/withdrawals/{withdrawal.pk}/reject/", {"reason": reason}, format="json"
    )
    assert response.status_code == 400, response.content
    withdrawal.refresh_from_db()
    assert withdrawal.status == Withdrawal.Status.REQUESTED
    from backoffice.forms import ReasonForm

    assert not ReasonForm({"reason": reason}).is_valid()


def test_csv_text_cells_are_escaped_and_numbers_left_alone(monkeypatch, client):
    seeded = seed(monkeypatch)
    template = seeded.templates["101"]
    template.name = '=HYPERLINK("http://evil","x")'
    template.save(update_fields=["name"])
    client.force_login(seeded.sam)
    response = client.get(
        "/backoffice/reports/rake/", {"format": "csv", "start": DAY1.isoformat(), "end": DAY3.isoformat()}
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    cells = [cell for row in rows for cell in row]
    assert "'" + template.name in cells
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
    negatives = [cell for cell in cells if re.fullmatch(r"-\d+", cell)]
    assert negatives, "the reversal's negative rake stays a number"
    assert [csv_cell(v) for v in ("-cmd", "+1", "@SUM", "\tx", "\rx", "plain", -500, 3)] == [
        "'-cmd",
        "'+1",
        "'@SUM",
        "'\tx",
        "'\rx",
        "plain",
        -500,
        3,
    ]


# --- every endpoint, generated bad JSON -----------------------------------------------------

INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff \t"

#: Bodies no endpoint may parse: refused before any view code runs.
UNPARSABLE = st.one_of(
    st.sampled_from(
        [
            b'{"amount": NaN}',
            b'{"amount": Infinity}',
            b'{"reason": -Infinity}',
            b'{"amount": \xc2\xb9\xc2\xb2\xc2\xb3}',
            b"\xff\xfe\x00garbage",
            b"[" * 3000,
            b'{"x":' * 30 + b"1" + b"}" * 30,
            b"{" + b'"k": "' + b"y" * 70_000 + b'"}',
        ]
    ),
    st.binary(min_size=1, max_size=64).filter(lambda raw: not _parses(raw)),
)

#: Well-formed JSON with a field that is wrong: amounts not integers or out of range,
#: invisible reasons, credentials that are not strings.
NOT_AN_AMOUNT = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=3),
    st.integers(max_value=0),
    st.integers(min_value=10**12 + 1),
)
BAD_FIELDS = st.one_of(
    st.fixed_dictionaries({"amount": NOT_AN_AMOUNT}),
    st.fixed_dictionaries({"amount": NOT_AN_AMOUNT, "request_key": st.text(max_size=8)}),
    st.fixed_dictionaries(
        {"reason": st.one_of(st.text(alphabet=INVISIBLE, max_size=6), st.integers(), st.none())}
    ),
    st.fixed_dictionaries(
        {
            "username": st.one_of(st.integers(), st.lists(st.text(max_size=3), max_size=2)),
            "password": st.none(),
        }
    ),
)


def _parses(raw: bytes) -> bool:
    try:
        json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return False
    return True


def _ledger() -> tuple[object, ...]:
    return (
        tuple(Account.objects.order_by("id").values_list("id", "balance", "version")),
        Journal.objects.count(),
        Deposit.objects.count(),
        tuple(Withdrawal.objects.order_by("id").values_list("id", "status")),
        tuple(Table.objects.order_by("id").values_list("id", "version", "status")),
    )


@pytest.fixture
def world(monkeypatch):
    seeded = seed(monkeypatch)
    table = play_a_deal(seeded.users["alice"], seeded.users["bob"])
    ids = {
        "table": table.pk,
        "deal": Deal.objects.filter(table=table).first().pk,
        "withdrawal": seeded.withdrawals["carol"].pk,
        "journal": Journal.objects.order_by("id").first().pk,
        "user": seeded.users["alice"].pk,
        "template": seeded.templates["101"].pk,
    }
    return seeded, ids


PK_OF = {
    "play-now": "template",
    "deal": "deal",
    "approve": "withdrawal",
    "reject": "withdrawal",
    "user-wallet": "user",
    "journal": "journal",
    "reverse": "journal",
}


def api_paths(ids: dict[str, int]) -> list[str]:
    paths = []
    for pattern in api_urls.urlpatterns:
        if not isinstance(pattern, URLPattern) or pattern.name in ("schema", "docs", "not-found"):
            continue
        kwargs = {}
        if "<int:pk>" in str(pattern.pattern):
            kwargs["pk"] = ids[PK_OF.get(pattern.name, "table")]
        if "<str:report>" in str(pattern.pattern):
            kwargs["report"] = "rake"
        paths.append(reverse(f"api:{pattern.name}", kwargs=kwargs))
    return paths


def test_every_api_endpoint_is_walked(world):
    paths = api_paths(world[1])
    assert len(paths) >= 20
    assert "/api/wallet/deposits/" in paths
    assert f"/api/staff/journals/{world[1]['journal']}/reverse/" in paths


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=UNPARSABLE, as_staff=st.booleans(), method=st.sampled_from(["POST", "PUT", "PATCH", "DELETE"]))
def test_bad_json_to_every_api_endpoint_is_never_a_500_and_moves_no_money(world, body, as_staff, method):
    seeded, ids = world
    client = client_for(seeded.sam if as_staff else seeded.users["alice"])
    before = _ledger()
    for path in api_paths(ids):
        response = client.generic(method, path, body, content_type="application/json")
        assert response.status_code < 500, (method, path, body[:60], response.content[:200])
        if response.status_code != 405:
            assert response.status_code in (400, 401, 403, 404, 413, 429), (
                method,
                path,
                response.status_code,
            )
    assert _ledger() == before


BODY_ENDPOINTS = [
    "/api/auth/token/",
    "/api/wallet/deposits/",
    "/api/wallet/withdrawals/",
    "/api/staff/withdrawals/{withdrawal}/approve/",
    "/api/staff/withdrawals/{withdrawal}/reject/",
    "/api/staff/journals/{journal}/reverse/",
    "/api/staff/tables/{table}/cancel/",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=BAD_FIELDS, as_staff=st.booleans())
def test_wrong_fields_to_every_api_endpoint_with_a_body_are_a_400_and_move_no_money(world, payload, as_staff):
    seeded, ids = world
    client = client_for(seeded.sam if as_staff else seeded.users["alice"])
    before = _ledger()
    for template in BODY_ENDPOINTS:
        path = template.format(**ids)
        response = client.post(path, payload, format="json")
        assert response.status_code < 500, (path, payload, response.content[:200])
        assert response.status_code in (400, 401, 403, 404, 409, 429), (path, payload, response.status_code)
    assert _ledger() == before


def test_a_zero_amount_is_refused_without_a_limit_that_contradicts_the_cashiers():
    """The cashier names its own limits ("The largest deposit is ₹1,00,000.00."); the parser's
    bound is far above them and must not name a different largest amount."""
    with pytest.raises(AmountError) as zero:
        paise_from_rupees("0")
    assert str(zero.value) == "Enter an amount above zero."
    with pytest.raises(AmountError) as huge:
        paise_from_rupees("999999999.99")
    assert "₹" not in str(huge.value)
    assert str(huge.value).endswith("enter a smaller amount.")


def test_the_bad_amount_sweep_covers_every_request_that_takes_an_amount():
    """tests/live/test_api_over_daphne.py sends the one bad-amount set to every endpoint that
    takes an amount: a new one in the schema must join that list."""
    from drf_spectacular.generators import SchemaGenerator

    from tests.live.test_api_over_daphne import AMOUNT_ENDPOINTS

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    taking = set()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            ref = body.get("schema", {}).get("$ref", "")
            properties = components.get(ref.rsplit("/", 1)[-1], {}).get("properties", {})
            if "amount" in properties and method == "post":
                taking.add(path)
    assert taking == {path for path, _ in AMOUNT_ENDPOINTS}
