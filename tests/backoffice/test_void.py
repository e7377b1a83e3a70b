"""R-MONEY-7: the void of a running game, asked for by one staff member and confirmed by
another. Pool: every entry and rejoin fee back, no rake, no prize. 21-card: the deal in play
dropped with no settlement, every seat hold back. The players are told why."""

from __future__ import annotations

import pytest
from django.urls import reverse

from backoffice import actions
from backoffice.models import AuditAction, AuditLog, VoidRequest
from games import services
from games.engine import table as engine
from games.errors import GameError
from games.models import TableEvent
from tests.conftest import make_user
from tests.tables.support import Clock, pass_deadline, play_deal, seat_all, state, template
from tests.wallet.support import pool, wallet
from wallet.errors import WalletError
from wallet.ledger import balance_of, house_spec
from wallet.models import Journal, JournalKind
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db

MONEY = 1_000_000


@pytest.fixture
def risk():
    """Two staff members of the risk group, and one of support (who may not void)."""
    return make_user("rita", staff=True, role="risk"), make_user("ravi", staff=True, role="risk")


def test_a_voided_pool_game_gives_every_entry_and_rejoin_fee_back_with_no_rake__R_MONEY_7(players, risk):
    rita, ravi = risk
    clock = Clock()
    a, b, c = players[:3]
    tmpl = template(seats=3, name="101 for three", entry_fee=2500, rake_percent=10)
    table = seat_all(tmpl, [a, b, c], clock, money=MONEY)
    play_deal(table, [a, b, c], {a: "wrong", b: "wrong"}, clock)  # 80 each: still in
    assert pool(table.pool_ref) == 7500
    request = actions.request_void(table.pk, "the dealer's server fault froze the table", rita)
    assert state(table).phase is not engine.Phase.CANCELLED, "nothing happens on one pair of eyes"
    with pytest.raises(WalletError) as own:
        actions.confirm_void(request.pk, "confirming my own request", rita)
    assert "second staff member" in own.value.message
    actions.confirm_void(request.pk, "checked the fault report", ravi)
    now = state(table)
    assert now.phase is engine.Phase.CANCELLED
    assert (now.winner, now.payouts, now.prize_pool) == (None, (), 0)
    assert [wallet(p) for p in (a, b, c)] == [MONEY, MONEY, MONEY], "every fee back in full"
    assert pool(table.pool_ref) == 0
    assert balance_of(house_spec(table.pool_ref)) == 0, "no rake"
    assert not Journal.objects.filter(kind__in=[JournalKind.PRIZE, JournalKind.RAKE]).exists()
    voided = TableEvent.objects.get(table=table, type="voided")
    assert voided.data["why"] == "the dealer's server fault froze the table", "the players are told why"
    audit = list(AuditLog.objects.filter(target=f"table:{table.pk}").values_list("action", "actor"))
    assert audit == [(AuditAction.VOID_GAME, ravi.pk), (AuditAction.REQUEST_VOID, rita.pk)]
    assert reconcile() == []


def test_a_void_refunds_a_rejoin_fee_too__R_MONEY_7(players, risk):
    rita, ravi = risk
    clock = Clock()
    a, b, c = players[:3]
    tmpl = template(seats=3, name="101 for three", entry_fee=1000, rejoin_seconds=30)
    table = seat_all(tmpl, [a, b, c], clock, money=MONEY)
    play_deal(table, [a, b, c], {a: "wrong", b: "drop"}, clock)  # a 80, b 20
    pass_deadline(table, clock)
    play_deal(table, [a, b, c], {a: "wrong", b: "drop"}, clock)  # a 160 > 101: out; b 40, c 0
    assert str(a.pk) in state(table).rejoin_open, "a rejoin offer (R-POOL-4)"
    services.rejoin(table.pk, a, at=clock())
    assert wallet(a) == MONEY - 2000, "entry and rejoin fee paid"
    request = actions.request_void(table.pk, "a player's complaint upheld", rita)
    actions.confirm_void(request.pk, "agreed", ravi)
    assert [wallet(p) for p in (a, b, c)] == [MONEY, MONEY, MONEY]
    assert reconcile() == []


def test_a_voided_21_card_deal_is_not_settled_and_every_hold_comes_back__R_MONEY_7(players, risk):
    rita, ravi = risk
    clock = Clock()
    a, b = players[:2]
    tmpl = template(seats=2, name="21-card for two", variant="points21", point_value=100, entry_fee=0)
    table = seat_all(tmpl, [a, b], clock, money=MONEY)
    assert state(table).phase is engine.Phase.PLAYING
    assert wallet(a) < MONEY, "the seat hold left the wallet"
    request = actions.request_void(table.pk, "the deal was dealt twice", rita)
    actions.confirm_void(request.pk, "confirmed with the logs", ravi)
    assert [wallet(p) for p in (a, b)] == [MONEY, MONEY], "every hold back, no settlement"
    assert not Journal.objects.filter(kind=JournalKind.DEAL_SETTLEMENT).exists()
    assert state(table).phase is engine.Phase.CANCELLED
    assert reconcile() == []


def test_only_a_started_game_is_voided_and_only_by_a_role_that_may__R_MONEY_7(players, risk):
    rita, _ravi = risk
    clock = Clock()
    a, b = players[:2]
    waiting = seat_all(template(seats=3, name="101 waiting"), [a], clock, money=MONEY)
    with pytest.raises(GameError) as refused:
        actions.request_void(waiting.pk, "nobody came", rita)
    assert refused.value.code == "not_playing"
    support = make_user("sue", staff=True, role="support")
    running = seat_all(template(seats=2, name="101 running"), [a, b], clock, money=MONEY)
    with pytest.raises(WalletError):
        actions.request_void(running.pk, "I want to", support)
    with pytest.raises(WalletError):
        actions.request_void(running.pk, "\u200b", rita)  # no visible reason
    actions.request_void(running.pk, "stuck", rita)
    with pytest.raises(GameError) as twice:
        actions.request_void(running.pk, "stuck again", rita)
    assert twice.value.code == "already_requested"
    assert VoidRequest.objects.count() == 1


def test_a_finished_game_cannot_be_voided__R_MONEY_7(players, risk):
    rita, ravi = risk
    clock = Clock()
    a, b = players[:2]
    table = seat_all(template(seats=2, name="101 for two", entry_fee=2500), [a, b], clock, money=MONEY)
    play_deal(table, [a, b], {a: "wrong"}, clock)
    request = actions.request_void(table.pk, "late complaint", rita)
    pass_deadline(table, clock)
    play_deal(table, [a, b], {a: "wrong"}, clock)
    assert state(table).phase is engine.Phase.FINISHED
    with pytest.raises(GameError) as refused:
        actions.confirm_void(request.pk, "too late", ravi)
    assert refused.value.code == "not_playing"
    assert reconcile() == []


def test_the_void_page_asks_and_a_second_member_confirms(client, players, risk):
    rita, ravi = risk
    clock = Clock()
    a, b = players[:2]
    table = seat_all(template(seats=2, name="101 page", entry_fee=2500), [a, b], clock, money=MONEY)
    client.force_login(rita)
    page = client.get(reverse("backoffice:voids"))
    assert page.status_code == 200
    assert f'value="{table.pk}"' in page.content.decode()
    client.post(reverse("backoffice:request_void"), {"table": table.pk, "reason": "players gone"})
    request = VoidRequest.objects.get(table=table)
    assert "another staff member confirms" in client.get(reverse("backoffice:voids")).content.decode()
    client.force_login(ravi)
    client.post(reverse("backoffice:confirm_void", args=[request.pk]), {"reason": "seen"})
    assert state(table).phase is engine.Phase.CANCELLED
    assert [wallet(p) for p in (a, b)] == [MONEY, MONEY]
    client.force_login(make_user("sue", staff=True, role="support"))
    assert client.get(reverse("backoffice:voids")).status_code == 403
