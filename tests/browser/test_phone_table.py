"""The table on a 360x740 phone, as a player reads it: every joker marked on the strip of the
card the fan leaves visible, a menu that offers only what applies at each moment, toasts that
clear themselves and never cover the hand or the buttons, six seats whose names never overlap,
a waiting table's countdown in words, a refund and a wrong show told in true words, and no
sandbox tag on a practice table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import FINISH_CARD, RIGGED, SHOTS, log_in, play_now, two_at_the_rigged_table
from tests.browser.test_table_ui import DESKTOP, LANDSCAPE, PHONE, fits_one_screen, labels_checked, phone

pytestmark = pytest.mark.browser

#: Deal seeds number 398 (tests/browser/site.py: seed_pair) deal carol, first to play at a
#: 21-card table against a bot, the cut 6♠ itself (the value joker), the 7♠ (upper), the 5♠
#: (lower), the 6♣ (a wild joker) and a printed joker.
JOKERS_21 = 398
#: A card code written as a code ("8D", "TD"): the page writes cards as "8♦", "10♦".
CARD_CODE = re.compile(r"\b(?:PJ|[A2-9TJQK][SHDC])\b")
#: The menu's items whose visibility depends on the moment.
MENU = ("open-scores", "open-last", "auto-drop", "leave-after-deal", "leave")


def menu_shows(page) -> set[str]:  # type: ignore[no-untyped-def]
    """The menu's items a player sees (opening the menu when it is closed)."""
    if page.is_hidden("#menu"):
        page.click("#menu-button")
    return {item for item in MENU if page.is_visible(f"#{item}")}


def close_menu(page) -> None:  # type: ignore[no-untyped-def]
    if page.is_visible("#menu"):
        page.click("#menu-button")


def seconds_left(countdown: re.Pattern[str], text: str) -> int:
    found = countdown.match(text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def unmarked_jokers(page) -> list[str]:  # type: ignore[no-untyped-def]
    """The jokers of the hand whose mark is covered by the next card of the fan, missing, or too
    small to read: each mark's centre and corners must hit its own card."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#hand button.card')]
          .filter(card => /joker/.test(card.getAttribute('aria-label')))
          .filter(card => {
            const mark = card.querySelector('.mark');
            if (!mark || !mark.textContent.trim()) return true;
            if (parseFloat(getComputedStyle(mark).fontSize) < 10) return true;
            const r = mark.getBoundingClientRect();
            const points = [[r.left + r.width / 2, r.top + r.height / 2],
                            [r.left + 1, r.top + 1], [r.right - 1, r.top + 1],
                            [r.left + 1, r.bottom - 1], [r.right - 1, r.bottom - 1]];
            return points.some(([x, y]) => !card.contains(document.elementFromPoint(x, y)));
          })
          .map(card => card.getAttribute('aria-label'))"""
    )


def test_every_joker_of_a_21_card_hand_is_marked_where_the_fan_shows_it(browser, start_site):
    """Wild, printed, value, upper and lower jokers (R-DEAL-2, R-21-2), sorted together at the
    end of the hand: each mark readable; the Sort button names the sort on screen; the menu
    of a running game; no sandbox tag on a practice table."""
    site = start_site(seeds=JOKERS_21)
    context = phone(browser)
    try:
        page = log_in(context, site.url, "carol")
        play_now(page, "Browser practice 21 cards vs a bot")
        page.wait_for_selector("#hand button.card")
        labels_checked(page)
        # Practice chips are not money: the sandbox payments tag is not for this table.
        assert page.locator(".sandbox-tag").count() == 0
        assert "Sandbox money" not in page.inner_text("body")
        marks = page.eval_on_selector_all(
            "#hand button.card", "els => els.map(e => e.getAttribute('aria-label'))"
        )
        named = {kind for label in marks for kind in re.findall(r"(\w+ joker)", label)}
        assert named == {"wild joker", "printed joker", "value joker", "upper joker", "lower joker"}
        assert "6 of spades, value joker, group" in " ".join(marks)
        assert unmarked_jokers(page) == []
        fits_one_screen(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone-jokers.png"))
        # The Sort button says how the hand is sorted; a tap sorts it the other way.
        expect(page.locator("#sort")).to_have_text("Sorted by suit")
        page.click("#sort")
        expect(page.locator("#sort")).to_have_text("Sorted by colour")
        assert unmarked_jokers(page) == []
        page.click("#sort")
        expect(page.locator("#sort")).to_have_text("Sorted by suit")
        # A running game: every table action is in the menu.
        assert menu_shows(page) == set(MENU)
        page.screenshot(path=str(SHOTS / "phone-menu.png"))
        close_menu(page)
    finally:
        context.close()


def test_a_waiting_table_counts_down_in_words_and_a_player_who_leaves_reads_why_the_fee_came_back(
    browser, start_site
):
    """R-MONEY-4: leaving before the start gives the entry fee back, and the statement says so."""
    site = start_site()
    context = phone(browser)
    try:
        page = log_in(context, site.url, "alice")
        play_now(page, "Browser 101 pool, 2 seats")
        expect(page.locator("#status")).to_have_text("Waiting for players…")
        countdown = re.compile(r"^The table closes in (\d+):(\d\d) if nobody comes\.$")
        expect(page.locator("#timer")).to_have_text(countdown)
        first = seconds_left(countdown, page.inner_text("#timer"))
        assert 9 * 60 <= first <= 10 * 60
        page.wait_for_timeout(2_100)
        assert seconds_left(countdown, page.inner_text("#timer")) < first, "the countdown is live"
        # Before the start: nothing to leave "after this deal", no auto drop.
        assert menu_shows(page) == {"open-scores", "open-last", "leave"}
        close_menu(page)
        # Two toasts at once: each goes after its own few seconds.
        page.evaluate(
            """async () => { const { toast } = await import('/static/table/toast.js');
                             toast('Kept as they are.', 'arrange-error', true);
                             toast('Not your turn.', 'action-error'); }"""
        )
        expect(page.locator("#arrange-error")).to_have_text("Kept as they are.")
        expect(page.locator("#action-error")).to_have_text("Not your turn.")
        page.wait_for_timeout(6_600)
        assert page.inner_text("#arrange-error") == ""
        assert page.inner_text("#action-error") == ""
        # Leave: the fee comes back, and nothing is left to leave.
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#menu-button")
        page.click("#leave")
        expect(page.locator("#leave")).to_be_hidden()
        assert menu_shows(page) == {"open-scores", "open-last"}
        page.goto(f"{site.url}/wallet/")
        statement = page.inner_text("#statement-chips")
        assert "Entry fee back: you left before the game started" in statement
        assert "cancelled or voided" not in statement
    finally:
        context.close()


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_a_wrong_show_is_told_with_suit_symbols_clear_of_the_hand_and_in_the_log(browser, start_site):
    """R-DECL-3: bob declares his cards as sorted, which is wrong. The toast and the log say
    why, cards written as on the table; toasts never cover the hand or the action bar; the log
    carries the scores after the deal."""
    site = start_site(seeds=RIGGED)
    alice_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    bob_ctx = phone(browser)
    try:
        _, bob = two_at_the_rigged_table(alice_ctx, bob_ctx, site.url)
        # Two long toasts on the turn: over the seats and the felt, never the hand or the buttons.
        bob.evaluate(
            """async ([arrange, action]) => {
                 const { toast } = await import('/static/table/toast.js');
                 toast(arrange, 'arrange-error');
                 toast(action, 'action-error'); }""",
            [
                "Could not reach the server to arrange your cards. Try again in a moment.",
                "Wrong show: 3♥ 4♥ 5♥ 6♥ 8♥ 10♥: not a sequence, not a set; only one sequence.",
            ],
        )
        hand = bob.locator("#hand-section").bounding_box()
        bar = bob.locator(".actionbar").bounding_box()
        assert hand
        assert bar
        for toast in ("#arrange-error", "#action-error"):
            box = bob.locator(toast).bounding_box()
            assert box
            assert not overlaps(box, hand), f"{toast} covers the hand: {box} {hand}"
            assert not overlaps(box, bar), f"{toast} covers the action bar: {box} {bar}"
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= PHONE["width"]
        assert not overlaps(
            bob.locator("#arrange-error").bounding_box(), bob.locator("#action-error").bounding_box()
        ), "two toasts on top of each other"
        # Bob draws, puts a card in the finish slot and declares his cards as they are sorted.
        bob.click("#draw-closed")
        expect(bob.locator("#hand button.card")).to_have_count(14, timeout=30_000)
        bob.click(f"#hand button[data-card='{FINISH_CARD}']")
        bob.click("#finish")
        bob.wait_for_selector("#declare:enabled")
        bob.click("#declare")
        # The deal is over (alice is the last one in): the toast stays until the next deal.
        toast = bob.locator("#action-error")
        expect(toast).to_contain_text("Wrong show:", timeout=30_000)
        told = toast.inner_text()
        assert not CARD_CODE.findall(told), f"cards written as codes: {told}"
        assert re.search(r"(10|[2-9AJQK])[♠♥♦♣]", told), told
        box = toast.bounding_box()
        assert box
        assert not overlaps(box, bar)
        # The log tells why, and the scores once the deal is over (a wrong show costs 80).
        bob.click("#menu-button")
        bob.click("#menu .log summary")
        log = bob.locator("#log")
        expect(log).to_contain_text("Why the show was wrong: ")
        expect(log).to_contain_text(
            re.compile(r"The scores after the deal are in: (You 80, alice 0|alice 0, You 80)")
        )
        why = next(line for line in log.all_inner_texts()[0].splitlines() if line.startswith("Why"))
        assert not CARD_CODE.findall(why), why
        assert re.search(r"[♠♥♦♣]", why), why
    finally:
        alice_ctx.close()
        bob_ctx.close()


#: Seed pairs (tests/browser/site.py: seed_pair) of the six-seat table: alice plays first, her
#: hand auto-arranged in five groups that wrap to a third row unless the fan tightens; and
#: priyanka.venkataraman, seated next, plays first (her turn's timer and the toss line take room).
ALICE_FIRST, PRIYANKA_FIRST = 8, 6


@pytest.mark.parametrize("seeds", [ALICE_FIRST, PRIYANKA_FIRST], ids=["alice-first", "another-first"])
def test_six_seats_on_a_phone_keep_their_names_apart(browser, start_site, seeds):
    """Six players, five with long names: each name stays within its seat (cut short with an
    ellipsis, the whole name in the seat's accessible name), no two overlap, nothing scrolls,
    whoever has the first turn, upright or on its side; on a desktop the whole toss shows."""
    site = start_site(prepare=f"six_seats {seeds}")
    context = phone(browser)
    try:
        page = log_in(context, site.url, "alice")
        page.click("text=Back to table")
        expect(page.locator("#seats .seat")).to_have_count(6)
        page.wait_for_selector("#hand button.card", timeout=30_000)
        seats = page.eval_on_selector_all(
            "#seats .seat",
            """els => els.map(seat => { const name = seat.querySelector('.name');
                 const r = name.getBoundingClientRect(), s = seat.getBoundingClientRect();
                 return {name: name.textContent, label: seat.getAttribute('aria-label'),
                         box: {x: r.left, y: r.top, width: r.width, height: r.height},
                         seat: {x: s.left, y: s.top, width: s.width, height: s.height}}; })""",
        )
        for one in seats:
            box, seat = one["box"], one["seat"]
            assert box["x"] >= seat["x"] - 0.5, one
            assert box["x"] + box["width"] <= seat["x"] + seat["width"] + 0.5, one
            assert seat["x"] >= 0, one
            assert seat["x"] + seat["width"] <= PHONE["width"], one
        for k, one in enumerate(seats):
            for other in seats[k + 1 :]:
                assert not overlaps(one["box"], other["box"]), f"{one['name']} overlaps {other['name']}"
        assert any(one["label"].startswith("priyanka.venkataraman") for one in seats)
        first = "alice" if seeds == ALICE_FIRST else "priyanka.venkataraman"
        expect(page.locator(".seat.turn")).to_have_attribute("aria-label", re.compile(f"^{re.escape(first)}"))
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = "alice" if seeds == ALICE_FIRST else "another"
        page.screenshot(path=str(SHOTS / f"phone-six-seats-{shot}-first.png"))
        fits_one_screen(page)
        # On its side, the long toss scrolls within the felt's column rather than the page.
        page.set_viewport_size(LANDSCAPE)
        page.wait_for_timeout(400)
        page.screenshot(path=str(SHOTS / f"phone-landscape-six-seats-{shot}-first.png"))
        fits_one_screen(page)
        # A desktop's wide felt shows the whole toss, with nothing to scroll.
        page.set_viewport_size(DESKTOP)
        page.wait_for_timeout(400)
        assert page.eval_on_selector("#notice", "e => e.scrollHeight <= e.clientHeight + 1")
        fits_one_screen(page)
    finally:
        context.close()


def test_an_opponent_who_closes_the_app_shows_offline_within_five_seconds(browser, start_site):
    """alice and bob at a table on their phones; bob closes the app (his page goes): alice's
    seat for bob says "Offline" within 5 s, with nothing else happening at the table."""
    site = start_site(seeds=RIGGED)
    alice_ctx, bob_ctx = phone(browser), phone(browser)
    try:
        alice, _ = two_at_the_rigged_table(alice_ctx, bob_ctx, site.url)
        bob_seat = alice.locator(".seat:not(.me)")
        expect(bob_seat).not_to_contain_text("Offline")
        bob_ctx.close()  # the app is closed: its websocket goes with it
        expect(bob_seat).to_contain_text("Offline", timeout=5_000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        alice.screenshot(path=str(SHOTS / "phone-opponent-offline.png"))
    finally:
        alice_ctx.close()
