"""A practice sit-and-go of 6 on a 360x740 phone: alice finds it from the lobby, registers,
bots fill it, she plays round 1 at a table of 3 (dropping each hand; the bots and the timers do
the rest), is knocked out or goes through to the final, and reads the result with the prizes.
The reminder of the cup she is registered for shows on every page. Screenshots in
docs/screenshots/ (tournaments-lobby.png, tournament-page.png, tournament-table.png,
tournament-result.png)."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.site import SCHEDULED, SIT_AND_GO
from tests.browser.test_formats import drop, shoot
from tests.browser.test_play import TIMEOUT, log_in, shot
from tests.browser.test_table_ui import phone, words_only

pytestmark = pytest.mark.browser


def no_sideways_scroll(page) -> None:  # type: ignore[no-untyped-def]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} is {width} px wide on a 360 px phone"


def test_a_player_plays_a_practice_sit_and_go_to_its_result_on_a_phone(browser, start_site):
    """R-TOUR-2..5: registered with the buy-in, seated at random at a table of 3, one through
    from each table to the final, every player ranked once and the prizes paid (70% and 30%
    of 60 chips)."""
    site = start_site(prepare="tournament", bot_think=0.3)
    context = phone(browser)
    try:
        page = log_in(context, site.url, "alice")
        expect(page.locator(".tournament-banner")).to_contain_text(f"{SCHEDULED} starts in")
        page.click("nav >> text=Tournaments")
        page.wait_for_url(re.compile(r"/tournaments/$"))
        row = page.locator(".t-row", has_text=SIT_AND_GO)
        expect(row).to_contain_text("10 chips")
        expect(row).to_contain_text("0 of 6")
        expect(page.locator(".t-row", has_text=SCHEDULED)).to_contain_text("Registered")
        words_only(page)
        no_sideways_scroll(page)
        shoot(page, "tournaments-lobby.png")

        row.locator(".t-name").click()
        expect(page.locator("h1")).to_have_text(SIT_AND_GO)
        expect(page.locator(".t-prizes tbody tr")).to_have_count(2)
        page.click("text=Register · 10 chips")
        # Bots fill the other five places; the sit-and-go starts and round 1 is seated.
        expect(page.locator(".t-seated a")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("[data-count]")).to_have_text("6")
        expect(page.locator(".t-tables .t-table")).to_have_count(2)
        expect(page.locator(".t-table.mine")).to_contain_text("Alice")
        words_only(page)
        no_sideways_scroll(page)
        shot(page, "tournament-page.png")

        tournament_path = page.url.removeprefix(site.url)
        tables: list[str] = []
        deadline = time.monotonic() + 420
        while time.monotonic() < deadline:
            if "/games/tables/" in page.url:
                if page.is_visible("#game-over"):
                    # The round's table leads back to its tournament, not to the lobby.
                    page.click(f"#game-over >> text=Back to {SIT_AND_GO}")
                    page.wait_for_url(f"{site.url}{tournament_path}")
                elif page.is_visible("#drop") and page.is_enabled("#drop"):
                    stage = "round 1" if len(tables) == 1 else "the final"
                    expect(page.locator(".topbar h1 small")).to_contain_text(f"{SIT_AND_GO} · {stage}")
                    expect(page.locator(".topbar .back")).to_have_attribute("href", tournament_path)
                    if len(tables) == 1 and not page.locator("#status").get_attribute("data-shot"):
                        page.locator("#status").evaluate("el => el.dataset.shot = '1'")
                        shoot(page, "tournament-table.png")
                    drop(page)
            else:
                if page.is_visible("text=The result"):
                    break
                seat = page.locator(".t-seated a")
                if seat.is_visible() and seat.get_attribute("href") not in tables:
                    tables.append(seat.get_attribute("href") or "")
                    seat.click()
                    page.wait_for_url(re.compile(r"/games/tables/\d+/$"))
            page.wait_for_timeout(300)
        # The page's socket brings the end without a reload.
        page.click("text=The result")
        page.wait_for_url(re.compile(r"/result/$"))
        ranking = page.locator(".t-ranking tbody tr")
        expect(ranking).to_have_count(6)
        expect(ranking.nth(0)).to_contain_text("42 chips")
        expect(ranking.nth(1)).to_contain_text("18 chips")
        expect(page.locator("main")).to_contain_text("Prize pool 60 chips")
        expect(page.locator(".t-me")).to_contain_text(re.compile(r"You finished #[1-6]"))
        assert 1 <= len(tables) <= 2, tables  # round 1, and the final if she went through
        words_only(page)
        no_sideways_scroll(page)
        shot(page, "tournament-result.png")
    finally:
        context.close()
