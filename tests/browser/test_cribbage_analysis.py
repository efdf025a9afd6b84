"""The discard analyser and a match's discard analysis in a real browser, on a phone and a
desktop: usable with the keyboard, no sideways scrolling on a phone."""

from __future__ import annotations

import threading

import pytest
from django.urls import reverse

from games import services
from tests.browser.test_play import log_in
from tests.games.test_cribbage_analysis import first_hand_counted, play_until, two_player


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_analyser_ranks_typed_cards(
    chromium, live_url, transactional_db, alice, screenshot, width, height
):
    context = chromium.new_context(base_url=live_url, viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, "alice")
    page.goto(reverse("cribbage_analyser"))
    page.get_by_label("Your cards").fill("5H 5C JD 6S 7S KH")
    page.get_by_label("I do (or my partner): the crib is ours").check()
    page.get_by_label("Your cards").press("Enter")
    page.wait_for_selector("table.discard-ranking")
    first = page.locator("table.discard-ranking tbody tr").first.inner_text()
    assert "17.81" in first
    assert page.locator("table.discard-ranking tbody tr").count() == 15
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"cribbage-analyser-{width}")
    context.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_a_member_reads_how_they_discarded(
    chromium, live_url, transactional_db, alice, bob, screenshot, width, height
):
    made = []

    def finished_match() -> None:  # off playwright's event loop: the services notify sockets
        match, _ = play_until(two_player(alice, bob), {0: alice, 1: bob}, first_hand_counted)
        services.match_resign(match_id=match.pk, user=bob)
        made.append(match)

    worker = threading.Thread(target=finished_match)
    worker.start()
    worker.join()
    (match,) = made
    context = chromium.new_context(base_url=live_url, viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, "alice")
    page.goto(reverse("cribbage_match_discards", args=[match.pk]))
    page.wait_for_selector("tr.yours")
    assert "your discard" in page.locator("tr.yours").inner_text().lower()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"cribbage-discards-{width}")
    context.close()
