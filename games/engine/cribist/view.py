"""What one seat (or a spectator) of a Cribist match may see, and what to ask of it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core.variant import Move, Outcome, seat_list
from ..pieces.cards import SUIT_NAMES, Card
from ..scoring.trick import score_trick
from .play import outcome, time_up
from .state import (
    CALLS,
    DECLARE,
    HAND_OVER,
    PLAY,
    PLAYERS,
    State,
    Trick,
    by_suit,
    call_json,
    strs,
)


def build_view(
    state: State,
    seat: int | None,
    to_move: frozenset[int],
    legal: list[Move],
    result: Outcome | None,
) -> dict[str, Any]:
    """The view as a JSON-ready dict; texts name seats as {p0}, {p1}... (see variant.describe).

    Keys: variant, players, seat, options, phase, hand_number, dealer, trump (a suit letter
    or None) and trump_name, scores, sides (each seat with its score), sheet (the scores
    after each hand), tricks_won (this hand), held_counts, hand (the seat's own cards, by
    suit), leader, turn, to_move, trick (the cards of the trick in progress, with their
    seats), tricks (this hand's finished tricks, with their scores once settled, and the
    count as data: `count`, ShowScore.calls()), last_trick,
    counting (muggins: the trick being counted), clock (a timed match), events, prompt,
    legal_moves, outcome. No other seat's cards and no seed. A trick's worth and breakdown
    stay out of the view while it is being counted for muggins: the players count it.
    """
    tricks = [_trick(state, trick, number) for number, trick in enumerate(state.tricks, start=1)]
    open_trick = state.phase in (DECLARE, CALLS)
    return {
        "variant": "cribist",
        "players": PLAYERS,
        "seat": seat,
        "options": {
            "ending": state.ending,
            "deals": state.deal_limit,
            "target": state.target,
            "minutes": state.minutes,
            "muggins": state.muggins,
        },
        "phase": state.phase,
        "hand_number": state.hand,
        "dealer": state.dealer,
        "trump": state.trump,
        "trump_name": None if state.trump is None else SUIT_NAMES[state.trump],
        "scores": list(state.scores),
        "sides": [{"seats": [s], "score": score} for s, score in enumerate(state.scores)],
        "sheet": [list(row) for row in state.sheet],
        "tricks_won": list(state.tricks_won()),
        "held_counts": [len(cards) for cards in state.held],
        "hand": strs(by_suit(state.held[seat])) if seat is not None else None,
        "leader": state.leader,
        "turn": state.turn,
        "to_move": sorted(to_move),
        "trick": [
            {"seat": (state.leader + i) % PLAYERS, "card": str(card)}
            for i, card in enumerate(state.current)
        ],
        "tricks": tricks,
        "last_trick": tricks[-1] if tricks else None,
        "counting": _counting(state) if open_trick else None,
        "clock": _clock(state),
        "events": state.events(),
        "prompt": prompt(state, seat, to_move, legal),
        "legal_moves": legal,
        "outcome": None if result is None else result.to_json(),
    }


def prompt(state: State, seat: int | None, to_move: frozenset[int], legal: list[Move]) -> str:
    """One line telling `seat` what to do now, or whom the table is waiting for."""
    waiting = f"Waiting for {seat_list(sorted(to_move))}"
    acting = seat is not None and seat in to_move
    phase = state.phase
    if phase == PLAY:
        if not acting:
            return f"{waiting} to play"
        if state.trump is None:
            return "Your lead opens the hand: the suit you lead is trumps"
        if not state.current:
            return "Your lead: play any card"
        led = SUIT_NAMES[state.current[0].suit]
        if all(move["card"][-1] == state.current[0].suit for move in legal):
            return f"Your turn: follow suit ({led})"
        return f"Your turn: you have no {led}, so play any card"
    if phase == DECLARE:
        if acting:
            return f"You took trick {len(state.tricks)}: declare what it is worth"
        return f"{waiting} to count trick {len(state.tricks)}"
    if phase == CALLS:
        trick = state.tricks[-1]
        declared = f"{{p{trick.winner}}} declared {trick.declared}"
        if acting:
            return f"{declared}: call muggins on any points missed, or pass"
        return f"{declared}. {waiting} to call muggins or pass"
    if phase == HAND_OVER:
        if acting:
            return "The hand is over: continue when you are ready for the next deal"
        return f"{waiting} to be ready for the next deal"
    result = outcome(state)
    return "" if result is None else f"The match is over: {result.reason}"


# --- helpers --------------------------------------------------------------------------------


def _trick(state: State, trick: Trick, number: int) -> dict[str, Any]:
    """A finished trick for the view; its worth is hidden while it is open to muggins."""
    settled = not (state.phase in (DECLARE, CALLS) and number == len(state.tricks))
    return {
        "number": number,
        "leader": trick.leader,
        "winner": trick.winner,
        "plays": [
            {"seat": trick.seat_of(i), "card": str(card)} for i, card in enumerate(trick.cards)
        ],
        "points": trick.points if settled else None,
        "breakdown": trick.breakdown if settled else None,
        "count": [dict(call) for call in _count(trick.cards, state.trump)]
        if settled and state.trump is not None
        else None,
        "declared": trick.declared,
        "calls": [call_json(call) for call in trick.calls],
        "unclaimed": trick.unclaimed if settled else None,
    }


@lru_cache(maxsize=4096)
def _count(cards: tuple[Card, ...], trump: str) -> tuple[tuple[tuple[str, object], ...], ...]:
    """A trick's count as data (ShowScore.calls), worked out once for its cards and trumps:
    every viewer's view of a move holds the hand's finished tricks, each scored again at
    every move of the hand otherwise. Each view gets dicts of its own."""
    return tuple(tuple(call.items()) for call in score_trick(cards, trump).calls())


def _counting(state: State) -> dict[str, Any]:
    trick = state.tricks[-1]
    return {
        "number": len(state.tricks),
        "winner": trick.winner,
        "cards": strs(trick.cards),
        "declared": trick.declared,
        "answered": list(state.answered),
    }


def _clock(state: State) -> dict[str, Any] | None:
    if state.ending != "time":
        return None
    return {
        "minutes": state.minutes,
        "started": state.started,
        "deadline": state.deadline,
        "time_up": time_up(state),
    }
