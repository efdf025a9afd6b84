"""Which games the site offers: the web folder of every game registered in the engine."""

from __future__ import annotations

from importlib.util import find_spec


def game_web_apps() -> list[str]:
    """`games.variants.<key>` for each game in `games.engine.GAMES` that has a web folder (a game
    whose web side is not written yet stays in the engine and the command line only)."""
    from games.engine import GAMES

    return [f"games.variants.{key}" for key in GAMES if find_spec(f"games.variants.{key}")]
