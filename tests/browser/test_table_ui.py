"""The table as a new player meets it, in Chromium: a phone (360x740, portrait and landscape)
and a desktop (1280x800). Whole practice games against bots, each screen read: no raw code, no
scrolling on one's turn, no control off screen, no serious accessibility violation (axe-core)."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import RIGGED, SHOTS, TIMEOUT, log_in, play_now, two_at_the_rigged_table

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}
DESKTOP = {"width": 1280, "height": 800}
#: A word joined by underscores ("lost_show", "first_drop") is an internal code, never for players.
RAW_CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def phone(browser, viewport=PHONE):  # type: ignore[no-untyped-def]
    return browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)


def words_only(page) -> str:  # type: ignore[no-untyped-def]
    """The page's visible words, checked for internal codes."""
    text = page.inner_text("body")
    found = RAW_CODE.findall(text)
    assert not found, f"raw codes on {page.url}: {found}"
    return text


def no_serious_violations(page, what: str) -> None:  # type: ignore[no-untyped-def]
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    serious = [
        f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes: {v['nodes'][0]['target']})"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]
    assert not serious, f"{what}: {serious}"


def fits_one_screen(page) -> None:  # type: ignore[no-untyped-def]
    """On one's turn: no scrolling at all, and the piles, every card and the buttons on screen."""
    sizes = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
        " innerWidth, innerHeight]"
    )
    assert sizes[0] <= sizes[2] + 1, f"the page scrolls sideways: {sizes}"
    assert sizes[1] <= sizes[3] + 1, f"the page scrolls: {sizes}"
    off = page.evaluate(
        """() => [...document.querySelectorAll(
              '#draw-closed, #draw-open, #hand button.card, .actionbar button:not([hidden])')]
            .filter(e => { const r = e.getBoundingClientRect();
                           return r.top < 0 || r.left < -1
                               || r.bottom > innerHeight + 1 || r.right > innerWidth + 1; })
            .map(e => e.id || e.dataset.card)"""
    )
    assert not off, f"off screen: {off}"


def sign_up(context, url: str, name: str):  # type: ignore[no-untyped-def]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{url}/accounts/signup/")
    page.fill("#id_username", name)
    if page.locator("#id_display_name").count():
        page.fill("#id_display_name", name.title())
    page.fill("#id_password1", "green-felt-table-42")
    page.fill("#id_password2", "green-felt-table-42")
    page.fill("#id_date_of_birth", "1990-05-17")
    page.select_option("#id_region", "IN-KA")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/(#[a-z0-9-]*)?$"))
    return page


def labels_checked(page, seconds: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    """Wait until the server has named every group of the hand (a fresh hand is sorted and sent
    to be checked; its groups show "…" until the answer): a screenshot shows the hand as a
    player reads it."""
    deadline = time.monotonic() + seconds
    pending = page.locator("#hand .glabel", has_text="…")
    while pending.count() and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert not pending.count(), "the hand's groups were never checked"


def drop_each_deal(page, until: str, seconds: float, on_result=None, on_turn=None) -> int:  # type: ignore[no-untyped-def]
    """Drop every deal (two taps: the drop is confirmed) until ``until`` is visible; returns
    how many deal results were read."""
    seen: set[str] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not page.is_visible(until):
        if page.is_visible("#result") and page.locator("#result-body .mono").count():
            seed = page.inner_text("#result-body .mono")
            if seed not in seen:
                seen.add(seed)
                if on_result:
                    on_result(page, len(seen))
        if page.is_visible("#drop") and page.is_enabled("#drop"):
            if on_turn:
                on_turn(page)
            page.click("#drop")
            page.click("#drop")
        page.wait_for_timeout(250)
    return len(seen)


def test_a_new_player_plays_a_whole_practice_pool_game_on_a_phone(browser, start_site):
    site = start_site()
    context = phone(browser)
    try:
        page = sign_up(context, site.url, "newbie")
        words_only(page)
        no_serious_violations(page, "lobby")
        # The welcome chips pay the practice entry fee: no refusal, no rupee-worded error.
        play_now(page, "Browser practice 61 pool vs a bot")
        page.wait_for_selector("#seats .seat >> text=bot-")
        page.wait_for_selector("#hand button.card")
        turns = []

        def on_turn(p):  # type: ignore[no-untyped-def]
            if not turns:
                fits_one_screen(p)
                assert p.title().startswith("● Your turn")
                words_only(p)
                no_serious_violations(p, "table")
                SHOTS.mkdir(parents=True, exist_ok=True)
                labels_checked(p)
                p.screenshot(path=str(SHOTS / "phone-table.png"))
            turns.append(1)

        def on_result(p, n):  # type: ignore[no-untyped-def]
            text = words_only(p)
            assert (
                "Dropped on the first turn" in text
                or "Dropped after the first turn" in text
                or "Valid declaration" in text
                or "Every other player dropped or left" in text
            )
            if n == 1:
                assert p.is_visible("#verify")
                p.wait_for_selector("#table-app[data-verified=yes]", state="attached")
                no_serious_violations(p, "result")
                p.screenshot(path=str(SHOTS / "phone-result.png"))
                # The score card, from the menu.
                p.click("#result-scores")
                p.wait_for_selector("#scores-body table")
                assert p.locator("#scores-body tbody tr").count() >= 1
                p.click("#scores-close")

        deals = drop_each_deal(page, "#game-over", 150, on_result, on_turn)
        assert page.is_visible("#game-over"), "the practice game did not end"
        assert turns, "the player never had a turn"
        assert deals >= 1
        over = words_only(page)
        assert "Winner:" in over
        page.goto(f"{site.url}/wallet/")
        words_only(page)
        no_serious_violations(page, "wallet")
        statement = page.inner_text("#statement-chips")
        assert "₹" not in statement
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_21_card_practice_against_a_bot_shows_the_money_breakdown(browser, start_site, viewport):
    """As many deals as the table plays (up to three): each result with points, value cards,
    the cap, the rake and the chips per player. On a phone, 21 or 22 cards fit one screen."""
    site = start_site()
    context = phone(browser) if viewport is PHONE else browser.new_context(viewport=viewport)
    try:
        page = log_in(context, site.url, "carol")
        play_now(page, "Browser practice 21 cards vs a bot")
        page.wait_for_selector("#hand button.card")
        assert page.locator("#hand button.card").count() in (21, 22)
        if viewport is PHONE:
            fits_one_screen(page)
        results: list[str] = []

        def on_result(p, n):  # type: ignore[no-untyped-def]
            text = words_only(p)
            assert "chips" in text
            assert "₹" not in p.inner_text("#result-body")
            assert "Value cards" in text or "No value cards" in text
            assert "at most 200 points" in text
            results.append(text)
            if n == 1 and viewport is DESKTOP:
                SHOTS.mkdir(parents=True, exist_ok=True)
                p.screenshot(path=str(SHOTS / "desktop-21-result.png"))

        # Three deals' results in a row: the table plays deal after deal (R-21-9).
        seen: set[str] = set()
        quiet_since = time.monotonic()
        while len(results) < 3 and time.monotonic() - quiet_since < 25:
            if page.is_visible("#result") and page.locator("#result-body .mono").count():
                seed = page.inner_text("#result-body .mono")
                if seed not in seen:
                    seen.add(seed)
                    on_result(page, len(seen))
                    quiet_since = time.monotonic()
            if page.is_visible("#drop") and page.is_enabled("#drop"):
                page.click("#drop")
                page.click("#drop")
            page.wait_for_timeout(250)
        assert len(results) == 3
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [PHONE, LANDSCAPE], ids=["portrait", "landscape"])
def test_a_phone_fits_the_turn_on_one_screen(browser, start_site, viewport):
    """Before and after drawing (13 and 14 cards), portrait and landscape, and then the phone
    turned the other way: no scrolling."""
    site = start_site(seeds=RIGGED)
    alice_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = phone(browser, viewport)
    try:
        _, bob = two_at_the_rigged_table(alice_ctx, bob_ctx, site.url)
        fits_one_screen(bob)
        bob.click("#draw-closed")
        expect(bob.locator("#hand button.card")).to_have_count(14, timeout=30_000)
        fits_one_screen(bob)
        expect(bob.locator("#points")).not_to_contain_text("…", timeout=30_000)
        if viewport is LANDSCAPE:
            bob.screenshot(path=str(SHOTS / "phone-landscape.png"))
        # The phone turned the other way: the hand fans out again for its new width.
        bob.set_viewport_size(PHONE if viewport is LANDSCAPE else LANDSCAPE)
        bob.wait_for_timeout(400)
        fits_one_screen(bob)
    finally:
        alice_ctx.close()
        bob_ctx.close()


def test_drag_sort_group_labels_and_keyboard_on_a_desktop(browser, start_site):
    """Groups are labelled by the engine (a save_grouping ack), drag moves a card between groups,
    sort by suit and colour, and the keyboard discards."""
    site = start_site(seeds=RIGGED)
    alice_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=DESKTOP)
    try:
        alice, bob = two_at_the_rigged_table(alice_ctx, bob_ctx, site.url)
        # A fresh hand is sorted by suit and every group gets the engine's label and points.
        expect(bob.locator("#points")).not_to_contain_text("…", timeout=30_000)
        labels = bob.eval_on_selector_all("#hand .glabel", "els => els.map(e => e.textContent)")
        assert labels
        assert all(label != "…" for label in labels)
        assert re.fullmatch(r"Points \d+", bob.inner_text("#points"))
        # Sort by colour: two colour groups (and the jokers apart); the button names it.
        expect(bob.locator("#sort")).to_have_text("Sorted by suit")
        bob.click("#sort")
        expect(bob.locator("#sort")).to_have_text("Sorted by colour")
        expect(bob.locator("#points")).not_to_contain_text("…", timeout=30_000)
        # Drag the first card of the first group onto the last group.
        first = bob.locator("#hand .group").first.locator("button.card").first
        code = first.get_attribute("data-card")
        groups_before = bob.locator("#hand .group").count()
        target = bob.locator("#hand .group").last.locator("button.card").last
        first.hover()
        bob.mouse.down()
        box = target.bounding_box()
        assert box is not None
        bob.mouse.move(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2, steps=8)
        bob.mouse.up()
        last_cards = (
            bob.locator("#hand .group")
            .last.locator("button.card")
            .evaluate_all("els => els.map(e => e.dataset.card)")
        )
        assert groups_before >= 2
        assert code in last_cards, f"{code} was not dragged into the last group: {last_cards}"
        # Keyboard: draw, focus a card, D discards it.
        bob.click("#draw-closed")
        expect(bob.locator("#hand button.card")).to_have_count(14, timeout=30_000)
        card = bob.locator("#hand button.card").first
        discarded = card.get_attribute("data-card")
        card.focus()
        bob.keyboard.press("d")
        expect(bob.locator("#hand button.card")).to_have_count(13, timeout=30_000)
        expect(alice.locator("#draw-open .card")).to_have_attribute("data-card", discarded, timeout=30_000)
        assert "your turn" in alice.inner_text("#status").lower()
        assert alice.title().startswith("● Your turn")
        # Alice draws and discards by dragging a card onto the open pile.
        alice.click("#draw-closed")
        expect(alice.locator("#hand button.card")).to_have_count(14, timeout=30_000)
        card = alice.locator("#hand button.card").last
        thrown = card.get_attribute("data-card")
        card.hover()
        alice.mouse.down()
        pile = alice.locator("#draw-open").bounding_box()
        assert pile is not None
        alice.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=10)
        alice.mouse.up()
        expect(alice.locator("#hand button.card")).to_have_count(13, timeout=30_000)
        expect(bob.locator("#draw-open .card")).to_have_attribute("data-card", thrown, timeout=30_000)
        expect(alice).not_to_have_title(re.compile(r"^● Your turn"), timeout=30_000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        alice.screenshot(path=str(SHOTS / "desktop-table.png"))
        no_serious_violations(alice, "desktop table")
    finally:
        alice_ctx.close()
        bob_ctx.close()
