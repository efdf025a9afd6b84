"""Helpers for match tests: play moves through the services as members would."""

from __future__ import annotations

import random

from games import services
from games.engine import computer_move, get_variant
from games.models import Match


def fresh(match: Match) -> Match:
    return Match.objects.prefetch_related("seats__user").get(pk=match.pk)


def any_move(match: Match, seat: int, rng: random.Random | None = None) -> dict:
    """A sensible legal move for `seat` (the computer's weakest level that is not random)."""
    engine = get_variant(match.variant)
    level = engine.levels[0] if engine.levels else "random"
    return computer_move(engine, engine.load(match.snapshot), seat, level, rng or random.Random(0))


def play_out(match: Match, members: dict, limit: int = 5000) -> Match:
    """Play the match to its end, each member seat moving by the computer player's choice."""
    match = fresh(match)
    for _ in range(limit):
        if match.status != Match.Status.ACTIVE:
            return match
        seat = next(s for s in match.to_move if s in members)
        services.match_play(
            match_id=match.pk, user=members[seat], seq=match.seq, move=any_move(match, seat)
        )
        match = fresh(match)
    raise AssertionError("the match did not end")
