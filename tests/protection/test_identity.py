"""R-PROT-7: a verified identity before any withdrawal; only the document's type, last four
characters and the provider's reference are kept; risk staff review, never their own."""

from __future__ import annotations

import pytest
from django.test import Client

from backoffice import actions
from backoffice.models import AuditAction, AuditLog
from protection import kyc
from protection.models import KycStatus, ProtectionEvent
from protection.refusal import ProtectionError
from tests.api.support import _fresh_throttles, assert_error, client_for  # noqa: F401
from tests.conftest import make_user
from tests.protection.support import funded, journals, wallet
from wallet import cashier
from wallet.errors import WalletError

pytestmark = pytest.mark.django_db

NUMBER = "ABCDE1234Q"


@pytest.fixture
def newcomer(db):
    user = make_user("nina", verified=False)
    funded(user)
    return user


def test_a_withdrawal_without_a_verified_identity_is_refused_with_the_reason__R_PROT_7(newcomer, client):
    before, balance = journals(), wallet(newcomer)
    with pytest.raises(WalletError) as refused:
        cashier.request_withdrawal(newcomer, 1_000_00)
    assert refused.value.code == "kyc_required"
    assert "Verify your identity before you withdraw" in refused.value.message
    body = assert_error(
        client_for(newcomer).post("/api/wallet/withdrawals/", {"amount": 1_000_00}, format="json"), 409
    )
    assert body["error"] == "kyc_required"
    client.force_login(newcomer)
    page = client.post("/wallet/withdraw/", {"amount": "1000"})
    assert "Verify your identity before you withdraw" in page.content.decode()
    assert (journals(), wallet(newcomer)) == (before, balance), "nothing posted"


def test_a_player_verifies_through_their_page_and_risk_staff_decide__R_PROT_7(newcomer, client):
    client.force_login(newcomer)
    response = client.post(
        "/wallet/responsible-play/identity/", {"document_type": "pan", "number": "abcde 1234q"}, follow=True
    )
    assert "waiting for review" in response.content.decode()
    check = kyc.of(newcomer)
    assert (check.status, check.document_type, check.last_four) == (KycStatus.PENDING, "pan", "234Q")
    assert check.provider_ref.startswith("sandbox-kyc-")
    rita = make_user("rita", staff=True, role="risk")
    cash = make_user("cash", staff=True, role="cashier")
    with pytest.raises(WalletError, match="does not allow"):
        actions.decide_identity(newcomer.pk, True, "looks fine", cash)
    actions.decide_identity(newcomer.pk, True, "PAN matches the name", rita)
    assert kyc.verified(newcomer)
    audit = AuditLog.objects.get(action=AuditAction.VERIFY_IDENTITY)
    assert (audit.actor, audit.target, audit.details["last_four"]) == (rita, f"user:{newcomer.pk}", "234Q")
    assert cashier.request_withdrawal(newcomer, 1_000_00).amount == 1_000_00
    kinds = set(ProtectionEvent.objects.filter(user=newcomer).values_list("kind", flat=True))
    assert {"kyc_submitted", "kyc_verified"} <= kinds


def test_nobody_reviews_their_own_check_and_a_rejected_player_may_send_again__R_PROT_7(db):
    risky = make_user("rita", staff=True, role="risk", verified=False)
    kyc.submit(risky, "passport", "Z1234567", provider=kyc.SandboxKyc())
    with pytest.raises(ProtectionError, match="your own"):
        actions.decide_identity(risky.pk, True, "me", risky)
    ravi = make_user("ravi", staff=True, role="risk")
    actions.decide_identity(risky.pk, False, "The photo is unreadable", ravi)
    assert kyc.of(risky).status == KycStatus.REJECTED
    assert kyc.of(risky).reason == "The photo is unreadable"
    kyc.submit(risky, "passport", "Z7654321", provider=kyc.SandboxKyc())
    assert kyc.of(risky).status == KycStatus.PENDING
    with pytest.raises(ProtectionError):
        kyc.submit(risky, "passport", "Z7654321", provider=kyc.SandboxKyc())


def test_no_page_shows_more_than_the_type_the_last_four_and_the_reference__R_PROT_7(newcomer, caplog):
    kyc.submit(newcomer, "aadhaar", "1234 5678 9012")
    staff = make_user("admin1", staff=True)
    pages = [
        (newcomer, "/wallet/responsible-play/"),
        (newcomer, "/wallet/"),
        (staff, "/backoffice/identity/"),
        (staff, f"/backoffice/players/{newcomer.pk}/"),
        (staff, "/backoffice/protection/"),
        (staff, "/admin/protection/verification/"),
        (staff, "/admin/protection/protectionevent/"),
    ]
    for user, url in pages:
        browser = Client()
        browser.force_login(user)
        response = browser.get(url)
        assert response.status_code in (200, 404), url
        text = response.content.decode()
        assert "123456789012" not in text, url
        assert "1234 5678" not in text, url
        assert "56789012" not in text, url
    shown = Client()
    shown.force_login(staff)
    assert "ending 9012" in shown.get("/backoffice/identity/").content.decode()
    assert "123456789012" not in caplog.text


def test_the_protection_page_says_each_change_in_words(newcomer):
    from protection import exclusions, limits

    limits.set_limit(newcomer, "deposit_day", 2_000_00)
    exclusions.take(newcomer, "break_7d")
    kyc.submit(newcomer, "pan", NUMBER)
    staff = make_user("admin1", staff=True)
    browser = Client()
    browser.force_login(staff)
    page = browser.get("/backoffice/protection/").content.decode()
    assert "Deposits per day: ₹2,000.00 (was no limit)" in page
    assert "A break of 7 days, until" in page
    assert "PAN card ending 234Q" in page
    assert "limit_lowered" not in page, "words, not codes"


def test_a_program_manages_limits_breaks_and_identity_through_the_api__R_PROT_2_R_PROT_5_R_PROT_7(newcomer):
    api = client_for(newcomer)
    first = api.get("/api/protection/").json()
    assert (first["money_play"], first["identity"], first["region"]) == (True, "unverified", "IN-KA")
    body = api.post("/api/protection/limits/", {"kind": "stake_day", "amount": 50000}, format="json").json()
    stake = next(row for row in body["limits"] if row["kind"] == "stake_day")
    assert (stake["amount"], stake["left"]) == (50000, 50000)
    raised = api.post("/api/protection/limits/", {"kind": "stake_day", "amount": 90000}, format="json").json()
    stake = next(row for row in raised["limits"] if row["kind"] == "stake_day")
    assert (stake["amount"], stake["pending"]) == (50000, 90000), "a raise waits"
    assert_error(
        api.post("/api/protection/limits/", {"kind": "weekly", "amount": 5}, format="json"), 400, "bad_limit"
    )
    sent = api.post(
        "/api/protection/identity/", {"document_type": "pan", "number": NUMBER}, format="json"
    ).json()
    assert (sent["identity"], sent["identity_document"]) == ("pending", "PAN card ending 234Q")
    assert NUMBER not in str(sent)
    after = api.post("/api/protection/break/", {"choice": "exclude_6m"}, format="json").json()
    assert (after["money_play"], after["exclusion"]) == (False, "self_exclusion")
    assert "excluded yourself" in after["money_play_refused"]
    assert_error(
        api.post("/api/protection/break/", {"choice": "break_1d"}, format="json"), 409, "already_longer"
    )
