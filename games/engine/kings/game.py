"""Kings Cribbage for 2 to 4 players: tiles laid in lines on a 13x13 board, every line a
cribbage hand.

Chance comes only from the match seed: each seat draws for the start from
`shuffled_bag(seed, "draw:<n>")` (the lowest rank starts; tied seats draw again), then the racks
are drawn from `shuffled_bag(seed, "bag")`, and every exchange shakes the bag again with
`shuffled_bag(seed, "bag:<move number>")`.

Moves (JSON dicts, exactly as `legal_moves` lists them):
    {"type": "lay", "tiles": ["6,7=8D", "6,8=7D"], "points": 2}   lay tiles (ROW,COL=FACE)
    {"type": "exchange", "tiles": ["7L", "KD"], "points": 0}       swap tiles with the bag
    {"type": "pass", "points": 0}
    {"type": "joker"}        joker option: claim the points the last lay's player missed
    {"type": "accept"}       joker option: let the last lay's count stand
A lay's "points" is optional (checked when given); with the joker option it is the player's
declaration, which may fall short of the lay's worth but never pass it.

Event kinds: draw, draw_tie, start, deal, lay, exchange, pass, joker, game_over.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from ..core.events import Event, event, freeze_event
from ..core.muggins import Declaration, declare, judge_call
from ..core.options import clean_options
from ..core.outcome import Outcome, SideResult, TournamentScoring, places
from ..core.state import evolve, next_seat, seats_from, with_item
from ..core.text import gettext_noop
from ..core.variant import BadOptions, IllegalMove, Move, illegal_answer, register, seat_list
from ..pieces.tiles import (
    NINE,
    SIX,
    SUIT_WORDS,
    Laid,
    Tile,
    card_points,
    shuffled_bag,
)
from . import bot
from .board import (
    EMPTY_BOARD,
    RACK_SIZE,
    LayScore,
    Placement,
    face_of,
    index,
    parse_placement,
    score_lay,
)
from .movegen import legal_lays
from .state import LOG_LENGTH, OUT, PASSES, LastMove, State, dump, load
from .view import build_view, hidden_tiles

__all__ = ["KINGS", "Kings", "State"]

JOKER_PENALTY = 5


class Kings:
    """Kings Cribbage: lay tiles in lines, each line of two to five a scoring hand."""

    key = "kings"
    name = gettext_noop("Kings Cribbage")
    player_counts = (2, 3, 4)
    levels = bot.LEVELS
    tournament = TournamentScoring(kind="ranked", stops_at_target=False, skunks=False)
    options_schema: dict[str, dict[str, Any]] = {
        "centre_start": {
            "type": "bool",
            "default": False,
            "label": gettext_noop("Start on the centre"),
            "help": gettext_noop("the first lay must cover the centre square"),
        },
        "reduced_first_bonus": {
            "type": "bool",
            "default": False,
            "label": gettext_noop("Reduced first bonus"),
            "help": gettext_noop("no bonus for laying all five tiles on the game's first lay"),
        },
        "joker": {
            "type": "bool",
            "default": False,
            "label": gettext_noop("Joker"),
            "help": gettext_noop(
                "players declare their own points; others may claim what they miss"
            ),
        },
    }

    def clean_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        if players not in self.player_counts:
            raise BadOptions("players", f"Kings Cribbage is for 2, 3 or 4 players, not {players}")
        return clean_options("kings", self.options_schema, options)

    def teams(self, players: int) -> list[tuple[int, ...]]:
        """Everyone plays for themselves."""
        return [(seat,) for seat in range(players)]

    def new_state(self, players: int, options: Mapping[str, Any] | None, seed: bytes) -> State:
        """Draw for the start, shake the bag and draw the racks."""
        if not isinstance(seed, bytes | bytearray):
            raise TypeError("the seed must be bytes")
        cleaned = self.clean_options(players, options)
        seed = bytes(seed)
        starter, events = draw_for_start(seed, players)
        bag = shuffled_bag(seed, "bag")
        racks: list[tuple[Tile, ...]] = [()] * players
        for seat in seats_from(starter, players):
            racks[seat], bag = bag[:RACK_SIZE], bag[RACK_SIZE:]
        events.append(event("deal", None, "Each player draws five tiles", tiles=RACK_SIZE))
        return State(
            players=players,
            centre_start=cleaned["centre_start"],
            reduced_first_bonus=cleaned["reduced_first_bonus"],
            joker=cleaned["joker"],
            seed=seed.hex(),
            starter=starter,
            turn=starter,
            number=0,
            board=EMPTY_BOARD,
            racks=tuple(racks),
            bag=bag,
            scores=(0,) * players,
            passes=0,
            last=None,
            pending=None,
            declined=(),
            over=None,
            penalties=(0,) * players,
            log=tuple(freeze_event(e) for e in events),
        )

    def to_move(self, state: State) -> frozenset[int]:
        """The seat whose turn it is, and while a Joker call is open every other player who
        has not let it go. After the lay that empties a rack, only those who may call."""
        if state.over is not None:
            return frozenset()
        if state.closing:
            return frozenset(callers(state))
        return frozenset((state.turn, *callers(state)))

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every distinct lay with its points, every distinct exchange, pass; or the call.

        On the empty board a first lay may go anywhere, and the same hand laid elsewhere
        scores the same, so the list gives each first hand once, over the centre square (some
        28,000 lays otherwise); `apply` takes a first lay anywhere unless `centre_start`.
        """
        return self._moves(state, seat, every=True)

    def _moves(self, state: State, seat: int, *, every: bool) -> list[Move]:
        """The legal moves; with every=False only the first of each kind (which kinds are
        open), for a fraction of the search."""
        if seat not in self.to_move(state):
            return []
        calling: list[Move] = []
        if seat in callers(state):
            calling = [{"type": "joker"}]
            if seat != state.turn:
                return [*calling, {"type": "accept"}]
        rack = state.racks[seat]
        first = state.first_lay
        lays = legal_lays(
            state.board,
            rack,
            first=first,
            centre_start=state.centre_start or first,
            reduced_first_bonus=state.reduced_first_bonus,
            limit=None if every else 1,
        )
        moves: list[Move] = [
            {"type": "lay", "tiles": list(lay.tiles), "points": lay.points} for lay in lays
        ]
        swaps = exchanges(rack, len(state.bag))
        moves += [
            {"type": "exchange", "tiles": list(faces), "points": 0}
            for faces in (swaps if every else swaps[:1])
        ]
        return [*moves, {"type": "pass", "points": 0}, *calling]

    def candidates(self, state: State, seat: int) -> list[Move]:
        return self.legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """The state after `seat` makes `move`, and what happened; IllegalMove says why not."""
        _check_seat(state, seat)
        if not isinstance(move, Mapping):
            raise IllegalMove(
                gettext_noop('a move is an object with a type, such as {"type": "pass"}')
            )
        kind = move.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise IllegalMove(
                gettext_noop("there is no move {move} in Kings Cribbage (moves: {moves})"),
                move=repr(str(kind)[:20]),
                moves=", ".join(sorted(_HANDLERS)),
            )
        if kind in ("joker", "accept"):
            if seat not in callers(state):
                raise IllegalMove(
                    gettext_noop("there is no count open to a Joker call for you now")
                )
        elif state.closing:
            raise IllegalMove(
                gettext_noop(
                    "a rack is empty: the game ends once the others call Joker or let the "
                    "count stand"
                )
            )
        elif seat != state.turn:
            raise IllegalMove(gettext_noop("it is not your turn"))
        events: list[Event] = []
        after = handler(state, seat, move, events)
        log = (*state.log, *(freeze_event(e) for e in events))[-LOG_LENGTH:]
        return evolve(after, log=log), events

    def preview(self, state: State, seat: int, move: Move) -> dict[str, Any]:
        """What a tentative move would score, changing nothing: for a lay its hands, bonuses
        and total (a seat may try lays while waiting for its turn), for other moves what
        `apply` would do; or why it is illegal."""
        if not isinstance(move, Mapping) or move.get("type") != "lay":
            try:
                _, events = self.apply(state, seat, move)  # type: ignore[arg-type]
            except IllegalMove as error:
                return illegal_answer(error)
            points = sum(int(e.get("points") or 0) for e in events if e.get("seat") == seat)
            return {"legal": True, "points": points, "events": events}
        try:
            _check_seat(state, seat)
            placements = _placements(move)
            _take_tiles(state.racks[seat], placements)
            scored = _score(state, placements)
        except IllegalMove as error:
            return illegal_answer(error)
        return {"legal": True, "points": scored.total, "text": scored.text(), **scored.to_json()}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"there is no seat {seat} at this table")
        legal = [] if seat is None else self.legal_moves(state, seat)
        return build_view(state, seat, self.to_move(state), legal, self.outcome(state))

    def table_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The view as a table page draws it: the same, but its legal moves give only the
        first of each kind (a page asks whether a lay or an exchange is open, and tries lays
        through `preview`), not every lay on the board, which for the seat to move is most of
        the cost of drawing its page."""
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"there is no seat {seat} at this table")
        legal = [] if seat is None else self._moves(state, seat, every=False)
        return build_view(state, seat, self.to_move(state), legal, self.outcome(state))

    def hidden(self, state: State, seat: int | None) -> set[str]:
        return hidden_tiles(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.over is None:
            return None
        scores = list(state.scores)
        ranks = places(scores)
        winners = tuple(seat for seat, place in enumerate(ranks) if place == 1)
        sides = tuple(
            SideResult(
                (seat,),
                scores[seat],
                place=ranks[seat],
                terms={"rack_points": state.penalties[seat]},
            )
            for seat in range(state.players)
        )
        best = scores[winners[0]]
        others = sorted((s for i, s in enumerate(scores) if i not in winners), reverse=True)
        if len(winners) > 1:
            reason = f"{seat_list(winners)} share the win on {best}"
        else:
            rest = " to ".join(str(s) for s in others)
            reason = f"{{p{winners[0]}}} wins {best} to {rest}"
        return Outcome(winners, sides, reason)

    def computer(self, state: State, seat: int, level: str, rng: Any) -> Move:
        """The computer's move for `seat`, chosen from that seat's view alone."""
        return bot.choose(self.view(state, seat), level, rng)

    def dump(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return load(data)


KINGS = register(Kings())


def draw_for_start(seed: bytes, players: int) -> tuple[int, list[Event]]:
    """Each seat draws a tile; the lowest rank starts, tied seats draw again. The tiles go
    back in the bag, so the events name their rank and suit but no tile identity."""
    events: list[Event] = []
    drawing = list(range(players))
    for attempt in range(1000):
        drawn = dict(zip(drawing, shuffled_bag(seed, f"draw:{attempt}"), strict=False))
        for seat, tile in drawn.items():
            rank = tile.face[0]
            text = f"{{p{seat}}} draws a {SUIT_WORDS[tile.suit]} {rank}"
            events.append(event("draw", seat, text, rank=rank, suit=tile.suit))
        low = min(tile.rank for tile in drawn.values())
        lowest = [seat for seat, tile in drawn.items() if tile.rank == low]
        if len(lowest) == 1:
            events.append(event("start", lowest[0], f"{{p{lowest[0]}}} draws lowest and starts"))
            return lowest[0], events
        events.append(
            event("draw_tie", None, f"{seat_list(lowest)} tie and draw again", seats=lowest)
        )
        drawing = lowest
    raise RuntimeError("the draw for the start never settled")  # pragma: no cover


def callers(state: State) -> tuple[int, ...]:
    """Seats that may still call Joker on the last lay (none without the joker option)."""
    pending = state.pending
    if pending is None or state.over is not None:
        return ()
    return tuple(
        seat
        for seat in range(state.players)
        if seat != pending.scorer and seat not in state.declined
    )


def exchanges(rack: tuple[Tile, ...], bag_size: int) -> list[tuple[str, ...]]:
    """Every distinct set of tiles that may go back to the bag (no more than it holds)."""
    found: dict[tuple[tuple[int, str], ...], tuple[str, ...]] = {}
    for size in range(1, min(len(rack), bag_size) + 1):
        for chosen in combinations(sorted(rack), size):
            kinds = tuple(tile.kind for tile in chosen)
            found.setdefault(kinds, tuple(tile.face for tile in chosen))
    return list(found.values())


# --- the moves ------------------------------------------------------------------------------


def _lay(state: State, seat: int, move: Move, events: list[Event]) -> State:
    placements = _placements(move)
    rack, used = _take_tiles(state.racks[seat], placements)
    scored = _score(state, placements)
    points = scored.total
    declared = move.get("points")
    pending = None
    if state.joker:
        if declared is None:
            raise IllegalMove(gettext_noop("with the Joker option, declare the points of your lay"))
        _check_declared(declared, points)
        pending = declare(Declaration(seat, points), declared, "lay")
        points = declared
    elif declared is not None and declared != points:
        raise IllegalMove(
            gettext_noop("this lay scores {points}, not {declared}"),
            points=points,
            declared=repr(declared),
        )
    board = list(state.board)
    for placed, tile in zip(placements, used, strict=True):
        board[index(placed.square)] = Laid(tile, placed.rank)
    drawn, bag = state.bag[: RACK_SIZE - len(rack)], state.bag[RACK_SIZE - len(rack) :]
    rack = rack + drawn
    tiles = [str(p) for p in placements]
    words = " ".join(p.face for p in placements)
    if state.joker:
        text = f"{{p{seat}}} lays {words} and declares {points}"
        details: dict[str, Any] = {"declared": points}
    else:
        text = f"{{p{seat}}} lays {words}: {scored.text()}"
        details = {"hands": scored.to_json()["hands"], "bonus": scored.to_json()["bonus"]}
    faces = [p.face for p in placements]
    events.append(
        event("lay", seat, text, points, tiles=tiles, faces=faces, drew=len(drawn), **details)
    )
    state = evolve(
        state,
        board=tuple(board),
        racks=with_item(state.racks, seat, rack),
        bag=bag,
        scores=with_item(state.scores, seat, state.scores[seat] + points),
        passes=0,
        last=LastMove(seat, "lay", tuple(p.square for p in placements)),
        pending=pending,
        declined=(),
    )
    if not rack:
        # With the joker option the others may still call on this last count: the game ends
        # when they have (see _joker and _accept).
        return state if pending is not None else _end(state, OUT, events)
    return _next_turn(state, seat)


def _exchange(state: State, seat: int, move: Move, events: list[Event]) -> State:
    faces = move.get("tiles")
    if not isinstance(faces, list | tuple) or not 1 <= len(faces) <= RACK_SIZE:
        raise IllegalMove(gettext_noop("name from 1 to 5 tiles of your rack to exchange"))
    _no_points(move)
    if len(faces) > len(state.bag):
        template = (
            gettext_noop("the bag holds {held} tile: you may exchange at most that")
            if len(state.bag) == 1
            else gettext_noop("the bag holds {held} tiles: you may exchange at most that")
        )
        raise IllegalMove(template, held=len(state.bag))
    rack = list(state.racks[seat])
    returned = []
    for face in faces:
        tile = _rack_tile(rack, _face(face), exact=True)
        rack.remove(tile)
        returned.append(tile)
    n = len(returned)
    drawn, rest = state.bag[:n], state.bag[n:]
    bag = shuffled_bag(bytes.fromhex(state.seed), f"bag:{state.number}", (*rest, *returned))
    text = f"{{p{seat}}} exchanges {n} tile{'s' if n != 1 else ''}"
    events.append(event("exchange", seat, text, 0, count=n))
    state = evolve(
        state,
        racks=with_item(state.racks, seat, (*rack, *drawn)),
        bag=bag,
        passes=0,
        last=LastMove(seat, "exchange", count=n),
        pending=None,
        declined=(),
    )
    return _next_turn(state, seat)


def _pass(state: State, seat: int, move: Move, events: list[Event]) -> State:
    _no_points(move)
    events.append(event("pass", seat, f"{{p{seat}}} passes", 0))
    state = evolve(
        state,
        passes=state.passes + 1,
        last=LastMove(seat, "pass"),
        pending=None,
        declined=(),
    )
    if state.passes >= state.players:
        return _end(state, PASSES, events)
    return _next_turn(state, seat)


def _joker(state: State, seat: int, move: Move, events: list[Event]) -> State:
    pending = state.pending
    assert pending is not None
    scorer = pending.scorer
    if judge_call(pending, max(pending.missed, 1)):
        gained = pending.missed
        text = f"{{p{seat}}} calls Joker and takes the {gained} points {{p{scorer}}} missed"
        events.append(event("joker", seat, text, gained, scorer=scorer, right=True))
    else:
        gained = -JOKER_PENALTY
        text = f"{{p{seat}}} calls Joker, but {{p{scorer}}} missed nothing: {JOKER_PENALTY} off"
        events.append(
            event("joker", seat, text, gained, scorer=scorer, right=False, penalty=JOKER_PENALTY)
        )
    state = evolve(
        state,
        scores=with_item(state.scores, seat, state.scores[seat] + gained),
        pending=None,
        declined=(),
    )
    return _end(state, OUT, events) if state.closing else state


def _accept(state: State, seat: int, move: Move, events: list[Event]) -> State:
    declined = (*state.declined, seat)
    if [s for s in callers(state) if s not in declined]:
        return evolve(state, declined=declined)
    state = evolve(state, pending=None, declined=())
    return _end(state, OUT, events) if state.closing else state


_HANDLERS = {
    "lay": _lay,
    "exchange": _exchange,
    "pass": _pass,
    "joker": _joker,
    "accept": _accept,
}


def _next_turn(state: State, seat: int) -> State:
    return evolve(state, turn=next_seat(seat, state.players), number=state.number + 1)


def _end(state: State, reason: str, events: list[Event]) -> State:
    """Each player loses the card points of the tiles left on their rack."""
    penalties = tuple(card_points(rack) for rack in state.racks)
    scores = tuple(score - lost for score, lost in zip(state.scores, penalties, strict=True))
    why = "a rack is empty" if reason == OUT else "every player passed in turn"
    text = f"The game is over ({why}); tiles left on racks count against their players"
    events.append(
        event(
            "game_over",
            None,
            text,
            reason=reason,
            penalties=list(penalties),
            scores=list(scores),
        )
    )
    return evolve(
        state,
        scores=scores,
        penalties=penalties,
        over=reason,
        pending=None,
        declined=(),
        number=state.number + 1,
    )


# --- helpers --------------------------------------------------------------------------------


def _score(state: State, placements: list[Placement]) -> LayScore:
    return score_lay(
        state.board,
        placements,
        first=state.first_lay,
        centre_start=state.centre_start,
        reduced_first_bonus=state.reduced_first_bonus,
    )


def _placements(move: Mapping[str, Any]) -> list[Placement]:
    tiles = move.get("tiles")
    if not isinstance(tiles, list | tuple) or not tiles:
        raise IllegalMove(
            gettext_noop('a lay names its tiles: {"type": "lay", "tiles": ["6,7=8D", ...]}')
        )
    if len(tiles) > RACK_SIZE:
        raise IllegalMove(
            gettext_noop("lay from 1 to {most} tiles, not {count}"),
            most=RACK_SIZE,
            count=len(tiles),
        )
    return [parse_placement(token) for token in tiles]


def _take_tiles(
    rack: tuple[Tile, ...], placements: list[Placement]
) -> tuple[tuple[Tile, ...], list[Tile]]:
    """The rack left after the lay and the tiles it used (a 6 or 9 may stand for the other)."""
    left = list(rack)
    used = []
    for placed in placements:
        tile = _rack_tile(left, (placed.rank, placed.suit), exact=False)
        left.remove(tile)
        used.append(tile)
    return tuple(left), used


def _rack_tile(rack: list[Tile], face: tuple[int, str], *, exact: bool) -> Tile:
    rank, suit = face
    same = sorted(t for t in rack if t.rank == rank and t.suit == suit)
    if same:
        return same[0]
    if not exact and rank in (SIX, NINE):
        turned = sorted(t for t in rack if t.flips and t.suit == suit)
        if turned:
            return turned[0]
    letter = "A23456789TJQK"[rank - 1]
    template = _NO_TURNABLE[suit] if rank in (SIX, NINE) and not exact else _NO_TILE[suit]
    raise IllegalMove(template, rank=letter)


_NO_TILE = {
    "L": gettext_noop("you have no light {rank} left on your rack for this move"),
    "D": gettext_noop("you have no dark {rank} left on your rack for this move"),
}
_NO_TURNABLE = {
    "L": gettext_noop("you have no light {rank} (nor a 6 or 9 of that suit to turn) on your rack"),
    "D": gettext_noop("you have no dark {rank} (nor a 6 or 9 of that suit to turn) on your rack"),
}


def _face(token: object) -> tuple[int, str]:
    return face_of(token)


def _check_declared(declared: object, worth: int) -> None:
    """The declaration of a lay, checked before the shared muggins rules take it, so that
    the reason comes with its template (the same words as core.muggins)."""
    if isinstance(declared, bool) or not isinstance(declared, int) or declared < 0:
        raise IllegalMove(gettext_noop("give the points as a whole number, 0 or more"))
    if declared > worth:
        raise IllegalMove(gettext_noop("that lay does not hold {points}"), points=declared)


def _check_seat(state: State, seat: object) -> None:
    if state.over is not None:
        raise IllegalMove(gettext_noop("the game is over"))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalMove(gettext_noop("there is no seat {seat} at this table"), seat=repr(seat))


def _no_points(move: Mapping[str, Any]) -> None:
    if move.get("points", 0) != 0:
        raise IllegalMove(
            gettext_noop("an exchange or a pass scores nothing: give no points (or 0)")
        )
