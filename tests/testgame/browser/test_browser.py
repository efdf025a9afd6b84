"""A member picks High Card in the lobby, plays the computer in a real browser, and replays."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_play import log_in

pytestmark = pytest.mark.browser


def test_a_member_plays_the_test_game_in_the_browser(page: Page, alice, screenshot):
    log_in(page, "alice")
    page.goto("/play/")
    page.get_by_label("Game", exact=True).select_option("testgame")
    expect(page.locator('fieldset[data-game="cribbage"]')).to_be_hidden()
    page.get_by_label("Cards each").fill("2")
    page.get_by_label("The computer takes every other seat").check()
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
    cards = page.locator("#hand button.card-button")
    for left in (1, 0):
        expect(page.locator("#status")).to_contain_text("Your turn")
        page.locator("#hand button.card-button:not([disabled])").first.click()
        expect(cards).to_have_count(left)
    expect(page.locator("#status")).to_contain_text(re.compile("wins|tie"))
    screenshot(page, "testgame-end")
    page.get_by_role("link", name="Replay the match").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Replay")
