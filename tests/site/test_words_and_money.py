"""Words and numbers: one mapping of codes to words, one money formatter, chips never in ₹,
and the welcome chips a new player gets at sign-up."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games.templatetags.rummy import chips, rupees, words
from games.words import OUTCOMES, VARIANTS, browser_words, word
from wallet.errors import WalletError
from wallet.models import Account, Currency
from wallet.money import chips as format_chips
from wallet.money import money
from wallet.money import rupees as format_rupees
from wallet.operations import charge_entry_fee


def test_it_writes_rupees_the_indian_way():
    assert format_rupees(12500050) == "₹1,25,000.50"
    assert format_rupees(1234567800) == "₹1,23,45,678.00"
    assert format_rupees(-250050) == "-₹2,500.50"
    assert format_rupees(0) == "₹0.00"
    assert rupees(12500050) == "₹1,25,000.50"


def test_it_never_writes_chips_with_the_rupee_sign():
    assert format_chips(1000000) == "10,000 chips"
    assert format_chips(12500000) == "1,25,000 chips"
    assert format_chips(1050) == "10.50 chips"
    assert money(1000000, "CHIPS") == "10,000 chips"
    assert "₹" not in money(1000000, "CHIPS")
    assert chips(1000000) == "10,000 chips"


def test_it_maps_codes_to_player_words():
    assert word("outcome", "first_drop") == "First drop"
    assert word("outcome", "lost_show") == "Lost at the show"
    assert word("outcome", "wrong_show") == "Wrong show"
    assert word("outcome", "show_timeout") == "Did not show in time"
    assert word("variant", "points21") == "21 Cards"
    assert word("variant", "pool101") == "101 Pool"
    assert words("middle_drop", "outcome") == "Middle drop"
    # An unknown code is never shown raw.
    assert word("outcome", "some_new_code") == "Some new code"


def test_every_engine_outcome_has_words():
    from games.engine.deal import Outcome
    from games.engine.variants import VARIANTS as ENGINE_VARIANTS

    assert {o.value for o in Outcome} <= set(OUTCOMES)
    assert set(ENGINE_VARIANTS) <= set(VARIANTS)
    assert browser_words()["outcome"]["first_drop"] == "First drop"


@pytest.mark.django_db
def test_a_new_player_gets_practice_chips_at_sign_up(client):
    password = "green-felt-table-42"
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "newplayer",
            "display_name": "New Player",
            "password1": password,
            "password2": password,
            "date_of_birth": "1990-05-17",
            "region": "IN-KA",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="newplayer")
    account = Account.objects.get(ref=f"user:{user.pk}", currency=Currency.CHIPS)
    assert account.balance == 10_000_00
    # The day's top-up is still there for later (its own idempotency key).
    page = client.get(reverse("wallet:home"))
    assert "10,000 chips" in page.content.decode()


@pytest.mark.django_db
def test_a_chips_shortfall_is_told_in_chips_not_rupees():
    user = User.objects.create_user(username="broke", password="x-long-password-1")
    with pytest.raises(WalletError) as caught:
        charge_entry_fee(user.pk, "pool:table:999", 1000, currency=Currency.CHIPS, variant="pool61")
    assert "₹" not in caught.value.message
    assert "10 chips" in caught.value.message
    assert "Top up" in caught.value.message


def test_every_event_a_table_can_send_has_its_own_words():
    """The table's log and the deal's replay read ``EVENTS``; an event with no entry would be
    shown as its code with the underscores taken out ("Game started", "Toss")."""
    import re
    from pathlib import Path

    from games.words import EVENTS

    sent: set[str] = set()
    pattern = re.compile(r'\bEvent\(\s*"([a-z_]+)"(?:\s+if\s[^"]*?\selse\s+"([a-z_]+)")?')
    for source in (Path(__file__).resolve().parents[2] / "games").rglob("*.py"):
        for match in pattern.finditer(source.read_text()):
            sent.update(name for name in match.groups() if name)
    assert {"toss", "game_started", "drew", "staying", "leaving_after_deal"} <= sent  # the scan works
    assert sorted(sent - set(EVENTS)) == []
