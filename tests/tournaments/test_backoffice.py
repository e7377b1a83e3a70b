"""The back office's tournaments page: created from a preset with its settings fixed (R-TOUR-1,
R-MONEY-6), listed with its money, cancelled with four eyes (R-MONEY-7), each step audited; the
admin shows tournaments read-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from backoffice.models import AuditAction, AuditLog
from tests.conftest import make_user
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401
from tournaments import services
from tournaments.models import StaffRequest, Tournament
from tournaments.presets import PRESETS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("money_on")]


def test_r_tour_1_staff_create_a_tournament_from_a_preset_its_settings_fixed(client: Any) -> None:
    admin = make_user("ada", staff=True, role="admin")
    client.force_login(admin)
    response = client.post(
        reverse("backoffice:create_tournament"),
        {"preset": "cash_100_60", "name": "Diwali knock-out", "start_at": ""},
    )
    assert response.status_code == 302
    t = Tournament.objects.get(name="Diwali knock-out")
    preset = PRESETS["cash_100_60"]
    assert (t.currency, t.buy_in, t.rake_percent, t.guarantee, t.max_players, t.prize_bps) == (
        "INR",
        preset.buy_in,
        preset.rake_percent,
        preset.guarantee,
        preset.max_players,
        list(preset.prize_bps),
    )
    assert t.status == "registering"
    assert t.sit_and_go
    assert AuditLog.objects.filter(action=AuditAction.CREATE_TOURNAMENT, target=t.ref).count() == 1


def test_a_bad_preset_is_refused_in_words_and_creates_nothing(client: Any) -> None:
    client.force_login(make_user("ada", staff=True, role="admin"))
    response = client.post(
        reverse("backoffice:create_tournament"), {"preset": "nope", "name": "x"}, follow=True
    )
    assert "choose one of the kinds of tournament offered" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_list_shows_each_tournaments_money_the_indian_way(client: Any) -> None:
    rita = make_user("rita", staff=True, role="risk")
    players = [make_user(f"p{i}") for i in range(2)]
    t = services.create(
        name="Evening",
        currency="INR",
        buy_in=1_250_00,
        min_players=3,
        max_players=9,
        table_size=3,
        qualify=1,
        prize_bps=[10_000],
    )
    for player in players:
        fund(player, 10_000_00)
        services.register(t.pk, player)
    client.force_login(rita)
    page = client.get(reverse("backoffice:tournaments")).content.decode()
    assert "Evening" in page
    assert "₹2,500.00" in page, "two buy-ins of ₹1,250"


def test_cancel_with_four_eyes_from_the_page_gives_every_buy_in_back(client: Any) -> None:
    """R-MONEY-7 on the page: one asks, the same one cannot confirm, another does."""
    rita, ravi = make_user("rita", staff=True, role="risk"), make_user("ravi", staff=True, role="risk")
    alice = make_user("alice")
    fund(alice, 1_000_00)
    t = services.create(
        name="Late",
        currency="INR",
        buy_in=100_00,
        min_players=3,
        max_players=9,
        table_size=3,
        qualify=1,
        prize_bps=[10_000],
    )
    services.register(t.pk, alice)
    client.force_login(rita)
    client.post(
        reverse("backoffice:ask_tournament_end", args=[t.pk]), {"what": "cancel", "reason": "stream down"}
    )
    asked = StaffRequest.objects.get(tournament=t)
    page = client.post(
        reverse("backoffice:confirm_tournament_end", args=[asked.pk]), {"reason": "ok"}, follow=True
    )
    assert "A cancel or void needs a second staff member: you asked for this one." in page.content.decode()
    t.refresh_from_db()
    assert t.status == "registering"
    client.force_login(ravi)
    client.post(
        reverse("backoffice:confirm_tournament_end", args=[asked.pk]), {"reason": "checked the stream"}
    )
    t.refresh_from_db()
    assert t.status == "cancelled"
    assert t.end_reason == "stream down"
    assert wallet(alice) == 1_000_00
    actions = list(
        AuditLog.objects.filter(target__in=[t.ref, f"tournament:{t.pk}"]).values_list(
            "action", "actor__username"
        )
    )
    assert (AuditAction.REQUEST_TOURNAMENT_END, "rita") in actions
    assert (AuditAction.END_TOURNAMENT, "ravi") in actions


def test_support_staff_may_not_see_the_tournaments_page(client: Any) -> None:
    client.force_login(make_user("helper", staff=True, role="support"))
    assert client.get(reverse("backoffice:tournaments")).status_code == 403


def test_the_admin_shows_a_tournament_read_only(client: Any) -> None:
    client.force_login(make_user("ada", staff=True, role="admin"))
    t = services.create(
        name="Read only", min_players=2, max_players=6, table_size=3, qualify=1, prize_bps=[10_000]
    )
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, {"name": "edited"}).status_code == 403
    t.refresh_from_db()
    assert t.name == "Read only"
