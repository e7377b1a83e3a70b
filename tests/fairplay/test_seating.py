"""Strongly linked accounts never share a money table, on every path that seats a player: the
lobby's play now (page and API), joining a table by the API, a private table's invitation (page
and API) and a pool rejoin (R-POOL-4). Practice tables are open to them; a shared address alone
keeps nobody apart. The player refused reads why, without the other account's name."""

from __future__ import annotations

import pytest
from django.test import Client

from fairplay.models import Signal
from games import services
from games.errors import GameError
from games.models import Seat
from games.seating import LINKED
from tests.api.support import assert_error, client_for
from tests.fairplay.support import link_by_address, link_by_device
from tests.protection.support import funded, money_pool, practice_pool
from tests.tables.support import Clock, pass_deadline, play_deal, scripted, seat_all, state, template
from wallet.cashier import topup_chips

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

MESSAGE = LINKED[1]


def seated_at(user):  # type: ignore[no-untyped-def]
    return set(Seat.objects.filter(user=user, left_at__isnull=True).values_list("table_id", flat=True))


def web(user):  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def linked(alice, bob):  # type: ignore[no-untyped-def]
    funded(alice)
    funded(bob)
    link_by_device(alice, bob)
    return alice, bob


def test_play_now_on_the_page_seats_linked_accounts_at_different_money_tables(linked, carol):
    alice, bob = linked
    funded(carol)
    tmpl = money_pool()
    assert web(alice).post(f"/games/play/{tmpl.pk}/").status_code == 302
    assert web(bob).post(f"/games/play/{tmpl.pk}/").status_code == 302
    (first,), (second,) = seated_at(alice), seated_at(bob)
    assert first != second, "bob gets a table of his own, not alice's"
    assert web(carol).post(f"/games/play/{tmpl.pk}/").status_code == 302
    assert seated_at(carol) == {first}, "an unlinked player still fills the fullest table"
    joins = Signal.objects.filter(kind="join").order_by("id")
    assert [(s.user_id, s.table_id) for s in joins] == [
        (alice.pk, first),
        (bob.pk, second),
        (carol.pk, first),
    ]


def test_play_now_picks_another_waiting_table_where_nobody_linked_sits(linked, carol):
    alice, bob = linked
    funded(carol)
    tmpl = money_pool()
    at_alice = services.play_now(alice, tmpl)
    at_carol = services.join(services.open_table(tmpl).pk, carol)
    assert services.play_now(bob, tmpl).pk == at_carol.pk != at_alice.pk


def test_play_now_by_the_api_keeps_them_apart(linked):
    alice, bob = linked
    tmpl = money_pool()
    first = client_for(alice).post(f"/api/templates/{tmpl.pk}/play/")
    second = client_for(bob).post(f"/api/templates/{tmpl.pk}/play/")
    assert first.status_code == second.status_code == 200
    assert first.json()["table"] != second.json()["table"]
    assert seated_at(alice) == {first.json()["table"]}


def test_joining_a_linked_accounts_money_table_by_the_api_is_refused_without_a_name(linked):
    alice, bob = linked
    table = services.play_now(alice, money_pool())
    response = client_for(bob).post(f"/api/tables/{table.pk}/join/")
    body = assert_error(response, 409, "linked_account")
    assert body["message"] == MESSAGE
    assert alice.username not in body["message"]
    assert "alice" not in body["message"].lower()
    assert seated_at(bob) == set(), "nothing was written"


def test_a_private_tables_invitation_is_refused_to_a_linked_account(linked):
    alice, bob = linked
    table = services.open_private(alice, money_pool())
    page = web(bob).post(f"/games/invite/{table.invite_code}/")
    assert page.status_code == 400
    assert "an account linked to yours is playing here" in page.content.decode()
    assert "alice" not in page.content.decode().lower()
    response = client_for(bob).post(f"/api/tables/{table.pk}/join/", {"code": table.invite_code})
    assert_error(response, 409, "linked_account")
    with pytest.raises(GameError) as error:
        services.join(table.pk, bob, code=table.invite_code)
    assert error.value.code == "linked_account"
    assert seated_at(bob) == set()


def test_linked_accounts_sit_together_at_practice_tables(alice, bob):
    link_by_device(alice, bob)
    topup_chips(alice)
    topup_chips(bob)
    tmpl = practice_pool()
    assert web(alice).post(f"/games/play/{tmpl.pk}/").status_code == 302
    assert web(bob).post(f"/games/play/{tmpl.pk}/").status_code == 302
    assert seated_at(alice) == seated_at(bob) != set()
    private = services.open_private(alice, practice_pool(name="private chips"))
    assert services.join(private.pk, bob, code=private.invite_code).pk == private.pk


def test_a_shared_address_alone_keeps_nobody_apart(alice, bob):
    funded(alice)
    funded(bob)
    assert link_by_address(alice, bob).strength == "weak"
    tmpl = money_pool()
    assert services.play_now(alice, tmpl).pk == services.play_now(bob, tmpl).pk


def test_a_rejoin_is_refused_once_the_player_is_linked_to_someone_at_the_table__R_POOL_4(
    alice, bob, carol, monkeypatch, settings
):
    scripted(monkeypatch, settings)
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    play_deal(table, users, {alice: "wrong", bob: "drop"}, clock)
    pass_deadline(table, clock)
    now = play_deal(table, users, {alice: "wrong", bob: "drop"}, clock)
    assert now.rejoin_open == (str(alice.pk),)
    link_by_device(alice, carol)
    with pytest.raises(GameError) as error:
        services.rejoin(table.pk, alice, at=clock())
    assert (error.value.code, error.value.message) == LINKED
    assert state(table).player(str(alice.pk)).score == 160, "nothing was written"
