"""The lobby: one builder (games.lobby.lobby) answers the page, its live refresh and the API:
four formats in the order of the tabs, money apart from practice, stakes low to high, the
players at each stake, and a bounded number of queries whatever the number of templates."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import lobby as games_lobby
from games import services
from games.bots import fill_with_bots
from games.lobby import lobby, rows, stake_words, who_words
from games.models import TableTemplate
from tests.api.support import client_for
from tests.wallet.support import fund
from wallet.cashier import topup_chips

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.GAME_TIMERS = "off"
    settings.MONEY_PLAY = True
    settings.MONEY_REGIONS = []


def offer(name: str, variant: str, currency: str = "INR", **fields) -> TableTemplate:
    values = {"name": name, "variant": variant, "currency": currency, "seats": fields.pop("seats", 6)}
    if variant in ("points13", "points21"):
        values["point_value"] = fields.pop("point_value", 100)
    else:
        values["entry_fee"] = fields.pop("entry_fee", 2500)
    if variant == "deals":
        values["deals"] = fields.pop("deals", 2)
    return TableTemplate.objects.create(**values, **fields)


def the_four_formats() -> None:
    offer("Points ₹5", "points13", point_value=500)
    offer("Points ₹0.10", "points13", point_value=10)
    offer("Points ₹1", "points13", point_value=100, seats=2)
    offer("101 pool ₹25", "pool101", entry_fee=2500)
    offer("61 pool ₹10", "pool61", entry_fee=1000, seats=3)
    offer("Deals best of 3 ₹50", "deals", entry_fee=5000, deals=3)
    offer("Deals best of 2 ₹25", "deals", entry_fee=2500)
    offer("21-card ₹0.50", "points21", point_value=50)
    offer("Practice points vs a bot", "points13", "CHIPS", point_value=10, seats=2, bots_allowed=True)
    offer("Practice deals vs a bot", "deals", "CHIPS", entry_fee=1000, bots_allowed=True)


def names(section: dict, kind: str) -> list[str]:
    return [row["name"] for row in section[kind]]


def test_the_lobby_has_four_formats_money_apart_from_practice_and_stakes_low_to_high(alice):
    the_four_formats()
    answer = lobby(alice)
    points, pool, deals, cards21 = answer["formats"]
    assert [s["format"] for s in answer["formats"]] == ["points", "pool", "deals", "points21"]
    assert [s["name"] for s in answer["formats"]] == ["Points", "Pool", "Deals", "21 Cards"]
    assert names(points, "money") == ["Points ₹0.10", "Points ₹1", "Points ₹5"]
    assert names(points, "practice") == ["Practice points vs a bot"]
    assert names(pool, "money") == ["61 pool ₹10", "101 pool ₹25"]
    assert pool["practice"] == []
    assert names(deals, "money") == ["Deals best of 2 ₹25", "Deals best of 3 ₹50"]
    assert names(deals, "practice") == ["Practice deals vs a bot"]
    assert names(cards21, "money") == ["21-card ₹0.50"]
    assert [row["stake_words"] for row in points["money"]] == [
        "₹0.10 a point",
        "₹1.00 a point",
        "₹5.00 a point",
    ]
    assert [row["stake_words"] for row in deals["money"]] == [
        "₹25.00 entry · best of 2",
        "₹50.00 entry · best of 3",
    ]
    assert points["practice"][0]["stake_words"] == "0.10 chips a point", "practice chips are never ₹"
    assert pool["money"][0]["variant_words"] == "61 Pool"
    assert answer["money_refusal"] is None
    assert [row["name"] for row in rows(answer)][:4] == [
        "Points ₹0.10",
        "Points ₹1",
        "Points ₹5",
        "Practice points vs a bot",
    ]


def test_each_stake_says_who_is_playing_and_who_is_waiting_and_a_private_table_is_not_counted(
    alice, bob, carol
):
    points = offer("Points ₹1", "points13", point_value=100, seats=2)
    pool = offer("101 pool ₹25", "pool101", seats=3)
    for user in (alice, bob, carol):
        fund(user, 1_000_000)
    services.play_now(alice, points)
    services.play_now(bob, points)  # two of two: the game starts
    services.play_now(carol, pool)  # one of three: waiting
    services.open_private(bob, pool)
    answer = lobby(alice)
    by_name = {row["name"]: row for row in rows(answer)}
    assert (by_name["Points ₹1"]["playing"], by_name["Points ₹1"]["waiting"]) == (2, 0)
    assert by_name["Points ₹1"]["who_words"] == "2 playing"
    assert (by_name["101 pool ₹25"]["playing"], by_name["101 pool ₹25"]["waiting"]) == (0, 1)
    assert by_name["101 pool ₹25"]["who_words"] == "1 waiting"
    assert [s["playing"] for s in answer["formats"]] == [2, 1, 0, 0]
    assert [(t["name"], t["status_words"]) for t in answer["mine"]] == [("Points ₹1", "Playing")]
    assert who_words(0, 0) == "Nobody seated yet"
    assert who_words(4, 1) == "4 playing · 1 waiting"


def test_a_process_counts_the_players_at_each_stake_once_a_second_and_a_players_own_tables_always(
    alice, bob, carol, settings, monkeypatch
):
    """Every open lobby page asks again every 5 seconds: a process reuses its counts for
    ``LOBBY_COUNTS_MS``, then counts again; a player's own tables are never kept."""
    settings.LOBBY_COUNTS_MS = 1000
    clock = [1_000.0]
    monkeypatch.setattr(games_lobby.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(games_lobby, "_counted", (float("-inf"), ()))
    pool = offer("101 pool ₹25", "pool101", seats=3)
    for user in (alice, bob, carol):
        fund(user, 1_000_000)

    def pool_row(user) -> dict:
        with CaptureQueriesContext(connection) as taken:
            answer = lobby(user)
        (row,) = [row for row in rows(answer) if row["name"] == "101 pool ₹25"]
        return {"who": row["who_words"], "mine": [t["name"] for t in answer["mine"]], "queries": len(taken)}

    first = pool_row(alice)
    assert first["who"] == "Nobody seated yet"
    services.play_now(carol, pool)
    clock[0] += 0.999
    kept = pool_row(carol)
    assert kept["who"] == "Nobody seated yet", "within the second: the counts already read"
    assert kept["mine"] == ["101 pool ₹25"], "a player's own tables are read afresh"
    assert kept["queries"] == first["queries"] - 1, "the templates' query is the one left out"
    services.play_now(bob, pool)
    clock[0] += 0.001
    fresh = pool_row(alice)
    assert fresh["who"] == "2 waiting", "a second after the last count: counted again"
    assert fresh["queries"] == first["queries"]


def test_a_lobby_costs_the_same_few_queries_whatever_the_number_of_templates_and_tables(
    alice, bob, django_assert_max_num_queries
):
    """The page and its refresh: the templates with their players (one query), the player's
    tables, the money-play check; the API adds the joinable tables, in one more query."""
    offer("Points ₹1", "points13", point_value=100, seats=2)
    topup_chips(bob)
    bot_table = offer(
        "Practice points vs a bot", "points13", "CHIPS", point_value=10, seats=2, bots_allowed=True
    )
    fill_with_bots(services.play_now(bob, bot_table))

    def queries(**options) -> int:
        with CaptureQueriesContext(connection) as taken:
            lobby(alice, **options)
        return len(taken)

    few, few_api = queries(), queries(open_tables=True)
    the_four_formats()
    for n in range(3):
        services.open_table(offer(f"Pool {n}", "pool201", entry_fee=1000 * (n + 1)))
    assert (queries(), queries(open_tables=True)) == (few, few_api)
    # The money-play check's five reads (protection's three and fair play's two of linked
    # self-exclusions), each logged as a query (on PostgreSQL they go in one round trip:
    # hotpath.statements).
    check = 5
    with django_assert_max_num_queries(2 + check):
        lobby(alice)
    with django_assert_max_num_queries(3 + check):
        answer = lobby(alice, open_tables=True)
    assert sum(len(row["open_tables"]) for row in rows(answer)) == 4  # bob's and three new pools


def test_where_money_play_is_off_the_lobby_offers_practice_only_and_says_why__R_PROT_1(
    alice, client, settings
):
    the_four_formats()
    settings.MONEY_PLAY = False
    answer = lobby(alice)
    assert answer["money_refusal"]["code"] == "money_play_off"
    assert all(section["money"] == [] for section in answer["formats"])
    assert [row["name"] for row in rows(answer)] == ["Practice points vs a bot", "Practice deals vs a bot"]
    client.force_login(alice)
    page = client.get(reverse("games:lobby")).content.decode()
    assert answer["money_refusal"]["message"] in page
    assert "For money" not in page
    assert "Points ₹5" not in page
    assert 'aria-label="Play now: Practice deals vs a bot"' in page
    api = client_for(alice).get("/api/lobby/").json()
    assert [row["name"] for row in api] == ["Practice points vs a bot", "Practice deals vs a bot"]


def test_the_page_has_a_tab_per_format_and_play_now_on_every_stake_and_its_live_json_is_the_builders(
    alice, client
):
    the_four_formats()
    client.force_login(alice)
    response = client.get(reverse("games:lobby"))
    page = response.content.decode()
    for code, name in (("points", "Points"), ("pool", "Pool"), ("deals", "Deals"), ("points21", "21 Cards")):
        assert f'id="tab-{code}" aria-controls="format-{code}"' in page
        assert f'id="format-{code}" class="format" role="tabpanel"' in page
        assert f'>{name} <span class="count"' in page
    for template in TableTemplate.objects.all():
        assert f'aria-label="Play now: {template.name}"' in page
        play = reverse("games:play_now", args=[template.pk])
        private = reverse("games:open_private", args=[template.pk])
        assert f'<form method="post" action="{play}" class="play">' in page
        assert f'<form method="post" action="{private}" class="private">' in page
    assert page.index("₹0.10 a point") < page.index("₹1.00 a point") < page.index("₹5.00 a point")
    assert '<script type="module" src="/static/lobby/main.js">' in page
    live = client.get(reverse("games:lobby_live"))
    assert live.status_code == 200
    assert live.json() == lobby(alice)
    client.logout()
    assert client.get(reverse("games:lobby_live")).status_code == 302


def test_the_api_lobby_is_the_pages_rows_with_their_open_tables(alice, bob):
    the_four_formats()
    fund(bob, 1_000_000)
    waiting = services.play_now(bob, TableTemplate.objects.get(name="101 pool ₹25"))
    api = client_for(alice).get("/api/lobby/").json()
    assert [row["name"] for row in api] == [row["name"] for row in rows(lobby(alice))]
    pool = next(row for row in api if row["name"] == "101 pool ₹25")
    assert pool["format"] == "pool"
    assert pool["stake"] == 2500
    assert pool["stake_words"] == "₹25.00 entry"
    assert (pool["playing"], pool["waiting"], pool["who_words"]) == (0, 1, "1 waiting")
    assert pool["open_tables"] == [{"id": waiting.pk, "status": "waiting", "seats_taken": 1}]


def test_stake_words_name_the_point_value_or_the_entry_fee_and_the_deals():
    assert stake_words(TableTemplate(variant="points13", currency="INR", point_value=100)) == "₹1.00 a point"
    assert (
        stake_words(TableTemplate(variant="points21", currency="CHIPS", point_value=10))
        == "0.10 chips a point"
    )
    assert stake_words(TableTemplate(variant="pool61", currency="INR", entry_fee=1000)) == "₹10.00 entry"
    assert stake_words(TableTemplate(variant="deals", currency="CHIPS", entry_fee=1000, deals=6)) == (
        "10 chips entry · best of 6"
    )
