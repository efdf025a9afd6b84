"""A member sits down to Cribist with three computers in a real browser and plays tricks:
trumps named by the first lead, the trick in the middle, each finished trick's score."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.test_play import log_in

pytestmark = pytest.mark.browser
TRICKS = 3


def _my_card(page: Page):
    return page.locator("#hand button.card-button:not([disabled])").first


def test_a_member_plays_tricks_against_three_computers(page: Page, alice, screenshot):
    log_in(page, "alice")
    page.goto("/play/")
    page.get_by_label("Game", exact=True).select_option("cribist")
    expect(page.locator('fieldset[data-game="cribbage"]')).to_be_hidden()
    page.get_by_label("Players", exact=True).select_option("4")
    page.get_by_label("The computer takes every other seat").check()
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
    expect(page.locator(".cx-seat")).to_have_count(4)

    for trick in range(1, TRICKS + 1):
        # wait until the table asks for a card of ours, then play the first one allowed
        expect(page.locator(".cx-bottom.is-to-move")).to_be_visible(timeout=20_000)
        if trick == 1:
            screenshot(page, "cribist-first-lead-1280")
        card = _my_card(page)
        code = card.get_attribute("value")
        card.click()
        expect(page.locator(f'#hand button[value="{code}"]')).to_have_count(0)
        if trick == 1:
            expect(page.locator(".cx-trump")).to_contain_text(
                re.compile("clubs|diamonds|hearts|spades")
            )
        expect(page.locator(".cx-last h2")).to_contain_text(
            re.compile(rf"Trick {trick}: .* scores \d+"), timeout=20_000
        )
    expect(page.locator("#hand button.card-button")).to_have_count(13 - TRICKS)
    tricks = sum(int(text.split()[0]) for text in page.locator(".cx-tricks").all_inner_texts())
    assert tricks >= TRICKS
    page.set_viewport_size({"width": 1280, "height": 800})
    screenshot(page, "cribist-tricks-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".cx-trump-symbol")).to_be_visible()
    screenshot(page, "cribist-tricks-390")


def test_the_rules_page_reads_well_on_a_phone(page: Page, screenshot):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(reverse("rules", args=["cribist"]))
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Cribist")
    screenshot(page, "cribist-rules-390")
