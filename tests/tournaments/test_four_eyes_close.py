"""A tournament's cancel-or-void request (R-MONEY-7, R-TOUR-6) is a kind of the one four-eyes
request (``games.four_eyes``): before a second member confirms it, the member who asked may
withdraw it, or a different member holding the permission decline it, each with a reason. The
tournament is left as it was, a new request may be asked, the closed request stays as a record
of who closed it, when, how and why, and each step writes one audit row."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from backoffice.models import AuditAction, AuditLog, Closed, SecondStaffRequest
from games import four_eyes
from tests.conftest import make_user
from tests.tournaments.support import make
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401
from tournaments import services
from tournaments.models import StaffRequest, Tournament
from tournaments.services import TournamentError

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("money_on")]


@pytest.fixture
def staff() -> tuple[Any, Any, Any]:
    """Two risk members (rita, ravi), who may cancel or void, and vic, who may only look."""
    vic = make_user("vic", staff=True, role=None)
    vic.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename="view_tournament")
    )
    return make_user("rita", staff=True, role="risk"), make_user("ravi", staff=True, role="risk"), vic


@pytest.fixture
def registering() -> tuple[Tournament, Any]:
    """A tournament taking registrations, with alice's ₹100 buy-in in its pool."""
    alice = make_user("alice")
    fund(alice, 1_000_00)
    t = make(name="Late", start_at=None)
    services.register(t.pk, alice)
    return t, alice


def refused(code: str, step: Any, *args: Any) -> str:
    with pytest.raises(TournamentError) as caught:
        step(*args)
    assert caught.value.code == code
    return caught.value.message


# --- the services --------------------------------------------------------------------------


def test_the_member_who_asked_withdraws_and_the_tournament_goes_on(staff, registering) -> None:
    rita, ravi, _ = staff
    t, alice = registering
    asked = services.request(t.pk, "cancel", "the stream is down", rita)
    message = refused("same_staff", services.withdraw, asked.pk, "not mine", ravi)
    assert message == "Only the member who asked for this cancel or void may withdraw it: decline it instead."
    closed = services.withdraw(asked.pk, "the stream came back", rita)
    stored = StaffRequest.objects.get(pk=asked.pk)
    assert (stored.outcome, stored.closed_by, stored.close_reason, stored.state) == (
        Closed.WITHDRAWN,
        rita,
        "the stream came back",
        "withdrawn",
    )
    assert stored.closed_at is not None
    assert stored.confirmed_at is None
    assert closed.pk == asked.pk
    t.refresh_from_db()
    assert t.status == "registering"
    assert wallet(alice) == 1_000_00 - 100_00, "the buy-in stays in the pool"
    assert StaffRequest.waiting().count() == 0


def test_another_member_declines_and_the_asker_may_not(staff, registering) -> None:
    rita, ravi, _ = staff
    t, alice = registering
    asked = services.request(t.pk, "cancel", "the stream is down", rita)
    message = refused("same_staff", services.decline, asked.pk, "my own", rita)
    assert message == "You asked for this cancel or void: withdraw it instead; a second member declines."
    services.decline(asked.pk, "the stream is fine: checked it", ravi)
    stored = StaffRequest.objects.get(pk=asked.pk)
    assert (stored.outcome, stored.closed_by, stored.close_reason, stored.state) == (
        Closed.DECLINED,
        ravi,
        "the stream is fine: checked it",
        "declined",
    )
    assert str(stored) == f"cancel of tournament {t.pk}: declined (the stream is fine: checked it)"
    t.refresh_from_db()
    assert t.status == "registering"
    assert wallet(alice) == 1_000_00 - 100_00


def test_a_player_may_neither_withdraw_nor_decline_and_a_reason_is_needed(staff, registering) -> None:
    rita, ravi, _ = staff
    t, _ = registering
    asked = services.request(t.pk, "cancel", "the stream is down", rita)
    player = make_user("bob")
    assert refused("not_staff", services.decline, asked.pk, "no", player) == (
        "only staff may cancel or void a tournament"
    )
    assert refused("reason_required", services.withdraw, asked.pk, "  ", rita) == "say why you withdraw it"
    assert refused("reason_required", services.decline, asked.pk, "", ravi) == "say why you decline it"
    assert refused("no_request", services.decline, asked.pk + 100, "no", ravi) == "there is no such request"
    assert StaffRequest.waiting().get().pk == asked.pk


def test_a_closed_request_cannot_be_confirmed_nor_closed_again(staff, registering) -> None:
    rita, ravi, _ = staff
    t, alice = registering
    asked = services.request(t.pk, "cancel", "the stream is down", rita)
    services.withdraw(asked.pk, "the stream came back", rita)
    message = refused("already_decided", services.confirm, asked.pk, ravi)
    assert message == "This cancel or void was already withdrawn: ask again if needed."
    refused("already_decided", services.decline, asked.pk, "too late", ravi)
    refused("already_decided", services.withdraw, asked.pk, "twice", rita)
    t.refresh_from_db()
    assert t.status == "registering"
    assert wallet(alice) == 1_000_00 - 100_00


def test_a_confirmed_request_cannot_be_withdrawn_nor_declined(staff, registering) -> None:
    rita, ravi, _ = staff
    t, alice = registering
    asked = services.request(t.pk, "cancel", "the stream is down", rita)
    services.confirm(asked.pk, ravi)
    message = refused("already_decided", services.withdraw, asked.pk, "changed my mind", rita)
    assert message == "This cancel or void was already confirmed."
    refused("already_decided", services.decline, asked.pk, "no", ravi)
    stored = StaffRequest.objects.get(pk=asked.pk)
    assert (stored.state, stored.closed_at, stored.outcome) == ("confirmed", None, "")
    t.refresh_from_db()
    assert t.status == "cancelled"
    assert wallet(alice) == 1_000_00


def test_a_new_request_may_be_asked_once_the_last_is_closed(staff, registering) -> None:
    rita, ravi, _ = staff
    t, alice = registering
    first = services.request(t.pk, "cancel", "the stream is down", rita)
    assert refused("already_requested", services.request, t.pk, "cancel", "twice", ravi) == (
        "A cancel or void of this tournament is already waiting for confirmation."
    )
    services.decline(first.pk, "the stream is fine", ravi)
    second = services.request(t.pk, "cancel", "the venue lost power", ravi)
    assert second.pk != first.pk
    assert list(StaffRequest.waiting().values_list("pk", flat=True)) == [second.pk]
    services.confirm(second.pk, rita)
    t.refresh_from_db()
    assert (t.status, t.end_reason) == ("cancelled", "the venue lost power")
    assert wallet(alice) == 1_000_00


def test_the_tournaments_request_is_a_kind_of_the_one_mechanism() -> None:
    assert issubclass(StaffRequest, four_eyes.SecondStaffRequest)
    assert SecondStaffRequest is four_eyes.SecondStaffRequest, "the back office re-exports the one base"
    assert StaffRequest.close.__func__ is four_eyes.SecondStaffRequest.close.__func__
    assert StaffRequest.take.__func__ is four_eyes.SecondStaffRequest.take.__func__
    assert StaffRequest.waiting.__func__ is four_eyes.SecondStaffRequest.waiting.__func__
    (constraint,) = StaffRequest._meta.constraints
    assert constraint.name == "one_open_request_per_tournament"
    assert constraint.condition == four_eyes.WAITING
    assert StaffRequest._meta.get_field("step").column == "what"
    assert AuditAction(StaffRequest.withdraw_action) == AuditAction.WITHDRAW_TOURNAMENT_END
    assert AuditAction(StaffRequest.decline_action) == AuditAction.DECLINE_TOURNAMENT_END


# --- the back office's page ----------------------------------------------------------------


def test_the_page_withdraws_with_an_audit_row_and_lists_the_closed_request(
    client, staff, registering
) -> None:
    rita, ravi, _ = staff
    t, _ = registering
    client.force_login(rita)
    client.post(
        reverse("backoffice:ask_tournament_end", args=[t.pk]), {"what": "cancel", "reason": "stream down"}
    )
    asked = StaffRequest.waiting().get(tournament=t)
    withdraw_url = reverse("backoffice:withdraw_tournament_end", args=[asked.pk])
    decline_url = reverse("backoffice:decline_tournament_end", args=[asked.pk])
    confirm_url = reverse("backoffice:confirm_tournament_end", args=[asked.pk])
    page = client.get(reverse("backoffice:tournaments")).content.decode()
    assert f'action="{withdraw_url}"' in page
    assert "Withdraw my request" in page
    assert f'action="{decline_url}"' not in page
    assert f'action="{confirm_url}"' not in page
    assert 'name="csrfmiddlewaretoken"' in page
    refused = client.post(decline_url, {"reason": "my own"}, follow=True).content.decode()
    assert "You asked for this cancel or void: withdraw it instead; a second member declines." in refused
    assert client.get(withdraw_url).status_code == 405, "a withdrawal is a POST"
    done = client.post(withdraw_url, {"reason": "the stream came back"}, follow=True).content.decode()
    assert "Your request to cancel Late is withdrawn: nothing is done." in done
    assert f'action="{withdraw_url}"' not in done
    assert "Late: cancel before the start, asked by rita on" in done
    assert "(“stream down”), withdrawn by rita on" in done
    assert ": “the stream came back”</li>" in done
    rows = list(
        AuditLog.objects.filter(target=f"tournament:{t.pk}")
        .order_by("id")
        .values_list("action", "actor__username", "reason", "details")
    )
    assert rows == [
        (AuditAction.REQUEST_TOURNAMENT_END, "rita", "stream down", {"what": "cancel", "request": asked.pk}),
        (
            AuditAction.WITHDRAW_TOURNAMENT_END,
            "rita",
            "the stream came back",
            {
                "request": asked.pk,
                "what": "cancel",
                "requested_by": rita.pk,
                "requested_reason": "stream down",
            },
        ),
    ]
    again = client.post(withdraw_url, {"reason": "twice"}, follow=True).content.decode()
    assert "This cancel or void was already withdrawn: ask again if needed." in again
    assert AuditLog.objects.filter(action=AuditAction.WITHDRAW_TOURNAMENT_END).count() == 1
    client.force_login(ravi)
    client.post(confirm_url, {"reason": "too late"})
    t.refresh_from_db()
    assert t.status == "registering"


def test_the_page_declines_for_another_member_only_with_the_permission(client, staff, registering) -> None:
    rita, ravi, vic = staff
    t, alice = registering
    asked = services.request(t.pk, "cancel", "stream down", rita)
    decline_url = reverse("backoffice:decline_tournament_end", args=[asked.pk])
    withdraw_url = reverse("backoffice:withdraw_tournament_end", args=[asked.pk])
    client.force_login(vic)
    page = client.get(reverse("backoffice:tournaments")).content.decode()
    assert f'action="{decline_url}"' not in page
    assert "a staff member who may cancel or void confirms or declines" in page
    assert client.post(decline_url, {"reason": "I say no"}).status_code == 403
    assert StaffRequest.waiting().get().pk == asked.pk
    client.force_login(ravi)
    page = client.get(reverse("backoffice:tournaments")).content.decode()
    assert f'action="{decline_url}"' in page
    assert "Decline the request" in page
    assert f'action="{withdraw_url}"' not in page
    refused = client.post(withdraw_url, {"reason": "not mine"}, follow=True).content.decode()
    assert "Only the member who asked for this cancel or void may withdraw it: decline it instead." in refused
    done = client.post(decline_url, {"reason": "the stream is fine"}, follow=True).content.decode()
    assert "The request to cancel Late is declined: nothing is done." in done
    assert "(“stream down”), declined by ravi on" in done
    assert ": “the stream is fine”</li>" in done
    assert f'action="{decline_url}"' not in done
    (row,) = AuditLog.objects.filter(action=AuditAction.DECLINE_TOURNAMENT_END).values_list(
        "actor__username", "target", "reason", "details"
    )
    assert row == (
        "ravi",
        f"tournament:{t.pk}",
        "the stream is fine",
        {"request": asked.pk, "what": "cancel", "requested_by": rita.pk, "requested_reason": "stream down"},
    )
    t.refresh_from_db()
    assert t.status == "registering"
    assert wallet(alice) == 1_000_00 - 100_00


def test_the_home_counts_only_waiting_requests(client, staff, registering) -> None:
    rita, ravi, _ = staff
    t, _ = registering
    asked = services.request(t.pk, "cancel", "stream down", rita)
    client.force_login(ravi)
    assert client.get(reverse("backoffice:home")).context["tournament_requests_pending"] == 1
    services.decline(asked.pk, "no", ravi)
    assert client.get(reverse("backoffice:home")).context["tournament_requests_pending"] == 0
