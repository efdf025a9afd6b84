"""What one seat (or a spectator) of a classic Cribbage match may see, and what to ask of it."""

from __future__ import annotations

from typing import Any

from ..core.variant import Move, Outcome, seat_list
from .show import game_text, outcome, show_calls
from .state import (
    COUNTED,
    DISCARD,
    GAME_OVER,
    MATCH_OVER,
    PLAY,
    SHOW,
    Play,
    State,
    shown_json,
)

REVEALED = (SHOW, COUNTED, GAME_OVER, MATCH_OVER)  # phases in which every hand is face up


def build_view(
    state: State,
    seat: int | None,
    to_move: frozenset[int],
    legal: list[Move],
    result: Outcome | None,
) -> dict[str, Any]:
    """The view as a JSON-ready dict; texts name seats as {p0}, {p1}... (see variant.describe).

    Keys: variant, players, seat, options, phase, game, hand_number, dealer, sides (seats, score,
    back_peg, games_won), seat_sides, starter, count, current and earlier (the plays of this
    hand), turn, to_move, held_counts, discarded, crib_count, hand (the seat's own cards),
    discards (its own crib cards while the crib is face down), shows (counted hands with their
    breakdowns, and `calls`: the same count as data, see ShowScore.calls), counting (muggins:
    the hand being counted), hands and crib (once face up), results, events, prompt,
    legal_moves, outcome. The undealt deck and the seed never appear.
    """
    revealed = state.phase in REVEALED
    own = seat is not None
    pending = state.pending
    return {
        "variant": "cribbage",
        "players": state.players,
        "seat": seat,
        "options": {
            "target": state.target,
            "games": state.match_games,
            "muggins": state.muggins,
        },
        "phase": state.phase,
        "game": state.game,
        "hand_number": state.hand,
        "dealer": state.dealer,
        "sides": [
            {
                "seats": list(seats),
                "score": state.scores[side],
                "back_peg": state.back_pegs[side],
                "games_won": state.games_won[side],
            }
            for side, seats in enumerate(state.sides)
        ],
        "seat_sides": [state.side_of(s) for s in range(state.players)],
        "starter": None if state.starter is None else str(state.starter),
        "count": state.count,
        "current": _plays(state.current),
        "earlier": [_plays(count) for count in state.earlier],
        "turn": state.turn,
        "to_move": sorted(to_move),
        "held_counts": [len(cards) for cards in state.held],
        "discarded": [bool(cards) for cards in state.discards],
        "crib_count": len(state.crib),
        "hand": _cards(sorted(state.held[seat])) if own else None,
        "discards": _cards(state.discards[seat]) if own and not revealed else None,
        "shows": [shown_json(shown) | {"calls": show_calls(state, shown)} for shown in state.shows],
        "counting": None
        if pending is None
        else {
            "owner": pending.owner,
            "crib": pending.crib,
            "cards": _cards(pending.cards),
            "declared": pending.declared,
        },
        "hands": [_cards(state.show_hand(s)) for s in range(state.players)] if revealed else None,
        "crib": _cards(state.crib) if revealed else None,
        "results": [game.to_json() for game in state.results],
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
    if phase == DISCARD:
        need = state.table.lay_away
        cards = "1 card" if need == 1 else f"{need} cards"
        if not acting:
            return f"{waiting} to choose cards for the crib"
        if seat == state.dealer:
            return f"Choose {cards} for your own crib"
        return f"Choose {cards} for the crib of {{p{state.dealer}}}"
    if phase == PLAY:
        if not acting:
            return f"{waiting} to play"
        if legal == [{"type": "go"}]:
            return f"No card of yours fits under 31 (the count is {state.count}): say go"
        if not state.current:
            return "Your lead: play any card"
        return f"Your turn to play (the count is {state.count})"
    if phase == SHOW:
        pending = state.pending
        assert pending is not None
        what = "crib" if pending.crib else "hand"
        if pending.declared is None:
            if acting:
                return f"Count your {what}"
            return f"{waiting} to count the {what}"
        counted = f"{{p{pending.owner}}} counted {pending.declared}"
        if acting:
            return f"{counted}: claim any points missed (muggins), or continue"
        return f"{counted}. {waiting} to claim missed points or let them go"
    if phase == COUNTED:
        if acting:
            return "The hand is over: continue when you are ready for the next deal"
        return f"{waiting} to be ready for the next deal"
    if phase == GAME_OVER:
        done = game_text(state.results[-1])
        if acting:
            return f"{done}. Continue when you are ready for the next game"
        return f"{done}. {waiting} to be ready for the next game"
    result = outcome(state)
    return "" if result is None else f"The match is over: {result.reason}"


def _cards(cards: Any) -> list[str]:
    return [str(card) for card in cards]


def _plays(plays: tuple[Play, ...]) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": str(card)} for seat, card in plays]
