"""Reports (statement, rake, payouts, money held) and the reconcile command."""

from __future__ import annotations

from datetime import UTC, date, datetime
from io import StringIO
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tests.wallet.support import _fast_password_hashing, fund  # noqa: F401 (fixture)
from wallet import operations as ops
from wallet import reports
from wallet.models import Account, AccountKind, Entry
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db

DAY_1 = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)
DAY_2 = datetime(2030, 3, 2, 12, 0, tzinfo=UTC)


def at(moment: datetime) -> mock._patch:
    return mock.patch("django.utils.timezone.now", return_value=moment)


def play_two_days(alice, bob, carol) -> None:
    with at(DAY_1):
        for user in (alice, bob, carol):
            fund(user, 10000)
            ops.charge_entry_fee(user, "pool:1", 2500, variant="pool101")
        ops.pay_winner("pool:1", alice, rake_percent=10, variant="pool101")  # rake 750
        for user in (alice, bob):
            ops.charge_entry_fee(user, "pool:2", 1000, variant="pool201")
        ops.pay_split("pool:2", [(alice, 900), (bob, 900)], rake_percent=10, variant="pool201")  # rake 200
    with at(DAY_2):
        for user in (bob, carol):
            ops.charge_entry_fee(user, "pool:3", 5000, variant="pool101")
        ops.pay_winner("pool:3", carol, rake_percent=15, variant="pool101")  # rake 1500
        ops.charge_entry_fee(alice, "pool:4", 2500, variant="pool61")  # still open


def test_a_statement_shows_the_running_balance(alice, bob, carol):
    play_two_days(alice, bob, carol)

    lines = reports.statement(alice.pk)

    assert [(line.kind, line.amount) for line in lines] == [
        ("deposit", 10000),
        ("entry_fee", -2500),
        ("prize", 6750),
        ("entry_fee", -1000),
        ("split", 900),
        ("entry_fee", -2500),
    ]
    running = 0
    for line in lines:
        running += line.amount
        assert line.balance == running
    assert [line.version for line in lines] == [1, 2, 3, 4, 5, 6]
    assert lines[-1].balance == Account.objects.get(ref=f"user:{alice.pk}").balance == 11650


def test_rake_per_day_and_variant_adds_up_to_the_house(alice, bob, carol):
    play_two_days(alice, bob, carol)

    lines = reports.rake_by_day()

    assert [(line.day, line.variant, line.rake) for line in lines] == [
        (date(2030, 3, 1), "pool101", 750),
        (date(2030, 3, 1), "pool201", 200),
        (date(2030, 3, 2), "pool101", 1500),
    ]
    house = sum(Account.objects.filter(kind=AccountKind.HOUSE).values_list("balance", flat=True))
    assert sum(line.rake for line in lines) == house == 2450


def test_payouts_per_day(alice, bob, carol):
    play_two_days(alice, bob, carol)

    assert [(line.day, line.kind, line.payouts, line.amount) for line in reports.payouts_by_day()] == [
        (date(2030, 3, 1), "prize", 1, 6750),
        (date(2030, 3, 1), "split", 2, 1800),
        (date(2030, 3, 2), "prize", 1, 8500),
    ]


def test_money_held_in_open_pools_and_seats(alice, bob, carol):
    play_two_days(alice, bob, carol)
    ops.hold_seat(bob, "seat:9", 2000, point_value=10, points=200, table_ref="table:1")

    held = [(line.kind, line.ref, line.balance) for line in reports.held_in_play()]

    assert held == [("pool", "pool:4", 2500), ("seat", "seat:9", 2000)]


def test_the_report_command_writes_csv(alice, bob, carol):
    play_two_days(alice, bob, carol)
    out = StringIO()

    call_command("wallet_report", "rake", stdout=out)

    assert out.getvalue().splitlines() == [
        "day,variant,rake",
        "2030-03-01,pool101,750",
        "2030-03-01,pool201,200",
        "2030-03-02,pool101,1500",
    ]
    out = StringIO()
    call_command("wallet_report", "statement", "--user", "alice", stdout=out)
    rows = out.getvalue().splitlines()
    assert rows[0] == "created_at,key,kind,amount,balance,version,words"
    assert rows[-1].endswith(",entry_fee,-2500,11650,6,Entry fee")


def test_each_refund_says_why_the_money_came_back_R_MONEY_4_R_MONEY_7(alice, bob, carol):
    """A player who left a game before it started, a game cancelled before it started and a
    game the staff voided: each refund in its own words, as games.services posts them."""
    for user in (alice, bob, carol):
        fund(user, 10000)
    for user in (alice, bob):
        ops.charge_entry_fee(user, "pool:7", 1000, variant="pool101")
    ops.refund_entry(alice, "pool:7")  # games.services: engine.RefundEntry
    ops.refund_pool("pool:7", reason="never started")  # engine.RefundAll()
    ops.charge_entry_fee(carol, "pool:8", 1000, variant="pool101")
    ops.refund_pool("pool:8", reason="voided by staff (R-MONEY-7)")  # engine.RefundAll(voided=True)

    def refunds(user) -> list[str]:
        return [line.words for line in reports.statement(user.pk) if line.kind == "refund"]

    assert refunds(alice) == ["Entry fee back: you left before the game started"]
    assert refunds(bob) == ["Entry fee back: the game was cancelled before it started"]
    assert refunds(carol) == ["Fees back: the game was voided by the staff"]
    assert [line.words for line in reports.statement(alice.pk)][:2] == ["Deposit", "Entry fee"]


def test_reconcile_passes_on_a_good_ledger(alice, bob, carol):
    play_two_days(alice, bob, carol)
    out = StringIO()

    call_command("wallet_reconcile", stdout=out)

    assert out.getvalue().startswith("ledger reconciles:")


@pytest.mark.parametrize(
    "tamper",
    [
        "UPDATE wallet_account SET balance = balance + 1 WHERE ref = %s",
        "UPDATE wallet_account SET version = version + 1 WHERE ref = %s",
    ],
)
def test_reconcile_fails_after_a_cached_balance_is_tampered_with(alice, bob, carol, tamper):
    play_two_days(alice, bob, carol)
    with connection.cursor() as cursor:
        cursor.execute(tamper, [f"user:{alice.pk}"])
    err = StringIO()

    with pytest.raises(CommandError, match="does not reconcile"):
        call_command("wallet_reconcile", stdout=StringIO(), stderr=err)

    assert f"user:{alice.pk}" in err.getvalue()


def test_reconcile_finds_money_created_out_of_nothing(alice):
    fund(alice, 5000)
    # Simulate a bug (or an attacker with SQL access) crediting both balance and entries:
    # each account still matches its entries, but INR no longer sums to zero.
    account = Account.objects.get(ref=f"user:{alice.pk}")
    entry = Entry.objects.filter(account=account).order_by("-version").first()
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO wallet_entry (account_id, journal_id, transfer_id, amount, balance_after, version) "
            "VALUES (%s, %s, %s, 100, %s, %s)",
            [account.pk, entry.journal_id, entry.transfer_id, entry.balance_after + 100, entry.version + 1],
        )
        cursor.execute(
            "UPDATE wallet_account SET balance = balance + 100, version = version + 1 WHERE id = %s",
            [account.pk],
        )

    problems = reconcile()

    assert "INR: account balances sum to 100, not 0" in problems
    assert any("transfer" in problem and "3 entries" in problem for problem in problems)
