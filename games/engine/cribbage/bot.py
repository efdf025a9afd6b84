"""The Cribbage computer at two levels; each looks only at its own seat's view.

* easy: keeps the best hand with a rough crib estimate, pegs what it sees, avoids traps;
* strong: discards by exact expected points (hand over every starter, crib over every throw
  and starter: see discard.py) and pegs by weighing the replies (see peg_search.py).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from ..pieces.cards import FULL_DECK, Card, parse_card
from ..scoring import score_hand, score_show
from .discard import crib_owner_is_side, rank_discards
from .peg_search import choose_card
from .pegging import peg_total

# Counts that hand the next player an easy score: 5 and 21 (a ten makes 15 or 31), and 11
# less often matters; keep the count off them when there is a choice.
DANGER_COUNTS = {5: 2, 21: 2, 11: 0.5}


LEVELS = ("easy", "strong")  # weakest first; "random" is offered for every game by the engine core


def choose(view: dict[str, Any], level: str, rng: random.Random) -> dict:
    """The move for the seat whose view this is (its legal moves are in the view)."""
    legal = view["legal_moves"]
    kind = legal[0]["type"]
    strong = level == "strong"
    if kind == "discard":
        return _best_discard(view, legal) if strong else _discard(view, legal)
    if kind == "play" and strong:
        return {"type": "play", "card": choose_card(view, rng)}
    if kind in {"play", "go"}:
        return _play(view, legal, rng)
    if kind == "count":
        return _count(view)
    if kind == "muggins" or (kind == "continue" and view.get("counting")):
        return _muggins(view, legal)
    return legal[0]


def _best_discard(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict:
    """The discard with the best exact expected points; a partner's crib is the side's own."""
    hand = [parse_card(c) for c in view["hand"]]
    own_crib = crib_owner_is_side(view["dealer"], view["seat"], view["players"])
    best = rank_discards(hand, own_crib, view["players"])[0]
    thrown = {str(c) for c in best.cards}
    return next(move for move in legal if set(move["cards"]) == thrown)


def _discard(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict:
    """Keep the cards with the best average show over every starter it might see,
    counting the crib's two-card value for it when it deals, against it when it does not."""
    hand = [parse_card(c) for c in view["hand"]]
    unseen = [c for c in FULL_DECK if c not in hand]
    own_crib = view["dealer"] == view["seat"]
    best, best_value = legal[0], float("-inf")
    for move in legal:
        thrown = [parse_card(c) for c in move["cards"]]
        kept = [c for c in hand if c not in thrown]
        total = sum(score_hand(kept, starter) for starter in unseen)
        value = total / len(unseen)
        crib_value = _pair_value(thrown)
        value += crib_value if own_crib else -crib_value
        if value > best_value:
            best, best_value = move, value
    return best


def _pair_value(cards: list[Card]) -> float:
    """A rough worth of cards in the crib: fifteens, pairs, fives and near-runs."""
    value = 0.0
    for a, b in combinations(cards, 2):
        if a.value + b.value == 15:
            value += 2
        if a.rank == b.rank:
            value += 2
        if abs(a.rank - b.rank) == 1:
            value += 1
    value += sum(1.5 for c in cards if c.rank == 5)
    return value


def _play(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict:
    if legal == [{"type": "go"}]:
        return legal[0]
    current = [parse_card(p["card"]) for p in view["current"]]
    count = view["count"]
    scored = []
    for move in legal:
        card = parse_card(move["card"])
        points = peg_total([*current, card])
        after = count + card.value
        risk = DANGER_COUNTS.get(after, 0)
        if after < 31 and current and current[-1].rank == card.rank:
            risk += 1  # invites a pair royal
        if not current and card.rank == 5:
            risk += 1.5  # a five lead gives away fifteen to any ten
        keep_low = -0.01 * card.value if not current else 0.0  # save low cards for later
        scored.append((points - risk + keep_low + rng.random() * 0.001, move))
    return max(scored, key=lambda pair: pair[0])[1]


def _count(view: dict[str, Any]) -> dict:
    counting = view["counting"]
    cards = [parse_card(c) for c in counting["cards"]]
    starter = parse_card(view["starter"])
    points = score_show(cards, starter, crib=counting["crib"]).total
    return {"type": "count", "points": points}


def _muggins(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict:
    claims = [m for m in legal if m["type"] == "muggins"]
    if claims:
        return max(claims, key=lambda m: m["points"])
    return {"type": "continue"}
