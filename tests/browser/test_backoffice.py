"""The back office in a browser, as staff on a site with real play on it: a risk member finds the
running game on the live tables and asks for its void, a second confirms it (R-MONEY-7); a
cashier finds a player, approves the oldest withdrawal and reads this week's takings and
their CSV; the reconciliation page. Screenshots
for docs/BACKOFFICE.md land in docs/screenshots/backoffice-*.png."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from backoffice.reports import takings_report
from tests.backoffice.support import csv_by_key
from tests.browser.site import PASSWORD

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TIMEOUT = 15_000


def staff_page(browser, url: str, name: str):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{url}/accounts/login/?next=/backoffice/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/backoffice/$"))
    return page


def test_staff_void_a_running_game_with_two_members_and_approve_the_oldest_withdrawal__R_MONEY_7(
    browser, start_site
):
    site = start_site(prepare="backoffice")
    rita = staff_page(browser, site.url, "rita")
    rita.goto(f"{site.url}/backoffice/tables/")
    for _ in range(40):  # the game starts after its one-second countdown
        if rita.locator("td", has_text="Playing").count():
            break
        rita.wait_for_timeout(500)
        rita.reload()
    row = rita.locator("tr", has_text="Staff 101 pool")
    assert "pool ₹200.00" in row.inner_text()
    assert "a move by" in row.inner_text()
    rita.screenshot(path=str(SHOTS / "backoffice-live-tables.png"), full_page=True)
    row.get_by_label("Reason").fill("The server lost this game's deal")
    row.get_by_role("button", name="Ask for a void").click()
    rita.wait_for_url(re.compile(r"/backoffice/voids/$"))
    assert "another staff member confirms" in rita.content()

    ravi = staff_page(browser, site.url, "ravi")
    ravi.goto(f"{site.url}/backoffice/voids/")
    ravi.get_by_label("Your reason").fill("Checked the logs")
    ravi.screenshot(path=str(SHOTS / "backoffice-void.png"), full_page=True)
    ravi.get_by_role("button", name="Confirm the void").click()
    assert "is voided" in ravi.locator(".message").inner_text()

    cash = staff_page(browser, site.url, "cash")
    assert "Withdrawals waiting: 1" in cash.locator("main").inner_text()
    cash.fill("#q", "alice")
    cash.click("form.search button")
    cash.wait_for_url(re.compile(r"/backoffice/players/\d+/$"))
    body = cash.locator("main").inner_text()
    assert "₹25,000.50" in body, "her deposit, the Indian way"
    assert "Refund" in body, "the void gave her entry fee back"
    cash.screenshot(path=str(SHOTS / "backoffice-player.png"), full_page=True)
    cash.goto(f"{site.url}/backoffice/withdrawals/")
    queue = cash.locator("tr", has_text="carol")
    assert "₹1,500.00" in queue.inner_text()
    cash.screenshot(path=str(SHOTS / "backoffice-withdrawals.png"), full_page=True)
    queue.get_by_label("Reason to approve").fill("Bank account verified")
    queue.get_by_role("button", name="Approve").click()
    assert "is paid" in cash.locator(".message").inner_text()
    assert "No withdrawal is waiting" in cash.content()

    # How much did we take this week, and from what? The void gave both fees back.
    cash.goto(f"{site.url}/backoffice/reports/takings/")
    cash.get_by_role("link", name="This week").click()
    cash.wait_for_url(re.compile(r"start=.*end="))
    totals = cash.locator("table.report").first.locator("tfoot td").all_inner_texts()
    assert totals[:4] == ["Total", "", "", "₹200.00"], "entry fees, the Indian way"
    assert totals[8] == "₹200.00", "refunds: the void"
    variants = cash.locator("table.report").nth(1).inner_text()
    assert "101 Pool" in variants
    assert "pool101" not in variants, "words, not codes"
    cash.screenshot(path=str(SHOTS / "backoffice-takings.png"), full_page=True)
    with cash.expect_download() as download:
        cash.get_by_role("link", name="Download CSV").click()
    text = Path(download.value.path()).read_text()
    assert next(csv.reader(io.StringIO(text)))[:4] == ["Day", "Variant", "Template", "Entry fees (paise)"], (
        "the page's labels, and the unit"
    )
    rows = csv_by_key(text, takings_report.columns)
    total = rows[-1]
    assert total["day"] == "total"
    assert (total["entry_fees"], total["refunds"], total["rake"]) == ("20000", "20000", "0"), "paise"
    assert sum(int(row["entry_fees"]) for row in rows[:-1]) == 20000

    rita.goto(f"{site.url}/backoffice/reports/reconcile/")
    assert "The ledger reconciles" in rita.content()
    assert "Last scheduled run" in rita.content(), "daphne ran one at start-up"
    rita.screenshot(path=str(SHOTS / "backoffice-reconcile.png"), full_page=True)
