"""Player protection in a browser: a new player on a 360 px phone signs up (declaring where they live),
sets a daily deposit limit, sends an identity document and takes a break; the lobby then offers
practice tables only and says why. A risk staff member verifies the identity in the back office.
Screenshots: docs/screenshots/protection-*.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.site import PASSWORD
from tests.browser.test_backoffice import staff_page
from tests.browser.test_table_ui import sign_up

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_a_new_player_sets_a_limit_verifies_and_takes_a_break_on_a_phone__R_PROT_2_R_PROT_4_R_PROT_7(
    browser, start_site
):
    site = start_site(prepare="backoffice")
    phone = browser.new_context(viewport={"width": 360, "height": 740})
    page = sign_up(phone, site.url, "nisha")
    page.goto(f"{site.url}/wallet/")
    page.get_by_role("link", name="Limits, breaks and identity").click()
    page.wait_for_url(re.compile(r"/wallet/responsible-play/$"))

    page.select_option("#limit-kind", "deposit_day")
    page.fill("#limit-amount", "2000")
    page.get_by_role("button", name="Set limit").click()
    page.wait_for_url(re.compile(r"/wallet/responsible-play/$"))
    assert "Your limit is in force now." in page.locator(".message").inner_text()
    row = page.locator("#limit-deposit_day").inner_text()
    assert "₹2,000.00" in row
    assert "₹2,000.00\ntoday" in row, "nothing deposited yet: all of it is left"

    page.select_option("#document-type", "pan")
    page.fill("#document-number", "ABCDE1234F")
    page.get_by_role("button", name="Send for checking").click()
    assert page.locator("#identity-status").inner_text() == "Waiting for review"
    assert "ending 234F" in page.locator("#identity").inner_text()
    assert "ABCDE1234F" not in page.content()
    page.screenshot(path=str(SHOTS / "protection-phone.png"), full_page=True)

    rita = staff_page(browser, site.url, "rita")
    rita.goto(f"{site.url}/backoffice/identity/")
    check = rita.locator("tr", has_text="nisha")
    assert "PAN card ending 234F" in check.inner_text()
    rita.screenshot(path=str(SHOTS / "backoffice-identity.png"), full_page=True)
    check.get_by_label("Reason to verify").fill("PAN matches the name and date of birth")
    check.get_by_role("button", name="Verify").click()
    assert "verified" in rita.locator(".message").inner_text()

    page.reload()
    assert page.locator("#identity-status").inner_text() == "Verified"
    page.get_by_label("A break of 24 hours").check()
    page.get_by_label("I understand that I cannot end it early.").check()
    page.get_by_role("button", name="Start").click()
    assert "Money play is closed to you until" in page.locator(".message").inner_text()
    page.goto(f"{site.url}/games/")
    assert "You are taking a break from money play until" in page.locator("main").inner_text()
    assert page.locator("h3.kind.money").count() == 0, "no money tables on a break"
    assert page.locator("h3.kind.practice").count() == 4, "practice tables in every format"
    page.screenshot(path=str(SHOTS / "protection-lobby-on-a-break.png"), full_page=True)

    rita.goto(f"{site.url}/backoffice/protection/")
    body = rita.locator("main").inner_text()
    assert "nisha" in body
    assert "Took a break" in body
    rita.screenshot(path=str(SHOTS / "backoffice-protection.png"), full_page=True)
    assert PASSWORD
