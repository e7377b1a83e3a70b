"""The lifecycle through the services and the web: play now, leaving a waiting table, leave
after this deal, and 21-card practice against bots going on deal after deal."""

from __future__ import annotations

import pytest

from games import bots, services, timers
from games.engine import table as engine
from games.models import Table, TableEvent
from tests.live.support import make_user, state, template
from tests.wallet.support import wallet
from wallet.models import Currency

pytestmark = pytest.mark.usefixtures("live_db")


def test_play_now_seats_at_the_waiting_table_nearest_to_full(live_db):
    tmpl = template(seats=4)
    users = [make_user(name) for name in ("alice", "bob", "carol", "dave", "erin")]
    first = services.play_now(users[0], tmpl)
    second = services.open_table(tmpl)
    services.join(second.pk, users[1])
    services.join(second.pk, users[2])
    # second has two players, first one: the next player goes to second.
    assert services.play_now(users[3], tmpl).pk == second.pk
    assert services.play_now(users[4], tmpl).pk == second.pk, "still the nearest to full"
    assert state(first.pk).seated[0].name == str(users[0].pk)


def test_leaving_a_waiting_table_on_the_web_gives_the_fee_back_at_once(live_db, client):
    alice = make_user("alice")
    tmpl = template(seats=3)
    before = wallet(alice, Currency.CHIPS)
    table = services.play_now(alice, tmpl)
    assert wallet(alice, Currency.CHIPS) == before - 1000
    client.force_login(alice)
    response = client.post(f"/games/tables/{table.pk}/leave/")
    assert response.status_code == 302
    assert wallet(alice, Currency.CHIPS) == before
    (left,) = TableEvent.objects.filter(table=table, type="left")
    assert "back in the wallet" in left.data["reason"]


def test_leave_after_this_deal_on_the_web(live_db, client):
    users = [make_user(name) for name in ("alice", "bob", "carol")]
    tmpl = template(seats=3)
    for user in users:
        table = services.play_now(user, tmpl)
    client.force_login(users[0])
    assert client.post(f"/games/tables/{table.pk}/leave/", {"when": "after_deal"}).status_code == 302
    assert state(table.pk).player(str(users[0].pk)).leaving
    assert client.post(f"/games/tables/{table.pk}/leave/", {"when": "stay"}).status_code == 302
    assert not state(table.pk).player(str(users[0].pk)).leaving


def test_21_card_practice_against_bots_goes_on_deal_after_deal__R_21_9(live_db):
    alice = make_user("alice")
    tmpl = template(
        variant="points21", seats=3, entry_fee=0, point_value=1, bots_allowed=True, move_seconds=5
    )
    table = bots.fill_with_bots(services.play_now(alice, tmpl))
    assert state(table.pk).phase is engine.Phase.PLAYING
    clock = state(table.pk).now_ms
    for _ in range(600):
        if state(table.pk).deal_number >= 3:
            break
        if timers.play_bots(table.pk) or timers.refill():
            continue
        now = state(table.pk)  # alice never moves: her turns (and the pauses) run out
        if now.deadline_ms is not None:
            clock = max(clock, now.deadline_ms)
            services.expire(table.pk, Table.objects.get(pk=table.pk).version, at=clock)
    now = state(table.pk)
    assert now.deal_number >= 3, "the table plays deal after deal"
    assert now.player(str(alice.pk)).status is engine.Status.IN, "her seat was topped up each time"
    assert TableEvent.objects.filter(table=table, type="topped_up", data__player=str(alice.pk)).exists()
