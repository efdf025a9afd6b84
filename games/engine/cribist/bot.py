"""Cribist computer players, deciding from their seat's view alone.

`easy` follows suit, takes a trick when it is already worth points and it can do so cheaply,
throws its lowest card otherwise, and counts honestly. `strong` also remembers every card
played and which players have shown out of a suit, chooses trumps from its longest suit, and
for each card it might play deals the unseen cards many ways to the players still to play
(never giving a suit to a player known to be out of it), plays the trick out and weighs what
it would score against what the others would, less what the card is worth later (a high
trump kept back takes a better trick).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ..pieces.cards import FULL_DECK, JACK, SUITS, Card, parse_card
from ..scoring import combination_points
from ..scoring.trick import score_trick, trick_winner

LEVELS = ("easy", "strong")  # weakest first; "random" is offered for every game by the core

SAMPLES = 8  # deals of the unseen cards tried for each card the strong player might play
WORTH_TAKING = 2  # easy takes a trick once the cards so far are worth this much
KEEP_WEIGHT = 1.2  # strong: how much a card's power to take a later trick weighs
OPPONENTS = 3


def choose(view: dict[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    """The move for the seat whose view this is (its legal moves are in the view)."""
    legal = view["legal_moves"]
    kind = legal[0]["type"]
    if kind == "play":
        if level == "strong":
            return _strong_play(view, legal, rng)
        return _easy_play(view, legal)
    if kind == "declare":
        return {"type": "declare", "points": _true_points(view)}
    if kind in ("muggins", "pass"):
        return _call(view)
    return legal[0]


# --- easy -----------------------------------------------------------------------------------


def _easy_play(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    cards = [parse_card(move["card"]) for move in legal]
    trick = [parse_card(play["card"]) for play in view["trick"]]
    trump = view["trump"]
    if trump is None:  # the opening lead names trumps: a low card of the longest suit
        return _move(min(cards, key=lambda c: (-_suit_length(cards, c.suit), c.rank)))
    if not trick:
        return _move(_lowest(cards, trump, prefer_plain=True, long_suit=True))
    return _move(easy_follow(trick, cards, trump))


def easy_follow(trick: Sequence[Card], cards: Sequence[Card], trump: str) -> Card:
    """Take the trick with the cheapest winning card when the cards so far (with it) are
    worth points; else throw the cheapest card."""
    best = _best(trick, trump)
    winners = [c for c in cards if _beats(c, best, trump)]
    if winners:
        cheapest = _lowest(winners, trump, prefer_plain=True)
        if partial_points([*trick, cheapest], trump) >= WORTH_TAKING:
            return cheapest
    losers = [c for c in cards if c not in winners] or list(cards)
    return _lowest(losers, trump, prefer_plain=True)


def partial_points(cards: Sequence[Card], trump: str) -> int:
    """What the cards of a trick are worth so far (the full count once all four are down),
    from a table of rank combinations: the same total as `score_trick`, without the items."""
    ranks = tuple(sorted(card.rank for card in cards))
    points = _RANK_POINTS.get(ranks)
    if points is None:
        points = _RANK_POINTS[ranks] = combination_points(ranks)
    suit = cards[0].suit
    if len(cards) == 4 and all(card.suit == suit for card in cards):
        points += 4
    for card in cards:
        if card.rank == JACK and card.suit == trump:
            points += 1
    return points


_RANK_POINTS: dict[tuple[int, ...], int] = {}


# --- strong ---------------------------------------------------------------------------------


def _strong_play(
    view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    cards = [parse_card(move["card"]) for move in legal]
    if len(cards) == 1:
        return legal[0]
    seat = view["seat"]
    trump = view["trump"]
    trick = [parse_card(play["card"]) for play in view["trick"]]
    hand = [parse_card(c) for c in view["hand"]]
    if trump is None:
        return _move(_opening_lead(hand))
    memory = _Memory(view, hand)
    if len(trick) == OPPONENTS:  # last to play: everything is known
        return _move(max(cards, key=lambda c: _last_value(trick, c, trump, memory)))
    to_play = [(seat + i) % 4 for i in range(1, 4 - len(trick))]
    best, best_value = cards[0], float("-inf")
    deals = [memory.sample(to_play, rng) for _ in range(SAMPLES)]
    for card in cards:
        value = _sampled_value(trick, card, trump, deals, to_play, seat, view) - memory.keep(card)
        if value > best_value:
            best, best_value = card, value
    return _move(best)


def _opening_lead(hand: Sequence[Card]) -> Card:
    """Name trumps with the longest, strongest suit: lead its king (a sure winner) if held,
    else its lowest card."""
    suit = max(
        SUITS, key=lambda s: (_suit_length(hand, s), sum(c.rank for c in hand if c.suit == s))
    )
    own = [c for c in hand if c.suit == suit]
    top = max(own, key=lambda c: c.rank)
    return top if top.rank == 13 else min(own, key=lambda c: c.rank)


class _Memory:
    """What the seat knows: the unseen cards, the hand sizes and who is out of which suit."""

    def __init__(self, view: dict[str, Any], hand: Sequence[Card]) -> None:
        seat = view["seat"]
        self.trump = view["trump"]
        gone: list[Card] = []
        self.void: dict[int, set[str]] = {s: set() for s in range(4)}
        plays = [trick["plays"] for trick in view["tricks"]] + [view["trick"]]
        for trick_plays in plays:
            if not trick_plays:
                continue
            led = trick_plays[0]["card"][-1]
            for play in trick_plays:
                gone.append(parse_card(play["card"]))
                if play["card"][-1] != led:
                    self.void[play["seat"]].add(led)
        known = set(gone) | set(hand)
        self.unseen = [c for c in FULL_DECK if c not in known]
        self.counts = {s: view["held_counts"][s] for s in range(4) if s != seat}
        self.order = sorted(self.counts, key=lambda s: -len(self.void[s]))
        self.hand = hand

    def sample(self, to_play: Sequence[int], rng: random.Random) -> dict[int, list[Card]]:
        """A guess at the hands of the seats still to play, respecting known voids."""
        pool = self.unseen[:]
        rng.shuffle(pool)
        hands: dict[int, list[Card]] = {}
        for s in self.order:  # the most constrained seats first
            void = self.void[s]
            take = (
                [c for c in pool if c.suit not in void][: self.counts[s]]
                if void
                else pool[: self.counts[s]]
            )
            taken = set(take)
            pool = [c for c in pool if c not in taken]
            hands[s] = take
        return {s: hands[s] for s in to_play}

    def keep(self, card: Card) -> float:
        """What holding `card` back is worth: its chance of taking a later trick, roughly."""
        if card.suit == self.trump:
            higher = sum(1 for c in self.unseen if c.suit == card.suit and c.rank > card.rank)
            return KEEP_WEIGHT * (3.0 if higher == 0 else 2.0 / (1 + higher))
        higher = sum(1 for c in self.unseen if c.suit == card.suit and c.rank > card.rank)
        return KEEP_WEIGHT * (0.8 if higher == 0 else 0.3 / (1 + higher))


def _sampled_value(
    trick: Sequence[Card],
    card: Card,
    trump: str,
    deals: Sequence[dict[int, list[Card]]],
    to_play: Sequence[int],
    seat: int,
    view: dict[str, Any],
) -> float:
    """My points less the others' mean, over the sampled deals, if I play `card` now."""
    total = 0.0
    start = [*trick, card]
    mine = len(trick)
    for hands in deals:
        cards = start[:]
        for s in to_play:
            held = hands[s]
            led = cards[0].suit
            options = [c for c in held if c.suit == led] or held
            if not options:  # the guess ran short of cards for this seat
                break
            cards.append(easy_follow(cards, options, trump))
        if len(cards) < 4:
            continue
        points = partial_points(cards, trump) + 1
        winner = trick_winner(cards, trump)
        total += points if winner == mine else -points / OPPONENTS
    return total / len(deals)


def _last_value(trick: Sequence[Card], card: Card, trump: str, memory: _Memory) -> float:
    cards = [*trick, card]
    points = partial_points(cards, trump) + 1
    won = trick_winner(cards, trump) == 3
    return (points if won else -points / OPPONENTS) - memory.keep(card)


# --- counting -------------------------------------------------------------------------------


def _true_points(view: dict[str, Any]) -> int:
    cards = [parse_card(c) for c in view["counting"]["cards"]]
    return score_trick(cards, view["trump"]).total


def _call(view: dict[str, Any]) -> dict[str, Any]:
    """Call muggins when the count missed points, naming combinations worth as many of the
    unclaimed points as can be named exactly; else pass."""
    counting = view["counting"]
    cards = [parse_card(c) for c in counting["cards"]]
    count = score_trick(cards, view["trump"])
    trick = view["last_trick"]
    claimed = sum(call["points"] for call in trick["calls"] if call["correct"])
    unclaimed = count.total - (counting["declared"] or 0) - claimed
    if unclaimed <= 0:
        return {"type": "pass"}
    items = list(count.items)
    best: tuple[int, tuple[int, ...]] = (0, ())
    for size in range(1, min(len(items), 6) + 1):
        for chosen in combinations(range(len(items)), size):
            worth = sum(items[i].points for i in chosen)
            if best[0] < worth <= unclaimed:
                best = (worth, chosen)
        if best[0] == unclaimed:
            break
    if not best[0]:
        return {"type": "pass"}
    named = [{"kind": items[i].kind, "cards": [str(c) for c in items[i].cards]} for i in best[1]]
    return {"type": "muggins", "points": best[0], "items": named}


# --- helpers --------------------------------------------------------------------------------


def _move(card: Card) -> dict[str, Any]:
    return {"type": "play", "card": str(card)}


def _best(trick: Sequence[Card], trump: str) -> Card:
    """The card taking the trick so far."""
    best = trick[0]
    for card in trick[1:]:
        if _beats(card, best, trump):
            best = card
    return best


def _beats(card: Card, best: Card, trump: str) -> bool:
    """Whether `card` played now takes the trick from `best`, the card taking it so far."""
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump


def _suit_length(cards: Sequence[Card], suit: str) -> int:
    return sum(1 for c in cards if c.suit == suit)


def _lowest(
    cards: Sequence[Card], trump: str, *, prefer_plain: bool, long_suit: bool = False
) -> Card:
    """The cheapest card: plain suits before trumps, low ranks first (from the longest plain
    suit first with `long_suit`)."""

    def cost(card: Card) -> tuple[int, int, int]:
        is_trump = int(prefer_plain and card.suit == trump)
        length = -_suit_length(cards, card.suit) if long_suit else 0
        return (is_trump, length, card.rank)

    return min(cards, key=cost)
