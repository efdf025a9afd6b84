"""A director runs a club night in a real browser: six players, three rounds of table results,
then a four-player playoff. Screenshots of pairings, standings and the bracket are saved."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay"]


def log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".nav-user")).to_be_visible()


def enter_every_result(page: Page, scores: list[tuple[int, int]]) -> None:
    """Type two scores into each game waiting for a result, one after the other."""
    for i in range(50):
        entries = page.locator(".t-entry form.inline-form:has(button:text('Record'))")
        if not entries.count():
            return
        form = entries.first
        a, b = scores[i % len(scores)]
        inputs = form.locator('input[type="number"]')
        inputs.nth(0).fill(str(a))
        inputs.nth(1).fill(str(b))
        form.get_by_role("button", name="Record").click()
        expect(page.locator(".messages")).to_contain_text("recorded")
    raise AssertionError("results kept coming")


def test_a_director_runs_a_club_night_with_a_playoff(page, make_member, screenshot):
    from django.contrib.auth.models import Permission

    director = make_member("tess", is_staff=True, display_name="Tess")
    director.user_permissions.add(Permission.objects.get(codename="direct_tournament"))
    log_in(page, "tess")

    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="Set up a tournament").click()
    page.get_by_label("Name").fill("Thursday club night")
    page.get_by_label("Qualifying rounds").fill("3")
    page.get_by_label("Finish with a playoff").check()
    page.get_by_label("Playoff places").fill("4")
    page.get_by_label("Playoff series").select_option("1")
    page.get_by_role("button", name="Set it up").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/direct/$"))

    for name in PLAYERS:
        page.get_by_label("or a guest's name").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(".messages")).to_contain_text(f"{name} is entered")
    expect(page.locator(".t-entrants tbody tr")).to_have_count(6)

    # A bad result is refused with the reason, and nothing is recorded.
    page.get_by_role("button", name="Draw round 1").click()
    first = page.locator(".t-entry form.inline-form:has(button:text('Record'))").first
    first.locator('input[type="number"]').nth(0).fill("118")
    first.locator('input[type="number"]').nth(1).fill("110")
    first.get_by_role("button", name="Record").click()
    expect(page.locator("#direct-error")).to_contain_text("must reach 121")
    screenshot(page, "tournament-director")

    rounds = [[(121, 85), (99, 121), (121, 117)], [(121, 100), (121, 60)], [(110, 121)]]
    for number, scores in enumerate(rounds, start=1):
        if number > 1:
            page.get_by_role("button", name="Draw the next round").click()
            expect(page.locator(".messages")).to_contain_text(f"Round {number} is drawn")
        enter_every_result(page, scores)
        if number == 1:
            page.goto(page.url.replace("/direct/", "/"))
            expect(page.locator(".t-pairings tbody tr")).to_have_count(3)
            screenshot(page, "tournament-pairings")
            page.go_back()

    public = page.url.replace("/direct/", "/")
    page.goto(public)
    cards = page.locator(".t-standings .t-card")
    expect(cards).to_have_count(6)
    total_wins = sum(int(c.split("/")[1]) for c in cards.all_inner_texts())
    assert total_wins == 9  # three rounds of three tables
    screenshot(page, "tournament-standings")

    page.goto(public + "direct/")
    page.get_by_role("button", name="Start the playoff").click()
    expect(page.locator(".messages")).to_contain_text("bracket is drawn")
    enter_every_result(page, [(121, 95), (104, 121)])
    page.get_by_role("button", name="Draw the next playoff round").click()
    enter_every_result(page, [(121, 119)])
    expect(page.locator(".t-night")).to_contain_text("The tournament is over")

    page.goto(public)
    bracket = page.locator(".t-bracket")
    expect(bracket.locator(".t-bracket-round")).to_have_count(2)
    expect(bracket).to_contain_text("Final")
    expect(bracket.locator(".t-winner")).to_have_count(3)
    screenshot(page, "tournament-bracket")

    page.set_viewport_size({"width": 375, "height": 800})
    screenshot(page, "tournament-narrow")
