"""Table limits: at most TABLE_MAX_OPEN_SEATS open seats, "play now"
idempotent per player and template for a few seconds (also under parallel requests), a
template's rake 0-25% and stakes within bounds (model and admin), and R-MONEY-6: a table keeps
the settings it was opened with."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from games import services
from games.errors import GameError
from games.models import Seat, Table, TableTemplate
from tests.conftest import make_user
from tests.tables.support import Clock, pass_deadline, play_deal, seat_all, template
from tests.wallet.support import fund, wallet
from tests.wallet.test_concurrency import race
from wallet.ledger import balance_of, house_spec
from wallet.models import Journal, JournalKind

MONEY = 1_000_000


@pytest.mark.django_db
def test_table_limits_a_player_holds_at_most_the_configured_open_seats(alice, settings):
    settings.TABLE_MAX_OPEN_SEATS = 3
    fund(alice, MONEY)
    templates = [template(name=f"101 #{i}", seats=6) for i in range(4)]
    for tmpl in templates[:3]:
        services.play_now(alice, tmpl)
    tables_before = Table.objects.count()
    with pytest.raises(GameError) as refused:
        services.play_now(alice, templates[3])
    assert refused.value.code == "too_many_tables"
    assert Table.objects.count() == tables_before, "no table is opened for nothing"
    spare = services.open_table(templates[3])
    with pytest.raises(GameError) as refused:
        services.join(spare.pk, alice)
    assert refused.value.code == "too_many_tables"
    assert Seat.objects.filter(user=alice, left_at__isnull=True).count() == 3
    assert wallet(alice) == MONEY - 3 * 2500


@pytest.mark.django_db
def test_table_limits_play_now_is_idempotent_per_player_and_template(alice, settings):
    settings.PLAY_NOW_SECONDS = 10
    fund(alice, MONEY)
    tmpl = template(name="101 idempotent", seats=6)
    tables = {services.play_now(alice, tmpl).pk for _ in range(20)}
    assert len(tables) == 1
    assert Journal.objects.filter(kind=JournalKind.ENTRY_FEE).count() == 1
    assert wallet(alice) == MONEY - 2500


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_table_limits_twenty_parallel_play_now_clicks_are_one_seat_and_one_fee():
    alice = make_user("alice")
    fund(alice, MONEY)
    tmpl = template(name="101 parallel", seats=6)
    results = race(20, lambda i: services.play_now(alice, tmpl))
    assert all(isinstance(r, Table) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert Table.objects.filter(template=tmpl).count() == 1
    assert Journal.objects.filter(kind=JournalKind.ENTRY_FEE).count() == 1
    assert wallet(alice) == MONEY - 2500


@pytest.mark.django_db
def test_table_limits_template_rake_and_stakes_are_bounded_in_the_model(settings):
    settings.TABLE_ENTRY_FEE_BOUNDS = (500, 50_000)
    settings.TABLE_POINT_VALUE_BOUNDS = (10, 1000)
    good = TableTemplate(name="ok", variant="pool101", currency="INR", entry_fee=2500, rake_percent=25)
    good.full_clean()
    for fields, field in [
        ({"rake_percent": 26}, "rake_percent"),
        ({"entry_fee": 499}, "entry_fee"),
        ({"entry_fee": 50_001}, "entry_fee"),
        ({"variant": "points21", "point_value": 9}, "point_value"),
        ({"variant": "points21", "point_value": 1001}, "point_value"),
    ]:
        bad = TableTemplate(
            **{"name": "bad", "variant": "pool101", "currency": "INR", "entry_fee": 2500, **fields}
        )
        with pytest.raises(ValidationError) as refused:
            bad.full_clean()
        assert field in refused.value.message_dict, fields
    with pytest.raises(IntegrityError), transaction.atomic():
        TableTemplate.objects.create(name="stuck", variant="pool101", entry_fee=2500, rake_percent=100)


@pytest.mark.django_db
def test_table_limits_template_bounds_are_validated_in_the_admin(sam, client):
    client.force_login(sam)
    data = {
        "name": "greedy",
        "variant": "pool101",
        "currency": "INR",
        "seats": 6,
        "entry_fee": 2500,
        "point_value": 0,
        "rake_percent": 100,
        "move_seconds": 30,
        "extra_seconds": 30,
        "show_seconds": 30,
        "rejoin_seconds": 20,
        "start_countdown_seconds": 10,
        "deals": 0,
        "active": "on",
    }
    response = client.post(reverse("admin:games_tabletemplate_add"), data)
    assert response.status_code == 200
    assert not TableTemplate.objects.filter(name="greedy").exists()
    response = client.post(reverse("admin:games_tabletemplate_add"), {**data, "rake_percent": 15})
    assert response.status_code == 302
    assert TableTemplate.objects.get(name="greedy").rake_percent == 15


@pytest.mark.django_db
def test_a_table_keeps_its_settings_when_the_template_is_edited__R_MONEY_6(players):
    """R-MONEY-6: rake and fee are fixed when the table is created."""
    clock = Clock()
    tmpl = template(seats=2, name="101 for two", entry_fee=2500, rake_percent=10)
    a, b = players[:2]
    table = seat_all(tmpl, [a, b], clock)
    TableTemplate.objects.filter(pk=tmpl.pk).update(rake_percent=25, entry_fee=9900, point_value=77)
    play_deal(table, [a, b], {a: "wrong"}, clock)
    pass_deadline(table, clock)
    now = play_deal(table, [a, b], {a: "wrong"}, clock)
    assert (now.phase.value, now.winner) == ("finished", str(b.pk))
    assert now.rules.rake_percent == 10
    assert balance_of(house_spec(table.pool_ref)) == 500, "10% of 5000, not the edited 25%"
    assert wallet(b) == MONEY - 2500 + 4500


@pytest.mark.django_db
def test_template_variant_and_currency_are_fixed_once_tables_exist(alice):
    tmpl = template(name="fixed", seats=6)
    fund(alice, MONEY)
    services.play_now(alice, tmpl)
    tmpl.currency = "CHIPS"
    with pytest.raises(ValidationError) as refused:
        tmpl.full_clean()
    assert "currency" in refused.value.message_dict
