"""Table Top Cribbage for 2 players, or 4 in partnerships: the variant and its turns.

Each deal gives every player a face-down stack (12 cards each for two players, 6 for four) and
turns the next card up as the centre of a 5x5 layout; the rest of the deck is out of play. From
the dealer's left, clockwise, each player turns the top card of their stack and places it on an
empty square touching a card already down (side to side or corner to corner). The 5x5 grid is
centred on the centre card, so a square of the grid is exactly a square at most two away from
the centre. After 24 placements seat 0's side scores the five columns and the other side the
five rows, each as a cribbage hand without a starter (a flush only with all five of one suit).
Both sides score at once; deals go on until a side reaches the target ahead of the other.

CrossCrib (games/engine/crosscrib) is this class with a few hooks changed.

Moves (JSON dicts, as `legal_moves` lists them):
    {"type": "place", "row": r, "col": c}    place the turned card (rows/columns 0-4, centre 2,2)
    {"type": "crib"}                          CrossCrib: the turned card goes to the dealer's crib
    {"type": "advise", "row": r, "col": c}   four players: suggest a square to your partner
                                              (once a turn; seen by the partnership only)
    {"type": "continue"}                      ready for the next deal

Event kinds: dealer, deal, place, crib, lines, crib_count, deal_over, game_over. Every event is
public (a card put in the crib is not named).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.events import Event, event, freeze_event
from ..core.options import clean_options
from ..core.outcome import Outcome, TournamentScoring
from ..core.state import evolve, with_item
from ..core.text import gettext_noop
from ..core.variant import BadOptions, IllegalMove, Move, register, seat_list
from ..pieces.cards import shuffled_deck
from ..pieces.grid import Square
from . import bot
from .count import count_lines, crib_show, hand_points, outcome, outcome_params, winning_side
from .state import (
    CENTRE,
    COUNTED,
    GRID,
    LINE_KINDS,
    LOG_LENGTH,
    OVER,
    PLACE,
    SIDES,
    SIZE,
    DealScore,
    State,
    dump,
    index_of,
    load,
    square_of,
)
from .view import build_view

__all__ = ["TABLETOP", "TableTop"]

# Each square's neighbours, side to side and corner to corner, as indexes of the layout (row by
# row from the top left, as State.board holds it).
TOUCHING = tuple(
    tuple(index_of(n) for n in GRID.neighbours(square, corners=True)) for square in GRID.squares()
)


class TableTop:
    """Table Top Cribbage. Subclasses change the class attributes and the marked hooks."""

    key = "tabletop"
    name = gettext_noop("Table Top Cribbage")
    player_counts: tuple[int, ...] = (2, 4)
    levels = bot.LEVELS
    # Both sides score at once, so the winner may pass the target; ACC skunks as in Cribbage.
    tournament = TournamentScoring(kind="race", stops_at_target=False, skunks=True)
    options_schema: dict[str, dict[str, Any]] = {
        "target": {
            "type": "int",
            "min": 31,
            "max": 361,
            "default": 121,
            "label": gettext_noop("Points to win"),
            "help": gettext_noop("deals go on until a side has this many points and is ahead"),
            "summary": gettext_noop("to {} points"),
        },
    }
    cards_each: dict[int, int] = {2: 12, 4: 6}  # the stack dealt to each player
    crib_each = 0  # cards each player must put in the dealer's crib
    must_touch = True  # a card must touch one already down
    flush_min = 5  # fewest cards of one suit in a line that score a flush
    turned_public = True  # everyone sees the turned card (CrossCrib: its owner only)
    score_name = "points"  # what `scores` count, in the outcome's terms
    move_types = ("advise", "continue", "place")  # a partner advises (4 players)
    unknown_move = gettext_noop("there is no move {move} in Table Top Cribbage (moves: {moves})")

    # --- the protocol --------------------------------------------------------------------------

    def clean_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Check the options and fill in defaults; BadOptions names the option at fault."""
        if players not in self.player_counts:
            counts = " or ".join(str(n) for n in self.player_counts)
            raise BadOptions("players", f"{self.name} is for {counts} players, not {players}")
        return clean_options(self.name, self.options_schema, options)

    def teams(self, players: int) -> list[tuple[int, ...]]:
        """Every player alone, or with four players seats 0 and 2 against 1 and 3."""
        return list(SIDES[players])

    def new_state(self, players: int, options: Mapping[str, Any] | None, seed: bytes) -> State:
        """Draw the first dealer by lot and deal the first deal."""
        if not isinstance(seed, bytes | bytearray):
            raise TypeError("the seed must be bytes")
        cleaned = self.clean_options(players, options)
        # The first dealer by lot: a card from a labelled shuffle picks the seat (52 cards
        # divide evenly among 2 or 4 seats), and no card of it is ever shown.
        dealer = shuffled_deck(bytes(seed), "first-dealer")[0].index % players
        events = [event("dealer", dealer, f"{{p{dealer}}} is drawn to deal first")]
        state = State(
            variant=self.key,
            players=players,
            target=cleaned["target"],
            seed=bytes(seed).hex(),
            phase=PLACE,
            deal=1,
            dealer=dealer,
            turn=None,
            scores=(0,) * len(SIDES[players]),
            board=(None,) * (SIZE * SIZE),
            stacks=((),) * players,
            out=(),
            cribs=((),) * players,
            advice=None,
            advised=(),
            ready=(),
            last=None,
            log=(),
        )
        state = self._deal(state, events)
        return evolve(state, log=tuple(freeze_event(e) for e in events[-LOG_LENGTH:]))

    def to_move(self, state: State) -> frozenset[int]:
        """The player to place (and, with four players, their partner until they have made a
        suggestion this turn), or everyone not yet ready after a deal."""
        if state.phase == PLACE:
            assert state.turn is not None
            partner = self.partner(state)
            advising = () if partner is None or partner in state.advised else (partner,)
            return frozenset((state.turn, *advising))
        if state.phase == COUNTED:
            return frozenset(s for s in range(state.players) if s not in state.ready)
        return frozenset()

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move `seat` may make now (empty when it is not that seat's turn)."""
        if seat not in self.to_move(state):
            return []
        if state.phase == COUNTED:
            return [{"type": "continue"}]
        squares = self.open_squares(state)
        if seat != state.turn:
            return [{"type": "advise", "row": r, "col": c} for r, c in squares]
        if self.must_crib(state, seat):
            return [{"type": "crib"}]
        moves: list[Move] = [{"type": "place", "row": r, "col": c} for r, c in squares]
        if self.crib_owed(state, seat):
            moves.append({"type": "crib"})
        return moves

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """The state after `seat` makes `move`, and what happened; IllegalMove says why not."""
        if state.phase == OVER:
            raise IllegalMove(gettext_noop("the match is over"))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalMove(
                gettext_noop("there is no seat {seat} at this table"), seat=repr(seat)
            )
        if not isinstance(move, Mapping):
            raise IllegalMove(
                gettext_noop('a move is an object with a type, such as {"type": "place"}')
            )
        kind = move.get("type")
        if not isinstance(kind, str) or kind not in self.move_types:
            moves = ", ".join(self.move_types)
            raise IllegalMove(self.unknown_move, move=_short(kind), moves=moves)
        handler = {
            "place": self._place,
            "crib": self._crib,
            "advise": self._advise,
            "continue": self._continue,
        }[kind]
        events: list[Event] = []
        after = handler(state, seat, move, events)
        return _commit(state, after, events), events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), ready for a template or JSON."""
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"there is no seat {seat} at this table")
        legal = [] if seat is None else self.legal_moves(state, seat)
        return build_view(self, state, seat, self.to_move(state), legal, self.outcome(state))

    def hidden(self, state: State, seat: int | None) -> set[str]:
        """Cards `seat` must not see: the cards out of play, every face-down card in a stack
        (the owner's too), the turned card where only its owner sees it, and until the count
        the crib cards other players put away."""
        secret = {str(card) for card in state.out}
        for owner, stack in enumerate(state.stacks):
            face_down = (
                stack[1:] if owner == state.turn and self.sees_turned(state, seat) else stack
            )
            secret.update(str(card) for card in face_down)
        if state.phase == PLACE:
            for owner, crib in enumerate(state.cribs):
                if owner != seat:
                    secret.update(str(card) for card in crib)
        return secret

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state, self.tournament, self.score_name, state.phase == OVER)

    def computer(self, state: State, seat: int, level: str, rng: Any) -> Move:
        """The computer's move for `seat`, chosen from that seat's view alone."""
        return bot.choose(self.view(state, seat), level, rng)

    def dump(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return load(data, self.key)

    # --- rules as hooks ------------------------------------------------------------------------

    def open_squares(self, state: State) -> list[Square]:
        """The empty squares the turned card may go on: touching a card already down (side to
        side or corner to corner), inside the 5x5 around the centre."""
        board = state.board
        return [
            square_of(index)
            for index, card in enumerate(board)
            if card is None
            and (not self.must_touch or any(board[n] is not None for n in TOUCHING[index]))
        ]

    def sees_turned(self, state: State, seat: int | None) -> bool:
        """Whether `seat` sees the card the player to move has turned (Table Top: everyone;
        otherwise its owner only)."""
        return self.turned_public or (seat is not None and seat == state.turn)

    def crib_owed(self, state: State, seat: int) -> int:
        """Cards `seat` still has to put in the crib this deal (always 0 in Table Top)."""
        return self.crib_each - len(state.cribs[seat]) if self.crib_each else 0

    def must_crib(self, state: State, seat: int) -> bool:
        """A player who owes as many crib cards as they have turns left must crib."""
        owed = self.crib_owed(state, seat)
        return owed > 0 and owed >= len(state.stacks[seat])

    def partner(self, state: State) -> int | None:
        """The partner of the player to move (four players only)."""
        if state.players != 4 or state.turn is None:
            return None
        return (state.turn + 2) % 4

    def settle(self, hand: list[int], scores: tuple[int, ...]) -> tuple[int, ...]:
        """What each side gains on the scoreboard from its hand points (Table Top: all of them)."""
        return tuple(hand)

    # --- moves ---------------------------------------------------------------------------------

    def _place(self, state: State, seat: int, move: Move, events: list[Event]) -> State:
        self._check_turn(
            state,
            seat,
            gettext_noop("it is not your turn to place a card: {player} is to play"),
        )
        if self.must_crib(state, seat):
            owed = self.crib_owed(state, seat)
            if owed == 1:
                raise IllegalMove(
                    gettext_noop(
                        "you still owe 1 card to the crib and have only 1 turn left: this card "
                        "must go to the crib"
                    )
                )
            raise IllegalMove(
                gettext_noop(
                    "you still owe {owed} cards to the crib and have only {owed} turns left: "
                    "this card must go to the crib"
                ),
                owed=owed,
            )
        square = self._square_of(state, move)
        card = state.stacks[seat][0]
        r, c = square
        state = evolve(
            state,
            board=with_item(state.board, index_of(square), card),
            stacks=with_item(state.stacks, seat, state.stacks[seat][1:]),
        )
        text = f"{{p{seat}}} places {card} at row {r + 1}, column {c + 1}"
        events.append(event("place", seat, text, card=str(card), row=r, col=c))
        return self._next_turn(state, events)

    def _crib(self, state: State, seat: int, move: Move, events: list[Event]) -> State:
        self._check_turn(
            state,
            seat,
            gettext_noop("it is not your turn to put a card in the crib: {player} is to play"),
        )
        if not self.crib_owed(state, seat):
            raise IllegalMove(
                gettext_noop("you have already put your {count} cards in the crib"),
                count=self.crib_each,
            )
        card = state.stacks[seat][0]
        state = evolve(
            state,
            cribs=with_item(state.cribs, seat, (*state.cribs[seat], card)),
            stacks=with_item(state.stacks, seat, state.stacks[seat][1:]),
        )
        done = len(state.cribs[seat])
        text = f"{{p{seat}}} puts a card face down in the crib ({done} of {self.crib_each})"
        events.append(event("crib", seat, text, cribbed=done, of=self.crib_each))
        return self._next_turn(state, events)

    def _advise(self, state: State, seat: int, move: Move, events: list[Event]) -> State:
        if state.phase != PLACE or seat != self.partner(state):
            raise IllegalMove(
                gettext_noop("only the partner of the player to move may suggest a square")
            )
        if seat in state.advised:
            raise IllegalMove(gettext_noop("you have already suggested a square this turn"))
        square = self._square_of(state, move)
        # A suggestion is private to the partnership: it makes no public event.
        return evolve(state, advice=square, advised=(*state.advised, seat))

    def _continue(self, state: State, seat: int, move: Move, events: list[Event]) -> State:
        if state.phase != COUNTED:
            raise IllegalMove(gettext_noop("the deal is not over yet: place the turned card"))
        if seat in state.ready:
            raise IllegalMove(gettext_noop("you have already said you are ready"))
        state = evolve(state, ready=(*state.ready, seat))
        if len(state.ready) < state.players:
            return state
        state = evolve(state, deal=state.deal + 1, dealer=(state.dealer + 1) % state.players)
        return self._deal(state, events)

    # --- the deal ------------------------------------------------------------------------------

    def _deal(self, state: State, events: list[Event]) -> State:
        """Deal the stacks one card at a time from the dealer's left, turn the centre card."""
        n = state.players
        deck = shuffled_deck(bytes.fromhex(state.seed), f"deal:{state.deal}")
        dealt = n * self.cards_each[n]
        stacks = tuple(deck[(i - state.dealer - 1) % n : dealt : n] for i in range(n))
        centre = deck[dealt]
        text = f"Deal {state.deal}: {{p{state.dealer}}} deals; the centre card is {centre}"
        events.append(event("deal", state.dealer, text, deal=state.deal, card=str(centre)))
        board: list[Any] = [None] * (SIZE * SIZE)
        board[index_of(CENTRE)] = centre
        return evolve(
            state,
            phase=PLACE,
            turn=(state.dealer + 1) % n,
            board=tuple(board),
            stacks=stacks,
            out=deck[dealt + 1 :],
            cribs=((),) * n,
            advice=None,
            advised=(),
            ready=(),
        )

    def _next_turn(self, state: State, events: list[Event]) -> State:
        state = evolve(state, advice=None, advised=())
        if any(state.stacks):
            assert state.turn is not None
            return evolve(state, turn=(state.turn + 1) % state.players)
        return self._count(evolve(state, turn=None), events)

    def _count(self, state: State, events: list[Event]) -> State:
        """The layout is full: both sides count their lines at once (and the dealer the crib)."""
        lines = count_lines(state.board, self.flush_min)
        hand = hand_points(lines, len(state.sides))
        crib = tuple(sorted(card for cards in state.cribs for card in cards))
        crib_points, crib_text = 0, ""
        for side, seats in enumerate(state.sides):
            kind = LINE_KINDS[side] + "s"
            text = f"{seat_list(seats)} {_score_verb(seats)} {hand[side]} in the {kind}"
            events.append(
                event("lines", seats[0], text, hand[side], side=side, lines=kind, seats=list(seats))
            )
        if crib:
            centre = state.at(CENTRE)
            assert centre is not None
            show = crib_show(crib, centre)
            crib_points, crib_text = show.total, show.text()
            hand[state.side_of(state.dealer)] += crib_points
            text = f"Crib of {{p{state.dealer}}}: {crib_points} ({crib_text})"
            cards = [str(c) for c in crib]
            events.append(
                event(
                    "crib_count", state.dealer, text, crib_points, cards=cards, calls=show.calls()
                )
            )
        gained = self.settle(hand, state.scores)
        scores = tuple(score + gain for score, gain in zip(state.scores, gained, strict=True))
        score = DealScore(
            deal=state.deal,
            dealer=state.dealer,
            lines=lines,
            crib=crib,
            crib_points=crib_points,
            crib_breakdown=crib_text,
            hand_points=tuple(hand),
            gained=gained,
        )
        state = evolve(state, scores=scores, last=score, ready=())
        score_text = " to ".join(str(s) for s in scores)
        events.append(
            event(
                "deal_over",
                None,
                f"After deal {state.deal}: {score_text}",
                scores=list(scores),
                deal=state.deal,
            )
        )
        if winning_side(scores, state.target) is None:
            return evolve(state, phase=COUNTED)
        state = evolve(state, phase=OVER)
        result = self.outcome(state)
        assert result is not None
        events.append(
            event(
                "game_over",
                result.winners[0],
                result.reason,
                **outcome_params(result, self.score_name),
            )
        )
        return state

    # --- checks --------------------------------------------------------------------------------

    def _check_turn(self, state: State, seat: int, not_yours: str) -> None:
        """IllegalMove unless `seat` is to place; `not_yours` says so, naming the {player}."""
        if state.phase != PLACE:
            raise IllegalMove(gettext_noop("the deal is over: continue to the next deal"))
        if seat != state.turn:
            raise IllegalMove(not_yours, player=f"{{p{state.turn}}}")

    def _square_of(self, state: State, move: Move) -> Square:
        """The square a move names, checked against the placing rules."""
        r, c = move.get("row"), move.get("col")
        for value in (r, c):
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalMove(
                    gettext_noop("give the square as whole numbers: row and col, 0 to 4")
                )
        assert isinstance(r, int) and isinstance(c, int)
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise IllegalMove(
                gettext_noop(
                    "that square is more than two squares from the centre: rows and columns "
                    "run from 0 to 4"
                )
            )
        if state.at((r, c)) is not None:
            raise IllegalMove(
                gettext_noop("row {row}, column {col} already holds a card"), row=r + 1, col=c + 1
            )
        if (r, c) not in self.open_squares(state):
            raise IllegalMove(
                gettext_noop("a card must touch one already down, side to side or corner to corner")
            )
        return (r, c)


TABLETOP = register(TableTop())


# --- helpers ----------------------------------------------------------------------------------


def _commit(before: State, after: State, events: list[Event]) -> State:
    """Keep the recent events of the current deal in the state (a new deal starts afresh)."""
    start = max((i for i, e in enumerate(events) if e["kind"] == "deal"), default=None)
    if start is None:
        log = before.log + tuple(freeze_event(e) for e in events)
    else:
        log = tuple(freeze_event(e) for e in events[start:])
    return evolve(after, log=log[-LOG_LENGTH:])


def _score_verb(seats: tuple[int, ...]) -> str:
    return "scores" if len(seats) == 1 else "score"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."
