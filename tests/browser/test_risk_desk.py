"""The risk desk in a browser: rita of the risk role opens a chip-dumping case, reads its
evidence and the replay of the finished deal it rests on, freezes alice's money, warns bob, and
proposes the refund of carol from alice's wallet; ravi, a second risk member, confirms it. Alice, on a 360 px
phone, reads why her money is on hold and still sees her balance; bob reads his warning until he
says he has read it. Screenshots for
docs/BACKOFFICE.md land in docs/screenshots/risk-*.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.site import PASSWORD
from tests.browser.test_backoffice import staff_page

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TIMEOUT = 15_000
WORDS = (
    "Your money play and withdrawals are on hold while our fair-play team reviews your account. "
    "Your balance is safe; write to support."
)


def phone_player(browser, url: str, name: str):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{url}/accounts/login/?next=/games/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/(#[a-z0-9-]*)?$"))
    return page


def test_two_risk_members_freeze_a_colluder_and_refund_the_victim_who_then_sees_the_hold(browser, start_site):
    site = start_site(prepare="risk_desk")
    rita = staff_page(browser, site.url, "rita")
    assert "Fair-play cases open: 1" in rita.locator("main").inner_text()
    rita.get_by_role("link", name="Fair-play cases", exact=True).click()
    rita.wait_for_url(re.compile(r"/backoffice/cases/$"))
    row = rita.locator("table.cases tbody tr").first
    assert re.search(r"Chip dumping\s+alice, bob\s+7\.2× usual\s+Open", row.inner_text())
    rita.screenshot(path=str(SHOTS / "risk-cases.png"), full_page=True)
    row.get_by_role("link").click()
    rita.wait_for_url(re.compile(r"/backoffice/cases/\d+/$"))
    case_url = rita.url
    evidence = rita.locator("ul.figures-evidence").inner_text()
    assert "Money passed to one player: ₹7,200.00, where ₹1,000.00 is usual (7.2× usual)" in evidence
    assert "Share of deals dropped when these players sat together: 81 %, where 22 % is usual" in evidence
    assert "alice and bob: Same device, Same internet address" in rita.locator("ul.links").inner_text()

    rita.locator("ul.deals a").first.click()
    rita.wait_for_url(re.compile(r"/backoffice/cases/\d+/deals/\d+/$"))
    assert "Shuffle: verified" in rita.locator("main").inner_text()
    assert rita.locator("table.replay tbody tr").count() > 5
    rita.screenshot(path=str(SHOTS / "risk-deal-replay.png"), full_page=True)
    rita.goto(case_url)

    actions = rita.locator("form.case-actions")
    actions.get_by_label("bob").uncheck()
    actions.get_by_label("Reason").fill("₹7,200 passed to bob in 40 deals")
    actions.get_by_role("button", name="Freeze money play and withdrawals").click()
    assert "on hold for the players chosen" in rita.locator(".message").inner_text()
    actions = rita.locator("form.case-actions")
    actions.get_by_label("alice").uncheck()
    actions.get_by_label("Reason").fill("bob took the money: a first warning")
    actions.get_by_role("button", name="Warn").click()
    assert "Warned 1 player(s)" in rita.locator(".message").inner_text()

    refund = rita.locator("form.refund-form")
    refund.locator("#from-0").select_option(label="alice")
    refund.locator("#to-0").fill("carol")
    refund.locator("#amount-0").fill("1500.50")
    refund.get_by_label("Reason (kept with the journal)").fill("carol's losses at the dumping tables")
    refund.get_by_role("button", name="Propose the refund").click()
    assert "Proposed a refund of ₹1,500.50" in rita.locator(".message").inner_text()
    assert "Waits for another staff member to confirm or decline." in rita.locator("main").inner_text()
    assert rita.get_by_role("button", name="Confirm the refund").count() == 0, "not the proposer's to confirm"
    rita.screenshot(path=str(SHOTS / "risk-case.png"), full_page=True)

    ravi = staff_page(browser, site.url, "ravi")
    ravi.goto(case_url)
    assert "alice pays carol ₹1,500.50" in ravi.locator("div.refund").inner_text()
    ravi.get_by_label("Your reason").fill("Checked the deals and the amounts")
    ravi.get_by_role("button", name="Confirm the refund").click()
    assert re.search(
        r"Refunded ₹1,500\.50: journal fairplay_refund:\d+\.", ravi.locator(".message").inner_text()
    )
    history = ravi.locator("main table[aria-label=History]").inner_text()
    assert "Froze a player's money play and withdrawals" in history
    assert "Refunded a case's victims (second of two)" in history
    assert "Checked the deals and the amounts" in history
    ravi.screenshot(path=str(SHOTS / "risk-case-refunded.png"), full_page=True)

    alice = phone_player(browser, site.url, "alice")
    assert WORDS in alice.locator("main").inner_text(), "the lobby says why"
    alice.screenshot(path=str(SHOTS / "risk-frozen-lobby-phone.png"), full_page=True)
    alice.goto(f"{site.url}/wallet/")
    # ₹25,000.50 deposited, ₹100 in the running pool game, ₹1,500.50 to carol.
    assert alice.locator("#balance-inr").inner_text() == "₹23,400.00"
    assert WORDS in alice.locator("section[aria-labelledby=wd-h]").inner_text()
    assert alice.locator("#withdraw-amount").count() == 0
    alice.screenshot(path=str(SHOTS / "risk-frozen-wallet-phone.png"), full_page=True)

    bob = phone_player(browser, site.url, "bob")
    warning = bob.locator("section.fairplay-warning")
    assert "Our fair-play team reviewed your recent games." in warning.inner_text()
    assert "a first warning" not in bob.content(), "the staff member's reason stays with staff"
    bob.screenshot(path=str(SHOTS / "risk-warning-phone.png"), full_page=True)
    with bob.expect_navigation(url=re.compile(r"/games/$")):
        warning.get_by_role("button", name="I have read this").click()
    assert bob.locator("section.fairplay-warning").count() == 0
    assert WORDS not in bob.locator("main").inner_text(), "bob was warned, not frozen"

    carol = phone_player(browser, site.url, "carol")
    carol.goto(f"{site.url}/wallet/")
    assert carol.locator("#balance-inr").inner_text() == "₹26,501.00"
    assert "Fair-play refund" in carol.locator("#statement-inr").inner_text()
