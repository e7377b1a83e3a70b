"""The tournaments over the API: the pages' read model, register and unregister, refusals as
JSON errors with a code and plain words that change nothing."""

from __future__ import annotations

import pytest

from tests.api.support import _fast_passwords, _fresh_throttles, assert_error, client_for  # noqa: F401
from tournaments import services
from tournaments.models import Registration
from wallet.cashier import topup_chips

pytestmark = pytest.mark.django_db


def cup(**fields):  # type: ignore[no-untyped-def]
    values = {
        "name": "API cup",
        "buy_in": 10_00,
        "min_players": 2,
        "max_players": 2,
        "table_size": 2,
        "qualify": 1,
    }
    values.update(fields)
    return services.create(**values)


def test_it_registers_and_unregisters_with_the_read_model_in_the_answer(alice):
    """R-TOUR-2: the buy-in is paid at registration and given back at unregistration."""
    tournament = cup(max_players=6)
    topup_chips(alice)
    client = client_for(alice)
    registered = client.post(f"/api/tournaments/{tournament.pk}/registration/")
    assert registered.status_code == 201
    body = registered.json()
    assert body["me"]["registered"] is True
    assert body["players"] == 1
    assert body["prize_pool"] == {"amount": 10_00, "words": "10 chips"}
    listed = client.get("/api/tournaments/").json()
    assert [(row["id"], row["entered"]) for row in listed] == [(tournament.pk, True)]
    left = client.delete(f"/api/tournaments/{tournament.pk}/registration/")
    assert left.status_code == 200
    assert left.json()["me"]["registered"] is False
    assert Registration.objects.get(tournament=tournament, player=alice).status == "unregistered"


def test_refusals_are_json_errors_in_plain_words(alice, bob, carol):
    tournament = cup()
    for user in (alice, bob, carol):
        topup_chips(user)
    client = client_for(alice)
    assert client.post(f"/api/tournaments/{tournament.pk}/registration/").status_code == 201
    again = assert_error(
        client.post(f"/api/tournaments/{tournament.pk}/registration/"), 409, "already_registered"
    )
    assert again["message"] == "you are already registered for this tournament"
    assert_error(
        client_for(carol).delete(f"/api/tournaments/{tournament.pk}/registration/"), 409, "not_registered"
    )
    assert_error(client.get("/api/tournaments/999999/"), 404, "no_tournament")
    assert_error(client.post("/api/tournaments/999999/registration/"), 404, "no_tournament")
    assert client_for(bob).post(f"/api/tournaments/{tournament.pk}/registration/").status_code == 201
    # Full, the sit-and-go started: registration is closed to the third.
    closed = assert_error(client_for(carol).post(f"/api/tournaments/{tournament.pk}/registration/"), 409)
    assert closed["error"] == "registration_closed"
    assert not Registration.objects.filter(tournament=tournament, player=carol).exists()
