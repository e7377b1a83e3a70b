"""The player page: where the player sits now (every open seat at a table that is not over,
its state in words, a link to the table), and the games they played."""

from __future__ import annotations

import pytest
from django.urls import reverse

from backoffice import actions
from games.models import Deal, Seat, SeatStatus, Table, TableStatus
from tests.backoffice.support import _fast_passwords, seed  # noqa: F401
from tests.backoffice.test_staff_roles import live_deal
from tests.conftest import make_user
from tests.tables.support import Clock, pass_deadline, play_deal, seat_all, template
from wallet import cashier

pytestmark = pytest.mark.django_db


def open_seats(page: str) -> str:
    """The "Open seats" section of a player page."""
    start = page.index("<h2>Open seats</h2>")
    return page[start : page.index("<h2>", start + 1)]


def test_a_player_at_a_running_game_is_listed_with_their_seat_in_words_and_a_link(seeded, client, support):
    table = live_deal(seeded)
    alice = seeded.users["alice"]
    assert Seat.objects.get(table=table, user=alice).status == SeatStatus.IN, "the game runs: her seat is in"
    seats = open_seats(client.get(reverse("backoffice:player", args=[alice.pk])).content.decode())
    assert "Not seated anywhere" not in seats
    assert f'href="{reverse("admin:games_table_change", args=[table.pk])}"' in seats
    assert "101 Pool" in seats, "the variant in words"
    assert "Playing" in seats, "her seat's state in words, not the code"
    assert ">in<" not in seats


def test_an_eliminated_player_is_listed_while_the_game_runs_and_a_left_seat_or_a_game_over_is_not(
    seeded, client, support
):
    table = live_deal(seeded)
    alice, bob = seeded.users["alice"], seeded.users["bob"]
    Seat.objects.filter(table=table, user=bob).update(status=SeatStatus.ELIMINATED)
    seats = open_seats(client.get(reverse("backoffice:player", args=[bob.pk])).content.decode())
    assert "Eliminated" in seats
    assert f'href="{reverse("admin:games_table_change", args=[table.pk])}"' in seats
    Seat.objects.filter(table=table, user=bob).update(status=SeatStatus.LEFT)
    seats = open_seats(client.get(reverse("backoffice:player", args=[bob.pk])).content.decode())
    assert "Not seated anywhere" in seats, "a seat left is not open"
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    seats = open_seats(client.get(reverse("backoffice:player", args=[alice.pk])).content.decode())
    assert "Not seated anywhere" in seats, "a game over holds no seat"


def test_a_seat_at_a_waiting_table_is_listed_as_waiting(seeded, client, support):
    waiting = seeded.tables["D"]  # alice and bob entered; the game has not started
    alice = seeded.users["alice"]
    Seat.objects.create(table=waiting, user=alice)
    seats = open_seats(client.get(reverse("backoffice:player", args=[alice.pk])).content.decode())
    assert f'href="{reverse("admin:games_table_change", args=[waiting.pk])}"' in seats
    assert "Waiting for the next game" in seats
    assert "Waiting for players" in seats, "the table's state in words too"


def games_section(page: str) -> str:
    start = page.index("<h2>Recent games</h2>")
    return page[start : page.index("<h2>", start + 1)]


def finished_pool_game(players, **fields):
    """A 2-seat 101-pool game (entry 25.00, rake 10%): a makes two wrong shows (160 > 101), b wins."""
    a, b = players[:2]
    clock = Clock()
    table = seat_all(template(seats=2, name="101 for two", entry_fee=2500, **fields), [a, b], clock)
    play_deal(table, [a, b], {a: "wrong"}, clock)
    pass_deadline(table, clock)
    play_deal(table, [a, b], {a: "wrong"}, clock)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    return table


def test_recent_games_list_each_game_once_with_its_result_money_and_deal_replays(players, client):
    client.force_login(make_user("rita", staff=True, role="risk"))
    table = finished_pool_game(players)
    a, b = players[:2]
    won = games_section(client.get(reverse("backoffice:player", args=[b.pk])).content.decode())
    assert won.count('<tr class="game">') == 1, "one row per game, not one per deal"
    assert "101 Pool" in won
    assert "Won the game" in won
    assert "+₹20.00" in won, "the prize (₹45.00 after rake) less the entry fee"
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert len(deals) == 2
    for deal in deals:
        assert f'href="{reverse("admin:games_deal_change", args=[deal.pk])}"' in won, "each deal's replay"
    assert f'href="{reverse("admin:games_table_change", args=[table.pk])}"' in won
    lost = games_section(client.get(reverse("backoffice:player", args=[a.pk])).content.decode())
    assert "Lost" in lost
    assert "-₹25.00" in lost
    assert "Wrong show" in lost, "each deal's outcome in words"
    for code in ("wrong_show", "pool101", ">won<", "lost_show"):
        assert code not in lost, code
        assert code not in won, code


def test_recent_games_of_a_practice_game_are_in_chips(players, client):
    client.force_login(make_user("rita", staff=True, role="risk"))
    for player in players[:2]:
        cashier.topup_chips(player)
    finished_pool_game(players, currency="CHIPS")
    won = games_section(client.get(reverse("backoffice:player", args=[players[1].pk])).content.decode())
    assert "+20 chips" in won
    assert "₹" not in won


def test_a_game_voided_in_its_first_deal_is_listed_as_voided_with_every_fee_back__R_MONEY_7(players, client):
    rita, ravi = make_user("rita", staff=True, role="risk"), make_user("ravi", staff=True, role="risk")
    a, b = players[:2]
    table = seat_all(template(seats=2, name="101 for two", entry_fee=2500), [a, b], Clock())
    assert table.status == TableStatus.PLAYING
    actions.confirm_void(actions.request_void(table.pk, "the server lost the deal", rita).pk, "seen", ravi)
    client.force_login(rita)
    games = games_section(client.get(reverse("backoffice:player", args=[a.pk])).content.decode())
    assert games.count('<tr class="game">') == 1, "a game, though no deal of it finished"
    assert "Voided by staff: every fee and hold back" in games
    assert "₹0.00" in games, "the entry fee paid and given back"
    assert "no deal finished" in games
    page = client.get(reverse("backoffice:player", args=[a.pk])).content.decode()
    staff_actions = page[page.index("<h2>Staff actions on this player</h2>") :]
    assert (
        f'<a href="{reverse("admin:games_table_change", args=[table.pk])}">Table {table.pk}</a>'
        in staff_actions
    )
    assert f"table:{table.pk}" not in staff_actions, "what was acted on, in words"
