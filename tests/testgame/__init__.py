"""High Card: a test-only game, registered by the test settings (INSTALLED_APPS), engine and web
side together, exactly as a real game's folders register."""

from games.variants import TEXT, WebGame, register_web

from . import engine  # noqa: F401 - registers the engine variant

WEB = register_web(WebGame(key="testgame", package=__name__, move_fields={"card": TEXT}))
