"""Every report's totals match the ledger on the seeded data set; the CSV downloads parse with
the csv module and carry the same totals; the pages draw an inline SVG chart."""

from __future__ import annotations

from datetime import date, timedelta
from xml.etree import ElementTree

import pytest
from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from backoffice import reports
from tests.api.support import _fresh_throttles, client_for  # noqa: F401
from tests.backoffice.support import (  # noqa: F401
    DAY1,
    DAY2,
    DAY3,
    EXPECTED,
    _fast_passwords,
    csv_by_key,
    play_a_deal,
    seed,
)
from tests.conftest import off_site
from wallet import reports as wallet_reports
from wallet.models import Account, AccountKind, Currency, Entry, JournalKind, Transfer

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(monkeypatch):
    return seed(monkeypatch)


def ledger_sum(**filters) -> int:
    return Entry.objects.filter(**filters).aggregate(total=Sum("amount"))["total"] or 0


def transfers_sum(kind: str) -> int:
    return (
        Transfer.objects.filter(journal__kind=kind, currency="INR").aggregate(total=Sum("amount"))["total"]
        or 0
    )


def csv_of(client, slug: str, **query) -> list[dict[str, str]]:
    response = client.get(f"/backoffice/reports/{slug}/", {"format": "csv", **query})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    return csv_by_key(response.content.decode(), reports.REPORTS[slug][1].__self__.columns)


def test_rake_by_day_variant_and_template_matches_the_ledger(seeded):
    report = reports.rake(DAY1, DAY3)
    assert report.totals["rake"] == EXPECTED["rake_total"]
    assert report.totals["rake"] == ledger_sum(account__kind=AccountKind.HOUSE, account__currency="INR")
    by_day: dict = {}
    for row in report.rows:
        by_day[row["day"]] = by_day.get(row["day"], 0) + row["rake"]
    assert by_day == EXPECTED["rake_by_day"]
    from_wallet: dict = {}
    for line in wallet_reports.rake_by_day(Currency.INR):
        from_wallet[line.day] = from_wallet.get(line.day, 0) + line.rake
    assert by_day == from_wallet, "the per-day totals are wallet.reports.rake_by_day's"
    variants, templates = (
        {r[k]: r["rake"] for r in b.rows}
        for b, k in zip(report.breakdowns, ("variant", "template"), strict=False)
    )
    assert variants == EXPECTED["rake_by_variant"], "the reversal counts against the variant it reverses"
    assert templates == EXPECTED["rake_by_template"]
    assert reports.rake(DAY2, DAY2).totals["rake"] == 3030
    assert reports.rake(DAY2, DAY2, Currency.CHIPS).rows == []


def test_prize_pools_paid_and_split_match_the_ledger(seeded):
    report = reports.payouts(DAY1, DAY3)
    assert report.totals == {
        "games": 2,
        "players_paid": 3,
        "prize_pool": EXPECTED["prize_pool_total"],
        "paid": EXPECTED["paid_total"],
        "rake": EXPECTED["payout_rake_total"],
    }
    assert report.totals["paid"] == sum(line.amount for line in wallet_reports.payouts_by_day(Currency.INR))
    assert report.totals["prize_pool"] == transfers_sum(JournalKind.PRIZE) + transfers_sum(JournalKind.SPLIT)
    rows = {row["kind"]: row for row in report.rows}
    assert rows["prize"]["reversed"] == "yes"
    assert rows["split"]["reversed"] == "no"
    assert (rows["split"]["template"], rows["split"]["players_paid"], rows["split"]["rake"]) == (
        "61 pool",
        2,
        3000,
    )


def test_deposits_and_withdrawals_match_the_ledger(seeded):
    report = reports.cashflow(DAY1, DAY3)
    totals = report.totals
    assert totals["deposits"] == EXPECTED["deposits_total"] == transfers_sum(JournalKind.DEPOSIT)
    assert totals["deposits_count"] == 4
    assert (
        totals["withdrawals_requested"]
        == EXPECTED["withdrawals_requested"]
        == transfers_sum(JournalKind.WITHDRAWAL_HOLD)
    )
    assert (
        totals["withdrawals_paid"]
        == EXPECTED["withdrawals_paid"]
        == transfers_sum(JournalKind.WITHDRAWAL_PAID)
    )
    assert (
        totals["withdrawals_rejected"]
        == EXPECTED["withdrawals_rejected"]
        == transfers_sum(JournalKind.WITHDRAWAL_RELEASED)
    )
    assert totals["net_in"] == 350000 - 20000
    # The cashier's balance is minus the net cash in (INR: deposits less withdrawals paid).
    cashier = Account.objects.filter(kind=AccountKind.CASHIER, currency="INR").aggregate(
        total=Sum("balance")
    )["total"]
    assert cashier == -totals["net_in"]
    waiting = {row["what"]: (row["count"], row["amount"]) for row in report.breakdowns[0].rows}
    assert waiting == {
        "deposits pending at the provider": (1, 5000),
        "withdrawals waiting for approval": (1, 10000),
    }
    chips = reports.cashflow(DAY1, DAY3, Currency.CHIPS)
    assert chips.totals["chips_topups"] == 10_000_00


def test_money_held_in_open_pools_and_seats_matches_the_ledger(seeded):
    report = reports.held(DAY1, DAY3)
    in_play = Account.objects.filter(kind__in=[AccountKind.POOL, AccountKind.SEAT], currency="INR")
    assert (
        report.totals["balance"] == EXPECTED["held_total"] == in_play.aggregate(total=Sum("balance"))["total"]
    )
    assert report.totals["balance"] == sum(line.balance for line in wallet_reports.held_in_play())
    assert {(row["ref"], row["owner"], row["balance"]) for row in report.rows if row["kind"] == "seat"} == {
        (f"seat:{seat}", name, amount)
        for seat, name, amount in (
            (seeded.tables["C"].seats.get(user__username="carol").pk, "carol", 2270),
            (seeded.tables["C"].seats.get(user__username="dave").pk, "dave", 1700),
        )
    }
    daily = report.breakdowns[1].rows
    assert [(row["pools"], row["seats"]) for row in daily] == [(0, 0), (0, 3970), (12500, 3970)]


def test_activity_counts_tables_players_and_deals(alice, bob, carol):
    from django.utils import timezone

    play_a_deal(alice, bob)
    today = timezone.localdate()
    report = reports.activity(today, today)
    assert report.rows == [
        {
            "day": today,
            "tables_active": 1,
            "tables_opened": 1,
            "deals_started": 1,
            "deals_finished": 1,
            "players": 2,
        }
    ]
    assert report.totals == {
        "tables_active": 1,
        "tables_opened": 1,
        "deals_started": 1,
        "deals_finished": 1,
        "players": 2,
    }


def test_reconciliation_status_shows_ok_then_the_difference(seeded):
    report = reports.reconciliation(DAY1, DAY3)
    assert report.status == "ok"
    assert report.breakdowns[0].rows == []
    per_currency = {row["currency"]: row["balance"] for row in report.breakdowns[2].rows}
    assert per_currency == {"CHIPS": 0, "INR": 0}
    with connection.cursor() as cursor:  # tamper with a cached balance behind the ledger's back
        cursor.execute(
            "UPDATE wallet_account SET balance = balance + 1 WHERE ref = %s AND currency = 'INR'",
            [f"user:{seeded.users['carol'].pk}"],
        )
    report = reports.reconciliation(DAY1, DAY3)
    assert report.status == "problems"
    assert any("sum to" in row["problem"] for row in report.breakdowns[0].rows)
    page = client_for(seeded.sam).get("/backoffice/reports/reconcile/", {"start": DAY1, "end": DAY3})
    assert b"does NOT reconcile" in page.content


@pytest.mark.parametrize("slug", list(reports.REPORTS))
def test_each_csv_parses_and_carries_the_same_totals(seeded, slug):
    report = reports.REPORTS[slug][1](DAY1, DAY3, "INR")
    rows = csv_of(client_for(seeded.sam), slug, start=DAY1.isoformat(), end=DAY3.isoformat(), currency="INR")
    *body, total = rows
    assert total[report.columns[0].key] == "total"
    assert len(body) == len(report.rows)
    for column in report.columns:
        if column.total:
            assert int(total[column.key]) == report.totals[column.key], column.key
            assert sum(int(row[column.key]) for row in body) == report.totals[column.key], column.key
    first = report.columns[0].key
    for line, row in zip(body, report.rows, strict=True):
        value = row[first]
        assert line[first] == (value.isoformat() if hasattr(value, "isoformat") else str(value))


@pytest.mark.parametrize("slug", list(reports.REPORTS))
def test_each_page_shows_the_range_form_totals_and_an_inline_svg_chart(seeded, slug):
    response = client_for(seeded.sam).get(f"/backoffice/reports/{slug}/", {"start": DAY1, "end": DAY3})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'type="date"' in html
    assert "Download CSV" in html
    svg = html[html.index("<svg") : html.index("</svg>") + len("</svg>")]
    ElementTree.fromstring(svg)  # noqa: S314 - well-formed; our own page
    assert "<script" not in html.lower()
    assert off_site(html) == []
    assert "<tfoot>" in html


def test_the_staff_api_reports_match_the_pages(seeded):
    sam = client_for(seeded.sam)
    for slug in reports.REPORTS:
        body = sam.get(f"/api/staff/reports/{slug}/", {"start": DAY1, "end": DAY3}).json()
        assert body["totals"] == reports.REPORTS[slug][1](DAY1, DAY3, "INR").totals, slug
    assert sam.get("/api/staff/reports/rake/", {"start": DAY3, "end": DAY1}).status_code == 400


def test_a_bad_range_is_refused_with_a_message(seeded):
    response = client_for(seeded.sam).get("/backoffice/reports/rake/", {"start": DAY3, "end": DAY1})
    assert response.status_code == 400
    assert b"must not be after" in response.content


def test_a_chips_report_counts_chips_and_never_shows_the_rupee_sign(seeded):
    response = client_for(seeded.sam).get(
        "/backoffice/reports/cashflow/", {"start": DAY1, "end": DAY3, "currency": "CHIPS"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "10,000 chips" in html
    body = html[html.index("<table") :]
    assert "₹" not in body
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert "₹" not in svg


def test_quick_ranges_cover_today_this_week_and_this_month():
    wednesday = date(2026, 11, 25)
    ranges = {label: (start, end) for label, start, end in reports.quick_ranges(wednesday)}
    assert ranges["Today"] == (wednesday, wednesday)
    assert ranges["This week"] == (date(2026, 11, 23), wednesday), "weeks start on Monday"
    assert ranges["Last 7 days"] == (date(2026, 11, 19), wednesday)
    assert ranges["This month"] == (date(2026, 11, 1), wednesday)
    assert ranges["Last 30 days"] == (date(2026, 10, 27), wednesday)


def test_a_report_links_its_quick_ranges_in_the_same_currency(seeded):
    response = client_for(seeded.sam).get("/backoffice/reports/takings/", {"currency": "CHIPS"})
    html = response.content.decode()
    today = timezone.localdate()
    monday = today - timedelta(days=today.weekday())
    assert f"start={monday.isoformat()}&amp;end={today.isoformat()}" in html
    links = html[
        html.index('class="quick-ranges"') : html.index("</nav>", html.index('class="quick-ranges"'))
    ]
    assert links.count("currency=CHIPS") == 5
    assert "format=csv" not in links
