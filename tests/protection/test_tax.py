"""R-PROT-8: tax withheld from net winnings at withdrawal, over the financial year, posted to the
tax account, shown on the statement, given back when a withdrawal is rejected; the ledger
reconciles with it on."""

from __future__ import annotations

import csv
import io
from datetime import datetime

import pytest
from django.utils import timezone

from backoffice import actions
from tests.conftest import make_user
from tests.protection.support import funded, wallet
from wallet import cashier, reports, tax
from wallet.ledger import Leg, Plan, balance_of, cashier_spec, execute, tax_spec, user_spec
from wallet.models import Currency, JournalKind, Withdrawal
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db


def win(user, amount: int, key: str) -> None:
    """Winnings land in the wallet (as a prize would; the source does not matter to the tax)."""
    house, player = cashier_spec(0), user_spec(user.pk)
    execute(
        key=key,
        kind=JournalKind.ADJUSTMENT,
        currency=Currency.INR,
        accounts=[house, player],
        meta={"test": "winnings"},
        plan=lambda _locks: Plan([Leg(house.ref, player.ref, amount)]),
    )


@pytest.fixture
def next_year(monkeypatch):
    """Move the clock into the next financial year (10 April after the coming 1 April)."""
    local = timezone.localtime()
    year = local.year + 1 if local.month >= 4 else local.year
    moment = local.replace(year=year, month=4, day=10, hour=12)

    def to_next_year() -> datetime:
        monkeypatch.setattr(timezone, "now", lambda: moment)
        return moment

    return to_next_year


def test_no_tax_is_withheld_by_default__R_PROT_8(alice):
    funded(alice, 5_000_00)
    win(alice, 10_000_00, "win-1")
    withdrawal = cashier.request_withdrawal(alice, 10_000_00)
    assert (withdrawal.amount, withdrawal.tax_withheld) == (10_000_00, 0)
    assert balance_of(tax_spec()) == 0


def test_the_tax_on_the_years_net_winnings_worked_example__R_PROT_8(alice, settings, next_year):
    settings.TAX_WITHHOLDING = True
    settings.TAX_RATE_BASIS_POINTS = 3000
    settings.TAX_THRESHOLD = 0
    funded(alice, 1_000_00)
    win(alice, 4_000_00, "last-year")  # last year: ₹5,000 at the year's end
    next_year()
    year = tax.year_of(alice.pk)
    assert (year.opening_balance, year.deposits, year.withdrawals) == (5_000_00, 0, 0)
    first = cashier.request_withdrawal(alice, 2_000_00)
    assert first.tax_withheld == 0, "net winnings -₹3,000: nothing is due"
    win(alice, 10_000_00, "this-year")
    second = cashier.request_withdrawal(alice, 10_000_00)
    # net = ₹12,000 withdrawn - ₹0 deposited - ₹5,000 opening = ₹7,000; 30% = ₹2,100
    assert (second.amount, second.tax_withheld) == (7_900_00, 2_100_00)
    third = cashier.request_withdrawal(alice, 1_000_00)
    # net ₹8,000: ₹2,400 due, ₹2,100 already withheld: ₹300 more, never twice
    assert (third.amount, third.tax_withheld) == (700_00, 300_00)
    assert balance_of(tax_spec()) == 2_400_00
    assert wallet(alice) == 5_000_00 + 10_000_00 - 13_000_00

    rita = make_user("rita", staff=True, role="cashier")
    actions.reject_withdrawal(third.pk, "The bank account is closed", rita)
    assert balance_of(tax_spec()) == 2_100_00, "a rejected withdrawal's tax comes back"
    assert wallet(alice) == 3_000_00
    assert Withdrawal.objects.get(pk=third.pk).status == Withdrawal.Status.REJECTED
    kinds = [line.kind for line in reports.statement(alice.pk)]
    assert kinds.count(JournalKind.TAX_WITHHELD) == 2
    assert kinds.count(JournalKind.TAX_RETURNED) == 1
    assert reconcile() == [], "the ledger reconciles with withholding on"

    year = tax.year_of(alice.pk)
    assert (year.withdrawals, year.net_winnings, year.tax_withheld) == (12_000_00, 7_000_00, 2_100_00)


def test_nothing_is_withheld_at_or_under_the_threshold__R_PROT_8(alice, settings):
    settings.TAX_WITHHOLDING = True
    settings.TAX_THRESHOLD = 10_000_00
    funded(alice, 1_000_00)
    win(alice, 11_000_00, "win")
    assert cashier.request_withdrawal(alice, 11_000_00).tax_withheld == 0, "net ₹10,000: at the threshold"
    assert cashier.request_withdrawal(alice, 1_000_00).tax_withheld == 300_00, "30% of the ₹1,000 over it"


def test_the_yearly_statement_csv_carries_the_years_figures__R_PROT_8(alice, settings, client):
    settings.TAX_WITHHOLDING = True
    funded(alice, 1_000_00)
    win(alice, 2_000_00, "win")
    cashier.request_withdrawal(alice, 2_000_00)
    client.force_login(alice)
    response = client.get("/wallet/tax-year.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = {row[0]: row for row in csv.reader(io.StringIO(response.content.decode()))}
    assert rows["deposits"][1:] == ["100000", "₹1,000.00"]
    assert rows["withdrawals"][1:] == ["200000", "₹2,000.00"]
    assert rows["net winnings"][1:] == ["100000", "₹1,000.00"]
    assert rows["tax withheld"][1:] == ["30000", "₹300.00"]
