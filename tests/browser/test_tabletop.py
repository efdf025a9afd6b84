"""A member plays one deal of Table Top Cribbage and one of CrossCrib against the computer in a
real browser, by clicking squares (and the crib button). Screenshots at a phone's size (390x844)
and a laptop's (1280x800): the layout filling up, and the count at the end of the deal."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.test_play import log_in
from tests.i18n.spanish import english_left

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
    placed = missed = 0
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
        to_crib = forced or (cribs and placed in (2, 6) and page.locator(CRIB).count())
        try:
            page.locator(CRIB).click() if to_crib else squares.first.click()
        except PlaywrightError:
            continue  # redrawn under the click by a push: look again
        try:
            expect(page.locator("#match-seq")).not_to_have_attribute(
                "data-seq", before, timeout=10_000
            )
        except AssertionError:
            # A click that lands on a square just as a push replaces it reaches no page element
            # and sends nothing (seen once on a loaded CI machine): look again and click again.
            missed += 1
            assert missed < 3, "three clicks on the table in a row sent no move"
            continue
        missed = 0
        placed += 1
        cribs -= 1 if to_crib and cribs else 0
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


# --- in Spanish ---------------------------------------------------------------------------------

CONTINUE = "#move-continue button"


def _spanish_page(chromium, live_url, member) -> Page:
    """A phone-sized page whose browser asks for Spanish, signed in as `member`."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(member)
    context = chromium.new_context(base_url=live_url, viewport=PHONE, locale="es-ES")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_url}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def _reread(page: Page) -> None:
    """Load the page afresh. The socket's pushes are rendered without the reader's language
    (games/consumers.py activates none yet), so what is checked is the page as served, once
    no move is coming."""
    for _ in range(10):
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "es")
        seq = page.locator("#match-seq").get_attribute("data-seq")
        page.wait_for_timeout(800)  # the computer moves within 250 ms, if it is to move
        if page.locator("#match-seq").get_attribute("data-seq") == seq:
            return
    raise AssertionError("the board did not settle")


def _no_english(page: Page) -> None:
    # Seat names of the computer ("Computer 2") are the shared match layer's words.
    for region in ("#board", "#hand"):
        html = page.locator(region).inner_html()
        assert english_left(html, allowed=frozenset({"computer"})) == [], (region, html)


@pytest.mark.parametrize(
    ("variant", "players"), [("tabletop", 2), ("tabletop", 4), ("crosscrib", 2)]
)
def test_a_whole_match_reads_in_spanish_on_a_phone(
    chromium, live_url, transactional_db, alice, screenshot, variant, players
):
    from games import services

    target = 31 if variant == "tabletop" else 5
    # Outside playwright's event loop: the service tells the lobby through the channel layer.
    with ThreadPoolExecutor(1) as pool:
        match = pool.submit(
            services.match_create,
            creator=alice,
            variant=variant,
            players=players,
            options={"target": target},
            computer_seats=list(range(1, players)),
            computer_level="easy",
        ).result()
    page = _spanish_page(chromium, live_url, alice)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
    name = f"{variant}-{players}"
    shots: set[str] = set()

    def look(moment: str, *said: tuple[str, str | re.Pattern[str]]) -> None:
        """Once a match: the page as served reads in Spanish here; a phone screenshot."""
        if moment in shots:
            return
        shots.add(moment)
        _reread(page)
        for region, words in said:
            expect(page.locator(region)).to_contain_text(words)
        _no_english(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, f"{name}-es-{moment}-phone")

    for _ in range(3000):
        if page.locator("#status [data-over]").count():
            break
        before = page.locator("#match-seq").get_attribute("data-seq")
        squares, crib = page.locator(SQUARE), page.locator("#move-crib button")
        if page.locator("#board .tt-count").count() and page.locator(CONTINUE).count():
            look("count", ("#board", "el recuento"), ("#board", "quince"))
            target_button = page.locator(CONTINUE)
        elif crib.count() and (not squares.count() or "crib" not in shots):
            look("crib", ("#move-crib", "A la cuna"), ("#hand", "Has puesto 0 de 2 en la cuna"))
            target_button = crib
        elif squares.count():
            if page.locator("#board .tt-cell.has-card").count() >= 6:
                look("layout", ("#hand", "Tu carta"), ("#status", "Coloca tu carta"))
            target_button = squares.first
        else:
            page.wait_for_timeout(50)  # the computer is placing, or the page is catching up
            continue
        try:
            target_button.click()
        except PlaywrightError:
            continue  # redrawn under the click by a push: look again
        expect(page.locator("#match-seq")).not_to_have_attribute("data-seq", before)
    expect(page.locator("#status [data-over]")).to_be_visible()
    look("end", ("#events", re.compile(r" ganan? \d+ a \d+")))
    assert "layout" in shots
    page.context.close()
