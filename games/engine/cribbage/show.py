"""Classic Cribbage: pegging points, the show (automatic or muggins) and the end of a game."""

from __future__ import annotations

from functools import lru_cache

from ..core.events import Event, event
from ..core.muggins import Declaration, declare, judge_call
from ..core.outcome import GameResult, Outcome, SideResult, places
from ..core.scoreboard import SKUNK_NAMES, add_points, match_won, skunk_level
from ..core.state import evolve
from ..core.text import gettext_noop
from ..core.variant import IllegalMove, seat_list
from ..pieces.cards import Card
from ..scoring import score_show
from .state import COUNTED, GAME_OVER, MATCH_OVER, SHOW, Shown, State


def peg(state: State, seat: int, points: int) -> State:
    """Add points to the side of `seat` (the winner's peg stops at the target hole)."""
    scores, back_pegs = add_points(
        state.scores, state.back_pegs, state.side_of(seat), points, state.target
    )
    return evolve(state, scores=scores, back_pegs=back_pegs)


def has_won(state: State, seat: int) -> bool:
    return state.scores[state.side_of(seat)] >= state.target


# --- the show -------------------------------------------------------------------------------


def show_order(state: State) -> list[tuple[int, bool]]:
    """(owner, is_crib) in counting order: left of the dealer round to the dealer, then the crib."""
    n = state.players
    return [((state.dealer + i) % n, False) for i in range(1, n + 1)] + [(state.dealer, True)]


def start_show(state: State, events: list[Event]) -> State:
    """The play is over: count every hand and the crib, or begin the muggins count."""
    if state.muggins:
        return _next_count(evolve(state, phase=SHOW), events)
    for owner, crib in show_order(state):
        shown = _shown(state, owner, crib)
        state = evolve(state, shows=(*state.shows, shown))
        text = _show_text(shown, shown.points)
        events.append(
            event("show", owner, text, shown.points, crib=crib, calls=show_calls(state, shown))
        )
        if shown.points:
            state = peg(state, owner, shown.points)
            if has_won(state, owner):
                return end_game(state, owner, events)
    return evolve(state, phase=COUNTED, ready=())


def count(state: State, seat: int, points: int, events: list[Event]) -> State:
    """Muggins: the owner declares what the hand (or crib) holds; over-counts are refused."""
    pending = state.pending
    assert pending is not None
    what = "crib" if pending.crib else "hand"
    if isinstance(points, int) and points > pending.points:
        if pending.crib:
            raise IllegalMove(gettext_noop("that crib does not hold {points}"), points=points)
        raise IllegalMove(gettext_noop("that hand does not hold {points}"), points=points)
    declare(Declaration(seat, pending.points), points, what)  # refuses an over-count
    pending = pending._replace(declared=points)
    state = evolve(state, pending=pending)
    whose = "the crib" if pending.crib else "the hand"
    text = f"{{p{seat}}} counts {points} for {whose}"
    events.append(event("count", seat, text, points, crib=pending.crib))
    if points:
        state = peg(state, seat, points)
        if has_won(state, seat):
            return end_game(state, seat, events)
    if points == pending.points:
        return _close_count(state, events)
    return state


def claim(state: State, seat: int, points: int, events: list[Event]) -> State:
    """Muggins: an opponent takes points the owner missed."""
    pending = state.pending
    assert pending is not None and pending.declared is not None
    missed = pending.points - pending.declared
    if points < 1:
        raise IllegalMove(
            gettext_noop("claim at least 1 point, or continue to let the missed points go")
        )
    if not judge_call(Declaration(pending.owner, pending.points, pending.declared), points):
        if missed == 1:
            raise IllegalMove(gettext_noop("only 1 point were missed, not {points}"), points=points)
        raise IllegalMove(
            gettext_noop("only {missed} points were missed, not {points}"),
            missed=missed,
            points=points,
        )
    state = evolve(state, pending=pending._replace(claimed=points, claimer=seat))
    text = (
        f"{{p{seat}}} claims {points} missed {_points(points)} from {{p{pending.owner}}} (muggins)"
    )
    events.append(event("muggins", seat, text, points, owner=pending.owner, crib=pending.crib))
    state = peg(state, seat, points)
    if has_won(state, seat):
        return end_game(state, seat, events)
    return _close_count(state, events)


def let_go(state: State, seat: int, events: list[Event]) -> State:
    """Muggins: an opponent lets the missed points go; once every opponent has, move on."""
    state = evolve(state, ready=(*state.ready, seat))
    if set(claimers(state)) <= set(state.ready):
        return _close_count(state, events)
    return state


def claimers(state: State) -> tuple[int, ...]:
    """The seats that may claim what the owner of the hand being counted missed."""
    assert state.pending is not None
    side = state.side_of(state.pending.owner)
    return tuple(s for s in range(state.players) if state.side_of(s) != side)


def _next_count(state: State, events: list[Event]) -> State:
    order = show_order(state)
    step = len(state.shows)
    if step == len(order):
        return evolve(state, phase=COUNTED, pending=None, ready=())
    owner, crib = order[step]
    return evolve(state, pending=_shown(state, owner, crib), ready=())


def _close_count(state: State, events: list[Event]) -> State:
    pending = state.pending
    assert pending is not None and pending.declared is not None
    missed = pending.points - pending.declared - pending.claimed
    text = _show_text(pending, pending.points)
    if missed:
        text += f"; {missed} {_points(missed)} went unclaimed"
    events.append(
        event(
            "show",
            pending.owner,
            text,
            crib=pending.crib,
            total=pending.points,
            calls=show_calls(state, pending),
            declared=pending.declared,
            claimed=pending.claimed,
            claimer=pending.claimer,
            missed=missed,
        )
    )
    state = evolve(state, shows=(*state.shows, pending), pending=None)
    return _next_count(state, events)


def _shown(state: State, owner: int, crib: bool) -> Shown:
    assert state.starter is not None
    cards = state.crib if crib else state.show_hand(owner)
    score = score_show(cards, state.starter, crib=crib)
    return Shown(owner=owner, crib=crib, cards=cards, points=score.total, breakdown=score.text())


def show_calls(state: State, shown: Shown) -> list[dict[str, object]]:
    """The count of a shown hand (or crib) as data: `ShowScore.calls()` with the starter, as
    fresh dicts."""
    assert state.starter is not None
    return [dict(call) for call in _calls(shown.cards, state.starter, shown.crib)]


@lru_cache(maxsize=4096)
def _calls(cards: tuple[Card, ...], starter: Card, crib: bool) -> tuple[dict[str, object], ...]:
    """Counted once for a hand and starter: every view of the show (one a viewer, at every move
    until the next deal) asks for the same counts."""
    return tuple(score_show(cards, starter, crib=crib).calls())


def _show_text(shown: Shown, points: int) -> str:
    detail = f" ({shown.breakdown})" if points else ""
    if shown.crib:
        return f"crib of {{p{shown.owner}}}: {points}{detail}"
    return f"{{p{shown.owner}}} shows {points}{detail}"


def _points(n: int) -> str:
    return "point" if n == 1 else "points"


# --- the end of a game and of the match ------------------------------------------------------


def end_game(state: State, seat: int, events: list[Event]) -> State:
    """`seat`'s side has reached the target: the game ends at once, and maybe the match."""
    win = state.side_of(seat)
    games_won = tuple(won + (side == win) for side, won in enumerate(state.games_won))
    place = places([state.target + 1 if side == win else s for side, s in enumerate(state.scores)])
    result = GameResult(
        number=state.game,
        winners=state.sides[win],
        sides=tuple(
            SideResult(
                seats=seats,
                score=state.scores[side],
                skunk=0 if side == win else skunk_level(state.target, state.scores[side]),
                games_won=games_won[side],
                place=place[side],
            )
            for side, seats in enumerate(state.sides)
        ),
    )
    shows = state.shows if state.pending is None else (*state.shows, state.pending)
    over = match_won(games_won[win], state.match_games)
    state = evolve(
        state,
        phase=MATCH_OVER if over else GAME_OVER,
        games_won=games_won,
        results=(*state.results, result),
        shows=shows,
        pending=None,
        turn=None,
        ready=(),
    )
    prefix = "" if state.match_games == 1 else f"game {result.number}: "
    events.append(
        event(
            "game_over",
            seat,
            prefix + game_text(result),
            game=result.number,
            games=state.match_games,
            result=result.to_json(),
        )
    )
    if over and state.match_games > 1:
        events.append(
            event(
                "match_over",
                seat,
                match_text(state),
                winners=list(state.sides[win]),
                games_won=list(state.games_won),
                side=win,
            )
        )
    return state


def next_game_dealer(state: State) -> int:
    """Who deals the next game: the losing side deals (with three players, the lowest score).

    Among the seats of the losing side (or of sides tied for the lowest score), the first one
    found going left from the last dealer deals.
    """
    last = state.results[-1]
    losers = [side for side in last.sides if side.seats != last.winners]
    low = min(side.score for side in losers)
    seats = {seat for side in losers if side.score == low for seat in side.seats}
    n = state.players
    return next(
        (state.dealer + step) % n for step in range(1, n + 1) if (state.dealer + step) % n in seats
    )


def outcome(state: State) -> Outcome | None:
    """The match result, once the match is over."""
    if state.phase != MATCH_OVER or not state.results:
        return None
    last = state.results[-1]
    return Outcome(
        winners=last.winners,
        sides=last.sides,
        reason=match_text(state) if state.match_games > 1 else game_text(last),
        games=state.results,
    )


def game_text(result: GameResult) -> str:
    """'{p0} wins 121 to 87 (skunk)', '{p0} and {p2} win 121 to 95', or for three sides
    '{p1} wins 121 to 100 ({p0}) and 80 ({p2}, skunk)'."""
    winner = next(side for side in result.sides if side.seats == result.winners)
    losers = [side for side in result.sides if side.seats != result.winners]
    verb = "wins" if len(winner.seats) == 1 else "win"
    head = f"{seat_list(winner.seats)} {verb} {winner.score} to "
    if len(losers) == 1:
        skunk = SKUNK_NAMES[losers[0].skunk]
        return head + str(losers[0].score) + (f" ({skunk})" if skunk else "")
    parts = []
    for side in losers:
        note = ", ".join(filter(None, [seat_list(side.seats), SKUNK_NAMES[side.skunk]]))
        parts.append(f"{side.score} ({note})")
    return head + " and ".join(parts)


def match_text(state: State) -> str:
    """'{p0} wins the match, 2 games to 1' (with three sides: '2 games to 1 and 0')."""
    win = max(range(len(state.games_won)), key=lambda side: state.games_won[side])
    seats = state.sides[win]
    verb = "wins" if len(seats) == 1 else "win"
    others = [str(won) for side, won in enumerate(state.games_won) if side != win]
    won = state.games_won[win]
    return (
        f"{seat_list(seats)} {verb} the match, {won} {'game' if won == 1 else 'games'} "
        f"to {' and '.join(others)}"
    )
