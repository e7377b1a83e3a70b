"""Four eyes, closed without the action: the member who asked withdraws their own request, or a
second member holding the permission to confirm declines it, each with a reason. The request
no longer waits, nothing is done (no void, no journal), a new one may be asked, and it stays as
a record of who closed it, when, why and how; one audit row each, in the same transaction. The
same for the three kinds (voids, reversals, refunds), through the pages and the staff API."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse

from backoffice import actions, risk
from backoffice.models import (
    AuditAction,
    AuditLog,
    Closed,
    RefundRequest,
    ReversalRequest,
    SecondStaffRequest,
    VoidRequest,
)
from fairplay.cases import open_case
from fairplay.models import Case
from games.errors import GameError
from games.models import Table
from tests.api.support import client_for
from tests.backoffice.support import _fast_passwords, deposit  # noqa: F401
from tests.conftest import make_user
from tests.tables.support import Clock, seat_all, template
from wallet.errors import Code, WalletError
from wallet.ledger import balance_of, user_spec
from wallet.models import Journal, JournalKind
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db

MONEY = 1_000_000
LINE = 10_000_00  # WALLET_SECOND_APPROVAL_OVER's default: ₹10,000


@pytest.fixture
def staff():
    """Two risk members (rita, ravi) and a support member (sue), who may not void or reverse."""
    return (
        make_user("rita", staff=True, role="risk"),
        make_user("ravi", staff=True, role="risk"),
        make_user("sue", staff=True, role="support"),
    )


@pytest.fixture
def running(players) -> Table:
    a, b = players[:2]
    return seat_all(template(seats=2, name="101 for two", entry_fee=2500), [a, b], Clock(), money=MONEY)


@pytest.fixture
def big(players) -> Journal:
    """A deposit above the cashier's line: its reversal waits for a second member."""
    deposit(players[0], LINE + 1)
    return Journal.objects.filter(kind=JournalKind.DEPOSIT).latest("id")


def audit_rows(*actions_: AuditAction) -> list[tuple[str, str, str, int]]:
    rows = AuditLog.objects.filter(action__in=actions_).order_by("id")
    return list(rows.values_list("action", "target", "reason", "actor_id"))


# --- voids ----------------------------------------------------------------------------------


def test_the_member_who_asked_withdraws_a_void_and_the_game_goes_on(running, staff):
    rita, _, _ = staff
    asked = actions.request_void(running.pk, "a fault froze the table", rita)
    closed = actions.withdraw_void(asked.pk, "the fault cleared by itself", rita)
    stored = VoidRequest.objects.get(pk=asked.pk)
    assert (stored.outcome, stored.closed_by, stored.close_reason, stored.state) == (
        Closed.WITHDRAWN,
        rita,
        "the fault cleared by itself",
        "withdrawn",
    )
    assert stored.closed_at is not None
    assert stored.closed_at == closed.closed_at
    assert (stored.confirmed_by, stored.confirmed_at) == (None, None), "never confirmed"
    assert Table.objects.get(pk=running.pk).status == "playing", "nothing was voided"
    assert list(VoidRequest.waiting()) == []
    assert audit_rows(AuditAction.WITHDRAW_VOID, AuditAction.VOID_GAME) == [
        (AuditAction.WITHDRAW_VOID, f"table:{running.pk}", "the fault cleared by itself", rita.pk)
    ]
    row = AuditLog.objects.get(action=AuditAction.WITHDRAW_VOID)
    assert row.details == {
        "request": asked.pk,
        "requested_by": rita.pk,
        "requested_reason": "a fault froze the table",
    }
    again = actions.request_void(running.pk, "it froze again", rita)
    assert again.pk != asked.pk, "a new request for the same table after the close"
    assert [r.pk for r in VoidRequest.waiting()] == [again.pk]


def test_only_the_member_who_asked_may_withdraw_a_void(running, staff):
    rita, ravi, _ = staff
    asked = actions.request_void(running.pk, "a fault froze the table", rita)
    with pytest.raises(WalletError) as refused:
        actions.withdraw_void(asked.pk, "not yours to withdraw", ravi)
    assert refused.value.code == Code.NOT_STAFF
    assert "Only the member who asked for this void may withdraw it" in refused.value.message
    assert VoidRequest.objects.get(pk=asked.pk).state == "waiting"
    assert audit_rows(AuditAction.WITHDRAW_VOID) == [], "a refusal leaves no audit row"


def test_a_second_member_declines_a_void_and_the_game_goes_on(running, staff):
    rita, ravi, _ = staff
    asked = actions.request_void(running.pk, "a fault froze the table", rita)
    actions.decline_void(asked.pk, "the table is moving again", ravi)
    stored = VoidRequest.objects.get(pk=asked.pk)
    assert (stored.outcome, stored.closed_by, stored.close_reason) == (
        Closed.DECLINED,
        ravi,
        "the table is moving again",
    )
    assert Table.objects.get(pk=running.pk).status == "playing"
    assert audit_rows(AuditAction.DECLINE_VOID, AuditAction.VOID_GAME) == [
        (AuditAction.DECLINE_VOID, f"table:{running.pk}", "the table is moving again", ravi.pk)
    ]
    assert str(stored) == f"void of table {running.pk}: declined (the table is moving again)"


def test_the_member_who_asked_may_not_decline_their_own_void(running, staff):
    rita, _, _ = staff
    asked = actions.request_void(running.pk, "a fault froze the table", rita)
    with pytest.raises(WalletError) as refused:
        actions.decline_void(asked.pk, "I say no to myself", rita)
    assert refused.value.code == Code.NOT_STAFF
    assert "withdraw it instead" in refused.value.message
    assert VoidRequest.objects.get(pk=asked.pk).state == "waiting"


def test_a_member_without_the_void_permission_may_not_decline(running, staff):
    rita, _, sue = staff
    asked = actions.request_void(running.pk, "a fault froze the table", rita)
    with pytest.raises(WalletError) as refused:
        actions.decline_void(asked.pk, "no", sue)
    assert (refused.value.code, refused.value.message) == (
        Code.NOT_STAFF,
        "Your staff role does not allow this.",
    )
    with pytest.raises(WalletError):
        actions.decline_void(asked.pk, "\u200b ", make_user("rex", staff=True, role="risk"))  # no reason
    assert VoidRequest.objects.get(pk=asked.pk).state == "waiting"
    assert audit_rows(AuditAction.DECLINE_VOID) == []


@pytest.mark.parametrize("close", ["withdraw", "decline"])
def test_a_closed_void_cannot_be_confirmed_or_closed_again(running, staff, close):
    rita, ravi, _ = staff
    asked = actions.request_void(running.pk, "a fault froze the table", rita)
    if close == "withdraw":
        actions.withdraw_void(asked.pk, "cleared", rita)
    else:
        actions.decline_void(asked.pk, "not needed", ravi)
    said = "withdrawn" if close == "withdraw" else "declined"
    with pytest.raises(GameError) as refused:
        actions.confirm_void(asked.pk, "void it anyway", ravi)
    assert (refused.value.code, refused.value.message) == (
        "already_decided",
        f"This void was already {said}: ask again if needed.",
    )
    with pytest.raises(GameError) as twice:
        actions.withdraw_void(asked.pk, "again", rita)
    assert twice.value.code == "already_decided"
    with pytest.raises(GameError) as declined:
        actions.decline_void(asked.pk, "again", make_user("rex", staff=True, role="risk"))
    assert declined.value.code == "already_decided"
    assert Table.objects.get(pk=running.pk).status == "playing"
    assert AuditLog.objects.filter(action=AuditAction.VOID_GAME).count() == 0
    assert (
        AuditLog.objects.filter(action__in=[AuditAction.WITHDRAW_VOID, AuditAction.DECLINE_VOID]).count() == 1
    )


def test_a_confirmed_void_cannot_be_withdrawn_or_declined(running, staff):
    rita, ravi, _ = staff
    asked = actions.request_void(running.pk, "a fault froze the table", rita)
    actions.confirm_void(asked.pk, "seen the fault", ravi)
    with pytest.raises(GameError) as withdrawn:
        actions.withdraw_void(asked.pk, "too late", rita)
    assert (withdrawn.value.code, withdrawn.value.message) == (
        "already_decided",
        "This void was already confirmed.",
    )
    with pytest.raises(GameError) as declined:
        actions.decline_void(asked.pk, "too late", make_user("rex", staff=True, role="risk"))
    assert declined.value.code == "already_decided"
    stored = VoidRequest.objects.get(pk=asked.pk)
    assert (stored.state, stored.closed_at, stored.outcome) == ("confirmed", None, "")


def test_the_voids_page_withdraws_declines_and_lists_the_closed_requests(client, running, staff, players):
    rita, ravi, _ = staff
    a, b = players[2:4]
    other = seat_all(template(seats=2, name="101 other", entry_fee=2500), [a, b], Clock(), money=MONEY)
    mine = actions.request_void(running.pk, "a fault froze the table", rita)
    theirs = actions.request_void(other.pk, "players all gone", ravi)
    client.force_login(rita)
    page = client.get(reverse("backoffice:voids")).content.decode()
    withdraw_url = reverse("backoffice:withdraw_void", args=[mine.pk])
    decline_url = reverse("backoffice:decline_void", args=[theirs.pk])
    assert f'action="{withdraw_url}"' in page, "the asker withdraws their own"
    assert "Withdraw my request" in page
    assert f'action="{decline_url}"' in page, "and declines another's"
    assert f'action="{reverse("backoffice:decline_void", args=[mine.pk])}"' not in page
    assert f'action="{reverse("backoffice:withdraw_void", args=[theirs.pk])}"' not in page
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(rita)
    assert csrf_client.post(withdraw_url, {"reason": "no token"}).status_code == 403, "CSRF checked"
    assert client.get(withdraw_url).status_code == 405, "POST only"
    done = client.post(withdraw_url, {"reason": "the fault cleared"}, follow=True).content.decode()
    assert f"Table {running.pk}: your request for its void is withdrawn." in done
    refused = client.post(
        reverse("backoffice:withdraw_void", args=[theirs.pk]), {"reason": "not mine"}, follow=True
    ).content.decode()
    assert "Only the member who asked for this void may withdraw it" in refused
    done = client.post(decline_url, {"reason": "they came back"}, follow=True).content.decode()
    assert f"Table {other.pk}: the void is declined; the game goes on." in done
    again = client.post(decline_url, {"reason": "twice"}, follow=True).content.decode()
    assert "This void was already declined: ask again if needed." in again
    assert "Withdrawn or declined" in done
    assert f"Table {running.pk}: asked by rita (“a fault froze the table”), withdrawn by rita on" in done
    assert f"Table {other.pk}: asked by ravi (“players all gone”), declined by rita on" in done
    assert "“they came back”" in done
    assert [t.status for t in Table.objects.filter(pk__in=[running.pk, other.pk])] == ["playing", "playing"]
    home = client.get(reverse("backoffice:home")).content.decode()
    assert "Voids waiting for a second staff member: <strong>0</strong>" in home
    client.force_login(staff[2])
    assert client.post(decline_url, {"reason": "no"}).status_code == 403, "the page needs the void role"


# --- reversals ------------------------------------------------------------------------------


def test_a_second_member_declines_a_reversal_and_the_journal_stands(big, players, staff):
    rita, ravi, _ = staff
    player = players[0]
    before = balance_of(user_spec(player.pk))
    asked = actions.reverse_journal(big, "card reported stolen", rita)
    assert isinstance(asked, ReversalRequest)
    actions.decline_reversal(asked.pk, "the bank says the card is fine", ravi)
    stored = ReversalRequest.objects.get(pk=asked.pk)
    assert (stored.state, stored.closed_by, stored.close_reason) == (
        "declined",
        ravi,
        "the bank says the card is fine",
    )
    assert not Journal.objects.filter(reverses=big).exists(), "no journal"
    assert balance_of(user_spec(player.pk)) == before
    assert audit_rows(AuditAction.DECLINE_REVERSAL, AuditAction.REVERSE_JOURNAL) == [
        (AuditAction.DECLINE_REVERSAL, f"journal:{big.pk}", "the bank says the card is fine", ravi.pk)
    ]
    with pytest.raises(GameError) as refused:
        actions.confirm_reversal(asked.pk, "reverse it anyway", make_user("rex", staff=True, role="risk"))
    assert refused.value.code == "already_decided"
    again = actions.reverse_journal(big, "a second chargeback notice", rita)
    assert isinstance(again, ReversalRequest)
    assert again.pk != asked.pk, "asked again after the decline"
    actions.confirm_reversal(again.pk, "the notice is real", ravi)
    assert Journal.objects.get(reverses=big).meta["reason"] == "a second chargeback notice"
    assert reconcile() == []


def test_a_reversal_is_withdrawn_by_its_asker_only_and_not_declined_by_them(big, staff):
    rita, ravi, sue = staff
    asked = actions.reverse_journal(big, "card reported stolen", rita)
    with pytest.raises(WalletError) as by_other:
        actions.withdraw_reversal(asked.pk, "not mine", ravi)
    assert by_other.value.code == Code.NOT_STAFF
    with pytest.raises(WalletError) as own_decline:
        actions.decline_reversal(asked.pk, "my own", rita)
    assert "You asked for this reversal: withdraw it instead" in own_decline.value.message
    with pytest.raises(WalletError) as no_role:
        actions.decline_reversal(asked.pk, "no", sue)
    assert no_role.value.message == "Your staff role does not allow this."
    actions.withdraw_reversal(asked.pk, "asked on the wrong deposit", rita)
    assert ReversalRequest.objects.get(pk=asked.pk).state == "withdrawn"
    assert audit_rows(AuditAction.WITHDRAW_REVERSAL, AuditAction.DECLINE_REVERSAL) == [
        (AuditAction.WITHDRAW_REVERSAL, f"journal:{big.pk}", "asked on the wrong deposit", rita.pk)
    ]
    assert not Journal.objects.filter(reverses=big).exists()


def test_a_reversed_request_cannot_be_withdrawn_or_declined(big, staff):
    rita, ravi, _ = staff
    asked = actions.reverse_journal(big, "card reported stolen", rita)
    actions.confirm_reversal(asked.pk, "checked", ravi)
    with pytest.raises(GameError) as withdrawn:
        actions.withdraw_reversal(asked.pk, "too late", rita)
    assert withdrawn.value.message == "This reversal was already confirmed."
    with pytest.raises(GameError) as declined:
        actions.decline_reversal(asked.pk, "too late", ravi)
    assert declined.value.code == "already_decided"


def test_the_reversal_page_withdraws_declines_and_shows_the_closed_requests(client, big, players, staff):
    rita, ravi, _ = staff
    player = players[0]
    here = reverse("backoffice:reverse_entry", args=[player.pk, big.pk])
    asked = actions.reverse_journal(big, "card reported stolen", rita)
    client.force_login(rita)
    page = client.get(here).content.decode()
    assert "Withdraw my request" in page
    assert 'value="withdraw"' in page
    assert "Decline the reversal" not in page
    done = client.post(
        here, {"request": asked.pk, "decision": "withdraw", "reason": "wrong deposit"}, follow=True
    ).content.decode()
    assert "Withdrawn: your request for this reversal is closed; nothing moved." in done
    assert "Requests withdrawn or declined" in done
    assert "(“card reported stolen”), withdrawn by rita on" in done
    assert "“wrong deposit”" in done
    assert "Ask for the reversal" in done, "it may be asked again"
    second = actions.reverse_journal(big, "chargeback notice", rita)
    client.force_login(ravi)
    page = client.get(here).content.decode()
    assert "Confirm the reversal" in page
    assert "Decline the reversal" in page
    assert "Withdraw my request" not in page
    mine = client.post(
        here, {"request": second.pk, "decision": "withdraw", "reason": "not mine"}, follow=True
    ).content.decode()
    assert "Only the member who asked for this reversal may withdraw it" in mine
    done = client.post(
        here, {"request": second.pk, "decision": "decline", "reason": "the bank disagrees"}, follow=True
    ).content.decode()
    assert "Declined: the journal stands; nothing moved." in done
    assert "(“chargeback notice”), declined by ravi on" in done
    assert not Journal.objects.filter(reverses=big).exists()
    statement = client.get(reverse("backoffice:statement", args=[player.pk])).content.decode()
    assert "Reversals waiting for a second staff member" not in statement, "nothing waits now"
    assert "waits for a second staff member" not in statement


def test_the_staff_api_withdraws_and_declines_a_reversal(big, staff):
    rita, ravi, sue = staff
    asked = actions.reverse_journal(big, "card reported stolen", rita)
    url = f"/api/staff/reversals/{asked.pk}/"
    refused = client_for(ravi).post(url + "withdraw/", {"reason": "not mine"}, format="json")
    assert (refused.status_code, refused.json()["error"]) == (403, "not_staff")
    assert client_for(sue).post(url + "decline/", {"reason": "no"}, format="json").status_code == 403
    answered = client_for(ravi).post(url + "decline/", {"reason": "the bank disagrees"}, format="json")
    assert answered.status_code == 200
    assert answered.json() == {
        "request": asked.pk,
        "journal": big.pk,
        "status": "declined",
        "message": "Closed: the journal stands; a new reversal of it may be asked for.",
    }
    again = client_for(rita).post(url + "withdraw/", {"reason": "too late"}, format="json")
    assert (again.status_code, again.json()["error"]) == (409, "already_decided")
    assert (
        client_for(ravi)
        .post("/api/staff/reversals/999999/decline/", {"reason": "x"}, format="json")
        .status_code
        == 404
    )
    second = actions.reverse_journal(big, "another notice", rita)
    withdrawn = client_for(rita).post(
        f"/api/staff/reversals/{second.pk}/withdraw/", {"reason": "asked by mistake"}, format="json"
    )
    assert (withdrawn.status_code, withdrawn.json()["status"]) == (200, "withdrawn")
    assert audit_rows(AuditAction.DECLINE_REVERSAL, AuditAction.WITHDRAW_REVERSAL) == [
        (AuditAction.DECLINE_REVERSAL, f"journal:{big.pk}", "the bank disagrees", ravi.pk),
        (AuditAction.WITHDRAW_REVERSAL, f"journal:{big.pk}", "asked by mistake", rita.pk),
    ]


# --- refunds --------------------------------------------------------------------------------


@pytest.fixture
def desk(players, staff):
    """A case about alice and bob, alice funded, and a refund from alice to carol proposed by rita."""
    alice, bob, carol = players[:3]
    deposit(alice, 10000)
    case = open_case("chip_dumping", [alice, bob], {"reason": "dumping"}, score=7.2, key="dump:test")
    proposed = risk.propose_refund(case.pk, [[alice.pk, carol.pk, 7250]], "carol lost to the pair", staff[0])
    return case, proposed


def test_a_proposed_refund_is_withdrawn_or_declined_and_nothing_moves(desk, players, staff):
    rita, ravi, _ = staff
    case, proposed = desk
    alice, _, carol = players[:3]
    with pytest.raises(WalletError):
        risk.withdraw_refund(proposed.pk, "not mine", ravi)
    with pytest.raises(WalletError):
        risk.decline_refund(proposed.pk, "my own", rita)
    risk.decline_refund(proposed.pk, "the deals do not show it", ravi)
    assert RefundRequest.objects.get(pk=proposed.pk).state == "declined"
    assert [balance_of(user_spec(p.pk)) for p in (alice, carol)] == [10000, 0], "nothing moved"
    assert not Journal.objects.filter(kind=JournalKind.FAIRPLAY_REFUND).exists()
    with pytest.raises(GameError) as refused:
        risk.confirm_refund(proposed.pk, "post it anyway", ravi)
    assert refused.value.code == "already_decided"
    again = risk.propose_refund(case.pk, [[alice.pk, carol.pk, 5000]], "a smaller amount", rita)
    risk.withdraw_refund(again.pk, "the amount is still wrong", rita)
    assert audit_rows(
        AuditAction.DECLINE_REFUND, AuditAction.WITHDRAW_REFUND, AuditAction.CONFIRM_REFUND
    ) == [
        (AuditAction.DECLINE_REFUND, f"case:{case.pk}", "the deals do not show it", ravi.pk),
        (AuditAction.WITHDRAW_REFUND, f"case:{case.pk}", "the amount is still wrong", rita.pk),
    ]
    history = [(r.action, r.actor_id) for r in risk.case_history(case)]
    assert history == [
        (AuditAction.PROPOSE_REFUND, rita.pk),
        (AuditAction.DECLINE_REFUND, ravi.pk),
        (AuditAction.PROPOSE_REFUND, rita.pk),
        (AuditAction.WITHDRAW_REFUND, rita.pk),
    ], "the case's history keeps every step"
    assert Case.objects.get(pk=case.pk).updated_at >= RefundRequest.objects.get(pk=again.pk).closed_at
    assert reconcile() == []


def test_declining_a_refund_needs_the_permission_to_confirm_one(desk, staff):
    _, proposed = desk
    acting = Group.objects.create(name="acts but never confirms")
    acting.permissions.set(
        Permission.objects.filter(
            content_type__app_label="fairplay", codename__in=["view_case", "act_on_case"]
        )
    )
    member = make_user("ada", staff=True, role=None)
    member.groups.add(acting)
    with pytest.raises(WalletError) as refused:
        risk.decline_refund(proposed.pk, "no", member)
    assert refused.value.message == "Your staff role does not allow this."
    assert RefundRequest.objects.get(pk=proposed.pk).state == "waiting"


def test_the_case_page_withdraws_declines_and_shows_the_closed_refunds(client, desk, staff):
    rita, ravi, _ = staff
    case, proposed = desk
    page_url = reverse("backoffice:case", args=[case.pk])
    withdraw_url = reverse("backoffice:withdraw_refund", args=[proposed.pk])
    decline_url = reverse("backoffice:decline_refund", args=[proposed.pk])
    client.force_login(ravi)
    page = client.get(page_url).content.decode()
    assert f'action="{decline_url}"' in page
    assert "Decline the refund" in page
    assert f'action="{withdraw_url}"' not in page
    client.force_login(rita)
    page = client.get(page_url).content.decode()
    assert f'action="{withdraw_url}"' in page
    assert "Withdraw my refund" in page
    assert f'action="{decline_url}"' not in page
    refused = client.post(decline_url, {"reason": "my own"}, follow=True).content.decode()
    assert "You asked for this refund: withdraw it instead" in refused
    done = client.post(withdraw_url, {"reason": "wrong victim"}, follow=True).content.decode()
    assert "Your refund of ₹72.50 is withdrawn: nothing moved." in done
    assert "Withdrawn by rita on" in done
    assert "“wrong victim”. Nothing moved." in done
    assert f'action="{withdraw_url}"' not in done
    assert "Withdrew their own proposed refund" in done, "in the case's history"
    again = client.post(withdraw_url, {"reason": "twice"}, follow=True).content.decode()
    assert "This refund was already withdrawn: ask again if needed." in again
    assert RefundRequest.waiting().count() == 0


# --- one mechanism --------------------------------------------------------------------------


def test_every_kind_closes_through_the_one_mechanism():
    for kind in (VoidRequest, ReversalRequest, RefundRequest):
        assert kind.close.__func__ is SecondStaffRequest.close.__func__
        assert kind.waiting.__func__ is SecondStaffRequest.waiting.__func__
        names = {c.name: c for c in kind._meta.constraints}
        (constraint,) = names.values()
        assert constraint.name.startswith("one_open_")
        assert ("closed_at__isnull", True) in constraint.condition.children
        assert ("confirmed_at__isnull", True) in constraint.condition.children
