"""The risk desk's freeze, as protection keeps it: one in force at a time, read with the player's
row by the money-play check point (no more statements), refused before any region or break,
and each freeze and lift in the player's protection history."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from hotpath import statements
from protection import exclusions, freezes, money_play
from protection.models import MoneyPlayFreeze, ProtectionEvent
from protection.refusal import ProtectionError
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def rita(db):
    return make_user("rita", staff=True, role="risk")


def test_the_check_point_reads_the_freeze_with_the_player_in_its_own_three_statements(alice, rita):
    # Protection's own three (the player with the freeze, exclusions, the latest move), then the
    # checks the apps above register (fair play's two reads of linked self-exclusions).
    assert len(money_play.reads(alice.pk)) == 3 + sum(check.size for check in money_play._checks)
    with transaction.atomic():
        freezes.freeze(alice, "review", by=rita, case_ref="case:1")
    results = statements.execute_many(money_play.reads(alice.pk))
    refused = money_play.refusal_among(results, timezone.now())
    assert refused == freezes.FROZEN


def test_a_freeze_comes_before_a_break_or_a_region_in_the_words_a_player_reads(alice, rita, settings):
    exclusions.take(alice, "break_7d")
    settings.MONEY_REGIONS = ["IN-MH"]  # alice lives in IN-KA
    assert money_play.refusal(alice).code == "region_not_allowed"
    with transaction.atomic():
        freezes.freeze(alice, "review", by=rita)
    assert money_play.refusal(alice).code == "frozen", "the hold is what she must write to support about"


def test_one_freeze_in_force_at_a_time_and_a_lift_needs_one(alice, rita):
    with transaction.atomic():
        freezes.freeze(alice, "review", by=rita)
    with pytest.raises(ProtectionError) as twice:
        freezes.freeze(alice, "again", by=rita)
    assert twice.value.code == "already_frozen"
    with pytest.raises(IntegrityError), transaction.atomic():
        MoneyPlayFreeze.objects.create(user=alice, reason="by hand", frozen_by=rita)
    with transaction.atomic():
        lifted = freezes.lift(alice, "explained", by=rita)
    assert (lifted.lift_reason, lifted.lifted_by) == ("explained", rita)
    with pytest.raises(ProtectionError) as none:
        freezes.lift(alice, "again", by=rita)
    assert none.value.code == "not_frozen"
    assert money_play.refusal(alice) is None
    history = list(
        ProtectionEvent.objects.filter(user=alice).order_by("at", "id").values_list("kind", "details")
    )
    assert history[-2:] == [
        ("money_frozen", {"reason": "review", "case": ""}),
        ("money_unfrozen", {"reason": "explained", "case": ""}),
    ]
