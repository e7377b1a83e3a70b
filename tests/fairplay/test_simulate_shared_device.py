"""``manage.py simulate --cheat-shared-device N``: the pairs sharing a device are linked, each
with a case, never seated together at money tables, together at practice tables."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from fairplay.models import Case, Link

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_simulator_shows_shared_devices_linked_and_kept_apart():
    out = io.StringIO()
    call_command(
        "simulate",
        "--games",
        "1",
        "--variant",
        "pool101",
        "--seed",
        "5",
        "--cheat-shared-device",
        "3",
        stdout=out,
    )
    text = out.getvalue()
    for figure in (
        "shared device cases 3",
        "shared device joins refused 3",
        "shared device kept apart 3",
        "shared device links 3",
        "shared device together at practice 3",
    ):
        assert figure in text, text
    assert "all held" in text
    assert Link.objects.filter(strength="strong").count() == 3
    assert Case.objects.filter(kind="linked_accounts").count() == 3


def test_without_the_flag_no_pair_is_made():
    out = io.StringIO()
    call_command("simulate", "--games", "1", "--variant", "pool101", "--seed", "5", stdout=out)
    assert "shared device" not in out.getvalue()
    assert not Link.objects.exists()


def test_a_negative_count_is_refused():
    with pytest.raises(CommandError, match="0 or more"):
        call_command("simulate", "--games", "1", "--cheat-shared-device", "-1", stdout=io.StringIO())
