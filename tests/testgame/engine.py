"""High Card, a tiny game that exists only in the test settings, to prove that a game is a
plug-in: two players are dealt three cards each (face down to the other) and take turns laying
one card face up; when all are laid, the higher total of card values wins (a tie is shared).

Nothing of it lives outside tests/testgame/: its engine, its web adapter and its templates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.core import (
    BadOptions,
    IllegalMove,
    Outcome,
    SideResult,
    TournamentScoring,
    clean_options,
    event,
    evolve,
    places,
    register,
    with_item,
)
from games.engine.pieces.cards import Card, parse_card, parse_cards, shuffled_deck


@dataclass(frozen=True, slots=True)
class State:
    players: int
    hand_size: int
    held: tuple[tuple[Card, ...], ...]
    laid: tuple[tuple[Card, ...], ...]
    turn: int


class HighCard:
    key = "testgame"
    name = "High Card"
    player_counts = (2,)
    levels = ("easy",)
    tournament = TournamentScoring(kind="ranked")
    options_schema: dict[str, dict[str, Any]] = {
        "cards": {
            "type": "int",
            "min": 1,
            "max": 5,
            "default": 3,
            "label": "Cards each",
            "summary": "{} cards each",
            "help": "how many cards each player lays",
        }
    }

    def clean_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        if players != 2:
            raise BadOptions("players", "High Card is for 2 players")
        return clean_options(self.name, self.options_schema, options)

    def teams(self, players: int) -> list[tuple[int, ...]]:
        return [(0,), (1,)]

    def new_state(self, players: int, options: Mapping[str, Any] | None, seed: bytes) -> State:
        size = self.clean_options(players, options)["cards"]
        deck = shuffled_deck(bytes(seed), "deal")
        held = (tuple(sorted(deck[:size])), tuple(sorted(deck[size : 2 * size])))
        return State(players=2, hand_size=size, held=held, laid=((), ()), turn=0)

    def to_move(self, state: State) -> frozenset[int]:
        return frozenset() if self._over(state) else frozenset((state.turn,))

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_move(state):
            return []
        return [{"type": "lay", "card": str(card)} for card in state.held[seat]]

    def apply(self, state: State, seat: int, move: Mapping[str, Any]):
        if seat not in self.to_move(state):
            raise IllegalMove("it is not your turn")
        if not isinstance(move, Mapping) or move.get("type") != "lay":
            raise IllegalMove('the only move is to lay a card: {"type": "lay", "card": "5H"}')
        try:
            card = parse_card(move.get("card"))
        except ValueError as error:
            raise IllegalMove(str(error)) from None
        if card not in state.held[seat]:
            raise IllegalMove(f"you do not hold {card}")
        held = tuple(c for c in state.held[seat] if c != card)
        state = evolve(
            state,
            held=with_item(state.held, seat, held),
            laid=with_item(state.laid, seat, (*state.laid[seat], card)),
            turn=1 - seat,
        )
        events = [event("lay", seat, f"{{p{seat}}} lays {card}", card=str(card))]
        if self._over(state):
            events.append(event("end", None, self._reason(state), totals=self._totals(state)))
        return state, events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "variant": self.key,
            "seat": seat,
            "turn": None if self._over(state) else state.turn,
            "to_move": sorted(self.to_move(state)),
            "hand": None if seat is None else [str(c) for c in state.held[seat]],
            "held_counts": [len(h) for h in state.held],
            "laid": [[str(c) for c in cards] for cards in state.laid],
            "sides": [{"seats": [s], "score": t} for s, t in enumerate(self._totals(state))],
            "legal_moves": [] if seat is None else self.legal_moves(state, seat),
            "prompt": self._prompt(state, seat),
            "events": [],
            "options": {"cards": state.hand_size},
        }

    def hidden(self, state: State, seat: int | None) -> set[str]:
        return {str(c) for s, cards in enumerate(state.held) if s != seat for c in cards}

    def outcome(self, state: State) -> Outcome | None:
        if not self._over(state):
            return None
        totals = self._totals(state)
        place = places(totals)
        return Outcome(
            winners=tuple(s for s in range(2) if place[s] == 1),
            sides=tuple(SideResult(seats=(s,), score=totals[s], place=place[s]) for s in range(2)),
            reason=self._reason(state),
        )

    def dump(self, state: State) -> dict[str, Any]:
        return {
            "hand_size": state.hand_size,
            "held": [[str(c) for c in cards] for cards in state.held],
            "laid": [[str(c) for c in cards] for cards in state.laid],
            "turn": state.turn,
        }

    def load(self, data: Mapping[str, Any]) -> State:
        return State(
            players=2,
            hand_size=int(data["hand_size"]),
            held=tuple(parse_cards(cards) for cards in data["held"]),
            laid=tuple(parse_cards(cards) for cards in data["laid"]),
            turn=int(data["turn"]),
        )

    def computer(self, state: State, seat: int, level: str, rng: Any) -> dict[str, Any]:
        """Lays its highest card: the whole of this game's strategy."""
        view = self.view(state, seat)
        best = max(view["hand"], key=lambda name: parse_card(name).value)
        return {"type": "lay", "card": best}

    def _over(self, state: State) -> bool:
        return all(len(cards) == state.hand_size for cards in state.laid)

    def _totals(self, state: State) -> list[int]:
        return [sum(card.value for card in cards) for cards in state.laid]

    def _reason(self, state: State) -> str:
        a, b = self._totals(state)
        if a == b:
            return f"{{p0}} and {{p1}} tie on {a}"
        winner = 0 if a > b else 1
        return f"{{p{winner}}} wins {max(a, b)} to {min(a, b)}"

    def _prompt(self, state: State, seat: int | None) -> str:
        if self._over(state):
            return f"The game is over: {self._reason(state)}"
        if seat == state.turn:
            return "Your turn: lay a card"
        return f"Waiting for {{p{state.turn}}} to lay a card"


HIGH_CARD = register(HighCard())
