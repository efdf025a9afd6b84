"""The browser fixtures of tests/browser, in a package of their own (their loop is per package)."""

from tests.browser.conftest import chromium, live_url, page, screenshot  # noqa: F401
