"""Bot-only tables: many deals complete, every table settles, the ledger reconciles."""

from __future__ import annotations

import time

import pytest

from accounts.models import User
from games import bots
from games.engine import table as engine
from games.models import Deal, Table
from tests.tables.support import Clock, pass_deadline, state, template
from wallet.cashier import topup_chips
from wallet.ledger import balance_of, pool_spec
from wallet.models import Currency
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db

DEALS = 200


def make_bot(name: str) -> User:
    user = User(username=name, is_bot=True)
    user.set_unusable_password()
    user.save()
    topup_chips(user)
    return user


def run_table(table: Table, players: list[User], clock: Clock) -> None:
    for _ in range(5000):
        now = state(table)
        if now.phase in (engine.Phase.FINISHED, engine.Phase.CANCELLED):
            return
        acted = any(bots.act(table.pk, bot, at=clock(100)) for bot in players)
        if not acted:
            pass_deadline(table, clock)
    raise AssertionError("the bot table did not finish")


def test_it_completes_200_bot_deals_and_settles_every_table():
    from games import services

    tmpl = template(name="bots 101", currency="CHIPS", seats=2, entry_fee=1000, bots_allowed=True)
    clock = Clock()
    started = time.perf_counter()
    tables = []
    deals = 0
    index = 0
    while deals < DEALS:
        pair = [make_bot(f"bot{index}a"), make_bot(f"bot{index}b")]
        index += 1
        table = None
        for bot in pair:
            table = services.play_now(bot, tmpl, at=clock())
        assert table is not None
        run_table(table, pair, clock)
        tables.append(table)
        deals += Deal.objects.filter(table=table, finished_at__isnull=False).count()
    elapsed = time.perf_counter() - started
    print(f"\n{deals} bot deals on {len(tables)} tables in {elapsed:.1f} s")
    for table in tables:
        assert state(table).phase is engine.Phase.FINISHED
        assert balance_of(pool_spec(table.pool_ref, Currency.CHIPS)) == 0
    assert Deal.objects.filter(finished_at__isnull=True).count() == 0
    assert reconcile() == []
