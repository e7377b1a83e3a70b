"""Signals and the links they make: strong (device, instrument, document) and weak (address)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from fairplay import links, signals
from fairplay.models import Case, Link, Signal
from games import seating
from tests.conftest import make_user
from tests.fairplay.support import DEVICE, link_by_address, link_by_device, logged_in

pytestmark = pytest.mark.django_db


def test_it_links_two_accounts_that_log_in_from_one_device_strongly_and_opens_a_case(alice, bob):
    link = link_by_device(alice, bob)
    assert link.strength == "strong"
    assert set(link.reasons) == {"device"}
    assert link.reasons["device"]["seen"] == 1
    case = Case.objects.get(key=f"link:{link.low_id}-{link.high_id}")
    assert case.kind == "linked_accounts"
    assert sorted(case.subjects.values_list("pk", flat=True)) == sorted([alice.pk, bob.pk])
    assert case.evidence["reasons"]["device"]["seen"] == 1
    assert seating.pairs_apart([alice.pk, bob.pk]) == {frozenset({alice.pk, bob.pk})}


def test_it_keeps_one_link_per_pair_with_every_reason_and_one_case(alice, bob):
    link_by_device(alice, bob)
    link_by_address(alice, bob)
    logged_in(bob, device=DEVICE)
    link = Link.objects.get()
    assert link.strength == "strong"
    assert set(link.reasons) == {"device", "address"}
    assert link.reasons["device"]["seen"] == 2
    assert Case.objects.filter(kind="linked_accounts").count() == 1
    assert set(Case.objects.get().evidence["reasons"]) == {"device", "address"}


def test_a_shared_address_alone_is_a_weak_link_that_keeps_nobody_apart(alice, bob):
    link = link_by_address(alice, bob)
    assert link.strength == "weak"
    assert set(link.reasons) == {"address"}
    assert seating.pairs_apart([alice.pk, bob.pk]) == set()
    assert not Case.objects.exists(), "a weak link opens no case by itself"


def test_an_address_shared_by_a_crowd_links_nobody(alice):
    crowd = [make_user(f"crowd{n}") for n in range(signals.ADDRESS_CROWD + 1)]
    for user in crowd:
        logged_in(user, address="100.64.0.1")
    links_before = Link.objects.count()
    logged_in(alice, address="100.64.0.1")
    assert Link.objects.filter(low_id=alice.pk).count() + Link.objects.filter(high_id=alice.pk).count() == 0
    assert links_before == Link.objects.count()


def test_an_address_links_up_to_a_crowd_and_no_further(alice, bob):
    """Seen on ADDRESS_CROWD other accounts, an address links to each of them; on one more, to
    none (however often one of them logged in: accounts are counted, not sightings)."""
    others = [make_user(f"other{n}") for n in range(signals.ADDRESS_CROWD)]
    for user in others:
        for _ in range(3):
            logged_in(user, address="100.64.0.2")
    logged_in(alice, address="100.64.0.2")
    linked = set(Link.objects.filter(low_id=alice.pk).values_list("high_id", flat=True))
    linked |= set(Link.objects.filter(high_id=alice.pk).values_list("low_id", flat=True))
    assert linked == {user.pk for user in others}
    logged_in(bob, address="100.64.0.2")
    assert not Link.objects.filter(low_id=bob.pk).exists()
    assert not Link.objects.filter(high_id=bob.pk).exists()


def test_an_address_links_only_sightings_within_its_window(alice, bob):
    now = timezone.now()
    signals.record(
        "login", bob.pk, address="203.0.113.9", at=now - timedelta(hours=signals.ADDRESS_HOURS, minutes=5)
    )
    signals.record("login", alice.pk, address="203.0.113.9", at=now)
    assert not Link.objects.exists(), "bob was last seen there more than a day ago"
    signals.record("login", bob.pk, address="203.0.113.9", at=now - timedelta(hours=1))
    signals.record("login", alice.pk, address="203.0.113.9", at=now)
    assert Link.objects.get().reasons.keys() == {"address"}


def test_each_sighting_is_one_row_with_its_client(alice):
    logged_in(alice, device=DEVICE, address="2401:4900::1")
    row = Signal.objects.get(user=alice, kind="login")
    assert (row.kind, row.device, row.address, row.agent) == ("login", DEVICE, "2401:4900::1", "pytest")


def test_a_deposit_records_the_instrument_as_a_keyed_hash_and_links_its_payers(
    alice, bob, django_capture_on_commit_callbacks
):
    from wallet import cashier

    for user in (alice, bob):
        with django_capture_on_commit_callbacks(execute=True):
            cashier.create_deposit(user, 500_00, instrument="shared.payer@okbank")
    rows = Signal.objects.filter(kind="deposit").order_by("id")
    assert [r.user_id for r in rows] == [alice.pk, bob.pk]
    assert len(rows[0].instrument) == 64
    assert rows[0].instrument == rows[1].instrument
    assert "okbank" not in rows[0].instrument
    link = Link.objects.get()
    assert (link.strength, set(link.reasons)) == ("strong", {"instrument"})
    assert links.strongly_linked(alice.pk) == [bob.pk]


def test_a_deposit_without_an_instrument_records_nothing(alice, django_capture_on_commit_callbacks):
    from wallet import cashier

    with django_capture_on_commit_callbacks(execute=True):
        cashier.create_deposit(alice, 500_00)
    assert not Signal.objects.filter(kind="deposit").exists()


def test_the_deposit_form_and_the_api_pass_the_instrument_on(alice, bob, django_capture_on_commit_callbacks):
    from django.test import Client

    from tests.api.support import client_for

    page = Client()
    page.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        assert page.post("/wallet/deposit/", {"amount": "500", "instrument": "home@upi"}).status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_for(bob).post("/api/wallet/deposits/", {"amount": 500_00, "instrument": "home@upi"})
    assert answer.status_code == 201
    assert [s.user_id for s in Signal.objects.filter(kind="deposit").order_by("id")] == [alice.pk, bob.pk]
    assert Link.objects.get().reasons.keys() == {"instrument"}
