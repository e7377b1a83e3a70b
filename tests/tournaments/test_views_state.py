"""The read model pages call (tournaments.views_state): plain data, money in words, the prize
table as it stands, standings ranked once over, a player's current table."""

from __future__ import annotations

import pytest

from tests.conftest import make_user
from tests.tournaments.support import make, play_round, play_to_the_end, playing
from tests.wallet.support import _fast_password_hashing, fund  # noqa: F401
from tournaments import services, views_state
from tournaments.models import RoundTable

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("money_on")]


def test_the_lobby_row_and_the_prize_table_as_registrations_come_in() -> None:
    alice = make_user("alice")
    fund(alice, 10_000_00)
    t = make(
        buy_in=1_000_00, rake_percent=10, guarantee=0, prize_bps=[7000, 3000], max_players=9, min_players=3
    )
    services.register(t.pk, alice)
    (row,) = views_state.lobby(alice)
    assert row["entered"] is True
    assert row["buy_in"] == {"amount": 1_000_00, "words": "₹1,000.00"}
    assert row["prize_pool"] == {"amount": 900_00, "words": "₹900.00"}
    assert (row["players"], row["max_players"], row["start_words"]) == (1, 9, "Starts when full")
    assert row["status_words"] == "Registering"
    prizes = views_state.prize_table(t)
    assert [(p["place"], p["share_words"], p["prize"]["amount"]) for p in prizes] == [
        (1, "70%", 630_00),
        (2, "30%", 270_00),
    ], "each place's share of the pool as it stands"


def test_a_practice_tournament_shows_chips_never_rupees() -> None:
    t = make(currency="CHIPS", buy_in=100_00, guarantee=1_000_00, bots_allowed=True)
    row = views_state.tournament(t.pk)
    assert row["buy_in"]["words"] == "100 chips"
    assert row["guarantee"]["words"] == "1,000 chips"
    assert "₹" not in str(row)


def test_the_page_follows_a_tournament_to_its_end() -> None:
    players = [make_user(f"p{i}") for i in range(9)]
    for player in players:
        fund(player, 1_000_00)
    t = make(
        max_players=9, min_players=9, table_size=3, qualify=1, prize_bps=[5000, 3000, 2000], rake_percent=0
    )
    for player in players:
        services.register(t.pk, player)
    page = views_state.tournament(t.pk, players[0])
    table = next(
        rt.table_id for rt in RoundTable.objects.filter(round__tournament=t) if players[0].pk in rt.players
    )
    assert page["me"]["table"] == table
    assert page["rounds"][0]["players"] == 9
    assert len(page["rounds"][0]["tables"]) == 3
    assert all(row["in"] for row in page["standings"])
    with playing(9) as simulator:
        play_round(simulator, t)
        t.refresh_from_db()
        middle = views_state.standings(t)
        assert sum(1 for row in middle if row["in"]) == 3
        assert [row["out_in_round"] for row in middle[3:]] == [1] * 6
        play_to_the_end(simulator, t)
    done = views_state.tournament(t.pk, players[0])
    assert [row["rank"] for row in done["standings"]] == list(range(1, 10))
    assert done["standings"][0]["won"] is True
    assert done["standings"][0]["prize"] == {"amount": 450_00, "words": "₹450.00"}
    assert done["prize_pool"]["amount"] == 900_00
    assert done["me"]["table"] is None
    assert done["status_words"] == "Finished"
