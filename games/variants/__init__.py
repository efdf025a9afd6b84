"""The web side of each game, as a plug-in: how its moves are read from a form, which templates
draw its table, replay and rules, and which assets its pages load.

Each game has a folder `games/variants/<key>/` (a small Django app, so it may carry template
tags) whose package defines `WEB = WebGame(...)` and registers it. The folders of the games in
`games.engine.GAMES` are installed by the settings; a test-only game registers itself the same
way from its own app. The shared site (lobby, match page, replay, API, sockets) asks this
registry and the engine, and knows no game's rules.

Templates of a game (under templates/games/<key>/ by convention):
- table.html defines the partials "board" (what lies on the table) and "hand" (the seat's own
  pieces and its move forms); they get the match page's context, where `view` is the engine's
  view for this seat and nothing else. Move forms post to `match_move` with `hx-swap="none"`.
  A region drawn at every move may instead be drawn in Python (WebGame.regions), as the
  Cribbage board is.
- replay.html draws one step of a finished match from `spectator` and `views` (every seat).
- rules.html explains the game, in the club's own words; rules.<language>.html (rules.es.html)
  says the same in another language.
- Its words in other languages: the web folder's optional `texts.py` (see games/texts.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import Any

from django.utils.module_loading import import_string

from games.engine import get_variant

INT = "int"
TEXT = "text"
LIST = "list"


@dataclass(frozen=True)
class WebGame:
    """A game's web adapter. `move_fields` says how form fields become a move's fields
    (name -> "int", "text" or "list"); a form may also post the whole move as JSON in `move`.
    `seat_tags(view)` gives short words to show beside seats ({seat: ["dealer"]}).
    `regions` draws some of the game's regions in Python instead of by the table template's
    partials: region name -> the dotted path of a function(context) -> the region's element
    (its id, and hx-swap-oob="true" when context["oob"]), escaped as the template engine would;
    given the same context as the partial. The path is imported on first use (`region_drawer`):
    such a function draws with the site's models and templates, not loaded yet when the game's
    app is."""

    key: str
    folder: str = ""  # where its templates are, templates/games/<folder>/ (default: the key)
    package: str = ""  # its web folder as a Python package (default: games.variants.<key>)
    css: tuple[str, ...] = ()
    js: tuple[str, ...] = ()
    move_fields: Mapping[str, str] = field(default_factory=dict)
    seat_tags: Callable[[dict[str, Any]], dict[int, list[str]]] = lambda view: {}
    regions: Mapping[str, str] = field(default_factory=dict)
    description: str = ""

    def region_drawer(self, region: str) -> Callable[[Mapping[str, Any]], str] | None:
        """The function that draws `region` in Python (see `regions`), or None."""
        path = self.regions.get(region)
        return None if path is None else _imported(path)

    @property
    def table_template(self) -> str:
        return f"games/{self.folder or self.key}/table.html"

    @property
    def replay_template(self) -> str:
        return f"games/{self.folder or self.key}/replay.html"

    @property
    def rules_template(self) -> str:
        return f"games/{self.folder or self.key}/rules.html"

    def rules_templates(self, language: str) -> list[str]:
        """The rules page in `language` first (rules.es.html), then the English one."""
        base = self.rules_template.removesuffix(".html")
        return [f"{base}.{language}.html", self.rules_template]

    @property
    def name(self) -> str:
        return get_variant(self.key).name

    def extension(self, name: str) -> Any | None:
        """The module `name` of the game's web folder (`urls` for its own pages, `api` for its
        own API routes), or None when the game has none."""
        package = self.package or f"games.variants.{self.key}"
        try:
            return import_module(f"{package}.{name}")
        except ModuleNotFoundError as error:
            if error.name not in (package, f"{package}.{name}"):
                raise
            return None

    def parse_move(self, data) -> dict[str, Any]:
        """A move from posted form fields (a QueryDict); ValueError says what is wrong."""
        if data.get("move"):
            try:
                value = json.loads(data["move"])
            except json.JSONDecodeError:
                raise ValueError("that move could not be read") from None
            if not isinstance(value, dict):
                raise ValueError("that move could not be read")
            return value
        kind = data.get("type", "")
        if not kind:
            raise ValueError("choose a move first")
        move: dict[str, Any] = {"type": kind}
        for name, how in self.move_fields.items():
            if how == LIST:
                if name in data:
                    move[name] = data.getlist(name)
            elif data.get(name, "") != "":
                move[name] = _int(name, data[name]) if how == INT else data[name]
        return move


@cache
def _imported(path: str) -> Any:
    return import_string(path)


_WEB: dict[str, WebGame] = {}


def register_web(web: WebGame) -> WebGame:
    """Add a game's web adapter (its engine variant must be registered already)."""
    get_variant(web.key)
    existing = _WEB.get(web.key)
    if existing is not None and existing is not web:
        raise ValueError(f"a web adapter is already registered for {web.key!r}")
    _WEB[web.key] = web
    return web


def web_game(key: str) -> WebGame:
    """The web adapter of a game. A game registered in the engine whose web side is not written
    (one played through the API, say) gets the plain table: its prompt and its legal moves as
    buttons. KeyError for a game the engine does not know."""
    web = _WEB.get(key)
    if web is None:
        get_variant(key)
        web = WebGame(key=key, folder="plain")
    return web


def web_games() -> list[WebGame]:
    """Every game the site offers in its lobby (those with a web side), in the order they were
    registered."""
    return list(_WEB.values())


def _int(name: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{name} must be a whole number") from None
