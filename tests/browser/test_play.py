"""Members play Cribbage in real browsers: two members against each other, and one against the
computer, all by clicking. Screenshots of the discard, the play and the show are saved."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

MOVE_LIMIT = 400


def log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".nav-user")).to_be_visible()


def start_match(page: Page, *, computer: bool) -> str:
    page.goto("/play/")
    if computer:
        page.get_by_label("The computer takes every other seat").check()
    page.locator("fieldset[data-game=cribbage]").get_by_label("Game to").select_option("61")
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return page.url


def take_turn(page: Page) -> str | None:
    """Make one move on a page whose member is to move; returns what kind of move it was, or
    None when the page changed under the click (a push arrived): the caller looks again."""
    hand = page.locator("#hand")
    discard = hand.locator("form[data-need]")
    if discard.count():
        need = int(discard.get_attribute("data-need"))
        boxes = discard.locator('input[name="cards"]')
        for index in range(need):
            boxes.nth(index).set_checked(True, force=True)
        button = discard.get_by_role("button", name="Put in the crib")
        if not button.is_enabled():
            return None
        button.click()
        return "discard"
    for name, kind in (("Go", "go"), ("Next hand", "continue"), ("Next game", "continue"),
                       ("Let it go", "continue")):  # fmt: skip
        button = hand.get_by_role("button", name=name, exact=True)
        if button.count():
            button.click()
            return kind
    playable = hand.locator("button.card-button:not([disabled])")
    if playable.count():
        playable.first.click()
        return "play"
    return None


def play_to_the_end(pages: list[Page], screenshot, prefix: str) -> None:
    shots: set[str] = set()
    for _ in range(MOVE_LIMIT * 20):
        if all(_over(page) for page in pages):
            return
        page = next((p for p in pages if _can_move(p)), None)
        if page is None:
            pages[0].wait_for_timeout(50)  # the other side, or the computer, is moving
            continue
        if page.locator(".shows").count() and "show" not in shots:
            shots.add("show")
            screenshot(page, f"{prefix}-show")
        if page.locator("#hand form[data-need]").count() and "discard" not in shots:
            shots.add("discard")
            screenshot(page, f"{prefix}-discard")
        before = page.locator("#match-seq").get_attribute("data-seq")
        try:
            kind = take_turn(page)
        except PlaywrightError:
            kind = None  # the control was redrawn under the click
        if kind is None:
            page.wait_for_timeout(50)
            continue
        expect(page.locator("#match-seq")).not_to_have_attribute("data-seq", before)
        if (
            kind == "play"
            and f"{prefix}-pegging" not in shots
            and page.locator(".play").count() >= 2
        ):
            shots.add(f"{prefix}-pegging")
            screenshot(page, f"{prefix}-pegging")
    raise AssertionError("the match did not finish")


ACTIONABLE = (
    "#hand form[data-need], #hand button.card-button:not([disabled]), #hand button[name=move]"
)


def _can_move(page: Page) -> bool:
    """The page offers its member a move (htmx may still be settling the status line)."""
    return page.locator(ACTIONABLE).count() > 0 and not page.locator(".htmx-settling").count()


def _over(page: Page) -> bool:
    return page.locator("#actions").get_by_role("link", name="Replay the match").count() > 0


def test_two_members_play_a_whole_game(
    chromium, live_url, transactional_db, alice, bob, screenshot
):
    contexts = [chromium.new_context(base_url=live_url, viewport={"width": 1100, "height": 900})
                for _ in range(2)]  # fmt: skip
    alice_page, bob_page = (c.new_page() for c in contexts)
    for page in (alice_page, bob_page):
        page.set_default_timeout(10_000)
    log_in(alice_page, "alice")
    log_in(bob_page, "bob")
    url = start_match(alice_page, computer=False)
    expect(alice_page.locator("#status")).to_contain_text("Waiting for")

    bob_page.goto("/play/")
    bob_page.locator(".match-row").get_by_role("button", name="Join").click()
    expect(bob_page).to_have_url(url)
    for page in (alice_page, bob_page):
        expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
        expect(page.locator("#status")).to_contain_text("crib")
    # Alice's page turned to the discard by itself, over the socket.
    expect(alice_page.locator("#hand form[data-need]")).to_be_visible()

    play_to_the_end([alice_page, bob_page], screenshot, "two-members")
    for page in (alice_page, bob_page):
        expect(page.locator("#status")).to_contain_text("wins")
    screenshot(alice_page, "two-members-end")
    for context in contexts:
        context.close()


def test_a_member_plays_the_computer(page, alice, screenshot):
    log_in(page, "alice")
    start_match(page, computer=True)
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
    play_to_the_end([page], screenshot, "computer")
    expect(page.locator("#status")).to_contain_text("wins")
    page.get_by_role("link", name="Replay the match").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Replay")
    screenshot(page, "computer-replay")
