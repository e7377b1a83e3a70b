"""The player's pages through Django's test client: login required, the owner's view, nobody
else's data, and errors in plain words next to the action that caused them."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.urls import reverse

from games import services
from games.engine import table as engine
from games.models import Deal, Table, TableStatus, TableTemplate
from games.views import verified
from wallet.cashier import topup_chips
from wallet.ledger import balance_of, user_spec
from wallet.models import Currency

PAGES = [
    ("games:lobby", {}),
    ("games:history", {}),
    ("wallet:home", {}),
]


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.GAME_TIMERS = "off"


def chips_template(**fields):
    values = {
        "name": "101 pool chips",
        "variant": "pool101",
        "currency": "CHIPS",
        "seats": 2,
        "entry_fee": 1000,
    }
    values.update(fields)
    return TableTemplate.objects.create(**values)


def dropped_deal(alice, bob):
    """A two-player table whose first deal ended with the turn player's drop."""
    tmpl = chips_template()
    for user in (alice, bob):
        topup_chips(user)
        table = services.play_now(user, tmpl)
    state = engine.TableState.from_json(Table.objects.get(pk=table.pk).state)
    turn = state.deal.seats[state.deal.turn].player
    services.act(table.pk, alice if turn == str(alice.pk) else bob, {"type": "drop"})
    return table, Deal.objects.get(table=table, number=1)


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_pages_need_a_login(client, name, kwargs):
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


@pytest.mark.django_db
def test_table_arrange_and_deal_pages_need_a_login(client):
    for url in ("/games/tables/1/", "/games/tables/1/arrange/", "/games/history/deals/1/"):
        response = client.get(url)
        assert response.status_code == 302, url
    assert client.post("/games/play/1/").status_code == 302
    assert client.post("/wallet/deposit/", {"amount": "100"}).status_code == 302


def test_home_links_to_the_lobby(client, alice):
    client.force_login(alice)
    body = client.get("/").content.decode()
    assert reverse("games:lobby") in body


def test_home_promises_real_money_only_where_money_play_is_on(client, settings):
    settings.MONEY_PLAY = False
    off = client.get("/").content.decode()
    assert "with free practice chips" in off
    assert "real money" not in off
    settings.MONEY_PLAY = True
    assert "for real money and practice chips" in client.get("/").content.decode()


def test_lobby_lists_templates_in_rupees_and_practice(client, alice):
    TableTemplate.objects.create(
        name="Pool 101 cash", variant="pool101", currency="INR", seats=6, entry_fee=2500
    )
    chips_template(name="Practice vs bots", bots_allowed=True)
    client.force_login(alice)
    response = client.get(reverse("games:lobby"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "₹25.00 entry" in body
    assert "Practice vs bots" in body
    assert "with bots" in body
    assert 'aria-label="Play now: Pool 101 cash"' in body


def test_play_now_without_money_shows_the_error_next_to_the_button(client, alice):
    tmpl = TableTemplate.objects.create(
        name="Pool cash", variant="pool101", currency="INR", seats=2, entry_fee=2500
    )
    client.force_login(alice)
    response = client.post(reverse("games:play_now", args=[tmpl.pk]))
    assert response.status_code == 400
    body = response.content.decode()
    assert 'role="alert"' in body
    assert "balance" in body.lower()


def test_the_sandbox_money_tag_is_on_rupee_tables_only(client, alice, settings):
    """Sandbox payments concern rupees: a practice table plays for chips, never paid out anyway."""
    settings.PAYMENTS_SANDBOX = True
    rupees = TableTemplate.objects.create(
        name="Pool cash", variant="pool101", currency="INR", seats=2, entry_fee=2500
    )
    client.force_login(alice)
    for template, tagged in ((rupees, True), (chips_template(), False)):
        table = services.open_table(template)
        body = client.get(reverse("games:table", args=[table.pk])).content.decode()
        assert ('class="sandbox-tag"' in body) is tagged, template.currency
        assert ("Sandbox money" in body) is tagged, template.currency


def test_out_of_chips_is_told_in_chips_with_the_top_up_offered(client, alice):
    tmpl = chips_template(name="Practice pool", variant="pool61", bots_allowed=True)
    client.force_login(alice)  # alice never had chips (not signed up through the page)
    response = client.post(reverse("games:play_now", args=[tmpl.pk]))
    assert response.status_code == 400
    body = response.content.decode()
    assert "Top up my practice chips" in body
    assert reverse("wallet:topup") in body
    error = body.split('role="alert">', 1)[1].split("</p>", 1)[0]
    assert "chips" in error
    assert "₹" not in error


def test_play_now_on_a_practice_table_with_bots_starts_the_game(client, alice):
    tmpl = chips_template(name="Practice vs a bot", variant="pool61", bots_allowed=True)
    topup_chips(alice)
    client.force_login(alice)
    response = client.post(reverse("games:play_now", args=[tmpl.pk]))
    assert response.status_code == 302
    table = Table.objects.get(template=tmpl)
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert table.status == TableStatus.PLAYING
    assert table.seats.filter(user__is_bot=True).count() == 1
    page = client.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "table/main.js" in html
    # Nothing inline, so a strict Content-Security-Policy allows the page.
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert " style=" not in html
    assert "<style" not in html


def test_arrange_returns_the_solvers_grouping_or_an_error(client, alice, bob, carol):
    tmpl = chips_template()
    for user in (alice, bob):
        topup_chips(user)
        table = services.play_now(user, tmpl)
    client.force_login(alice)
    body = client.get(reverse("games:arrange", args=[table.pk])).json()
    assert sum(len(group) for group in body["groups"]) <= 14  # melds only; the rest stay loose
    assert isinstance(body["score"], int)
    client.force_login(carol)
    response = client.get(reverse("games:arrange", args=[table.pk]))
    assert response.status_code == 400
    assert response.json()["message"] == "you have no hand to arrange"


def test_history_and_deal_replay_for_the_owner_only(client, alice, bob, carol):
    table, deal = dropped_deal(alice, bob)
    client.force_login(alice)
    history = client.get(reverse("games:history")).content.decode()
    assert f"Table {table.pk}" in history
    page = client.get(reverse("games:deal", args=[deal.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert deal.seed in body
    assert deal.commitment in body
    assert "verified: sha256(seed) == commitment" in body
    # Players read words, never internal codes, in the history and the replay.
    for text in (history, body):
        visible = re.sub(r"<[^>]+>", " ", text)
        assert not re.search(
            r"\b(first_drop|middle_drop|lost_show|wrong_show|deal_show|deal_started)\b", visible
        )
    assert "First drop" in history or "<td>Won</td>" in history
    assert "The cards are dealt" in body
    client.force_login(carol)
    assert client.get(reverse("games:deal", args=[deal.pk])).status_code == 404
    assert f"Table {table.pk}" not in client.get(reverse("games:history")).content.decode()


def test_verified_checks_the_commitment():
    seed = bytes(range(32))
    assert verified(seed.hex(), hashlib.sha256(seed).hexdigest())
    assert not verified(seed.hex(), "0" * 64)
    assert not verified("not hex", "0" * 64)
    assert not verified("", hashlib.sha256(b"").hexdigest())


def test_wallet_deposit_withdraw_topup_and_statement(client, alice):
    client.force_login(alice)
    assert client.get(reverse("wallet:home")).status_code == 200
    response = client.post(reverse("wallet:deposit"), {"amount": "500"})
    assert response.status_code == 302
    assert balance_of(user_spec(alice.pk)) == 50000
    response = client.post(reverse("wallet:withdraw"), {"amount": "200"})
    assert response.status_code == 302
    assert balance_of(user_spec(alice.pk)) == 30000
    assert client.post(reverse("wallet:topup")).status_code == 302
    assert balance_of(user_spec(alice.pk, Currency.CHIPS)) > 0
    page = client.get(reverse("wallet:home"))
    chips = balance_of(user_spec(alice.pk, Currency.CHIPS))
    assert (page.context["inr"], page.context["held"], page.context["chips"]) == (30000, 20000, chips)
    body = page.content.decode()
    assert "₹500.00" in body  # the deposit
    assert "₹300.00" in body  # the running balance after the withdrawal
    assert "Withdrawal requested" in body
    assert "Free practice chips" in body


@pytest.mark.parametrize(
    ("url", "data", "words"),
    [
        ("wallet:deposit", {"amount": "lots"}, "Enter an amount in rupees"),
        ("wallet:deposit", {"amount": "1"}, "The smallest deposit"),
        ("wallet:withdraw", {"amount": "150"}, "balance"),
    ],
)
def test_wallet_errors_in_plain_words(client, alice, url, data, words):
    client.force_login(alice)
    response = client.post(reverse(url), data)
    assert response.status_code == 400
    assert words.lower() in response.content.decode().lower()


def test_second_chips_topup_says_why(client, alice):
    client.force_login(alice)
    client.post(reverse("wallet:topup"))
    response = client.post(reverse("wallet:topup"))
    assert response.status_code == 400
    assert "free top-up for today" in response.content.decode()


def test_another_users_wallet_is_not_shown(client, alice, bob):
    from django.test import Client

    other = Client()
    other.force_login(bob)
    other.post(reverse("wallet:deposit"), {"amount": "777"})
    client.force_login(alice)
    body = client.get(reverse("wallet:home")).content.decode()
    assert "₹777.00" not in body


def test_seed_tables_is_idempotent(db):
    from django.core.management import call_command

    call_command("seed_tables")
    count = TableTemplate.objects.count()
    call_command("seed_tables")
    assert TableTemplate.objects.count() == count
    assert TableTemplate.objects.filter(currency="CHIPS", bots_allowed=True).exists()


def test_an_empty_lobby_tells_staff_how_to_open_tables_and_players_to_come_back(client, alice, sam):
    TableTemplate.objects.all().delete()
    client.force_login(sam)
    staff_page = client.get(reverse("games:lobby")).content.decode()
    assert "No games are offered yet" in staff_page
    assert "python manage.py seed_tables" in staff_page
    assert reverse("admin:games_tabletemplate_add") in staff_page
    client.force_login(alice)
    player_page = client.get(reverse("games:lobby")).content.decode()
    assert "No games are offered yet" in player_page
    assert "seed_tables" not in player_page
    chips_template()
    assert "No games are offered yet" not in client.get(reverse("games:lobby")).content.decode()
