"""A second account of a self-excluded person (R-PROT-3) is refused money play on every money
path: joining, play now, a private table, a pool rejoin (R-POOL-4) and a deposit, by the page, the
API and the services alike, through the one money-play check (``protection.money_play``)."""

from __future__ import annotations

import pytest
from django.test import Client

from fairplay.words import LINKED_SELF_EXCLUDED
from games import services
from games.errors import GameError
from games.models import Seat
from protection import exclusions, kyc, money_play
from tests.api.support import assert_error, client_for
from tests.conftest import make_user
from tests.fairplay.support import link_by_address, link_by_device
from tests.protection.support import funded, money_pool, practice_pool, wallet
from tests.tables.support import Clock, pass_deadline, play_deal, scripted, seat_all, template
from wallet import cashier
from wallet.cashier import topup_chips
from wallet.errors import WalletError

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

CODE, MESSAGE = LINKED_SELF_EXCLUDED


@pytest.fixture
def second(alice, bob):  # type: ignore[no-untyped-def]
    """bob is alice's second account: one device; alice has excluded herself for six months."""
    funded(bob)
    link_by_device(alice, bob)
    exclusions.take(alice, "exclude_6m")
    return bob


def refused(call) -> GameError:  # type: ignore[no-untyped-def]
    with pytest.raises(GameError) as error:
        call()
    assert (error.value.code, error.value.message) == (CODE, MESSAGE)
    return error.value


def test_the_money_play_check_refuses_the_second_account__R_PROT_3(second, alice):
    found = money_play.refusal(second)
    assert found is not None
    assert (found.code, found.message) == (CODE, MESSAGE)
    assert "alice" not in found.message.lower()


def test_every_seat_at_a_money_table_is_refused__R_PROT_3(second, carol):
    funded(carol)
    tmpl = money_pool()
    waiting = services.play_now(carol, tmpl)
    refused(lambda: services.join(waiting.pk, second))
    refused(lambda: services.play_now(second, tmpl))
    refused(lambda: services.open_private(second, tmpl))
    private = services.open_private(carol, money_pool(name="private"))
    refused(lambda: services.join(private.pk, second, code=private.invite_code))


def test_the_page_and_the_api_refuse_it_with_the_code(second):
    tmpl = money_pool()
    web = Client()
    web.force_login(second)
    page = web.post(f"/games/play/{tmpl.pk}/")
    assert page.status_code == 400
    assert "an account linked to yours has excluded itself" in page.content.decode()
    api = client_for(second)
    assert_error(api.post(f"/api/templates/{tmpl.pk}/play/"), 409, CODE)
    assert_error(api.post(f"/api/templates/{tmpl.pk}/private/"), 409, CODE)
    body = assert_error(api.post("/api/wallet/deposits/", {"amount": 500_00}), 409)
    assert body["message"] == MESSAGE


def test_a_deposit_is_refused__R_PROT_3(second):
    with pytest.raises(WalletError) as error:
        cashier.create_deposit(second, 500_00)
    assert error.value.message == MESSAGE


def test_practice_tables_stay_open_to_it(second):
    topup_chips(second)
    assert services.play_now(second, practice_pool()).pk


def test_a_rejoin_is_refused_after_the_person_excludes_themselves__R_POOL_4_R_PROT_3(
    alice, bob, carol, monkeypatch, settings
):
    scripted(monkeypatch, settings)
    clock = Clock()
    users = [alice, bob, carol]
    table = seat_all(template(), users, clock)
    play_deal(table, users, {alice: "wrong", bob: "drop"}, clock)
    pass_deadline(table, clock)
    now = play_deal(table, users, {alice: "wrong", bob: "drop"}, clock)
    assert now.rejoin_open == (str(alice.pk),)
    dave = make_user("dave")
    link_by_device(alice, dave)
    exclusions.take(dave, "exclude_forever")
    refused(lambda: services.rejoin(table.pk, alice, at=clock()))


def test_a_break_of_the_linked_account_is_its_own(alice, bob):
    funded(bob)
    link_by_device(alice, bob)
    exclusions.take(alice, "break_7d")
    assert money_play.refusal(bob) is None
    assert money_play.refusal(alice).code == "on_a_break"


def test_a_weak_link_to_a_self_excluded_account_refuses_nothing(alice, bob):
    link_by_address(alice, bob)
    exclusions.take(alice, "exclude_6m")
    assert money_play.refusal(bob) is None


def test_the_same_identity_document_makes_the_second_account__R_PROT_3_R_PROT_7(
    django_capture_on_commit_callbacks,
):
    first = make_user("first", verified=False)
    other = make_user("other", verified=False)
    for user in (first, other):
        with django_capture_on_commit_callbacks(execute=True):
            kyc.submit(user, "pan", "ABCDE1234F", provider=kyc.SandboxKyc())
    exclusions.take(first, "exclude_6m")
    found = money_play.refusal(other)
    assert found is not None
    assert found.code == CODE


def test_a_self_exclusion_releases_the_linked_accounts_waiting_seats__R_PROT_3(alice, bob, carol):
    funded(bob)
    funded(carol)
    link_by_device(alice, bob)
    table = services.play_now(bob, money_pool())
    services.join(table.pk, carol)
    before = wallet(bob)
    exclusions.take(alice, "exclude_forever")
    assert not Seat.objects.filter(table=table, user=bob, left_at__isnull=True).exists()
    assert wallet(bob) == before + 100_00, "the entry fee back, as for any leave before the start"
    assert Seat.objects.filter(table=table, user=carol, left_at__isnull=True).exists()


def test_a_break_leaves_the_linked_accounts_seats_alone(alice, bob):
    funded(bob)
    link_by_device(alice, bob)
    table = services.play_now(bob, money_pool())
    exclusions.take(alice, "break_1d")
    assert Seat.objects.filter(table=table, user=bob, left_at__isnull=True).exists()
