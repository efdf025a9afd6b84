"""Settings for the test suite: the real settings, with defaults for what production must set."""

import os

TEST_ENV = {
    "SECRET_KEY": "tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "HTTPS": "0",
    "STATIC_MANIFEST": "0",
    "COMPUTER_MODE": "inline",
}
for _name, _value in TEST_ENV.items():
    os.environ.setdefault(_name, _value)
# `make test` runs the suite in two processes (pytest-xdist), each on a database of its own,
# where match 1 of one is not match 1 of the other: on Redis each keeps its own groups and
# cache keys too (the servers a test starts inherit it).
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("REDIS_PREFIX", f"cribsite-test-{os.environ['PYTEST_XDIST_WORKER']}")

from cribsite.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# High Card, a game that exists only here: its engine, web side and templates live in
# tests/testgame/ and prove that a game plugs in with no code of its own in the site.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.testgame"]  # noqa: F405

# One test database file per test run, so that runs side by side never share one.
if DATABASES["default"]["ENGINE"] == "cribsite.sqlite":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}  # noqa: F405
