"""The browser fixtures (a live daphne and Debian's chromium), in a package of their own: the
browser's event loop lives as long as the package, and other tests must not run beside it."""

from tests.browser.conftest import chromium, live_url, page, screenshot  # noqa: F401
