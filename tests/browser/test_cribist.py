"""A member sits down to Cribist with three computers in a real browser and plays tricks:
trumps named by the first lead, the trick in the middle, each finished trick's score."""

from __future__ import annotations

import re
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.test_play import log_in
from tests.web.test_cribist_muggins import ENGINE, _move, _state, _table, _to_a_rich_trick_won_by

pytestmark = pytest.mark.browser
TRICKS = 3


def _my_card(page: Page):
    return page.locator("#hand button.card-button:not([disabled])").first


def _error(page: Page) -> str:
    line = page.locator("#move-error")
    return (line.inner_text() if line.count() else "") or "nothing"


def _stuck(page: Page, code: str, posted) -> str:
    answers = [(r.post_data, r.response().status if r.response() else None) for r in posted]
    card = page.locator(f'#hand button[value="{code}"]')
    return (
        f"{code} stayed in the hand; the table says: {_error(page)}; posted: {answers}; "
        f"the card is {'disabled' if card.is_disabled() else 'enabled'}; the page is at seq "
        f"{page.locator('#match-seq').get_attribute('data-seq')} and says: "
        f"{page.locator('#status').inner_text()[:120]!r}"
    )


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

    moves = []  # every move the page posts
    page.on("request", lambda r: moves.append(r) if r.method == "POST" and "/move/" in r.url else 0)
    for trick in range(1, TRICKS + 1):
        # wait until the table asks for a card of ours, then play the first one allowed
        expect(page.locator(".cx-bottom.is-to-move")).to_be_visible(timeout=20_000)
        if trick == 1:
            screenshot(page, "cribist-first-lead-1280")
        code = _my_card(page).get_attribute("value")
        # click that very card (the first one allowed is looked up again at each try, and a
        # push in between could make it another), in the corner that shows: the cards overlap
        card = page.locator(f'#hand button[value="{code}"]')
        sent = len(moves)
        card.click(position={"x": 6, "y": 24})
        try:
            expect(card).to_have_count(0)
        except AssertionError:
            # Twice in CI's PostgreSQL pass (never here, in 24 tries under load) a card stayed
            # with nothing said. A click that posted nothing is clicked again, as a member
            # would; one that posted and still left the card there fails, saying what it saw.
            if len(moves) == sent:
                warnings.warn(f"the click on {code} posted nothing: clicked again", stacklevel=1)
                card.click(position={"x": 6, "y": 24})
            try:
                expect(card).to_have_count(0)
            except AssertionError as stuck:
                raise AssertionError(_stuck(page, code, moves[sent:])) from stuck
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


def _short_count(four):
    """A table of four members where bob has just declared 0 for a trick worth points."""
    try:
        match = _to_a_rich_trick_won_by(_table(four, muggins=True), four, 1)
        return _move(match, four, 1, {"type": "declare", "points": 0})
    finally:
        connection.close()  # this thread's own connection: let the server at the database


def test_a_member_calls_muggins_on_a_short_count(page: Page, make_member, screenshot):
    four = [make_member(name) for name in ("alice", "bob", "carol", "dave")]
    # the moves go through the services, which tell the sockets; playwright's loop runs here
    with ThreadPoolExecutor(1) as thread:
        match = thread.submit(_short_count, four).result()
    claim = ENGINE.legal_moves(_state(match), 2)[0]
    item = claim["items"][0]
    log_in(page, "carol")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(match.get_absolute_url())
    form = page.locator("#move-muggins")
    expect(form).to_be_visible()
    screenshot(page, "cribist-muggins-390")
    form.scroll_into_view_if_needed()
    page.screenshot(
        path=str(screenshot(page, "cribist-muggins-390").with_name("cribist-muggins-390-form.png"))
    )
    form.locator('select[name="kind_0"]').select_option(item["kind"])
    for card in item["cards"]:
        form.locator(f'input[name="cards_0"][value="{card}"]').check(force=True)
    form.get_by_label("Points missed").fill(str(claim["points"]))
    form.get_by_role("button", name="Muggins!").click()
    expect(page.locator(".cx-last")).to_contain_text("Carol called muggins")
    expect(page.locator(".cx-last")).to_contain_text("right, and scores")
