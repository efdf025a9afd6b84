"""Helpers for the Table Top Cribbage and CrossCrib tests: a worked layout, random games."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

from games.engine import get_variant

CARD_TOKEN = re.compile(r"\b[A2-9TJQK][CDHS]\b")
MOVE_LIMIT = 5_000

# A full layout counted by hand (row by row from the top left; the centre is 9H):
#   rows    20 (three fives and two pictures), 11 (club flush, run of four, one fifteen),
#           6 (run of four, 7+8), 9 (pair, run of three, two fifteens), 12 (two pairs, 6+9 x4)
#   columns 7, 2, 5, 3, 4
LAYOUT = (
    "5H 5S 5D JC QH "
    "AC 2C 3C 4C 6C "
    "7D 8S 9H TD KS "
    "2H 3D 4S KH KD "
    "6H 6D 9C 9S QD"
)  # fmt: skip
LAYOUT_ROWS = [20, 11, 6, 9, 12]
LAYOUT_COLUMNS = [7, 2, 5, 3, 4]


def layout_missing_last() -> str:
    """The worked layout with its bottom right square (QD) still empty."""
    return LAYOUT.rsplit(" ", 1)[0] + " ."


def visible_cards(view: dict[str, Any]) -> set[str]:
    return set(CARD_TOKEN.findall(json.dumps(view)))


def random_steps(
    key: str, players: int, seed: bytes, rng: random.Random, options: dict | None = None
) -> Iterator[tuple[Any, int, dict, Any, list]]:
    """Play a whole match with random legal moves: (before, seat, move, after, events)."""
    game = get_variant(key)
    state = game.new_state(players, options or {}, seed)
    for _ in range(MOVE_LIMIT):
        to_move = sorted(game.to_move(state))
        if not to_move:
            return
        seat = rng.choice(to_move)
        move = rng.choice(game.legal_moves(state, seat))
        after, events = game.apply(state, seat, move)
        yield state, seat, move, after, events
        state = after
    raise AssertionError("the match did not end")
