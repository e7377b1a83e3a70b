"""A round's table page leads back to its tournament (games.homes, tournaments.views.table_home):
its back link and its game-over sheet go to the tournament's page, and its bar names the
tournament and the round (the final by that name); any other table goes back to the lobby."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games import homes
from games.models import TableTemplate
from games.services import open_table
from tests.conftest import make_user
from tests.tournaments.support import make, play_round, playing
from tests.wallet.support import _fast_password_hashing, fund  # noqa: F401
from tournaments import services
from tournaments.models import RoundTable
from tournaments.views import table_home

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("money_on")]


def back_link(page: str) -> tuple[str, str]:
    found = re.search(r'<a class="back" href="([^"]+)" aria-label="([^"]+)"', page)
    assert found, page[:500]
    return found[1], found[2]


def test_a_round_table_leads_back_to_its_tournament_and_names_the_round(client: Any) -> None:
    players = [make_user(f"p{i}") for i in range(6)]
    for player in players:
        fund(player, 1_000_00)
    t = make(name="Sunday knock-out", max_players=6, min_players=6, table_size=3, qualify=1)
    for player in players:
        services.register(t.pk, player)
    (mine,) = [rt for rt in RoundTable.objects.filter(round__tournament=t) if players[0].pk in rt.players]
    client.force_login(players[0])
    page = client.get(reverse("games:table", args=[mine.table_id])).content.decode()
    tournament_page = reverse("tournaments:tournament", args=[t.pk])
    assert back_link(page) == (tournament_page, "Back to Sunday knock-out")
    assert "Sunday knock-out · round 1" in page
    assert f'<a class="button" href="{tournament_page}">Back to Sunday knock-out</a>' in page
    with playing(3) as simulator:
        play_round(simulator, t)
    final = RoundTable.objects.get(round__tournament=t, round__final=True)
    final_home = homes.Home(tournament_page, "Sunday knock-out", "Sunday knock-out · the final")
    assert table_home(final.table) == final_home


def test_any_other_table_goes_back_to_the_lobby_with_its_stake(client: Any) -> None:
    alice = make_user("alice")
    template = TableTemplate.objects.create(
        name="Home test", variant="pool101", currency="CHIPS", seats=2, entry_fee=1000
    )
    table = open_table(template)
    assert table_home(table) is None
    assert homes.home_of(table) == homes.Home(reverse("games:lobby"), "the lobby")
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert back_link(page) == (reverse("games:lobby"), "Back to the lobby")
    assert "10 chips entry" in page
