"""The way back into an account, in Chromium on a 360 px phone: a player who forgot their
password asks for a link, reads the mail, sets a new password; the table they left open in
another browser is signed out at once, and the new password logs in. A new player adds an
address on their profile and confirms it from the mail. A verified player moves to another
region, and a risk staff member approves the move. The site mails into files
(tests/browser/site.py); screenshots: docs/screenshots/accounts-*.png, backoffice-moves.png."""

from __future__ import annotations

import re
import time
from email import message_from_string
from pathlib import Path

import pytest

from tests.browser.site import mail_folder
from tests.browser.test_backoffice import staff_page
from tests.browser.test_play import SHOTS, TIMEOUT, log_in, play_now
from tests.browser.test_table_ui import no_serious_violations, phone, sign_up, words_only

pytestmark = pytest.mark.browser

NEW_PASSWORD = "saffron-kite-river-58"


def mail_to(site, address: str, after: int = 0, seconds: float = 15.0) -> str:
    """The body of the first mail to ``address`` after the first ``after`` in the site's inbox."""
    folder = mail_folder(Path(site.db))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = []
        for path in sorted(folder.glob("*.log")) if folder.exists() else []:
            for raw in path.read_text().split("-" * 79):
                if raw.strip():
                    found.append(message_from_string(raw.strip()))
        mine = [m for m in found if m["To"] == address]
        if len(mine) > after:
            return str(mine[after].get_payload(decode=True).decode())
        time.sleep(0.2)
    raise AssertionError(f"no mail to {address} within {seconds} s")


def link_in(body: str, path: str) -> str:
    found = re.search(rf"(https?://\S+{path}\S+/)", body)
    assert found, body
    return found.group(1)


def shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_a_forgotten_password_is_set_again_from_the_mail_and_the_old_sign_in_ends(browser, start_site):
    site = start_site(prepare="accounts")
    at_the_table = phone(browser)
    forgetful = phone(browser)
    try:
        table_page = log_in(at_the_table, site.url, "alice")
        play_now(table_page, "Browser 101 pool, 2 seats")  # waiting for a second player
        table_page.wait_for_selector("#seats .seat >> text=alice")

        page = forgetful.new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto(f"{site.url}/accounts/login/")
        page.get_by_role("link", name="Forgot your password?").click()
        page.fill("#id_email", "Alice@Example.com")
        no_serious_violations(page, "forgot password")
        page.get_by_role("button", name="Send me the link").click()
        page.wait_for_url(re.compile(r"/accounts/password/forgot/sent/$"))
        assert "If that address is confirmed on an account" in words_only(page)
        shot(page, "accounts-reset-sent.png")

        body = mail_to(site, "alice@example.com")
        assert "alice" in body
        page.goto(link_in(body, "/accounts/password/reset/"))
        page.wait_for_url(re.compile(r"/set-password/$"))
        page.fill("#id_new_password1", NEW_PASSWORD)
        page.fill("#id_new_password2", NEW_PASSWORD)
        shot(page, "accounts-reset-new-password.png")
        page.get_by_role("button", name="Save the new password").click()
        page.wait_for_url(re.compile(r"/accounts/password/reset/done/$"))
        assert "Your new password is set" in words_only(page)

        table_page.wait_for_function(
            "document.getElementById('status').textContent.includes('Log in to play')", timeout=TIMEOUT
        )
        shot(table_page, "accounts-reset-table-signed-out.png")
        table_page.goto(f"{site.url}/games/")
        assert "/accounts/login/" in table_page.url, "the old session is over"

        page.get_by_role("link", name="Log in").last.click()
        page.fill("#id_username", "alice")
        page.fill("#id_password", NEW_PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r"/games/(#[a-z0-9-]*)?$"))
        assert "Lobby" in page.inner_text("header")
    finally:
        at_the_table.close()
        forgetful.close()


def test_a_new_player_confirms_their_address_from_the_profile(browser, start_site):
    site = start_site()
    context = phone(browser)
    try:
        page = sign_up(context, site.url, "meera")
        page.goto(f"{site.url}/accounts/profile/")
        assert "nobody can let you back in" in words_only(page)
        page.fill("#id_email", "meera@example.com")
        page.fill("#id_password", "green-felt-table-42")
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(re.compile(r"/accounts/profile/$"))
        assert "We have sent a link to meera@example.com" in page.locator(".message").inner_text()
        assert "is not confirmed yet" in page.locator("#email-status").inner_text()
        no_serious_violations(page, "profile")
        shot(page, "accounts-profile-unconfirmed.png")

        page.goto(link_in(mail_to(site, "meera@example.com"), "/accounts/email/confirm/"))
        assert "Confirm meera@example.com as the address of the account meera" in words_only(page)
        shot(page, "accounts-confirm-address.png")
        page.get_by_role("button", name="Confirm this address").click()
        page.wait_for_url(re.compile(r"/accounts/profile/$"))
        assert "meera@example.com is confirmed" in page.locator(".message").inner_text()
        assert "is confirmed (since" in page.locator("#email-status").inner_text()
        shot(page, "accounts-profile-confirmed.png")
    finally:
        context.close()


def test_a_verified_player_moves_on_a_phone_and_risk_staff_approve_the_move__R_PROT_9(browser, start_site):
    site = start_site(prepare="backoffice")  # carol's identity is verified there
    context = phone(browser)
    rita = staff_page(browser, site.url, "rita")
    try:
        page = log_in(context, site.url, "carol")
        page.goto(f"{site.url}/accounts/profile/")
        page.select_option("#id_region", "IN-GA")
        page.get_by_role("button", name="Save").click()
        page.wait_for_url(re.compile(r"/accounts/profile/$"))
        assert "Your move to Goa waits for a staff review" in page.locator(".message").inner_text()
        assert page.locator("#region-waiting").inner_text() == "Your move to Goa waits for a staff review."
        assert "until then your region stays undeclared" in page.locator(".message").inner_text()
        assert page.locator("#id_region").input_value() == "ZZ", "not moved until then"
        words_only(page)
        shot(page, "accounts-move-waiting-for-review.png")

        rita.goto(f"{site.url}/backoffice/identity/#moves")
        move = rita.locator("tr", has_text="carol").last
        assert "Goa" in move.inner_text()
        shot(rita, "backoffice-moves.png")
        move.get_by_label("Reason to approve").fill("Aadhaar address is in Goa")
        move.get_by_role("button", name="Approve").click()
        assert "to Goa approved" in rita.locator(".message").inner_text()

        page.reload()
        assert page.locator("#id_region").input_value() == "IN-GA"
    finally:
        context.close()
        rita.context.close()
