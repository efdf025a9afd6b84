"""A member plays one deal of Table Top Cribbage and one of CrossCrib against the computer in a
real browser, by clicking squares (and the crib button). Screenshots at a phone's size (390x844)
and a laptop's (1280x800): the layout filling up, and the count at the end of the deal."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.test_play import log_in

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SQUARE = "#board button.tt-square"
CRIB = "#hand button:has-text('To the crib')"


def start(page: Page, game: str, target: str) -> None:
    page.goto("/play/")
    page.get_by_label("Game", exact=True).select_option(game)
    page.locator(f'fieldset[data-game="{game}"] input[name="{game}__target"]').fill(target)
    page.get_by_label("The computer takes every other seat").check()
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")


def play_one_deal(page: Page, screenshot, name: str, cribs: int = 0) -> None:
    """Click squares (and, `cribs` times, the crib button) until the deal is counted."""
    placed = 0
    count = page.locator("#board .tt-count")
    for _ in range(2000):
        if count.count():
            return
        squares = page.locator(SQUARE)
        forced = not squares.count() and page.locator(CRIB).count()
        if not squares.count() and not forced:
            page.wait_for_timeout(50)  # the computer is placing
            continue
        if placed == 4 and cribs:
            # Both crib counts are on show (the computer cribs when its strategy says so).
            expect(page.locator("#hand")).to_contain_text(re.compile(r"You have put [0-2] of 2"))
            expect(page.locator("#hand")).to_contain_text(re.compile(r"has put [0-2] of 2"))
        if placed == 5:
            for size, label in ((PHONE, "phone"), (LAPTOP, "laptop")):
                page.set_viewport_size(size)
                screenshot(page, f"{name}-layout-{label}")
        before = page.locator("#match-seq").get_attribute("data-seq")
        try:
            if forced or (cribs and placed in (2, 6) and page.locator(CRIB).count()):
                page.locator(CRIB).click()
                cribs -= 1
            else:
                squares.first.click()
        except PlaywrightError:
            continue  # redrawn under the click by a push: look again
        expect(page.locator("#match-seq")).not_to_have_attribute("data-seq", before)
        placed += 1
    raise AssertionError("the deal was not counted")


def test_a_member_plays_a_deal_of_table_top_and_of_crosscrib(page: Page, alice, screenshot):
    page.set_default_timeout(30_000)  # two whole deals; a busy machine serves pages slowly
    log_in(page, "alice")
    start(page, "tabletop", "31")
    expect(page.locator("#hand")).to_contain_text("card")
    expect(page.locator(".tt-cell.is-centre")).to_have_count(1)
    play_one_deal(page, screenshot, "tabletop")
    expect(page.locator("#board .tt-line")).to_have_count(10)
    for size, label in ((PHONE, "phone"), (LAPTOP, "laptop")):
        page.set_viewport_size(size)
        screenshot(page, f"tabletop-count-{label}")

    start(page, "crosscrib", "5")
    expect(page.locator(CRIB)).to_be_visible()
    play_one_deal(page, screenshot, "crosscrib", cribs=2)
    expect(page.locator("#board .tt-crib-line")).to_have_count(1)
    for size, label in ((PHONE, "phone"), (LAPTOP, "laptop")):
        page.set_viewport_size(size)
        screenshot(page, f"crosscrib-count-{label}")
