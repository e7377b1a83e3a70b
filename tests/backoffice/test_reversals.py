"""Reversing a ledger entry from a player's statement: the risk role only, a reason required,
a new correcting journal through the ledger (nothing edited), four eyes above the cashier's line
(the void's second-staff mechanism), pool money and a withdrawal's journals never (R-MONEY-5),
and each reversal's reason and author on the statement and in the audit log naming the player."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from backoffice import actions
from backoffice.models import AuditAction, AuditLog, ReversalRequest, SecondStaffRequest, VoidRequest
from games.errors import GameError
from tests.backoffice.support import _fast_passwords, deposit, seed  # noqa: F401
from tests.conftest import make_user
from wallet.ledger import balance_of, user_spec
from wallet.models import Currency, Journal, JournalKind
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db

LINE = 10_000_00  # WALLET_SECOND_APPROVAL_OVER's default: ₹10,000


@pytest.fixture
def risk():
    return make_user("rita", staff=True, role="risk"), make_user("ravi", staff=True, role="risk")


def statement(client, player) -> str:
    return client.get(reverse("backoffice:statement", args=[player.pk])).content.decode()


def reverse_url(player, journal) -> str:
    return reverse("backoffice:reverse_entry", args=[player.pk, journal.pk])


def test_a_risk_member_reverses_a_deposit_from_the_statement_with_a_reason(seeded, client, risk):
    rita, _ = risk
    erin = seeded.users["erin"]
    deposit(erin, 3000)
    charged_back = Journal.objects.filter(kind=JournalKind.DEPOSIT, meta__deposit__isnull=False).latest("id")
    client.force_login(rita)
    assert f'href="{reverse_url(erin, charged_back)}"' in statement(client, erin), "a Reverse link"
    page = client.get(reverse_url(erin, charged_back)).content.decode()
    assert "₹30.00" in page, "what the journal moved, the Indian way"
    assert "Reverse it" in page
    before, journals, audits = (
        balance_of(user_spec(erin.pk)),
        Journal.objects.count(),
        AuditLog.objects.count(),
    )
    client.post(reverse_url(erin, charged_back), {"reason": "\u200b "})
    assert (Journal.objects.count(), AuditLog.objects.count()) == (journals, audits), "no reason, nothing"
    done = client.post(reverse_url(erin, charged_back), {"reason": "charged back by the bank"}, follow=True)
    assert "Reversed: journal reversal:" in done.content.decode()
    reversal = Journal.objects.get(reverses=charged_back)
    assert (reversal.kind, reversal.created_by, reversal.meta["reason"]) == (
        JournalKind.REVERSAL,
        rita,
        "charged back by the bank",
    )
    assert reversal.key == f"reversal:{charged_back.key}", "the ledger's own reversal, by its key"
    assert balance_of(user_spec(erin.pk)) == before - 3000
    assert Journal.objects.get(pk=charged_back.pk).content_hash == charged_back.content_hash, "nothing edited"
    log = AuditLog.objects.latest("id")
    assert (log.actor, log.action, log.target, log.details["user"]) == (
        rita,
        AuditAction.REVERSE_JOURNAL,
        f"journal:{charged_back.pk}",
        erin.pk,
    )
    lines = statement(client, erin)
    assert "Reverses deposit:" in lines
    assert "“charged back by the bank”, by rita" in lines, "the reversal's reason and author"
    assert "Reversed on" in lines, "and the entry it reversed says so"
    player_page = client.get(reverse("backoffice:player", args=[erin.pk])).content.decode()
    actions_on_her = player_page[player_page.index("Staff actions on this player") :]
    assert "Reversed a journal" in actions_on_her
    assert "charged back by the bank" in actions_on_her
    again = client.post(reverse_url(erin, charged_back), {"reason": "twice"}, follow=True).content.decode()
    assert "already reversed" in again
    assert Journal.objects.filter(reverses=charged_back).count() == 1
    assert reconcile() == []


def test_only_the_risk_role_may_reverse(seeded, client):
    erin = seeded.users["erin"]
    deposit(erin, 3000)
    journal = Journal.objects.filter(kind=JournalKind.DEPOSIT).latest("id")
    client.force_login(make_user("cash", staff=True, role="cashier"))
    assert "Reverse…" not in statement(client, erin), "a cashier reads the statement, without the action"
    assert client.get(reverse_url(erin, journal)).status_code == 403
    refused = client.post(reverse_url(erin, journal), {"reason": "oops"})
    assert refused.status_code == 403
    assert not Journal.objects.filter(reverses=journal).exists()


def test_pool_money_and_a_withdrawals_journals_offer_no_reversal_and_are_refused__R_MONEY_5(
    seeded, client, risk
):
    rita, _ = risk
    alice = seeded.users["alice"]
    client.force_login(rita)
    lines = statement(client, alice)
    refused = [
        Journal.objects.filter(kind=JournalKind.ENTRY_FEE, meta__user=alice.pk).first()
        or Journal.objects.filter(kind=JournalKind.ENTRY_FEE).first(),
        Journal.objects.get(kind=JournalKind.SPLIT),
        seeded.withdrawals["alice"].hold_journal,
        seeded.withdrawals["alice"].decision_journal,
    ]
    audits = AuditLog.objects.count()
    for journal in refused:
        assert journal is not None
        assert f'href="{reverse_url(alice, journal)}"' not in lines, journal.kind
        page = client.get(reverse_url(alice, journal)).content.decode()
        assert "cannot be reversed" in page, journal.kind
        assert "Reverse it" not in page
        client.post(reverse_url(alice, journal), {"reason": "undo it"})
        assert not Journal.objects.filter(reverses=journal).exists(), journal.kind
    assert AuditLog.objects.count() == audits, "a refusal writes no audit row"


def test_a_withdrawals_tax_and_its_correction_are_never_reversed(alice):
    sam = make_user("sam", staff=True)
    tax = Journal(key="tax_withheld:1:a", kind=JournalKind.TAX_WITHHELD, currency=Currency.INR, meta={})
    correction = Journal(
        key="withdrawal_returned:3",
        kind=JournalKind.ADJUSTMENT,
        currency=Currency.INR,
        meta={"withdrawal": 3},
    )
    for journal in (tax, correction):
        assert "a withdrawal's journals go with it" in actions.reversal_refused(journal)
        with pytest.raises(actions.WalletError):
            actions.reverse_journal(journal, "undo", sam)
    adjustment = Journal(key="adjustment:1", kind=JournalKind.ADJUSTMENT, currency=Currency.INR, meta={})
    assert actions.reversal_refused(adjustment) == ""


def test_above_the_cashiers_line_a_reversal_waits_for_a_second_staff_member(seeded, client, risk):
    rita, ravi = risk
    dave = seeded.users["dave"]
    deposit(dave, LINE + 1)
    big = Journal.objects.filter(kind=JournalKind.DEPOSIT).latest("id")
    before = balance_of(user_spec(dave.pk))
    client.force_login(rita)
    assert "a second staff member" in client.get(reverse_url(dave, big)).content.decode()
    client.post(reverse_url(dave, big), {"reason": "card reported stolen"})
    assert not Journal.objects.filter(reverses=big).exists(), "one pair of eyes moves nothing"
    assert balance_of(user_spec(dave.pk)) == before
    request = ReversalRequest.objects.get(journal=big)
    asked = AuditLog.objects.latest("id")
    assert (asked.action, asked.actor, asked.details["user"]) == (AuditAction.REQUEST_REVERSAL, rita, dave.pk)
    lines = statement(client, dave)
    assert "Reversals waiting for a second staff member" in lines
    assert "Reversal asked by rita: waits for a second staff member" in lines
    own = client.post(reverse_url(dave, big), {"request": request.pk, "reason": "me again"}, follow=True)
    assert "needs a second staff member" in own.content.decode()
    assert not Journal.objects.filter(reverses=big).exists()
    home = client.get(reverse("backoffice:home")).content.decode()
    assert f'href="{reverse_url(dave, big)}"' in home, "the home page lists what waits"
    assert "₹10,000.01" in home
    audit = client.get(reverse("backoffice:audit"), {"action": AuditAction.REQUEST_REVERSAL}).content.decode()
    assert "Amount: ₹10,000.01" in audit, "the audit's amounts as money, not paise"
    client.force_login(ravi)
    page = client.get(reverse_url(dave, big)).content.decode()
    assert "Confirm the reversal" in page
    assert "card reported stolen" in page
    client.post(reverse_url(dave, big), {"request": request.pk, "reason": "checked with the bank"})
    reversal = Journal.objects.get(reverses=big)
    assert (reversal.created_by, reversal.meta["reason"]) == (ravi, "card reported stolen")
    assert balance_of(user_spec(dave.pk)) == before - (LINE + 1)
    done = AuditLog.objects.latest("id")
    assert (done.action, done.actor, done.details["requested_by"], done.details["user"]) == (
        AuditAction.REVERSE_JOURNAL,
        ravi,
        rita.pk,
        dave.pk,
    )
    assert "“card reported stolen”, by ravi, asked by rita" in statement(client, dave)
    assert reconcile() == []


def test_the_line_is_the_cashiers_and_chips_are_not_money(seeded, settings, risk):
    rita, _ = risk
    settings.WALLET_SECOND_APPROVAL_OVER = 2000
    erin = seeded.users["erin"]
    topup = Journal.objects.get(kind=JournalKind.CHIPS_TOPUP)
    assert topup.currency == Currency.CHIPS
    assert isinstance(actions.reverse_journal(topup, "given twice", rita, player=erin.pk), Journal)
    deposit(erin, 3000)
    rupees = Journal.objects.filter(kind=JournalKind.DEPOSIT).latest("id")
    assert isinstance(actions.reverse_journal(rupees, "charged back", rita), ReversalRequest)
    assert AuditLog.objects.latest("id").details["user"] == erin.pk, "the one player it touched"


def test_the_admin_action_keeps_the_four_eyes(seeded, client):
    client.force_login(seeded.sam)
    dave = seeded.users["dave"]
    deposit(dave, LINE + 1)
    big = Journal.objects.filter(kind=JournalKind.DEPOSIT).latest("id")
    client.post(
        reverse("admin:wallet_journal_changelist"),
        {
            "action": "reverse_journals",
            "_selected_action": [big.pk],
            "apply": "reverse_journals",
            "reason": "x",
        },
    )
    assert not Journal.objects.filter(reverses=big).exists()
    assert ReversalRequest.objects.filter(journal=big, requested_by=seeded.sam).exists()


def test_voids_and_reversals_share_one_second_staff_mechanism():
    assert issubclass(VoidRequest, SecondStaffRequest)
    assert issubclass(ReversalRequest, SecondStaffRequest)
    assert VoidRequest.take.__func__ is ReversalRequest.take.__func__
    source = Path(actions.__file__).read_text()
    assert re.search(r"\bdef take\b", source) is None, "no second copy of the mechanism"


def test_a_request_waiting_is_not_bypassed_when_the_line_is_raised(seeded, settings, risk):
    rita, ravi = risk
    erin = seeded.users["erin"]
    deposit(erin, LINE + 1)
    big = Journal.objects.filter(kind=JournalKind.DEPOSIT).latest("id")
    actions.reverse_journal(big, "card reported stolen", rita)
    settings.WALLET_SECOND_APPROVAL_OVER = 10 * LINE
    with pytest.raises(GameError) as waiting:
        actions.reverse_journal(big, "no need for two now", ravi)
    assert waiting.value.code == "already_requested"
    assert not Journal.objects.filter(reverses=big).exists()
