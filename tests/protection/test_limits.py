"""R-PROT-4 and R-PROT-5: limits the player sets; a lowered limit at once, a raised one after
the cooling-off period; enforced at the cashier and at every table join."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.errors import GameError
from protection import limits
from protection.models import LimitKind, ProtectionEvent
from protection.refusal import ProtectionError
from tests.api.support import _fresh_throttles, assert_error, client_for  # noqa: F401
from tests.protection.support import funded, journals, money_pool, practice_pool, wallet
from wallet import cashier
from wallet import limits as wallet_limits
from wallet.errors import WalletError

pytestmark = pytest.mark.django_db


def test_a_lowered_limit_applies_at_once_and_a_raised_one_only_after_cooling_off__R_PROT_5(alice, settings):
    settings.LIMIT_COOLING_OFF_HOURS = 24
    now = timezone.now()
    limits.set_limit(alice, "deposit_day", 1_000_00, now=now)
    assert limits.limit(alice, LimitKind.DEPOSIT_DAY, now=now).amount == 1_000_00, "a first limit: at once"
    limits.set_limit(alice, "deposit_day", 500_00, now=now + timedelta(minutes=1))
    assert limits.limit(alice, LimitKind.DEPOSIT_DAY, now=now + timedelta(minutes=1)).amount == 500_00
    limits.set_limit(alice, "deposit_day", 2_000_00, now=now + timedelta(minutes=2))
    waiting = limits.limit(alice, LimitKind.DEPOSIT_DAY, now=now + timedelta(hours=23))
    assert waiting.amount == 500_00, "still the lower limit during the cooling-off period"
    assert waiting.pending == 2_000_00
    assert waiting.pending_at == now + timedelta(minutes=2, hours=24)
    later = limits.limit(alice, LimitKind.DEPOSIT_DAY, now=now + timedelta(hours=24, minutes=3))
    assert (later.amount, later.pending) == (2_000_00, None)
    kinds = list(
        ProtectionEvent.objects.filter(user=alice, kind__startswith="limit")
        .order_by("id")
        .values_list("kind", flat=True)
    )
    assert kinds == ["limit_lowered", "limit_lowered", "limit_raise_requested"]


def test_removing_a_limit_waits_too_and_a_lower_one_cancels_a_waiting_raise__R_PROT_5(alice):
    now = timezone.now()
    limits.set_limit(alice, "stake_day", 300_00, now=now)
    limits.set_limit(alice, "stake_day", None, now=now)
    assert limits.limit(alice, LimitKind.STAKE_DAY, now=now + timedelta(hours=1)).amount == 300_00
    limits.set_limit(alice, "stake_day", 200_00, now=now + timedelta(hours=2))
    for hours in (2, 30):
        found = limits.limit(alice, LimitKind.STAKE_DAY, now=now + timedelta(hours=hours))
        assert (found.amount, found.pending) == (200_00, None)


def test_bad_limits_are_refused(alice):
    for kind, amount in (("deposit_year", 100), ("deposit_day", 0), ("deposit_day", -5), ("stake_day", 1.5)):
        with pytest.raises(ProtectionError):
            limits.set_limit(alice, kind, amount)  # type: ignore[arg-type]


def test_a_deposit_over_the_limit_is_refused_with_what_is_left__R_PROT_4(alice):
    limits.set_limit(alice, "deposit_day", 1_000_00)
    funded(alice, 600_00)
    before = journals()
    with pytest.raises(WalletError) as refused:
        cashier.create_deposit(alice, 500_00)
    assert refused.value.code == "limit_reached"
    assert refused.value.message == (
        "Your daily deposit limit is ₹1,000.00; ₹400.00 is left today. Deposit ₹400.00 or less."
    )
    assert journals() == before
    funded(alice, 400_00)
    assert wallet(alice) == 1_000_00


def test_the_weekly_and_monthly_deposit_limits_count_their_calendar_periods__R_PROT_4(alice):
    now = timezone.now()
    limits.set_limit(alice, "deposit_week", 700_00)
    funded(alice, 700_00)
    body = assert_error(
        client_for(alice).post("/api/wallet/deposits/", {"amount": 100_00}, format="json"), 409
    )
    assert "weekly deposit limit" in body["message"]
    local = timezone.localtime(now)
    assert limits.period_start(LimitKind.DEPOSIT_WEEK, now).weekday() == 0
    assert limits.period_start(LimitKind.DEPOSIT_MONTH, now).day == 1
    assert limits.period_start(LimitKind.DEPOSIT_DAY, now).date() == local.date()


def test_a_join_over_the_stake_limit_is_refused_before_a_seat_is_taken__R_PROT_4(alice, bob):
    funded(alice)
    funded(bob)
    limits.set_limit(alice, "stake_day", 150_00)
    pool = money_pool()
    table = services.play_now(alice, pool)  # ₹100 staked: ₹50 left
    assert wallet_limits.stake_left(alice) == 50_00
    other = money_pool(name="another")
    before = journals()
    with pytest.raises(GameError) as refused:
        services.play_now(alice, other)
    assert refused.value.code == "limit_reached"
    assert refused.value.message == (
        "Your daily stake limit is ₹150.00; ₹50.00 is left today. This table needs ₹100.00."
    )
    api = client_for(alice).post(f"/api/tables/{services.open_table(other).pk}/join/")
    assert "₹50.00 is left today" in assert_error(api, 409, "limit_reached")["message"]
    assert journals() == before
    services.leave(table.pk, alice)  # a refund before the start gives the stake back
    assert wallet_limits.stake_left(alice) == 150_00


def test_practice_chips_are_never_limited__R_PROT_4(alice):
    cashier.topup_chips(alice)
    limits.set_limit(alice, "stake_day", 1)
    assert services.play_now(alice, practice_pool()).template.currency == "CHIPS"


def test_a_21_card_top_up_is_cut_to_what_the_stake_limit_leaves__R_PROT_4(alice, bob):
    from tests.live.support import turn_of

    for player in (alice, bob):
        funded(player)
        limits.set_limit(player, "stake_day", 220_00)  # the ₹200 hold leaves ₹20 today
    table = services.open_table(
        money_pool(name="21", variant="points21", entry_fee=0, point_value=1_00, seats=2)
    )
    services.join(table.pk, alice)
    services.join(table.pk, bob)
    table.refresh_from_db()
    if table.status == "starting":
        services.start(table.pk, at=services.now_ms() + 60_000)
    dropper = turn_of(table.pk)
    services.act(table.pk, int(dropper), {"type": "drop"})
    state = services.engine.TableState.from_json(services.Table.objects.get(pk=table.pk).state)
    assert state.player(dropper).held == 170_00, "a first drop costs 30 points at ₹1"
    timeout = services.timeout_at(table.pk, state, state.deadline_ms)
    assert dict(timeout.funds)[dropper] == 20_00
    assert timeout.limited == (dropper,)


def test_every_limit_is_read_in_one_query_with_each_kind_as_it_stands__R_PROT_5(
    alice, settings, django_assert_num_queries
):
    """The cashier checks three deposit limits per deposit: one read of the player's changes."""
    settings.LIMIT_COOLING_OFF_HOURS = 24
    now = timezone.now()
    limits.set_limit(alice, "deposit_day", 1_000_00, now=now)
    limits.set_limit(alice, "deposit_week", 3_000_00, now=now)
    limits.set_limit(alice, "deposit_week", 5_000_00, now=now + timedelta(minutes=1))  # a raise: waits
    limits.set_limit(alice, "stake_day", 200_00, now=now)
    with django_assert_num_queries(1):
        found = limits.limits(alice, now=now + timedelta(hours=1))
    assert [(f.kind, f.amount, f.pending) for f in found] == [
        (LimitKind.DEPOSIT_DAY, 1_000_00, None),
        (LimitKind.DEPOSIT_WEEK, 3_000_00, 5_000_00),
        (LimitKind.DEPOSIT_MONTH, None, None),
        (LimitKind.STAKE_DAY, 200_00, None),
    ]
    assert [f.kind for f in found] == list(LimitKind)
