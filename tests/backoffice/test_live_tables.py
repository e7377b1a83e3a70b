"""Live tables: each row links its table and its players; a table is stuck when no player has
acted at it for ``STUCK_TABLE_SECONDS``, however often its timers still change it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from backoffice.live import live_tables
from games import services
from games.models import Table, TableEvent
from tests.backoffice.support import _fast_passwords, play_a_deal, seed  # noqa: F401
from tests.backoffice.test_staff_roles import live_deal

pytestmark = pytest.mark.django_db


def row_of(page: str, table: Table) -> str:
    row = page[page.index(f"<td>{table.pk} · ") :]
    return row[: row.index("</tr>")]


def long_ago() -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=settings.STUCK_TABLE_SECONDS + 60)


def test_a_live_table_row_links_its_table_and_each_player(seeded, client, support):
    table = live_deal(seeded)
    alice, bob = seeded.users["alice"], seeded.users["bob"]
    row = row_of(client.get(reverse("backoffice:tables")).content.decode(), table)
    assert f'href="{reverse("admin:games_table_change", args=[table.pk])}"' in row
    assert f'<a href="{reverse("backoffice:player", args=[alice.pk])}">alice (Playing)</a>' in row
    assert f'<a href="{reverse("backoffice:player", args=[bob.pk])}">bob (Playing)</a>' in row


def test_a_live_table_says_what_the_move_waited_for_is_in_words(seeded, client, support):
    table = live_deal(seeded)
    row = row_of(client.get(reverse("backoffice:tables")).content.decode(), table)
    assert "(draw and discard)" in row
    assert "(play)" not in row, "the deal's phase in words, not its code"


def test_a_table_whose_timers_still_move_it_is_stuck_when_no_player_acted(seeded, client, support):
    """Its players are gone: the move timer keeps changing the table (a missed move, the next
    turn), so it was never "unchanged"; it is stuck all the same."""
    table = live_deal(seeded)
    TableEvent.objects.filter(table=table).update(created_at=long_ago())
    assert services.expire(table.pk, table.version, at=services.now_ms() + 10**8), "a missed move"
    table.refresh_from_db()
    assert table.updated_at > timezone.now() - dt.timedelta(seconds=60), "the timer just changed it"
    latest = TableEvent.objects.filter(table=table).order_by("-version").values_list("type", flat=True)
    assert "missed_move" in list(latest[:3])
    page = client.get(reverse("backoffice:tables")).content.decode()
    assert '<tr class="stuck">' in page
    assert "1 stuck" in page
    assert "Stuck tables: <strong>1</strong>" in client.get(reverse("backoffice:home")).content.decode()


def test_a_table_a_player_just_acted_at_is_not_stuck_however_old_its_row(seeded, client, support):
    table = live_deal(seeded)
    Table.objects.filter(pk=table.pk).update(updated_at=long_ago())
    page = client.get(reverse("backoffice:tables")).content.decode()
    assert 'class="stuck"' not in page
    assert "Stuck tables: <strong>0</strong>" in client.get(reverse("backoffice:home")).content.decode()


def test_an_automatic_drop_is_no_player_action_but_a_players_own_drop_is(seeded, client, support):
    table = live_deal(seeded)
    TableEvent.objects.filter(table=table).update(created_at=long_ago())
    last = TableEvent.objects.filter(table=table).order_by("-version").first()
    assert last is not None
    player = str(seeded.users["alice"].pk)
    for number, data in enumerate(
        (
            {"player": player, "outcome": "first_drop", "score": 20, "auto": True},
            {"player": player, "outcome": "missed_moves", "score": 40, "auto": False},
        ),
        start=1,
    ):
        TableEvent.objects.create(table=table, version=last.version + number, type="dropped", data=data)
    TableEvent.objects.create(
        table=table, version=last.version + 3, type="auto_drop", data={"player": player}
    )
    [row] = [row for row in live_tables() if row.table.pk == table.pk]
    assert row.stuck, "an auto drop, a drop for missed moves and choosing auto drop are no player's action"
    TableEvent.objects.create(
        table=table,
        version=last.version + 4,
        type="dropped",
        data={"player": player, "outcome": "middle_drop", "score": 40, "auto": False},
    )
    [row] = [row for row in live_tables() if row.table.pk == table.pk]
    assert not row.stuck, "a drop the player chose is their action"


def test_the_live_tables_read_the_last_player_action_in_the_same_query_for_any_number_of_tables(seeded):
    live_deal(seeded)
    with CaptureQueriesContext(connection) as one_running:
        rows = live_tables()
    running = sum(1 for row in rows if row.table.status == "playing")
    for name in ("carol", "dave"):
        seeded.users[name].refresh_from_db()
    play_a_deal(seeded.users["carol"], seeded.users["dave"])
    with CaptureQueriesContext(connection) as two_running:
        rows = live_tables()
    assert sum(1 for row in rows if row.table.status == "playing") == running + 1
    assert len(two_running) == len(one_running), "no query per table"
    events = [q["sql"] for q in two_running.captured_queries if "games_tableevent" in q["sql"]]
    assert len(events) == 1, "the last player action of every table in one query"


def test_every_table_of_a_running_tournament_is_live_with_its_round_and_no_hidden_card(client, support):
    """R-TOUR-3: a tournament's round tables are ordinary tables on the live page, named with
    their tournament and round; no card of a deal in play shows."""
    from games.engine import table as engine
    from tournaments import services as tournaments

    cup = tournaments.create(
        name="Staff cup", min_players=6, max_players=6, table_size=3, qualify=1, bots_allowed=True
    )
    tournaments.fill_with_bots(cup.pk)
    cup.refresh_from_db()
    assert cup.status == "running"
    tables = list(Table.objects.filter(tournament_table__round__tournament=cup))
    assert len(tables) == 2
    page = client.get(reverse("backoffice:tables")).content.decode()
    for table in tables:
        row = row_of(page, table)
        assert '<span class="tournament-of">Staff cup, round 1</span>' in row
        state = engine.TableState.from_json(table.state)
        assert state.deal is not None
        hidden = [card.code for seat in state.deal.seats for card in seat.hand]
        hidden += [card.code for card in state.deal.closed_pile]
        assert len(hidden) > 13
        assert not [code for code in hidden if f">{code}<" in row or f" {code} " in row or f"'{code}'" in row]
        assert state.deal.seed.hex() not in page
