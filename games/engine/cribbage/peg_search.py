"""Strong pegging: weigh each card against the replies the other players can make.

Two-handed, the computer searches the rest of the play to the end (every card, go and last
card, both sides playing their best) for opponent hands drawn from the cards it has not seen,
and plays the card with the best average. Near the end of a game the search also knows the
scores: pegging out wins at once, and after the play the show is counted in its order (the
pone first), so it defends when the opponent is close to counting out and attacks when it is.
With more players it weighs each card by its points now minus the next player's expected best
reply, computed exactly from the unseen cards. A hard time limit returns the best card found.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from ..pieces.cards import FULL_DECK, Card, parse_card
from ..scoring import rank_key, score_hand
from ..scoring.combinations import _combination_table  # the show's own rank table, shared
from .discard import expected_crib
from .pegging import COUNT_LIMIT, peg_total

NODE_BUDGET = 1500  # positions searched: no new opponent hand is started after this many
HARD_LIMIT = 0.040  # seconds: the search stops wherever it is and plays the best so far
MAX_SAMPLES = 48  # opponent hands searched at most (three or four unseen cards)
ENDGAME = 45  # the scores matter once a side needs this many points or fewer
WIN = 60.0  # the worth of winning the game, in points, inside the search
DANGER_COUNTS = {5: 0.3, 21: 0.3}  # tie-breaks for the one-ply weighing (a ten makes 15/31)

_VALUE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


class OutOfTime(Exception):
    """The hard time limit has passed."""


def choose_card(view: dict[str, Any], rng: random.Random, clock=time.perf_counter) -> str:
    """The card to play (its notation) for the seat whose view this is; it must have one."""
    table = Table.from_view(view)
    options = table.options()
    if len(options) == 1:
        return table.card_of(options[0])
    weighed = table.one_ply()
    best = max(options, key=lambda r: weighed[r])
    if table.players == 2:
        searched = _search(table, options, rng, clock)
        if searched is not None:
            best = searched
    return table.card_of(best)


@dataclass
class Table:
    """What the seat knows of the play, in ranks (suits do not matter while pegging)."""

    players: int
    seat: int
    mine: tuple[int, ...]  # ranks still held, sorted
    cards: list[Card]  # the cards still held
    count: int
    seq: tuple[int, ...]  # ranks of the running count, in order
    last: int | None  # seat that played the last card of the count
    unseen: list[Card]  # cards the others may hold
    held_counts: list[int]
    dealer: int
    needs: tuple[int, int]  # points to the target: own side, the other side (two-handed)
    my_show: int  # the seat's own show (it knows its four cards and the starter)
    opp_played: tuple[int, ...]  # ranks the opponent has played this hand
    starter: int
    crib: float  # the crib's expected show

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Table:
        seat = view["seat"]
        players = view["players"]
        cards = [parse_card(c) for c in view["hand"]]
        plays = [p for count in view["earlier"] for p in count] + list(view["current"])
        played = {parse_card(p["card"]) for p in plays}
        mine_played = [parse_card(p["card"]) for p in plays if p["seat"] == seat]
        discards = [parse_card(c) for c in view.get("discards") or []]
        starter = parse_card(view["starter"])
        seen = {*cards, *played, *discards, starter}
        current = view["current"]
        sides = view["sides"]
        my_side = view["seat_sides"][seat]
        target = view["options"]["target"]
        own_need = target - sides[my_side]["score"]
        other_need = min(target - s["score"] for i, s in enumerate(sides) if i != my_side)
        kept = [*cards, *mine_played]
        return cls(
            players=players,
            seat=seat,
            mine=tuple(sorted(c.rank for c in cards)),
            cards=cards,
            count=view["count"],
            seq=tuple(parse_card(p["card"]).rank for p in current),
            last=current[-1]["seat"] if current else None,
            unseen=[c for c in FULL_DECK if c not in seen],
            held_counts=list(view["held_counts"]),
            dealer=view["dealer"],
            needs=(own_need, other_need),
            my_show=score_hand(kept, starter) if len(kept) == 4 else 0,
            opp_played=tuple(
                parse_card(p["card"]).rank for p in plays if p["seat"] != seat and players == 2
            ),
            starter=starter.rank,
            crib=expected_crib(discards, [*kept, *discards]) if discards else 4.5,
        )

    def options(self) -> list[int]:
        """The distinct ranks the seat may play now."""
        room = COUNT_LIMIT - self.count
        return sorted({r for r in self.mine if _VALUE[r] <= room})

    def card_of(self, rank: int) -> str:
        return str(next(c for c in self.cards if c.rank == rank))

    def next_player(self) -> int:
        """The next seat holding cards (who replies to the card played now)."""
        for step in range(1, self.players):
            seat = (self.seat + step) % self.players
            if self.held_counts[seat]:
                return seat
        return self.seat

    def one_ply(self) -> dict[int, float]:
        """Each playable rank's points now minus the next player's expected best reply."""
        replier = self.next_player()
        holding = self.held_counts[replier] if replier != self.seat else 0
        weighed = {}
        for rank in self.options():
            seq = (*self.seq, rank)
            count = self.count + _VALUE[rank]
            points = _peg(seq)
            reply = 0.0
            if count < COUNT_LIMIT and holding:
                reply = self._expected_reply(seq, count, holding)
            score = points - reply
            score -= DANGER_COUNTS.get(count, 0.0)
            if not self.seq:
                score -= 0.01 * _VALUE[rank]  # among equal leads, keep the low cards
            weighed[rank] = score
        return weighed

    def _expected_reply(self, seq: tuple[int, ...], count: int, holding: int) -> float:
        """The expected best points of a player holding `holding` unseen cards, exactly.

        E[max] = sum over the distinct point levels p (high to low) of (p - next lower level)
        times the chance of holding at least one card that reaches p."""
        room = COUNT_LIMIT - count
        by_points: dict[int, int] = {}
        left = [0] * 14
        for card in self.unseen:
            left[card.rank] += 1
        for rank in range(1, 14):
            if left[rank] and _VALUE[rank] <= room:
                points = _peg((*seq, rank))
                if points:
                    by_points[points] = by_points.get(points, 0) + left[rank]
        total = len(self.unseen)
        if holding > total:
            holding = total
        expected, cards_at_or_above = 0.0, 0
        levels = sorted(by_points, reverse=True)
        for i, level in enumerate(levels):
            cards_at_or_above += by_points[level]
            lower = levels[i + 1] if i + 1 < len(levels) else 0
            missing = comb(total - cards_at_or_above, holding) / comb(total, holding)
            expected += (level - lower) * (1 - missing)
        return expected


def _search(table: Table, options: list[int], rng: random.Random, clock) -> int | None:
    """Two-handed: the rank with the best average over opponent hands, searched to the end of
    the play; None if not even one hand could be searched in time."""
    start = clock()
    holding = table.held_counts[1 - table.seat]
    hands = _opponent_hands(table.unseen, holding, rng)
    endgame = min(table.needs) <= ENDGAME
    search = PlaySearch(table, endgame, lambda: clock() - start > HARD_LIMIT)
    totals = dict.fromkeys(options, 0.0)
    weight_done = 0
    try:
        for theirs, weight in hands:
            if search.nodes > NODE_BUDGET and weight_done:
                break
            values = search.each_option(theirs, options)
            for rank, value in values.items():
                totals[rank] += weight * value
            weight_done += weight
    except OutOfTime:
        pass
    if not weight_done:
        return None
    return max(options, key=lambda r: (totals[r], -_VALUE[r]))


def _opponent_hands(
    unseen: list[Card], holding: int, rng: random.Random
) -> list[tuple[tuple[int, ...], int]]:
    """Opponent holdings as (sorted ranks, weight): all of them, weighted by how many card sets
    show those ranks, when there are few; else MAX_SAMPLES drawn at random."""
    if holding == 0:
        return [((), 1)]
    if holding <= 2:
        counts: dict[tuple[int, ...], int] = {}
        for i, a in enumerate(unseen):
            if holding == 1:
                counts[(a.rank,)] = counts.get((a.rank,), 0) + 1
                continue
            for b in unseen[i + 1 :]:
                key = tuple(sorted((a.rank, b.rank)))
                counts[key] = counts.get(key, 0) + 1
        return sorted(counts.items(), key=lambda item: -item[1])
    drawn: dict[tuple[int, ...], int] = {}
    for _ in range(MAX_SAMPLES):
        hand = tuple(sorted(c.rank for c in rng.sample(unseen, holding)))
        drawn[hand] = drawn.get(hand, 0) + 1
    return list(drawn.items())


class PlaySearch:
    """The rest of the play with both hands known, each side playing its best (in ranks).

    Values are the searching seat's points minus the opponent's from here on; in the endgame a
    side that reaches its target is worth WIN, and after the play the show decides it.
    Inside the search player 0 is the searching seat and 1 its opponent; hands are sorted rank
    tuples, `gone` a bit mask of the players who said go in this count, `need0`/`need1` the
    points each still needs (huge outside the endgame)."""

    def __init__(self, table: Table, endgame: bool, late) -> None:
        self.table = table
        self.endgame = endgame
        self.late = late
        self.memo: dict[tuple, float] = {}
        self.nodes = 0
        self.pone_is_me = table.dealer != table.seat
        self.opp_show = 0

    def each_option(self, theirs: tuple[int, ...], options: list[int]) -> dict[int, float]:
        """The value of playing each rank now against this opponent hand."""
        t = self.table
        if self.endgame:
            self.memo.clear()  # the show at the end depends on the opponent's whole hand
            ranks = (*t.opp_played, *theirs, t.starter)
            self.opp_show = _combination_table()[rank_key(ranks)] if len(ranks) == 5 else 0
            need0, need1 = t.needs
        else:
            need0 = need1 = 10_000
        opp_gone = 2 if (t.last == t.seat and theirs) else 0  # it came back to us: they said go
        values = {}
        for rank in options:
            i = t.mine.index(rank)
            mine = t.mine[:i] + t.mine[i + 1 :]
            values[rank] = self._played(
                mine, theirs, t.count + _VALUE[rank], (*t.seq, rank), 0, opp_gone, need0, need1
            )
        return values

    def _node(self, h0, h1, count, seq, turn, gone, last, need0, need1) -> float:
        """`turn` is to act: it plays its best rank, or says go."""
        key = (h0, h1, count, seq, turn, gone, last, need0, need1)
        value = self.memo.get(key)
        if value is not None:
            return value
        self.nodes += 1
        if not self.nodes & 255 and self.late():
            raise OutOfTime
        hand = h1 if turn else h0
        room = COUNT_LIMIT - count
        best = None
        previous = 0
        for i, rank in enumerate(hand):
            if _VALUE[rank] > room:
                break  # sorted ranks: nothing later fits either
            if rank == previous:
                continue
            previous = rank
            rest = hand[:i] + hand[i + 1 :]
            if turn:
                value = self._played(
                    h0, rest, count + _VALUE[rank], (*seq, rank), 1, gone, need0, need1
                )
                if best is None or value < best:
                    best = value
            else:
                value = self._played(
                    rest, h1, count + _VALUE[rank], (*seq, rank), 0, gone, need0, need1
                )
                if best is None or value > best:
                    best = value
        if best is None:  # no card fits: say go
            best = self._next_turn(h0, h1, count, seq, turn, gone | (1 << turn), last, need0, need1)
        self.memo[key] = best
        return best

    def _played(self, h0, h1, count, seq, player, gone, need0, need1) -> float:
        """`player` has just made `seq`: its points, then whatever follows."""
        points = _peg(seq)
        done = not h0 and not h1
        if done and count != COUNT_LIMIT:
            points += 1  # last card
        sign = -1 if player else 1
        if points:
            if player:
                if points >= need1:
                    return -(points + WIN)
                need1 -= points
            else:
                if points >= need0:
                    return points + WIN
                need0 -= points
        if done:
            return sign * points + self._show(need0, need1)
        if count == COUNT_LIMIT:
            other = h0 if player else h1
            leader = 1 - player if other else player
            return sign * points + self._node(h0, h1, 0, (), leader, 0, None, need0, need1)
        return sign * points + self._next_turn(
            h0, h1, count, seq, player, gone, player, need0, need1
        )

    def _next_turn(self, h0, h1, count, seq, after, gone, last, need0, need1) -> float:
        """The engine's turn order: the other player if it still plays in this count, else the
        last player if it can go on, else the last player pegs the go and a new count starts."""
        room = COUNT_LIMIT - count
        for seat in (1 - after, after):
            hand = h1 if seat else h0
            if hand and not gone & (1 << seat):
                if seat == last and _VALUE[hand[0]] > room:
                    break
                return self._node(h0, h1, count, seq, seat, gone, last, need0, need1)
        if last:
            if need1 <= 1:
                return -(1 + WIN)
            need1 -= 1
            leader = 0 if h0 else 1
            return -1 + self._node(h0, h1, 0, (), leader, 0, None, need0, need1)
        if need0 <= 1:
            return 1 + WIN
        need0 -= 1
        leader = 1 if h1 else 0
        return 1 + self._node(h0, h1, 0, (), leader, 0, None, need0, need1)

    def _show(self, need0: int, need1: int) -> float:
        """After the play, near the end: the pone counts first, then the dealer hand and crib."""
        if not self.endgame:
            return 0.0
        t = self.table
        if self.pone_is_me:
            if t.my_show >= need0:
                return WIN
            return -WIN if self.opp_show + t.crib >= need1 else 0.0
        if self.opp_show >= need1:
            return -WIN
        return WIN if t.my_show + t.crib >= need0 else 0.0


_PEG_CACHE: dict[tuple[int, ...], int] = {}


def _peg(seq: Sequence[int]) -> int:
    """What the last rank of a count pegs (pairs, runs, fifteen, thirty-one)."""
    key = tuple(seq)
    points = _PEG_CACHE.get(key)
    if points is None:
        points = peg_total([Card(rank, "C") for rank in key])
        if len(_PEG_CACHE) < 200_000:
            _PEG_CACHE[key] = points
    return points
