"""Identity documents (R-PROT-7): only a keyed hash of the number and its last four are kept;
one verified identity per person: a document verified on another account waits for staff, with
a "linked accounts" case."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from django.test import Client

from fairplay.models import Case, Link, Signal
from protection import kyc
from protection.fingerprint import document_hash, instrument_hash, keyed_hash
from protection.models import KycStatus, ProtectionEvent, Verification
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

NUMBER = "ABCDE1234F"


def submit(user, number=NUMBER, capture=None):  # type: ignore[no-untyped-def]
    with capture(execute=True):
        return kyc.submit(user, "pan", number, provider=kyc.SandboxKyc())


def test_the_hash_is_an_hmac_with_the_server_key(settings):
    settings.FAIRPLAY_HASH_KEY = "k" * 40
    expected = hmac.new(b"k" * 40, b"document:pan:ABCDE1234F", hashlib.sha256).hexdigest()
    assert document_hash("pan", "abcde 1234-f") == expected
    settings.FAIRPLAY_HASH_KEY = "another key" * 4
    assert document_hash("pan", NUMBER) != expected, "another key, another hash"
    assert keyed_hash("instrument", NUMBER) != keyed_hash("document:pan", NUMBER)
    assert instrument_hash("Payer@OKBank") == instrument_hash("payer@okbank")


def test_the_hash_key_derives_from_the_secret_key_when_not_set(settings):
    settings.FAIRPLAY_HASH_KEY = ""
    derived = hashlib.sha256(b"fairplay-hash-key:" + settings.SECRET_KEY.encode()).digest()
    assert (
        document_hash("pan", NUMBER)
        == hmac.new(derived, b"document:pan:" + NUMBER.encode(), hashlib.sha256).hexdigest()
    )


def test_no_raw_document_number_is_stored_anywhere_only_its_hash_and_last_four(
    django_capture_on_commit_callbacks,
):
    user = make_user("nina", verified=False)
    submit(user, "abcde-1234-f", django_capture_on_commit_callbacks)
    check = Verification.objects.get(user=user)
    assert (check.last_four, check.document_hash) == ("234F", document_hash("pan", NUMBER))
    signal = Signal.objects.get(user=user, kind="identity")
    assert signal.document == check.document_hash
    stored = [
        *Verification.objects.values_list(),
        *Signal.objects.values_list(),
        *ProtectionEvent.objects.values_list("details"),
    ]
    assert NUMBER not in repr(stored)
    assert "ABCDE1234" not in repr(stored)


def test_a_document_verified_on_another_account_waits_for_staff_with_a_case__R_PROT_7(
    django_capture_on_commit_callbacks,
):
    first = make_user("first", verified=False)
    submit(first, capture=django_capture_on_commit_callbacks)
    kyc.decide(first, True, by=None, reason="the provider")
    second = make_user("second", verified=False)
    submit(second, capture=django_capture_on_commit_callbacks)
    held = kyc.decide(second, True, by=None, reason="the provider")
    assert (held.status, held.held_for_review) == (KycStatus.PENDING, True)
    assert Verification.objects.get(user=second).status == KycStatus.PENDING, "not verified by the provider"
    case = Case.objects.get(key=f"identity:{second.pk}")
    assert case.kind == "linked_accounts"
    assert sorted(case.subjects.values_list("pk", flat=True)) == [first.pk, second.pk]
    assert case.evidence["identity_verified_on"] == [first.pk]
    link = Link.objects.get()
    assert (link.strength, set(link.reasons)) == ("strong", {"document"})
    assert Case.objects.filter(key=f"link:{first.pk}-{second.pk}").exists()


def test_staff_see_it_in_the_identity_queue_and_decide(django_capture_on_commit_callbacks, sam):
    first = make_user("first", verified=False)
    submit(first, capture=django_capture_on_commit_callbacks)
    kyc.decide(first, True, by=None, reason="the provider")
    second = make_user("second", verified=False)
    submit(second, capture=django_capture_on_commit_callbacks)
    kyc.decide(second, True, by=None, reason="the provider")
    staff = Client()
    staff.force_login(sam)
    page = staff.get("/backoffice/identity/").content.decode()
    assert "Already verified on another account" in page
    assert f"/backoffice/players/{first.pk}/" in page
    done = kyc.decide(second, False, by=sam, reason="One account per person: use your first account.")
    assert (done.status, done.held_for_review) == (KycStatus.REJECTED, False)


def test_a_document_of_ones_own_is_verified_by_the_provider(django_capture_on_commit_callbacks):
    user = make_user("own", verified=False)
    submit(user, capture=django_capture_on_commit_callbacks)
    assert kyc.decide(user, True, by=None, reason="the provider").status == KycStatus.VERIFIED
    assert not Case.objects.exists()
