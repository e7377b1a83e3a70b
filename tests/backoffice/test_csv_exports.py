"""Every CSV the back office exports has a header in words, the page's own labels, and says the
unit of its amounts right for its currency: paise for rupees, hundredths of a chip for chips
(never paise, never ₹)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse

from backoffice import reports
from tests.api.support import _fresh_throttles, client_for  # noqa: F401
from tests.backoffice.support import DAY1, DAY3, _fast_passwords, seed  # noqa: F401

pytestmark = pytest.mark.django_db

BOTH = "paise for rupees, hundredths of a chip for chips"


def download(client, url: str, **query) -> list[list[str]]:
    response = client.get(url, {"format": "csv", **query})
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode())))


def page_labels(html: str) -> list[str]:
    """The main table's column headings on a report page."""
    head = html[html.index('<table class="report">') :]
    head = head[: head.index("</thead>")]
    return re.findall(r"<th[^>]*>([^<]*)</th>", head)


@pytest.mark.parametrize("slug", list(reports.REPORTS))
def test_each_report_csv_has_the_pages_labels_with_the_unit_of_its_money(seeded, slug):
    client = client_for(seeded.sam)
    query = {"start": DAY1.isoformat(), "end": DAY3.isoformat(), "currency": "INR"}
    header = download(client, f"/backoffice/reports/{slug}/", **query)[0]
    page = client.get(f"/backoffice/reports/{slug}/", query).content.decode()
    columns = reports.REPORTS[slug][1](DAY1, DAY3, "INR").columns
    unit = BOTH if slug == "reconcile" else "paise"
    assert header == [f"{c.label} ({unit})" if c.money else c.label for c in columns]
    assert [label.replace("&#x27;", "'") for label in page_labels(page)] == [c.label for c in columns]
    assert not any("_" in name for name in header), "no keys"
    assert f"amounts in {unit}" in page


def test_a_chips_report_counts_hundredths_of_a_chip_never_paise(seeded):
    client = client_for(seeded.sam)
    query = {"start": DAY1.isoformat(), "end": DAY3.isoformat(), "currency": "CHIPS"}
    page = client.get("/backoffice/reports/cashflow/", query).content.decode()
    report = page[page.index("</form>", page.index('aria-label="Date range"')) :]
    assert "amounts in hundredths of a chip" in report
    assert "paise" not in report
    header, *lines = download(client, "/backoffice/reports/cashflow/", **query)
    assert "Chips top-ups (hundredths of a chip)" in header
    assert not any("paise" in name or "₹" in name for name in header)
    total = dict(zip(header, lines[-1], strict=True))
    assert total["Chips top-ups (hundredths of a chip)"] == "1000000", "10,000 chips, kept in hundredths"


def test_the_statement_csv_has_a_header_in_words_for_rupees_and_chips(seeded, client):
    client.force_login(seeded.sam)
    alice = seeded.users["alice"]
    header, *lines = download(client, reverse("backoffice:statement", args=[alice.pk]))
    assert header == [
        "When",
        "Journal",
        "What",
        "Account",
        "Currency",
        f"Amount ({BOTH})",
        f"Balance after ({BOTH})",
    ]
    assert lines
    page = client.get(reverse("backoffice:statement", args=[alice.pk])).content.decode()
    assert "rupee amounts in paise and chips in hundredths of a chip" in page
