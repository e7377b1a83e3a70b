"""Every staff report is declared in one form: columns with labels and kinds (text, money in
the report's currency, counts), one query, and the rest derived from the rows: the totals row,
a per-day chart, breakdowns, and the CSV from the same columns. A new report is a screenful."""

from __future__ import annotations

import csv
import io
from xml.etree import ElementTree

import pytest

from backoffice import reports, views
from backoffice.columns import COUNT, MONEY, Column
from backoffice.report_form import By, Declared, Found, Line, PerDay, Period, local_day
from tests.backoffice.support import DAY1, DAY3, _fast_passwords, seed  # noqa: F401
from wallet.models import Deposit

pytestmark = pytest.mark.django_db


def deposit_rows(period: Period) -> Found:
    """Confirmed deposits per day and player: the one query of the report below."""
    low, high = period.bounds
    found = Deposit.objects.filter(
        status=Deposit.Status.CONFIRMED, currency=period.currency, created_at__gte=low, created_at__lt=high
    ).values_list("created_at", "user__username", "amount")
    rows = [
        {"day": local_day(at), "player": name, "deposits": 1, "amount": amount}
        for at, name, amount in sorted(found)
    ]
    return Found(rows, totals={"players": len({row["player"] for row in rows})})


PLAYER = Column("player", "Player")
AMOUNT = Column("amount", "Deposited", MONEY)
DEPOSITS = Declared(
    slug="deposits",
    title="Deposits by player",
    columns=(Column("day", "Day"), PLAYER, Column("deposits", "Deposits", COUNT), AMOUNT),
    query=deposit_rows,
    chart=PerDay("Deposited per day", lines=(Line("deposited", ("amount",)),)),
    breakdowns=(By("By player", PLAYER, (AMOUNT,), count=Column("deposits", "Deposits", COUNT)),),
    notes=("A pending deposit counts once it is confirmed.",),
)


def test_a_new_report_is_its_columns_and_one_query_and_the_rest_is_derived(monkeypatch):
    seed(monkeypatch)
    report = DEPOSITS.run(DAY1, DAY3, "INR")
    assert report.totals == {"deposits": 4, "amount": 350000, "players": 4}, "money and counts summed"
    by_player = {row["player"]: row for row in report.breakdowns[0].rows}
    assert by_player["dave"] == {"player": "dave", "deposits": 1, "amount": 50000}
    svg = ElementTree.fromstring(str(report.chart))  # noqa: S314 - our own chart
    assert "Deposited per day" in ElementTree.tostring(svg, encoding="unicode")
    assert "₹3,500.00" in str(report.chart), "the first day's deposits, the Indian way"
    body = views.csv_response(report).content.decode()
    *lines, total = list(csv.reader(io.StringIO(body)))
    assert len(lines) == 1 + 4, "a header, then a line a row"
    assert total[0] == "total"
    assert total[2:] == ["4", "350000"], "the CSV's totals are the report's"
    assert report.to_json()["notes"] == ["A pending deposit counts once it is confirmed."]


def test_every_report_is_declared_in_the_one_form():
    assert set(reports.REPORTS) == {"takings", "rake", "payouts", "cashflow", "held", "activity", "reconcile"}
    for slug, (_, run) in reports.REPORTS.items():
        declared = run.__self__
        assert isinstance(declared, Declared), slug
        assert declared.slug == slug
        assert all(isinstance(column, Column) for column in declared.columns), slug
