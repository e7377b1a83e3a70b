"""R-PROT-6: reality checks: the session's time in money play and its net result, due after each
REALITY_CHECK_MINUTES; a gap over SESSION_GAP_MINUTES starts a new session."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import reality, services
from games.models import Seat
from tests.protection.support import funded, money_pool, practice_pool

pytestmark = pytest.mark.django_db


def sat_down(user, template, minutes_ago: int, left_minutes_ago: int | None = None):
    table = services.play_now(user, template)
    now = timezone.now()
    Seat.objects.filter(table=table, user=user).update(
        joined_at=now - timedelta(minutes=minutes_ago),
        left_at=None if left_minutes_ago is None else now - timedelta(minutes=left_minutes_ago),
    )
    return table


def test_a_check_is_due_after_an_hour_of_money_play_with_the_sessions_net__R_PROT_6(alice, client):
    funded(alice)
    sat_down(alice, money_pool(), minutes_ago=70)
    found = reality.check(alice)
    assert (found["in_session"], found["minutes"], found["count"]) == (True, 70, 1)
    assert found["net"] == -100_00, "the entry fee is at stake in the running game"
    client.force_login(alice)
    body = client.get("/games/reality-check/").json()
    assert (body["minutes"], body["net_text"]) == (70, "-₹100.00")


def test_short_gaps_join_a_session_and_a_long_one_starts_a_new_one__R_PROT_6(alice, settings):
    settings.SESSION_GAP_MINUTES = 15
    funded(alice)
    sat_down(alice, money_pool(name="first"), minutes_ago=100, left_minutes_ago=50)
    sat_down(alice, money_pool(name="second"), minutes_ago=40)  # a 10-minute gap: one session
    assert reality.session_of(alice).minutes == 100
    Seat.objects.filter(table__template__name="second").update(
        joined_at=timezone.now() - timedelta(minutes=30)
    )
    assert reality.session_of(alice).minutes == 30, "a 20-minute gap: a new session"


def test_practice_play_is_not_money_play__R_PROT_6(alice):
    from wallet import cashier

    cashier.topup_chips(alice)
    sat_down(alice, practice_pool(), minutes_ago=200)
    assert reality.check(alice)["in_session"] is False


def test_only_a_seated_player_at_a_money_table_gets_the_check__R_PROT_6(alice, bob, client):
    funded(alice)
    table = sat_down(alice, money_pool(), minutes_ago=5)
    client.force_login(alice)
    assert "data-reality-url" in client.get(f"/games/tables/{table.pk}/").content.decode()
    client.force_login(bob)
    assert "data-reality-url" not in client.get(f"/games/tables/{table.pk}/").content.decode()
