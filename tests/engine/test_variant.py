"""The variant registry, event texts and the JSON form of a match outcome."""

from __future__ import annotations

import json

import pytest

import games.engine  # noqa: F401  (registers the variants)
from games.engine.core import (
    GameResult,
    Outcome,
    SideResult,
    UnknownVariant,
    Variant,
    describe,
    fill_names,
    get_variant,
    seat_list,
    variant_keys,
)


def test_it_registers_cribbage_when_the_engine_is_imported():
    cribbage = get_variant("cribbage")
    assert isinstance(cribbage, Variant)
    assert (cribbage.key, cribbage.name, cribbage.player_counts) == (
        "cribbage",
        "Cribbage",
        (2, 3, 4),
    )
    assert "cribbage" in variant_keys()


def test_it_names_the_known_games_for_an_unknown_key():
    with pytest.raises(KeyError) as error:
        get_variant("snap")
    assert isinstance(error.value, UnknownVariant)
    known = ", ".join(variant_keys())
    assert str(error.value) == f"there is no game called 'snap' (known: {known})"


def test_it_fills_in_player_names():
    event = {"kind": "go_point", "seat": 1, "points": 1, "text": "{p1}: go for 1 after {p0}"}
    assert describe(event) == "Player 2: go for 1 after Player 1"
    assert describe(event, ["Alice", "Bob"]) == "Bob: go for 1 after Alice"
    assert describe(event, ["Alice"]) == "Player 2: go for 1 after Alice"
    assert fill_names("Waiting for " + seat_list([0, 2, 3]), ["A", "B", "C", "D"]) == (
        "Waiting for A, C and D"
    )


def test_it_writes_an_outcome_as_json():
    sides = (SideResult((0, 2), 121, 0, 1, 1), SideResult((1, 3), 60, 2, 0, 2))
    outcome = Outcome(
        (0, 2), sides, "{p0} and {p2} win 121 to 60 (double skunk)", (GameResult(1, (0, 2), sides),)
    )
    data = json.loads(json.dumps(outcome.to_json()))
    assert data["winners"] == [0, 2]
    assert data["sides"][1] == {
        "seats": [1, 3],
        "score": 60,
        "skunk": 2,
        "skunk_name": "double skunk",
        "games_won": 0,
        "place": 2,
    }
    assert data["games"][0]["number"] == 1
