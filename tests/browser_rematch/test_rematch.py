"""Two members in two browsers finish a game of High Card (the test game, one card each); Bob
offers a rematch from the end panel and Alice, without reloading, sees the offer and accepts.
Also the one-click buttons and the end panel on a phone, in English and in Spanish."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.engine import get_variant
from games.models import Match
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def off_loop(function, *args, **kwargs):
    """Run `function` in a thread of its own: playwright's event loop runs in this one."""
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(function, *args, **kwargs).result()


def log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    expect(page.locator(".nav-user")).to_be_visible()


def lay_the_card(page: Page) -> None:
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
    page.locator("#hand button.card-button:not([disabled])").first.click()


def a_match(alice, bob) -> Match:
    match = services.match_create(
        creator=alice, variant="testgame", players=2, options={"cards": 1}, invited=[bob]
    )
    services.match_join(match_id=match.pk, user=bob)
    return match


def test_a_rematch_is_offered_and_accepted_live(chromium, live_url, page, alice, bob, screenshot):
    match = off_loop(a_match, alice, bob)
    page.set_viewport_size(PHONE)
    log_in(page, "alice")
    page.goto(f"/matches/{match.pk}/")
    other = chromium.new_context(base_url=live_url, viewport=PHONE)
    bobs = other.new_page()
    bobs.set_default_timeout(10_000)
    try:
        log_in(bobs, "bob")
        bobs.goto(f"/matches/{match.pk}/")
        lay_the_card(page)
        lay_the_card(bobs)
        for each in (page, bobs):
            expect(each.locator(".outcome")).to_be_visible()
        expect(page.get_by_role("button", name="Rematch")).to_be_visible()
        screenshot(page, "oneclick-end-panel-en")

        bobs.get_by_role("button", name="Rematch").click()
        expect(bobs).to_have_url(re.compile(rf"/matches/(?!{match.pk}/)\d+/$"))
        rematch_url = bobs.url

        # Alice's end panel shows the offer live, without a reload.
        expect(page.locator("#rematch")).to_contain_text("Bob offers a rematch.")
        screenshot(page, "oneclick-rematch-offer-en")
        page.get_by_role("button", name="Accept the rematch").click()
        expect(page).to_have_url(rematch_url)
        expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
        expect(page.locator("#hand button.card-button")).to_have_count(1)
        # Bob's waiting room turns into the table by itself.
        expect(bobs.locator("#hand button.card-button")).to_have_count(1)
    finally:
        other.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_buttons_and_the_end_panel_on_a_phone(
    chromium, live_url, transactional_db, alice, bob, screenshot, language
):
    match = off_loop(a_match, alice, bob)
    context = chromium.new_context(base_url=live_url, viewport=PHONE, locale=language)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto("/")
        expect(page.locator(".join-call")).to_be_visible()
        screenshot(page, f"oneclick-home-visitor-{language}")
        log_in(page, "alice")
        page.goto("/")
        expect(page.locator(".play-now button")).to_have_count(2)
        screenshot(page, f"oneclick-home-{language}")
        page.goto("/play/")
        expect(page.locator(".play-now button")).to_have_count(2)
        screenshot(page, f"oneclick-lobby-{language}")
        page.goto(f"/matches/{match.pk}/")
        lay_the_card(page)
        expect(page.locator("#hand button.card-button")).to_have_count(0)
        off_loop(_bob_lays, match.pk, bob)
        page.reload()  # the services here tell this process's channel layer, not the server's
        expect(page.locator("#rematch button")).to_be_visible()
        screenshot(page, f"oneclick-end-{language}")
        page.locator("#rematch button").click()
        expect(page).to_have_url(re.compile(rf"/matches/(?!{match.pk}/)\d+/$"))
        page.goto("/")
        page.locator(".play-now button").first.click()  # Play the computer
        expect(page.locator("#players")).to_contain_text(
            "computer · easy" if language == "en" else "ordenador · fácil"
        )
        screenshot(page, f"oneclick-computer-{language}")
    finally:
        context.close()


def _bob_lays(match_id: int, bob) -> None:
    match = Match.objects.get(pk=match_id)
    engine = get_variant(match.variant)
    move = engine.legal_moves(engine.load(match.snapshot), 1)[0]
    services.match_play(match_id=match_id, user=bob, seq=match.seq, move=move)
