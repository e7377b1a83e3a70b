"""A seeded ledger for the back-office and API tests, posted on known days through the wallet's
own operations, and a real two-player game played through the services.

Days: 1, 2 and 3 March 2026 (Asia/Kolkata). What the seed does, and so what the reports must
say (INR, paise):

- day 1: alice, bob and carol deposit ₹1,000 each, dave ₹500 (350000 in, 4 deposits); a
  101-pool game (template "101 pool", entry 2500, rake 10 %) of alice, bob and carol is won by
  alice: pool 7500, rake 750, paid 6750.
- day 2: a 61-pool game (template "61 pool", entry 5000, rake 15 %) of all four is split
  between alice (9000) and bob (8000): pool 20000, rake 3000. Withdrawals requested: alice
  20000 (approved by sam), bob 15000 (rejected by sam), carol 10000 (waiting). A 21-card table
  (template "21 points", 10 paise a point, rake 10 %) holds 2000 for carol and for dave; dave
  pays carol 30 points: 300, rake 30.
- day 3: alice and bob enter a new 101-pool game (5000 held); sam reverses the day-1 prize
  (rake -750); erin tops up practice chips and starts a deposit that stays pending.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from backoffice import actions
from backoffice.models import AuditAction
from games import services
from games.models import Seat, Table, TableTemplate
from tests.conftest import make_user
from wallet import cashier, ledger, providers
from wallet import operations as ops
from wallet.models import Currency, Journal

ZONE = ZoneInfo("Asia/Kolkata")
DAY1, DAY2, DAY3 = dt.date(2026, 3, 1), dt.date(2026, 3, 2), dt.date(2026, 3, 3)

EXPECTED = {
    "rake_total": 750 + 3000 + 30 - 750,
    "rake_by_day": {DAY1: 750, DAY2: 3030, DAY3: -750},
    "rake_by_variant": {"pool101": 0, "pool61": 3000, "points21": 30},
    "rake_by_template": {"101 pool": 0, "61 pool": 3000, "21 points": 30},
    "prize_pool_total": 7500 + 20000,
    "paid_total": 6750 + 17000,
    "payout_rake_total": 750 + 3000,
    "deposits_total": 350000,
    "withdrawals_requested": 45000,
    "withdrawals_paid": 20000,
    "withdrawals_rejected": 15000,
    "held_total": 5000 + 7500 + 2270 + 1700,
}


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class Clock:
    """Makes ``timezone.now()`` (the ledger's clock and every auto_now field) a chosen moment."""

    def __init__(self, monkeypatch: Any) -> None:
        self.monkeypatch = monkeypatch

    @contextmanager
    def on(self, day: dt.date, hour: int = 12) -> Iterator[None]:
        moment = dt.datetime.combine(day, dt.time(hour), tzinfo=ZONE).astimezone(dt.UTC)
        with self.monkeypatch.context() as patch:
            patch.setattr(timezone, "now", lambda: moment)
            yield


@dataclass
class Seeded:
    users: dict[str, Any]
    sam: Any
    templates: dict[str, TableTemplate]
    tables: dict[str, Table]
    prize_journal: Journal
    reversal: Journal
    withdrawals: dict[str, Any]


def template(name: str, variant: str, **fields: Any) -> TableTemplate:
    values: dict[str, Any] = {
        "name": name,
        "variant": variant,
        "currency": "INR",
        "seats": 4,
        "rake_percent": 10,
    }
    values.update(fields)
    return TableTemplate.objects.create(**values)


def deposit(user: Any, amount: int) -> None:
    cashier.confirm_deposit(cashier.create_deposit(user, amount).provider_ref)


def seed(monkeypatch: Any) -> Seeded:
    clock = Clock(monkeypatch)
    names = ("alice", "bob", "carol", "dave", "erin")
    users = {name: make_user(name) for name in names}
    sam = make_user("sam", staff=True)
    alice, bob, carol, dave, erin = (users[n] for n in names)
    templates = {
        "101": template("101 pool", "pool101", entry_fee=2500, seats=3),
        "61": template("61 pool", "pool61", entry_fee=5000, rake_percent=15),
        "21": template("21 points", "points21", point_value=10),
    }
    tables: dict[str, Table] = {}
    with clock.on(DAY1):
        for user in (alice, bob, carol):
            deposit(user, 100000)
        deposit(dave, 50000)
        tables["A"] = services.open_table(templates["101"])
        pool_a = tables["A"].pool_ref
        for user in (alice, bob, carol):
            ops.charge_entry_fee(user, pool_a, 2500, capacity=3, variant="pool101")
        prize = ops.pay_winner(pool_a, alice, rake_percent=10, variant="pool101")
    with clock.on(DAY2):
        tables["B"] = services.open_table(templates["61"])
        pool_b = tables["B"].pool_ref
        for user in (alice, bob, carol, dave):
            ops.charge_entry_fee(user, pool_b, 5000, variant="pool61")
        ops.pay_split(pool_b, [(alice, 9000), (bob, 8000)], rake_percent=15, variant="pool61")
        withdrawals = {
            "alice": cashier.request_withdrawal(alice, 20000),
            "bob": cashier.request_withdrawal(bob, 15000),
            "carol": cashier.request_withdrawal(carol, 10000),
        }
        actions.approve_withdrawal(withdrawals["alice"].pk, "verified bank account", sam)
        actions.reject_withdrawal(withdrawals["bob"].pk, "name does not match the bank", sam)
        tables["C"] = services.open_table(templates["21"])
        refs = {}
        for user in (carol, dave):
            seat = Seat.objects.create(table=tables["C"], user=user)
            refs[user.username] = seat.seat_ref
            ops.hold_seat(
                user, seat.seat_ref, 2000, point_value=10, points=200, table_ref=tables["C"].table_ref
            )
        ops.settle_deal(
            tables["C"].table_ref,
            1,
            [(refs["dave"], refs["carol"], 30)],
            point_value=10,
            rake_percent=10,
        )
    with clock.on(DAY3):
        tables["D"] = services.open_table(templates["101"])
        for user in (alice, bob):
            ops.charge_entry_fee(user, tables["D"].pool_ref, 2500, capacity=3, variant="pool101")
        # A prize reversed by the ledger's own correction (staff may no longer reverse pool
        # money, R-MONEY-5; the void of R-MONEY-7 will post such journals): the reports must
        # still file a reversal of pool money correctly.
        reversal = ledger.reverse(prize, "winner was found colluding", sam)
        actions.record(sam, AuditAction.REVERSE_JOURNAL, f"journal:{prize.pk}", "winner was found colluding")
        cashier.topup_chips(erin)
        cashier.create_deposit(erin, 5000, provider=providers.SandboxProvider(confirms_itself=False))
    return Seeded(
        users=users,
        sam=sam,
        templates=templates,
        tables=tables,
        prize_journal=Journal.objects.get(pk=prize.pk),
        reversal=Journal.objects.get(pk=reversal.pk),
        withdrawals={k: type(v).objects.get(pk=v.pk) for k, v in withdrawals.items()},
    )


def csv_by_key(text: str, columns: Iterable[Any]) -> list[dict[str, str]]:
    """A CSV download's lines keyed by its columns' keys. Its header is the columns' labels, the
    page's (a money column's with its unit: "Rake (paise)"), in the columns' order."""
    header, *lines = list(csv.reader(io.StringIO(text)))
    columns = list(columns)
    assert len(header) == len(columns), header
    for shown, column in zip(header, columns, strict=True):
        assert shown == column.label or shown.startswith(f"{column.label} ("), (shown, column.label)
    return [dict(zip([c.key for c in columns], line, strict=True)) for line in lines]


def play_a_deal(alice: Any, bob: Any) -> Table:
    """A 2-seat 101-pool INR table: both join (the game starts), the player whose turn it is drops,
    so deal 1 is over (seed revealed, hands kept) and deal 2 is running."""
    tmpl = template("101 pool, 2 seats", "pool101", entry_fee=2500, seats=2)
    for user in (alice, bob):
        deposit(user, 100000)
    services.play_now(alice, tmpl)
    table = services.play_now(bob, tmpl)
    table.refresh_from_db()
    state = table.state
    turn = state["deal"]["seats"][state["deal"]["turn"]]["player"]
    dropper = alice if str(alice.pk) == turn else bob
    services.act(table.pk, dropper, {"type": "drop"})
    table.refresh_from_db()
    return table


__all__ = ["DAY1", "DAY2", "DAY3", "EXPECTED", "Currency", "Seeded", "csv_by_key", "play_a_deal", "seed"]
