"""The browser fixtures (a live daphne and Debian's chromium), for this game's browser test."""

from tests.browser.conftest import chromium, live_url, page, screenshot  # noqa: F401
