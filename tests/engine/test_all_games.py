"""The checks every registered game must pass, in the manner of OpenSpiel's random-simulation test.

Each game, at each of its player counts, is played out several times by random legal moves,
with options drawn from its own schema. At every step: `legal_moves` is empty exactly for the
seats not to move, and the game is over exactly when nobody is to move; a sample of listed
moves is accepted unchanged; the state survives a JSON round trip; every seat's view (and the
spectator's) is JSON and names no piece in `hidden(state, seat)`, and its table view (what a
page draws) is that view with the same kinds of legal move, each listed one a listed move of the
view; every event has a kind and a text. At the end the outcome names winners among the seats,
and replaying the seed and the moves gives the same state. A new game is picked up with no new
code here.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from games.engine import computer_move, get_variant, variant_keys
from games.engine.core import candidates, levels, preview, table_view

RUNS = 2  # playthroughs per game and player count
MOVE_LIMIT = 5_000
CHECK_EVERY = 5  # check every listed move on one step in this many (all candidates are costly)
MOVES_CHECKED = 25  # at most this many listed moves tried on such a step


def _cases() -> list[tuple[str, int]]:
    return [(key, n) for key in variant_keys() for n in get_variant(key).player_counts]


def random_options(schema: dict[str, dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Options drawn from the schema, kept short: whole numbers at their low end."""
    options: dict[str, Any] = {}
    for name, spec in schema.items():
        if spec["type"] == "bool":
            options[name] = rng.random() < 0.5
        elif spec["type"] == "choice":
            options[name] = rng.choice(spec["choices"])
        else:
            low = spec.get("min", spec["default"])
            options[name] = rng.choice(sorted({low, min(spec["default"], low + 1)}))
    return options


def hidden_pattern(tokens: set[str]) -> re.Pattern[str] | None:
    """A pattern that finds any of `tokens` standing alone (not inside a longer token)."""
    if not tokens:
        return None
    alternatives = "|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True))
    return re.compile(rf"(?<![\w#:])(?:{alternatives})(?![\w#:])")


def check_views(game, state, players: int) -> None:
    for seat in [*range(players), None]:
        view = game.view(state, seat)
        text = json.dumps(view)
        assert "seed" not in view
        pattern = hidden_pattern(set(game.hidden(state, seat)))
        if pattern is not None:
            leak = pattern.search(text)
            assert leak is None, f"seat {seat} of {game.key} is shown hidden {leak.group(0)!r}"
        drawn = table_view(game, state, seat)
        legal, listed = view.pop("legal_moves"), drawn.pop("legal_moves")
        assert drawn == view, f"the table view of seat {seat} of {game.key} differs from its view"
        assert {m["type"] for m in listed} == {m["type"] for m in legal}
        assert all(move in legal for move in listed)


def play_out(key: str, players: int, options: dict, seed: bytes, rng: random.Random):
    """One random match: yields (state, seat, move, next_state, events) for every step."""
    game = get_variant(key)
    state = game.new_state(players, options, seed)
    for _ in range(MOVE_LIMIT):
        to_move = sorted(game.to_move(state))
        if not to_move:
            return
        seat = rng.choice(to_move)
        move = rng.choice(candidates(game, state, seat))
        after, events = game.apply(state, seat, move)
        yield state, seat, move, after, events
        state = after
    pytest.fail(f"{key} for {players} did not end within {MOVE_LIMIT} moves")


@pytest.mark.parametrize(("key", "players"), _cases(), ids=lambda v: str(v))
def test_random_playthroughs_keep_the_contract(key: str, players: int) -> None:
    game = get_variant(key)
    for run in range(RUNS):
        rng = random.Random(f"{key}:{players}:{run}")
        seed = f"shared test {key} {players} {run}".encode()
        options = game.clean_options(players, random_options(game.options_schema, rng))
        history: list[tuple[int, dict]] = []
        state = None
        for step, (before, seat, move, after, events) in enumerate(
            play_out(key, players, options, seed, rng)
        ):
            if step == 0:
                check_views(game, before, players)
            history.append((seat, move))
            assert isinstance(events, list)
            for event in events:
                assert isinstance(event.get("kind"), str) and isinstance(event.get("text"), str)
                json.dumps(event)
            assert game.load(json.loads(json.dumps(game.dump(after)))) == after
            to_move = game.to_move(after)
            for other in range(players):
                assert bool(game.legal_moves(after, other)) == (other in to_move), (
                    f"{key}: legal moves of seat {other} disagree with to_move"
                )
            assert (not to_move) == (game.outcome(after) is not None)
            check_views(game, after, players)
            if step % CHECK_EVERY == 0:
                for mover in to_move:
                    listed = candidates(game, after, mover)
                    for legal in rng.sample(listed, min(len(listed), MOVES_CHECKED)):
                        game.apply(after, mover, legal)
                        assert preview(game, after, mover, legal)["legal"] is True
            state = after
        assert state is not None, f"{key} ended before anyone moved"
        outcome = game.outcome(state)
        assert outcome is not None
        assert set(outcome.winners) <= set(range(players))
        assert json.dumps(outcome.to_json())
        replayed = game.new_state(players, options, seed)
        for seat, move in history:
            replayed, _ = game.apply(replayed, seat, move)
        assert replayed == state, f"{key}: replaying the seed and the moves differs"


@pytest.mark.parametrize(("key", "players"), _cases(), ids=lambda v: str(v))
def test_the_computer_plays_legally_at_every_level(key: str, players: int) -> None:
    game = get_variant(key)
    rng = random.Random(f"computer {key} {players}")
    options = game.clean_options(players, {})
    for step, (before, _seat, _move, _after, _events) in enumerate(
        play_out(key, players, options, f"computer {key}".encode(), rng)
    ):
        if step % 7:
            continue
        for seat in game.to_move(before):
            for level in levels(game):
                move = computer_move(game, before, seat, level, random.Random(step))
                game.apply(before, seat, move)  # raises IllegalMove if the computer cheats


@pytest.mark.parametrize("key", variant_keys())
def test_a_game_states_its_contract(key: str) -> None:
    game = get_variant(key)
    assert game.key == key and game.name and game.player_counts
    assert isinstance(game.levels, tuple)
    assert game.tournament.kind in {"race", "ranked"}
    for n in game.player_counts:
        sides = game.teams(n)
        assert sorted(seat for side in sides for seat in side) == list(range(n))
        cleaned = game.clean_options(n, {})
        assert set(cleaned) == set(game.options_schema)
    with pytest.raises(ValueError):
        game.clean_options(game.player_counts[0], {"no such option": 1})
