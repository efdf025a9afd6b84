"""Small games registered only inside tests, to run tournaments for kinds of game that the
real ones (being written now) will bring: a race whose winner may pass the target, a race by
game points with no skunks, and games ranked by final score at tables of two, three or four.

Tally: on your turn you score 1, 5 or 20 points for your side (the move says how many).
- a race that stops at the target: the side that reaches it wins at once (like Cribbage);
- a race that may pass it: play goes round the table; after a full round a side that is past
  the target and ahead wins (like Table Top Cribbage's simultaneous scoring);
- ranked: everyone has `turns` turns; the final scores place the sides, ties shared.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from games.engine.core.options import clean_options
from games.engine.core.outcome import Outcome, SideResult, TournamentScoring, places
from games.engine.core.scoreboard import skunk_level
from games.engine.core.variant import VARIANTS, IllegalMove, register

POINTS = (1, 5, 20)


@dataclass(frozen=True)
class TallyState:
    players: int
    options: tuple
    scores: tuple[int, ...]
    turn: int = 0
    over: bool = False


class Tally:
    """One Tally game; `kind` is "stop", "pass" or "ranked"."""

    levels = ("easy",)

    def __init__(self, key: str, kind: str, *, player_counts=(2,), partnership=False,
                 skunks=True, target=121):  # fmt: skip
        self.key = key
        self.name = f"Tally ({key})"
        self.kind = kind
        self.player_counts = tuple(player_counts)
        self.partnership = partnership
        if kind == "ranked":
            self.tournament = TournamentScoring(kind="ranked", stops_at_target=False, skunks=False)
            self.options_schema = {
                "turns": {"type": "int", "min": 1, "max": 50, "default": 3, "label": "Turns",
                          "help": "turns each"},
            }  # fmt: skip
        else:
            self.tournament = TournamentScoring(
                kind="race", stops_at_target=kind == "stop", skunks=skunks
            )
            self.options_schema = {
                "target": {"type": "int", "min": 5, "max": 500, "default": target,
                           "label": "Game to", "help": "points to win"},
                "games": {"type": "int", "min": 1, "max": 3, "default": 1,
                          "label": "Games in the match", "help": "a match of several games"},
            }  # fmt: skip

    # -- the protocol ------------------------------------------------------------------------

    def clean_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return clean_options(self.name, self.options_schema, options)

    def teams(self, players: int) -> list[tuple[int, ...]]:
        if self.partnership and players == 4:
            return [(0, 2), (1, 3)]
        return [(seat,) for seat in range(players)]

    def new_state(self, players: int, options, seed: bytes) -> TallyState:
        cleaned = self.clean_options(players, options)
        sides = len(self.teams(players))
        return TallyState(players, tuple(sorted(cleaned.items())), (0,) * sides)

    def to_move(self, state: TallyState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn % state.players})

    def legal_moves(self, state: TallyState, seat: int) -> list[dict]:
        if seat not in self.to_move(state):
            return []
        return [{"type": "score", "points": p} for p in POINTS]

    def apply(self, state: TallyState, seat: int, move: dict):
        if seat not in self.to_move(state):
            raise IllegalMove("it is not your turn")
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("score 1, 5 or 20")
        options = dict(state.options)
        side = self._side(state, seat)
        scores = list(state.scores)
        scores[side] += move["points"]
        turn = state.turn + 1
        over = False
        if self.kind == "stop":
            if scores[side] >= options["target"]:
                scores[side] = options["target"]
                over = True
        elif self.kind == "pass":
            top = max(scores)
            if turn % state.players == 0 and top >= options["target"]:
                over = scores.count(top) == 1
        else:
            over = turn >= options["turns"] * state.players
        new = TallyState(state.players, state.options, tuple(scores), turn, over)
        return new, [{"kind": "score", "seat": seat, "text": f"{{p{seat}}} scores"}]

    def view(self, state: TallyState, seat: int | None) -> dict[str, Any]:
        sides = self.teams(state.players)
        return {
            "sides": [{"seats": list(s), "score": state.scores[i]} for i, s in enumerate(sides)],
            "to_move": sorted(self.to_move(state)),
        }

    def hidden(self, state: TallyState, seat: int | None) -> set[str]:
        return set()

    def outcome(self, state: TallyState) -> Outcome | None:
        if not state.over:
            return None
        options = dict(state.options)
        sides = self.teams(state.players)
        ranks = places(list(state.scores))
        results = []
        for i, seats in enumerate(sides):
            skunk = 0
            if self.tournament.skunks and ranks[i] > 1:
                skunk = skunk_level(options["target"], state.scores[i])
            results.append(SideResult(tuple(seats), state.scores[i], skunk=skunk, place=ranks[i]))
        winners = tuple(s for i, seats in enumerate(sides) if ranks[i] == 1 for s in seats)
        return Outcome(tuple(sorted(winners)), tuple(results), "game over")

    def dump(self, state: TallyState) -> dict[str, Any]:
        return {
            "players": state.players,
            "options": [list(item) for item in state.options],
            "scores": list(state.scores),
            "turn": state.turn,
            "over": state.over,
        }

    def load(self, data: Mapping[str, Any]) -> TallyState:
        return TallyState(
            data["players"],
            tuple(tuple(item) for item in data["options"]),
            tuple(data["scores"]),
            data["turn"],
            data["over"],
        )

    def computer(self, state: TallyState, seat: int, level: str, rng: random.Random) -> dict:
        return rng.choice(self.legal_moves(state, seat))

    def _side(self, state: TallyState, seat: int) -> int:
        return next(i for i, seats in enumerate(self.teams(state.players)) if seat in seats)


GAMES = {
    "tally_stop": dict(kind="stop", player_counts=(2, 4), partnership=True),
    "tally_pass": dict(kind="pass"),
    "tally_points": dict(kind="pass", skunks=False, target=31),
    "tally_ranked": dict(kind="ranked", player_counts=(2, 3, 4)),
}


@contextmanager
def registered(*keys: str):
    """Register the named fake games for the duration of a test."""
    added = []
    try:
        for key in keys or tuple(GAMES):
            if key not in VARIANTS:
                register(Tally(key, **GAMES[key]))
                added.append(key)
        yield
    finally:
        for key in added:
            VARIANTS.pop(key, None)
