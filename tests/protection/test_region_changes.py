"""R-PROT-9: a change of region. One that closes money play applies at once (waiting seats
given back); one that opens it waits the cooling-off period of a raised limit, and no chain of
moves cuts the wait short; once the player's identity is verified, a move waits for risk staff
to approve or refuse it with a reason (audited). Every money path honours the wait, through the
one check point, which reads the region as stored, not as the caller loaded it."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from backoffice import protection as staff_protection
from backoffice.models import AuditAction, AuditLog
from games import services
from games.errors import GameError
from games.models import Seat
from protection import money_play, residence
from protection.models import ProtectionEvent, RegionChange, RegionChangeStatus
from protection.refusal import ProtectionError
from tests.api.support import _fresh_throttles, assert_error, client_for  # noqa: F401
from tests.conftest import make_user, verify
from tests.protection.support import funded, journals, money_pool, practice_pool, wallet
from wallet import cashier
from wallet.errors import WalletError

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)


@pytest.fixture
def open_in_goa(settings):
    """Money play open in Goa and Sikkim only; a move opening it waits 24 hours."""
    settings.MONEY_REGIONS = ["IN-GA", "IN-SK"]
    settings.LIMIT_COOLING_OFF_HOURS = 24


@pytest.fixture
def nina(db):
    """A player whose identity is not verified yet, living in Karnataka."""
    return make_user("nina", verified=False)


def region_of(user) -> str:
    return User.objects.get(pk=user.pk).region


def test_a_move_that_opens_money_play_waits_the_cooling_off_period__R_PROT_9(nina, open_in_goa):
    t0 = timezone.now()
    assert money_play.refusal(nina, now=t0).code == "region_not_allowed"
    move = residence.ask(nina, "IN-GA", now=t0)
    assert (move.status, region_of(nina)) == (RegionChangeStatus.APPLIED, "IN-GA"), "she lives there now"
    assert move.opens_at == t0 + 24 * HOUR
    waiting = money_play.refusal(nina, now=t0 + 23 * HOUR)
    assert waiting.code == "region_cooling_off"
    assert "Money play opens for you in Goa on" in waiting.message
    assert money_play.refusal(nina, now=t0 + 24 * HOUR + timedelta(minutes=1)) is None
    event = ProtectionEvent.objects.get(user=nina, kind="region_changed")
    assert (event.details["was"], event.details["now"]) == ("IN-KA", "IN-GA")
    assert event.details["opens_at"] == (t0 + 24 * HOUR).isoformat()


def test_a_move_that_closes_money_play_applies_at_once_and_gives_back_waiting_seats__R_PROT_9(
    alice, settings
):
    settings.MONEY_REGIONS = ["IN-KA"]
    funded(alice)
    waiting = services.join(services.open_table(money_pool()).pk, alice)
    assert wallet(alice) == 4_900_00
    move = residence.ask(alice, "IN-TN")
    assert move.status == RegionChangeStatus.APPLIED, "closing never waits, not even for a review"
    assert region_of(alice) == "IN-TN"
    assert money_play.refusal(alice).code == "region_not_allowed"
    assert Seat.objects.get(table=waiting, user=alice).left_at is not None
    assert wallet(alice) == 5_000_00, "the waiting pool's fee came back"


def test_no_chain_of_moves_opens_money_play_sooner__R_PROT_9(nina, open_in_goa):
    t0 = timezone.now()
    residence.ask(nina, "IN-GA", now=t0)
    hop = residence.ask(nina, "IN-SK", now=t0 + HOUR)
    assert hop.opens_at == t0 + 24 * HOUR, "open to open keeps the wait running"
    assert money_play.refusal(nina, now=t0 + 2 * HOUR).code == "region_cooling_off"
    residence.ask(nina, "IN-TN", now=t0 + 2 * HOUR)
    back = residence.ask(nina, "IN-GA", now=t0 + 3 * HOUR)
    assert back.opens_at == t0 + 27 * HOUR, "out and back in: a new wait from the move back"
    assert money_play.refusal(nina, now=t0 + 26 * HOUR).code == "region_cooling_off"
    assert money_play.refusal(nina, now=t0 + 28 * HOUR) is None


def test_every_money_path_honours_the_wait_after_a_move__R_PROT_9(nina, open_in_goa, client):
    User.objects.filter(pk=nina.pk).update(region="IN-GA")
    funded(nina)
    residence.ask(nina, "IN-TN")
    residence.ask(nina, "IN-GA")
    pool = money_pool()
    table = services.open_table(money_pool(name="another"))
    before, balance = journals(), wallet(nina)
    with pytest.raises(GameError) as play_now:
        services.play_now(nina, pool)
    with pytest.raises(GameError) as join:
        services.join(table.pk, nina)
    with pytest.raises(WalletError, match="Money play opens for you in Goa"):
        cashier.create_deposit(nina, 100_00)
    assert (play_now.value.code, join.value.code) == ("region_cooling_off", "region_cooling_off")
    body = assert_error(client_for(nina).post(f"/api/templates/{pool.pk}/play/"), 409, "region_cooling_off")
    assert "Money play opens for you in Goa" in body["message"]
    assert client_for(nina).get("/api/protection/").json()["money_play"] is False
    client.force_login(nina)
    assert "Money play opens for you in Goa" in client.get("/games/").content.decode()
    assert (journals(), wallet(nina)) == (before, balance), "nothing moved"
    cashier.topup_chips(nina)
    assert services.play_now(nina, practice_pool()).template.currency == "CHIPS", "practice stays open"
    verify(nina)
    assert cashier.request_withdrawal(nina, 1_000_00).amount == 1_000_00, "her own money comes out"


def test_the_check_point_reads_the_region_as_stored_not_as_the_caller_loaded_it__R_PROT_9(alice, settings):
    settings.MONEY_REGIONS = ["IN-KA"]
    funded(alice)
    loaded_before = User.objects.get(pk=alice.pk)
    residence.ask(alice, "IN-TN")
    with pytest.raises(GameError) as refused:
        services.join(services.open_table(money_pool()).pk, loaded_before)
    assert refused.value.code == "region_not_allowed"
    with pytest.raises(WalletError, match="Tamil Nadu"):
        cashier.create_deposit(loaded_before.pk, 100_00)


def test_a_verified_players_move_waits_for_risk_staff_to_approve_it__R_PROT_9(alice, open_in_goa):
    """Approved, a move that opens money play still waits its cooling-off, counted from the ask."""
    t0 = timezone.now()
    move = residence.ask(alice, "IN-GA", now=t0)  # alice is verified, and lives in Karnataka
    assert (move.status, region_of(alice)) == (RegionChangeStatus.REVIEW, "IN-KA")
    assert money_play.refusal(alice, now=t0).code == "region_not_allowed", "still in Karnataka"
    rita = make_user("rita", staff=True, role="risk")
    staff_protection.decide_move(move.pk, True, "Address on the PAN matches Goa", rita)
    move.refresh_from_db()
    assert (move.status, move.decided_by, region_of(alice)) == (RegionChangeStatus.APPLIED, rita, "IN-GA")
    assert move.opens_at == t0 + 24 * HOUR
    assert money_play.refusal(alice, now=t0 + 23 * HOUR).code == "region_cooling_off"
    audit = AuditLog.objects.get(action=AuditAction.APPROVE_MOVE)
    assert (audit.actor, audit.target, audit.details["region"]) == (rita, f"user:{alice.pk}", "IN-GA")
    kinds = list(ProtectionEvent.objects.filter(user=alice).order_by("id").values_list("kind", "by"))
    assert kinds[-2:] == [("region_review_asked", None), ("region_changed", rita.pk)]


def test_a_move_between_open_regions_under_review_keeps_money_play_open__R_PROT_9(alice, settings):
    settings.MONEY_REGIONS = ["IN-KA", "IN-GA"]
    move = residence.ask(alice, "IN-GA")
    assert move.status == RegionChangeStatus.REVIEW
    assert money_play.refusal(alice) is None
    staff_protection.decide_move(move.pk, True, "moved for work", make_user("rita", staff=True, role="risk"))
    assert (region_of(alice), money_play.refusal(alice)) == ("IN-GA", None), "nothing opened: no wait"


def test_a_refused_move_leaves_the_player_where_they_were_with_the_reason__R_PROT_9(
    alice, open_in_goa, client
):
    move = residence.ask(alice, "IN-GA")
    rita = make_user("rita", staff=True, role="risk")
    staff_protection.decide_move(move.pk, False, "Your documents show Karnataka", rita)
    move.refresh_from_db()
    assert (move.status, move.reason, region_of(alice)) == (
        RegionChangeStatus.REFUSED,
        "Your documents show Karnataka",
        "IN-KA",
    )
    assert AuditLog.objects.filter(action=AuditAction.REFUSE_MOVE, actor=rita).count() == 1
    event = ProtectionEvent.objects.get(user=alice, kind="region_refused")
    assert (event.by, event.details["reason"]) == (rita, "Your documents show Karnataka")
    client.force_login(alice)
    assert "Your documents show Karnataka" in client.get("/accounts/profile/").content.decode()
    with pytest.raises(ProtectionError, match="not waiting"):
        staff_protection.decide_move(move.pk, True, "second thoughts", rita)


def test_nobody_reviews_their_own_move_and_every_decision_needs_a_reason_and_the_role__R_PROT_9(
    open_in_goa,
):
    rita = make_user("rita", staff=True, role="risk")
    move = residence.ask(rita, "IN-GA")
    ravi = make_user("ravi", staff=True, role="risk")
    cash = make_user("cash", staff=True, role="cashier")
    with pytest.raises(ProtectionError, match="your own"):
        staff_protection.decide_move(move.pk, True, "me", rita)
    with pytest.raises(WalletError, match="reason"):
        staff_protection.decide_move(move.pk, True, "\u200b ", ravi)
    with pytest.raises(WalletError, match="does not allow"):
        staff_protection.decide_move(move.pk, True, "fine", cash)
    assert AuditLog.objects.count() == 0
    move.refresh_from_db()
    assert move.status == RegionChangeStatus.REVIEW


def test_a_later_move_replaces_one_waiting_for_review__R_PROT_9(alice, open_in_goa):
    first = residence.ask(alice, "IN-GA")
    second = residence.ask(alice, "IN-SK")
    first.refresh_from_db()
    assert (first.status, second.status) == (RegionChangeStatus.WITHDRAWN, RegionChangeStatus.REVIEW)
    closing = residence.ask(alice, "IN-TN")
    second.refresh_from_db()
    assert (second.status, closing.status, region_of(alice)) == (
        RegionChangeStatus.WITHDRAWN,
        RegionChangeStatus.APPLIED,
        "IN-TN",
    )


def test_the_profile_moves_the_player_and_says_when_money_play_opens__R_PROT_9(nina, open_in_goa, client):
    client.force_login(nina)
    form = {"display_name": "Nina", "email": "", "region": "IN-GA"}
    page = client.post("/accounts/profile/", form, follow=True).content.decode()
    assert "You now live in Goa. Money play opens for you there on" in page
    assert 'id="region-waiting"' in page
    assert region_of(nina) == "IN-GA"
    again = client.post("/accounts/profile/", {**form, "region": "IN-XX"})
    assert again.status_code == 400, "a region that is none is refused in words"
    assert region_of(nina) == "IN-GA"


def test_a_region_saved_on_the_user_elsewhere_is_the_same_move__R_PROT_9(nina, open_in_goa):
    nina.region = "IN-GA"
    nina.save()  # as the admin's user page does
    move = RegionChange.objects.get(user=nina)
    assert (move.status, move.was, move.region) == (RegionChangeStatus.APPLIED, "IN-KA", "IN-GA")
    assert money_play.refusal(nina).code == "region_cooling_off"


def test_staff_see_moves_waiting_and_decide_them_on_the_identity_page__R_PROT_9(alice, nina, open_in_goa):
    residence.ask(nina, "IN-GA")
    move = residence.ask(alice, "IN-SK")
    rita = make_user("rita", staff=True, role="risk")
    staff = Client()
    staff.force_login(rita)
    queue = staff.get("/backoffice/identity/").content.decode()
    assert "Changes of region waiting" in queue
    assert "Sikkim" in queue
    report = staff.get("/backoffice/protection/").content.decode()
    assert "money play opens on" in report, "nina's wait"
    assert "a staff review" in report, "alice's review"
    assert "Changed their region" in report
    decide = f"/backoffice/identity/moves/{move.pk}/decide/"
    assert staff.post(decide, {"decision": "refuse", "reason": ""}).status_code == 302
    move.refresh_from_db()
    assert move.status == RegionChangeStatus.REVIEW, "no reason: nothing decided"
    staff.post(decide, {"decision": "approve", "reason": "ok"})
    assert region_of(alice) == "IN-SK"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_out_racing_a_join_never_leaves_a_seat_at_a_money_table__R_PROT_9(settings):
    """The move and the join take the player's row in turn: a join first is given back by the
    move; a move first is seen by the join, which reads the region as stored."""
    settings.MONEY_REGIONS = ["IN-KA"]
    for attempt in range(4):
        player = make_user(f"racer{attempt}")
        funded(player)
        table = services.open_table(money_pool(name=f"race {attempt}"))
        errors = race(
            lambda p=player: residence.ask(p, "IN-TN"), lambda p=player, t=table: services.join(t.pk, p)
        )
        assert not errors, errors
        assert region_of(player) == "IN-TN"
        assert not Seat.objects.filter(table=table, user=player, left_at__isnull=True).exists()
        assert wallet(player) == 5_000_00


def race(*steps) -> list[BaseException]:
    """Run ``steps`` at once, each in its own thread and connection; the errors other than a
    refusal."""
    start = threading.Barrier(len(steps))
    errors: list[BaseException] = []

    def run(step) -> None:
        try:
            start.wait(timeout=10)
            step()
        except (GameError, ProtectionError):
            pass
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(step,)) for step in steps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors
