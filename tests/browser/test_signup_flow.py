"""A new member signs up, lands on the home page logged in, sees their profile and logs out."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_new_member_signs_up_and_logs_out(page, screenshot):
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("card room")
    page.get_by_role("link", name="Join the club").first.click()

    page.get_by_label("Username").fill("nora")
    page.get_by_label("Display name").fill("Nora N.")
    page.get_by_label("Email").fill("nora@example.org")
    page.get_by_label("Password", exact=True).fill("weak")
    page.get_by_label("Password confirmation").fill("weak")
    page.get_by_role("button", name="Join").click()
    expect(page.locator(".field-errors")).to_contain_text("too short")
    screenshot(page, "signup-error")

    page.get_by_label("Password", exact=True).fill("pegging-out-at-121")
    page.get_by_label("Password confirmation").fill("pegging-out-at-121")
    page.get_by_role("button", name="Join").click()

    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator(".messages")).to_contain_text("Welcome to the club, Nora N.!")
    expect(page.locator(".nav-user")).to_have_text("Nora N.")
    # The socket connected and counted her.
    expect(page.locator("#online-count")).to_contain_text("1 member online")
    screenshot(page, "home-logged-in")

    page.locator(".nav-user").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Nora N.")
    expect(page.get_by_text("No finished matches yet.")).to_be_visible()
    screenshot(page, "profile")

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
    expect(page.locator(".nav-user")).to_have_count(0)


def test_the_home_page_reads_well_on_a_phone(chromium, live_url, transactional_db, screenshot):
    context = chromium.new_context(base_url=live_url, viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.goto("/")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, "the page scrolls sideways on a phone"
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent.trim()")
    assert focused == "Skip to content"
    screenshot(page, "home-phone")
    context.close()
