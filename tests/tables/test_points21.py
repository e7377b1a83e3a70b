"""A 21-card table: seats hold 200 points, each deal is settled, players leave between deals."""

from __future__ import annotations

import pytest

from games import services
from games.engine import table as engine
from tests.tables.support import Clock, pass_deadline, play_deal, seat_all, state, template
from tests.wallet.support import wallet
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db


def test_it_settles_each_deal_and_releases_seats__R_21_7_R_21_8_R_MONEY_3(alice, bob):
    clock = Clock()
    tmpl = template(name="21 card", variant="points21", seats=2, entry_fee=0, point_value=10)
    table = seat_all(tmpl, [alice, bob], clock, money=100_000)
    assert wallet(alice) == wallet(bob) == 100_000 - 2000  # 200 points x 10 paise held
    pass_deadline(table, clock)  # the countdown
    now = play_deal(table, [alice, bob], {alice: "drop", bob: "play"}, clock)
    assert now.phase is engine.Phase.BETWEEN
    result = state(table).deal.result
    assert result is not None
    assert result.winner == str(bob.pk)
    # alice paid her first drop (30 points = 300 paise); bob's gain less 10% rake.
    assert now.player(str(alice.pk)).held == 1700
    assert now.player(str(bob.pk)).held == 2270
    pass_deadline(table, clock)  # alice's seat is below 200 points: she is stood up
    now = state(table)
    assert now.player(str(alice.pk)).status is engine.Status.LEFT
    assert now.phase is engine.Phase.WAITING
    assert wallet(alice) == 100_000 - 300
    services.leave(table.pk, bob, at=clock())
    assert wallet(bob) == 100_000 + 270
    assert reconcile() == []
