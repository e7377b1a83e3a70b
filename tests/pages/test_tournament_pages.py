"""The tournaments' pages: the lobby by section, a tournament's page (structure, prizes,
players, standings by round, the player's table), register and unregister with refusals in
plain words, the result, and the reminder banner before a start."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from tests.pages.test_csp import Inline
from tests.wallet.support import fund
from tournaments import services, simulate
from tournaments.models import Registration, RoundTable, Tournament
from wallet.cashier import topup_chips

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.GAME_TIMERS = "off"
    settings.MONEY_PLAY = True
    settings.MONEY_REGIONS = []


def practice(name: str = "Sunday sit and go", **fields) -> Tournament:
    values = {
        "name": name,
        "buy_in": 10_00,
        "min_players": 6,
        "max_players": 6,
        "table_size": 3,
        "qualify": 1,
        "prize_bps": (7_000, 3_000),
        "bots_allowed": True,
    }
    values.update(fields)
    return services.create(**values)


def client_of(client, user):
    client.force_login(user)
    return client


def test_it_lists_tournaments_by_section_with_buy_in_pool_players_and_start(client, alice):
    soon = timezone.now() + timedelta(hours=2)
    later = timezone.now() + timedelta(days=1)
    open_now = practice("Evening knock-out", start_at=soon, min_players=2, max_players=30)
    practice("Tomorrow's big one", start_at=later + timedelta(hours=1), registration_opens_at=later)
    topup_chips(alice)
    services.register(open_now.pk, alice)
    page = client_of(client, alice).get(reverse("tournaments:lobby")).content.decode()
    registering = page.index('id="registering-h"')
    upcoming = page.index('id="upcoming-h"')
    assert registering < page.index("Evening knock-out") < upcoming < page.index("Tomorrow&#x27;s big one")
    assert "Registered</span>" in page  # alice's entry stands out
    assert "10 chips" in page  # the buy-in, chips never shown as ₹
    assert f'<span data-players="{open_now.pk}">1</span> of 30' in page
    assert soon.astimezone(timezone.get_current_timezone()).strftime("%H:%M") in page


def test_the_main_lobby_and_the_nav_link_to_the_tournaments(client, alice):
    page = client_of(client, alice).get(reverse("games:lobby")).content.decode()
    assert page.count(f'href="{reverse("tournaments:lobby")}"') == 2


def test_a_tournament_page_shows_the_structure_prizes_and_players_and_registers(client, alice, bob):
    """R-TOUR-2: registering pays the buy-in; the page shows the player registered."""
    tournament = practice(bots_allowed=False)
    topup_chips(alice)
    topup_chips(bob)
    services.register(tournament.pk, bob)
    page_url = reverse("tournaments:tournament", args=[tournament.pk])
    before = client_of(client, alice).get(page_url).content.decode()
    assert "Deals rummy, 3 a table" in before
    assert "The best 1 by chips" in before
    assert '<td>#1</td><td class="num">70%</td><td class="num">7 chips</td>' in before  # 10 chips x 1
    assert "Bob" in before
    assert "Register · 10 chips" in before
    answer = client.post(reverse("tournaments:register", args=[tournament.pk]))
    assert answer.status_code == 302
    assert answer["Location"] == page_url
    assert Registration.objects.get(tournament=tournament, player=alice).status == "registered"
    after = client.get(page_url).content.decode()
    assert "You are registered." in after
    assert "Unregister" in after
    assert "<span data-count>2</span> of 6 players" in after
    assert _inline(after) == []  # nothing a strict CSP would block


def _inline(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.found


def test_unregister_gives_the_buy_in_back(client, alice):
    """R-TOUR-2: unregistering before the start refunds the buy-in in full."""
    tournament = practice()
    topup_chips(alice)
    services.register(tournament.pk, alice)
    answer = client_of(client, alice).post(reverse("tournaments:unregister", args=[tournament.pk]))
    assert answer.status_code == 302
    assert Registration.objects.get(tournament=tournament, player=alice).status == "unregistered"
    assert "Register · 10 chips" in client.get(answer["Location"]).content.decode()


def test_a_full_tournament_refuses_in_plain_words_and_changes_nothing(client, players):
    tournament = practice(min_players=2, max_players=2, start_at=timezone.now() + timedelta(hours=1))
    for player in players[:3]:
        topup_chips(player)
    services.register(tournament.pk, players[0])
    services.register(tournament.pk, players[1])
    answer = client_of(client, players[2]).post(reverse("tournaments:register", args=[tournament.pk]))
    assert answer.status_code == 400
    assert "This tournament is full." in answer.content.decode()
    assert not Registration.objects.filter(tournament=tournament, player=players[2]).exists()


def test_a_closed_registration_and_a_protection_refusal_are_shown_in_plain_words(client, settings, alice):
    """R-PROT-1: a money tournament asks protection first, as a money table does."""
    closed = practice(
        registration_opens_at=timezone.now() + timedelta(days=1), start_at=timezone.now() + timedelta(days=2)
    )
    answer = client_of(client, alice).post(reverse("tournaments:register", args=[closed.pk]))
    assert answer.status_code == 400
    assert "Registration for this tournament is not open." in answer.content.decode()
    money = practice("Rupee cup", currency="INR", buy_in=100_00, bots_allowed=False)
    fund(alice, 500_00)
    settings.MONEY_PLAY = False
    refused = client.post(reverse("tournaments:register", args=[money.pk]))
    assert refused.status_code == 400
    text = refused.content.decode()
    assert 'role="alert"' in text
    assert "money" in text.lower()
    assert not Registration.objects.filter(tournament=money).exists()


def play_to_the_end(tournament: Tournament) -> None:
    """The simulator's bots play every table; the sweep records each table's end (the hook
    after commit does not run inside a test's transaction)."""
    sim = simulate.Simulator(3)
    original = services.now_ms
    services.now_ms = lambda: sim.clock
    try:
        with simulate.seeded(3):
            for _ in range(20):
                tournament.refresh_from_db()
                if tournament.status != "running":
                    return
                for round_table in RoundTable.objects.filter(
                    round__tournament=tournament, ended_at__isnull=True
                ):
                    sim.play_table(Table.objects.get(pk=round_table.table_id))
                services.sweep()
    finally:
        services.now_ms = original


def test_a_seated_player_gets_a_link_to_their_table_and_the_result_shows_ranking_and_prizes(client, alice):
    """R-TOUR-3, R-TOUR-5: the round's table is linked; at the end the result ranks every
    player once with the prizes paid."""
    tournament = practice()
    topup_chips(alice)
    # A practice sit-and-go with bots: they fill it as she registers, and it starts.
    answer = client_of(client, alice).post(reverse("tournaments:register", args=[tournament.pk]))
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == "running"
    page = client.get(reverse("tournaments:tournament", args=[tournament.pk])).content.decode()
    assert "Go to your table" in page
    assert "Round 1" in page
    assert "Still in" in page
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    result = client.get(reverse("tournaments:result", args=[tournament.pk])).content.decode()
    ranked = list(Registration.objects.filter(tournament=tournament, status="registered").order_by("rank"))
    assert [r.rank for r in ranked] == [1, 2, 3, 4, 5, 6]
    assert [r.prize for r in ranked] == [42_00, 18_00, 0, 0, 0, 0]  # 60 chips, 70% and 30%
    assert "Prize pool <strong>60 chips</strong>" in result
    assert "42 chips" in result
    assert "18 chips" in result
    ranking = result[result.index('class="data t-ranking"') :]
    positions = [ranking.index(f"<td>{r.player.public_name}</td>") for r in ranked]
    assert positions == sorted(positions)


def test_the_banner_reminds_a_registered_player_in_the_last_ten_minutes_with_one_query(client, alice, bob):
    starts = practice("Quick cup", min_players=2, start_at=timezone.now() + timedelta(minutes=7))
    later = practice("Late cup", min_players=2, start_at=timezone.now() + timedelta(minutes=25))
    for player in (alice, bob):
        topup_chips(player)
    services.register(starts.pk, alice)
    services.register(later.pk, bob)
    client_of(client, alice)
    home = client.get(reverse("home")).content.decode()
    assert 'class="tournament-banner"' in home
    assert "Quick cup starts in 7 min" in home
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("wallet:home"))
    reminders = [q for q in queries.captured_queries if "tournaments_registration" in q["sql"]]
    assert len(reminders) == 1
    client.force_login(bob)
    assert "tournament-banner" not in client.get(reverse("home")).content.decode()  # 25 min away
