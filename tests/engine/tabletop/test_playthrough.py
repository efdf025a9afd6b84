"""Table Top Cribbage and CrossCrib: whole random games, secrecy in every view, JSON, replay."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import get_variant

from .helpers import random_steps, visible_cards

GAMES = [("tabletop", 2), ("tabletop", 4), ("crosscrib", 2)]


@pytest.mark.parametrize(("key", "players"), GAMES)
@pytest.mark.parametrize("n", range(3))
def test_random_games_end_keep_the_rules_and_replay_exactly(key, players, n):
    game = get_variant(key)
    seed = f"{key}-{players}-{n}".encode()
    rng = random.Random(n)
    history, final = [], None
    options = {"target": 61 if key == "tabletop" else 15}
    for before, seat, move, after, events in random_steps(key, players, seed, rng, options):
        history.append((seat, move))
        final = after
        assert all(json.dumps(e) for e in events)
        to_move = game.to_move(after)
        for other in range(players):
            assert bool(game.legal_moves(after, other)) == (other in to_move)
        assert bool(to_move) == (game.outcome(after) is None)
        if after.phase == "place":
            cards = [c for c in after.board if c is not None]
            cards += [c for s in after.stacks for c in s] + [c for s in after.cribs for c in s]
            assert len(set(cards + list(after.out))) == 52
        if after.deal == before.deal:
            assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))
    result = game.outcome(final)
    assert result is not None and max(final.scores) >= final.target
    replayed = game.new_state(players, options, seed)
    for seat, move in history:
        replayed, _ = game.apply(replayed, seat, move)
    assert replayed == final


@pytest.mark.parametrize(("key", "players"), GAMES)
def test_views_never_show_a_hidden_card_and_states_round_trip(key, players):
    game = get_variant(key)
    rng = random.Random(7)
    for _before, _seat, _move, after, _events in random_steps(key, players, b"secrets", rng):
        assert game.load(json.loads(json.dumps(game.dump(after)))) == after
        for viewer in [*range(players), None]:
            view = game.view(after, viewer)
            text = json.dumps(view)
            assert after.seed not in text and "stacks" not in view and "out" not in view
            leaked = visible_cards(view) & game.hidden(after, viewer)
            assert not leaked, f"seat {viewer} sees {leaked} in {after.phase}"


@pytest.mark.parametrize("players", [2, 4])
def test_nobody_knows_a_card_before_it_is_turned_not_even_its_owner(players):
    game = get_variant("tabletop")
    state = game.new_state(players, {}, b"face down")
    turned = str(state.turned)
    for seat in [*range(players), None]:
        view = game.view(state, seat)
        assert view["turned"] == turned  # everyone sees the turned card in Table Top
        secret = game.hidden(state, seat)
        assert {str(c) for c in state.out} <= secret
        for stack in state.stacks:
            assert {str(c) for c in stack if str(c) != turned} <= secret
        assert not visible_cards(view) & secret
        assert view["stack_counts"] == [len(s) for s in state.stacks]


def test_every_listed_move_is_accepted():
    for key, players in GAMES:
        game = get_variant(key)
        rng = random.Random(3)
        for before, *_ in random_steps(key, players, b"every move", rng, {"target": 31}):
            for seat in game.to_move(before):
                for move in game.legal_moves(before, seat):
                    game.apply(before, seat, move)
            if before.deal > 1:
                break
