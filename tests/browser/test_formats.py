"""Points and deals rummy on a 360x740 phone against a bot, and the lobby of four formats, as a
player meets them: a whole practice deals game (best of 2) with its game chips and "Deal 1 of
2"; a tie-breaker told on screen; three points deals with each deal's money and a seat topped
back up from the wallet, in words; the lobby's tabs, and a stake's players changing without a
reload. Screenshots in docs/screenshots/ (phone-deals*.png, phone-points*.png, phone-lobby.png)."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.site import DEALS_VS_A_BOT, POINTS_VS_A_BOT
from tests.browser.test_play import SHOTS, TIMEOUT, log_in, play_now
from tests.browser.test_table_ui import fits_one_screen, labels_checked, phone, words_only

pytestmark = pytest.mark.browser


#: Deal seeds number 503 (tests/browser/site.py: seed_pair) for the tie-breaker deal after
#: ``deals_tie``: the bot's hand is no first drop, so the deal waits for carol.
TIE_BREAKER = 503


def shoot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


def drop(page) -> None:  # type: ignore[no-untyped-def]
    """A drop: two taps (the first asks to confirm)."""
    page.click("#drop")
    page.click("#drop")


def open_log(page) -> str:  # type: ignore[no-untyped-def]
    if page.is_hidden("#menu"):
        page.click("#menu-button")
    if not page.locator("#menu .log").evaluate("d => d.open"):
        page.click("#menu .log summary")
    text = page.inner_text("#log")
    page.click("#menu-button")
    return text


def against_a_bot(context, url: str, template: str, variant: str, stake: str):  # type: ignore[no-untyped-def]
    """carol at a new practice table of ``template`` against a bot; its top bar names the
    variant and the stake."""
    page = log_in(context, url, "carol")
    play_now(page, template)
    page.wait_for_selector("#seats .seat >> text=bot-")
    expect(page.locator("h1 .variant")).to_have_text(variant)
    expect(page.locator("h1 small")).to_contain_text(stake)
    return page


def test_a_whole_practice_deals_game_best_of_2_against_a_bot_on_a_phone(browser, start_site):
    """R-DEALS-1..4: 160 game chips each (80 x 2 deals), never shown as rupees nor as practice
    chips; "Deal 1 of 2"; each result says the game chips given and won and the standings;
    the game's end names the winner of the prize pool."""
    site = start_site()
    context = phone(browser)
    try:
        page = against_a_bot(context, site.url, DEALS_VS_A_BOT, "Deals", "10 chips entry · best of 2")
        # The bot may drop its first hand at once: the page may open on deal 1 or deal 2.
        expect(page.locator("#status")).to_contain_text(re.compile(r"Deal [12] of 2"), timeout=TIMEOUT)
        chips = page.locator(".seat .score.game-chips")
        expect(chips).to_have_count(2)
        held = [int(text) for text in chips.all_inner_texts()]
        assert sum(held) == 320, held  # 80 x 2 deals each, moved only between the two
        assert held == [160, 160] or sorted(held) == [140, 180], held
        labels = page.eval_on_selector_all(
            "#seats .seat", "els => els.map(e => e.getAttribute('aria-label'))"
        )
        assert all(re.search(r"\b(160|140|180) game chips", label) for label in labels), labels
        results: list[str] = []
        turns = 0
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not page.is_visible("#game-over"):
            if page.is_visible("#result") and page.locator("#result-body .mono").count():
                seed = page.inner_text("#result-body .mono")
                if seed not in results:
                    results.append(seed)
                    body = words_only(page)
                    sheet = page.inner_text("#result")
                    assert re.search(r"Deal \d of 2: result|Tie-breaker deal \(deal \d\): result", sheet), (
                        sheet
                    )
                    expect(page.locator("#result-body td.chips")).to_have_count(2)
                    assert re.search(
                        r"(Gives \d+ game chips to the winner: \d+ left|Wins \d+ game chips: \d+ now)", sheet
                    )
                    assert "Game chips now: " in sheet
                    assert "₹" not in sheet
                    assert "game chips are a score, not money" in body
                    if len(results) == 1:
                        shoot(page, "phone-deals-result.png")
            if page.is_visible("#drop") and page.is_enabled("#drop"):
                if turns == 0:
                    labels_checked(page)
                    fits_one_screen(page)
                    assert re.match(
                        r"Deal [12] of 2\. Your turn\.", page.inner_text("#status")
                    )  # the bot may drop first
                    shoot(page, "phone-deals.png")
                turns += 1
                drop(page)
            page.wait_for_timeout(250)
        assert page.is_visible("#game-over"), "the deals game did not end"
        assert results, "a deal's result was shown before the game's end"
        over = page.inner_text("#over-body")
        assert re.search(r"Winner: (You|bot-\w+), with the most game chips \(\d+\)\.", over), over
        assert re.search(r"Game chips: \S+ \d+, \S+ \d+\.", over), over
        assert re.search(
            r"is paid [\d.]+ chips from the prize pool\.|are paid [\d.]+ chips from the prize pool\.", over
        )
        words_only(page)
        shoot(page, "phone-deals-over.png")
        # The last deal's result, from the game's end: its game chips and the standings.
        page.click("#over-result")
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#result-body td.chips")).to_have_count(2)
        expect(page.locator("#result-body")).to_contain_text("Game chips now: ")
        page.click("#result-close")
        expect(page.locator("#game-over")).to_be_visible()
        page.click("#menu-button")
        page.click("#open-scores")
        page.wait_for_selector("#scores-body table")
        assert page.locator("#scores-body tbody tr").count() >= 2, "best of 2: at least two deals"
        foot = page.locator("#scores-body tfoot tr").last.locator("th")
        expect(foot).to_have_count(3)
        assert foot.first.inner_text() == "Game chips"
        assert sorted(int(n) for n in foot.all_inner_texts()[1:]) == sorted(
            int(n) for n in re.findall(r"(\d+)", over.split("Game chips:", 1)[1].split(".", 1)[0])
        ), "the score card's game chips are the game's end"
        page.click("#scores-close")
        log = open_log(page)
        assert "The game started: best of 2, 160 game chips each" in log
        assert "The game chips moved to the deal's winner: " in log
    finally:
        context.close()


def test_a_deals_tie_is_told_with_the_tied_players_and_their_chips_and_a_tie_breaker_deal_decides(
    browser, start_site
):
    """R-DEALS-4: carol and the bot both at 160 after the two deals: the toast, the status line
    and the log say who is tied and with how many game chips; the tie-breaker deal is played."""
    site = start_site(seeds=TIE_BREAKER, prepare="deals_tie")
    context = phone(browser)
    try:
        page = log_in(context, site.url, "carol")
        page.click("text=Back to table")
        note = page.locator("#table-note")
        expect(note).to_contain_text(re.compile(r"Tie-breaker: (You and bot-\w+|bot-\w+ and You) are tied"))
        expect(note).to_contain_text("for the most game chips (160 each); a deal among them decides.")
        expect(page.locator("#status")).to_contain_text(
            re.compile(r"Tie-breaker deal \(deal 3\)|Tie-breaker: .* are tied for the most game chips"),
            timeout=TIMEOUT,
        )
        badges = page.locator(".seat .badge.tie")
        expect(badges).to_have_count(2)
        log = open_log(page)
        assert re.search(
            r"A tie-breaker deal decides between the players tied for the most game chips: "
            r"(You and bot-\w+|bot-\w+ and You), 160 game chips each",
            log,
        ), log
        expect(page.locator("#status")).to_contain_text("Tie-breaker deal (deal 3)", timeout=TIMEOUT)
        shoot(page, "phone-deals-tie.png")
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not page.is_visible("#game-over"):
            if page.is_visible("#drop") and page.is_enabled("#drop"):
                drop(page)
            page.wait_for_timeout(250)
        assert page.is_visible("#game-over"), "the tie-breaker deal did not decide the game"
        assert "Winner: " in page.inner_text("#over-body")
    finally:
        context.close()


def test_three_points_deals_against_a_bot_each_in_money_and_a_lost_seat_topped_up_from_the_wallet(
    browser, start_site
):
    """R-PTS-3, R-PTS-4, R-PTS-5: the seat holds 80 points (8 chips at 0.10 a point); each
    result says what each loser pays (points x value) and what the winner gets less the rake;
    a seat that lost is topped back up from the wallet before the next deal, and the page says
    so in words."""
    site = start_site()
    context = phone(browser)
    try:
        page = against_a_bot(context, site.url, POINTS_VS_A_BOT, "Points", "0.10 chips a point")
        expect(page.locator(".seat.me .score")).to_have_text("8 chips")
        me = page.get_attribute("#table-app", "data-me")
        results: list[str] = []
        notes: list[str] = []
        shot_turn = shot_result = False
        deadline = time.monotonic() + 200
        while time.monotonic() < deadline and not (
            len(results) >= 3 and any("Your seat" in n for n in notes)
        ):
            note = page.inner_text("#table-note")
            if note and note not in notes:
                notes.append(note)
                if note.startswith("Your seat") and len([n for n in notes if n.startswith("Your seat")]) == 1:
                    shoot(page, "phone-points-topup.png")
            if page.is_visible("#result") and page.locator("#result-body .mono").count():
                seed = page.inner_text("#result-body .mono")
                if seed not in results:
                    results.append(seed)
                    words_only(page)
                    sheet = page.inner_text("#result")
                    assert re.search(r"Deal \d+: result", sheet), sheet
                    expect(page.locator("#result-body td.money")).to_have_count(2)
                    assert re.search(r"Pays \d+ points × 0\.10 chips = [\d.]+ chips", sheet), sheet
                    assert re.search(
                        r"Gets \d+ points × 0\.10 chips = [\d.]+ chips, less [\d.]+ chips rake", sheet
                    ), sheet
                    assert "Seat balances now: " in sheet
                    assert "₹" not in sheet, "practice chips are never rupees"
                    lost = page.locator(f"#result-body tr[data-player='{me}'] .money .loss").count() == 1
                    if lost:
                        assert "Your seat is below 8 chips: it is topped back up from your wallet" in sheet
                    if lost and not shot_result:
                        shoot(page, "phone-points-result.png")
                        shot_result = True
            if page.is_visible("#drop") and page.is_enabled("#drop"):
                if not shot_turn:
                    labels_checked(page)
                    fits_one_screen(page)
                    shoot(page, "phone-points.png")
                    shot_turn = True
                drop(page)
            page.wait_for_timeout(200)
        assert len(results) >= 3, f"three deals were not played: {len(results)}"
        mine = [n for n in notes if n.startswith("Your seat")]
        assert mine, f"no top-up was told: {notes}"
        assert re.match(
            r"Your seat fell below 80 points and was topped up from the wallet \([\d.]+ chips\)\.", mine[0]
        )
        log = open_log(page)
        assert "Your seat fell below 80 points and was topped up from the wallet" in log
        assert re.search(r"The deal was settled: .*points", log)
        expect(page.locator(".seat.me .score")).to_have_text(
            re.compile(r"^(8|[89]\.\d\d|\d+(\.\d\d)?) chips$")
        )
        words_only(page)
    finally:
        context.close()


def test_the_lobby_has_a_tab_per_format_and_a_stakes_players_change_without_a_reload(browser, start_site):
    """Points, Pool, Deals and 21 Cards each a tab, money apart from practice; bob sits at a
    2-seat pool table and carol's lobby, left open, says "1 waiting" at that stake by itself."""
    site = start_site()
    carol_ctx, bob_ctx = phone(browser), phone(browser)
    try:
        carol = log_in(carol_ctx, site.url, "carol")
        tabs = carol.get_by_role("tab")
        expect(tabs).to_have_count(4)
        names = [re.sub(r"\s*\d+\s*players?$", "", t).strip() for t in tabs.all_inner_texts()]
        assert names == ["Points", "Pool", "Deals", "21 Cards"]
        expect(carol.get_by_role("tab", name=re.compile("^Points"))).to_have_attribute(
            "aria-selected", "true"
        )
        panel = carol.locator("#format-points")
        expect(panel).to_be_visible()
        assert carol.locator("#format-pool").is_hidden()
        amounts = panel.locator("h3.money + ul .amount").all_inner_texts()
        assert amounts == ["₹0.10 a point", "₹1.00 a point", "₹5.00 a point"], amounts
        practice = panel.locator("h3.practice + ul .amount").all_inner_texts()
        assert practice, "practice points tables are offered"
        assert all("chips a point" in a and "₹" not in a for a in practice), practice
        fits_width(carol)
        words_only(carol)
        shoot(carol, "phone-lobby.png")
        carol.get_by_role("tab", name=re.compile("^Pool")).click()
        pool = carol.locator("#format-pool")
        expect(pool).to_be_visible()
        row = pool.locator(
            ".stake", has=carol.get_by_role("button", name="Play now: Browser 101 pool, 2 seats")
        )
        expect(row.locator("[data-who]")).to_have_text("Nobody seated yet")
        bob = log_in(bob_ctx, site.url, "bob")
        bob.get_by_role("tab", name=re.compile("^Pool")).click()
        play_now(bob, "Browser 101 pool, 2 seats")
        expect(row.locator("[data-who]")).to_have_text("1 waiting", timeout=12_000)
        expect(row.locator("[data-who]")).not_to_have_class(re.compile("idle"))
        expect(carol.get_by_role("tab", name=re.compile("^Pool"))).to_contain_text("1")
        row.scroll_into_view_if_needed()
        shoot(carol, "phone-lobby-pool.png")
        carol.reload()
        expect(carol.get_by_role("tab", name=re.compile("^Pool"))).to_have_attribute("aria-selected", "true")
        carol.get_by_role("tab", name=re.compile("^Deals")).click()
        deals = carol.locator("#format-deals h3.money + ul .amount").all_inner_texts()
        assert deals == [
            "₹25.00 entry · best of 2",
            "₹50.00 entry · best of 3",
            "₹100.00 entry · best of 6",
        ], deals
    finally:
        carol_ctx.close()
        bob_ctx.close()


def fits_width(page) -> None:  # type: ignore[no-untyped-def]
    """Nothing scrolls sideways, and every visible Play now is on screen across."""
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1] + 1, f"the lobby scrolls sideways: {width}"
    off = page.evaluate(
        """() => [...document.querySelectorAll('.stake .play button')]
            .filter(b => b.offsetParent !== null)
            .filter(b => { const r = b.getBoundingClientRect();
                           return r.left < 0 || r.right > innerWidth + 1; })
            .map(b => b.getAttribute('aria-label'))"""
    )
    assert not off, f"off screen: {off}"
