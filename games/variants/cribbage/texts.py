"""Classic Cribbage's words in the reader's language: its event log, its prompts, its results.

`EVENTS` maps every event kind the engine emits (see games/engine/cribbage/game.py) to a
function `(event, names) -> str`; `prompt(view, names)` says what the table asks of a seat. Both
are found by games.texts. In English they give the engine's own text unchanged (existing pages
and tests read it); in another language they build the line from the event's data with gettext.
`game_result_text` and `outcome_reason` give a game's or a match's result the same way; the
site's result banner asks `outcome`. `call_text` and `count_text` say a count aloud ("fifteen 2,
a pair is 4") for every game of the family that counts like cribbage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import Any

from django.utils.translation import get_language, gettext, ngettext, pgettext

from games.engine.core import fill_names
from games.texts import card_text, join_words, points_text, seat_name

Describer = Callable[[Mapping[str, Any], Sequence[str]], str]


# --- the count of a hand, said aloud (cribbage and the games that score like it) -----------


def call_text(call: Mapping[str, Any]) -> str:
    """One phrase of a count, ending with the running total: "fifteen 2", "a pair is 6",
    "two runs of 3 is 14", "flush of 4 is 18", "nobs 19". `call` is one item of the engine's
    `ShowScore.calls()`; a kind this does not know is named as the engine names it."""
    kind, size, many = call.get("kind"), int(call.get("size", 0)), int(call.get("many", 1))
    running = int(call.get("running", 0))
    fields = {"size": size, "many": many, "running": running}
    if kind == "fifteen":
        return gettext("fifteen %(running)d") % fields
    if kind == "nobs":
        return gettext("nobs %(running)d") % fields
    if kind == "pair":
        if many == 1:
            return gettext("a pair is %(running)d") % fields
        if many == 3:
            return gettext("three of a kind is %(running)d") % fields
        if many == 6:
            return gettext("four of a kind is %(running)d") % fields
        if many == 10:
            return gettext("five of a kind is %(running)d") % fields
        return gettext("%(many)d pairs is %(running)d") % fields
    if kind == "run":
        if many == 1:
            return gettext("run of %(size)d is %(running)d") % fields
        return (
            ngettext(
                "%(many)d run of %(size)d is %(running)d",
                "%(many)d runs of %(size)d is %(running)d",
                many,
            )
            % fields
        )
    if kind == "flush":
        return gettext("flush of %(size)d is %(running)d") % fields
    return f"{kind} {running}"


def count_text(calls: Sequence[Mapping[str, Any]]) -> str:
    """A whole count on one line ("fifteen 2, fifteen 4, a pair is 6"), or "nothing"."""
    return ", ".join(call_text(call) for call in calls) or gettext("nothing")


def english_is_active() -> bool:
    """True when the page is in English: the engine's own texts are then used as they are."""
    return (get_language() or "en").split("-")[0] == "en"


def _or_engine_text(*needs: str, cards: bool = False) -> Callable[[Describer], Describer]:
    """A describer that gives the engine's own text in English, and also for an event stored
    before it carried the data named in `needs` (a match in progress keeps its recent events).
    With cards=True it describes the event in English too: the engine's text names cards by
    their codes ("Max cuts AD"), the reader's line by rank and suit ("Max cuts A♦")."""

    def wrap(describe: Describer) -> Describer:
        @wraps(describe)
        def line(event: Mapping[str, Any], names: Sequence[str]) -> str:
            if (english_is_active() and not cards) or any(key not in event for key in needs):
                return fill_names(str(event.get("text", "")), names)
            return describe(event, names)

        return line

    return wrap


# --- small words ----------------------------------------------------------------------------


def seats_text(seats: Sequence[int], names: Sequence[str]) -> str:
    """Several players in words: "Ana", "Ana y Bea", "Ana, Bea y Carlos"."""
    return join_words([seat_name(names, int(s)) for s in seats])


def skunk_text(level: int) -> str:
    """ "skunk" (1) or "double skunk" (2) in the active language; "" for none."""
    if level >= 2:
        return gettext("double skunk")
    if level == 1:
        return gettext("skunk")
    return ""


def dealer_tag() -> str:
    """The seat tag of the dealer beside a name at the table."""
    return pgettext("seat tag", "dealer")


def crib_of(owner: str) -> str:
    return gettext("%(player)s's crib") % {"player": owner}


def hand_of(owner: str) -> str:
    return gettext("%(player)s's hand") % {"player": owner}


def peg_reason_text(reason: Mapping[str, Any]) -> str:
    """One reason a card pegged: "fifteen", "a pair", "three of a kind", "a run of 4"."""
    kind, size = reason.get("kind"), int(reason.get("size") or 0)
    if kind == "fifteen":
        return gettext("fifteen")
    if kind == "thirty_one":
        return gettext("thirty-one")
    if kind == "pair":
        if size == 3:
            return gettext("three of a kind")
        if size == 4:
            return gettext("four of a kind")
        return gettext("a pair")
    if kind == "run":
        return gettext("a run of %(size)d") % {"size": size}
    return str(kind)


# --- callouts: the table says the points as they are made -------------------------------------

PAIR_CARDS = {1: 2, 3: 3, 6: 4, 10: 5}  # pairs called together -> cards of one rank


def scored_text(kind: str, points: int, *, size: int = 0, many: int = 1) -> str:
    """One scoring combination and its points, as the table calls it out: "fifteen for 2",
    "a pair for 2", "a double run of 3 for 8", "a flush of 4 for 4", "his nobs for 1",
    "31 for 2". A pair's `size` is the cards of one rank (3: three of a kind); a run's `many`
    is how many runs were made together (2: a double run, its pair included in `points`)."""
    fields = {"points": points, "size": size, "many": many}
    if kind == "fifteen":
        if many > 1:
            return gettext("%(many)d fifteens for %(points)d") % fields
        return gettext("fifteen for %(points)d") % fields
    if kind == "thirty_one":
        return gettext("31 for %(points)d") % fields
    if kind == "pair":
        if size == 3:
            return gettext("three of a kind for %(points)d") % fields
        if size == 4:
            return gettext("four of a kind for %(points)d") % fields
        return gettext("a pair for %(points)d") % fields
    if kind == "run":
        if many == 2:
            return gettext("a double run of %(size)d for %(points)d") % fields
        if many == 3:
            return gettext("a triple run of %(size)d for %(points)d") % fields
        if many == 4:
            return gettext("a double double run of %(size)d for %(points)d") % fields
        return gettext("a run of %(size)d for %(points)d") % fields
    if kind == "flush":
        return gettext("a flush of %(size)d for %(points)d") % fields
    if kind == "nobs":
        return gettext("his nobs for %(points)d") % fields
    if kind == "heels":
        return gettext("his heels for %(points)d") % fields
    if kind == "go":
        return gettext("go for %(points)d") % fields
    if kind == "last_card":
        return gettext("last card for %(points)d") % fields
    return points_text(points)


def show_callouts(calls: Sequence[Mapping[str, Any]]) -> list[str]:
    """A counted hand as the table calls it out, one phrase a combination: the fifteens
    together ("3 fifteens for 6"), a run made several times with the pairs inside it ("a double
    run of 3 for 8"); ["nothing"] for a hand that scores nothing. `calls` is ShowScore.calls()."""
    fifteens = [c for c in calls if c.get("kind") == "fifteen"]
    runs = [c for c in calls if c.get("kind") == "run"]
    pairs = [c for c in calls if c.get("kind") == "pair"]
    merged = any(int(c.get("many", 1)) > 1 for c in runs)  # the pairs are inside the run
    said = []
    if fifteens:
        total = sum(int(c.get("points", 2)) for c in fifteens)
        said.append(scored_text("fifteen", total, many=len(fifteens)))
    for call in calls:
        kind, points = str(call.get("kind")), int(call.get("points", 0))
        size, many = int(call.get("size", 0)), int(call.get("many", 1))
        if kind == "fifteen" or (kind == "pair" and merged):
            continue
        if kind == "pair":
            said.append(scored_text("pair", points, size=PAIR_CARDS.get(many, 2)))
        elif kind == "run" and merged:
            points += sum(int(c.get("points", 0)) for c in pairs)
            said.append(scored_text("run", points, size=size, many=many))
        else:
            said.append(scored_text(kind, points, size=size, many=many))
    return said or [gettext("nothing")]


def callout(event: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """The site's hook (games.texts.callouts): what the table calls out for one scoring event
    of the play: "fifteen for 2", "a pair for 2, 31 for 2", "go for 1", "last card for 1"."""
    kind, points = event.get("kind"), int(event.get("points") or 0)
    if kind == "peg":
        reasons = event.get("reasons") or []
        if not reasons:  # an event stored before it carried its reasons
            return points_text(points)
        return ", ".join(
            scored_text(str(r.get("kind")), int(r.get("points", 0)), size=int(r.get("size") or 0))
            for r in reasons
        )
    if kind == "go_point":
        return scored_text("go", points)
    if kind in ("last_card", "heels"):
        return scored_text(str(kind), points)
    return None


MOVES = ("play", "go")  # the events that start a move of the play: a callout says what it made


# --- results ----------------------------------------------------------------------------------


def game_result_text(result: Mapping[str, Any], names: Sequence[str]) -> str:
    """ "Ana wins 121 to 87 (skunk)", "Ana and Carlos win 121 to 95", or with three sides
    "Bea wins 121 to 100 (Ana) and 80 (Carlos, skunk)": a GameResult's JSON in words."""
    winners = list(result.get("winners", []))
    sides = list(result.get("sides", []))
    winner = next((s for s in sides if list(s.get("seats", [])) == winners), None)
    losers = [s for s in sides if list(s.get("seats", [])) != winners]
    fields = {
        "winners": seats_text(winners, names),
        "score": int(winner.get("score", 0)) if winner else 0,
    }
    if len(losers) == 1:
        fields["other"] = int(losers[0].get("score", 0))
        text = (
            ngettext(
                "%(winners)s wins %(score)d to %(other)d",
                "%(winners)s win %(score)d to %(other)d",
                len(winners),
            )
            % fields
        )
        skunk = skunk_text(int(losers[0].get("skunk", 0)))
        return f"{text} ({skunk})" if skunk else text
    parts = []
    for side in losers:
        note = ", ".join(
            part
            for part in (
                seats_text(side.get("seats", []), names),
                skunk_text(int(side.get("skunk", 0))),
            )
            if part
        )
        parts.append(f"{int(side.get('score', 0))} ({note})")
    fields["others"] = join_words(parts)
    return (
        ngettext(
            "%(winners)s wins %(score)d to %(others)s",
            "%(winners)s win %(score)d to %(others)s",
            len(winners),
        )
        % fields
    )


def match_result_text(winners: Sequence[int], won: int, others: Sequence[int], names) -> str:
    """ "Ana wins the match, 2 games to 1" (three sides: "2 games to 1 and 0")."""
    fields = {
        "winners": seats_text(winners, names),
        "won": won,
        "others": join_words([str(n) for n in others]),
    }
    if len(winners) == 1:
        return (
            ngettext(
                "%(winners)s wins the match, %(won)d game to %(others)s",
                "%(winners)s wins the match, %(won)d games to %(others)s",
                won,
            )
            % fields
        )
    return (
        ngettext(
            "%(winners)s win the match, %(won)d game to %(others)s",
            "%(winners)s win the match, %(won)d games to %(others)s",
            won,
        )
        % fields
    )


def outcome_reason(outcome: Mapping[str, Any], names: Sequence[str]) -> str:
    """The reason of a finished match (the engine's Outcome JSON) in the active language."""
    games = list(outcome.get("games", []))
    if english_is_active() or not games:
        return fill_names(str(outcome.get("reason", "")), names)
    if len(games) == 1:
        return game_result_text(games[-1], names)
    winners = list(outcome.get("winners", []))
    sides = [list(side.get("seats", [])) for side in games[-1].get("sides", [])]
    won = [sum(1 for g in games if list(g.get("winners", [])) == seats) for seats in sides]
    win = sides.index(winners) if winners in sides else 0
    return match_result_text(winners, won[win], [n for i, n in enumerate(won) if i != win], names)


def outcome(
    result: Mapping[str, Any], names: Sequence[str], view: Mapping[str, Any] | None = None
) -> str:
    """The site's hook for the result banner (see games/texts.py `outcome_text`)."""
    return outcome_reason(result, names)


# --- the log ----------------------------------------------------------------------------------


def _player(event: Mapping[str, Any], names: Sequence[str]) -> str:
    return seat_name(names, event.get("seat"))


@_or_engine_text("card", cards=True)
def _cut(event, names):
    return gettext("%(player)s cuts %(card)s") % {
        "player": _player(event, names),
        "card": card_text(event.get("card")),
    }


@_or_engine_text("seats")
def _cut_tie(event, names):
    return gettext("%(players)s tie for lowest and cut again") % {
        "players": seats_text(event.get("seats", []), names)
    }


@_or_engine_text()
def _dealer(event, names):
    return gettext("%(player)s cuts lowest and deals") % {"player": _player(event, names)}


@_or_engine_text("game", "hand")
def _deal(event, names):
    fields = {
        "game": int(event.get("game", 1)),
        "hand": int(event.get("hand", 1)),
        "player": _player(event, names),
    }
    if event.get("from_deck"):
        return (
            gettext(
                "game %(game)d, hand %(hand)d: %(player)s deals, and one card goes from the deck "
                "to the crib"
            )
            % fields
        )
    return gettext("game %(game)d, hand %(hand)d: %(player)s deals") % fields


@_or_engine_text("count")
def _discard(event, names):
    count = int(event.get("count", 1))
    return ngettext(
        "%(player)s lays %(count)d card in the crib",
        "%(player)s lays %(count)d cards in the crib",
        count,
    ) % {"player": _player(event, names), "count": count}


@_or_engine_text("card", cards=True)
def _starter(event, names):
    return gettext("the starter is %(card)s") % {"card": card_text(event.get("card"))}


@_or_engine_text()
def _heels(event, names):
    return gettext("his heels: 2 to the dealer %(player)s") % {"player": _player(event, names)}


@_or_engine_text("card", "count", cards=True)
def _play(event, names):
    return gettext("%(player)s plays %(card)s (%(count)d)") % {
        "player": _player(event, names),
        "card": card_text(event.get("card")),
        "count": int(event.get("count", 0)),
    }


@_or_engine_text()
def _peg(event, names):
    points = int(event.get("points", 0))
    reasons = join_words([peg_reason_text(r) for r in event.get("reasons", [])])
    if not reasons:
        return gettext("%(player)s pegs %(points)d") % {
            "player": _player(event, names),
            "points": points,
        }
    return gettext("%(player)s pegs %(points)d for %(reasons)s") % {
        "player": _player(event, names),
        "points": points,
        "reasons": reasons,
    }


@_or_engine_text()
def _go(event, names):
    return gettext("%(player)s says go") % {"player": _player(event, names)}


@_or_engine_text()
def _go_point(event, names):
    return gettext("%(player)s: go for 1") % {"player": _player(event, names)}


@_or_engine_text()
def _last_card(event, names):
    return gettext("%(player)s: last card for 1") % {"player": _player(event, names)}


@_or_engine_text()
def _show(event, names):
    owner = _player(event, names)
    points = int(event.get("total", event.get("points", 0)) or 0)
    whose = crib_of(owner) if event.get("crib") else hand_of(owner)
    fields = {"whose": whose, "points": points, "count": count_text(event.get("calls", []))}
    if points and not event.get("calls"):
        text = gettext("%(whose)s: %(points)d") % fields
    elif points:
        text = gettext("%(whose)s: %(points)d (%(count)s)") % fields
    else:
        text = gettext("%(whose)s: 0, nothing to count") % fields
    missed = int(event.get("missed", 0) or 0)
    if missed:
        text += ngettext(
            "; %(missed)d point went unclaimed", "; %(missed)d points went unclaimed", missed
        ) % {"missed": missed}
    return text


@_or_engine_text()
def _count(event, names):
    fields = {"player": _player(event, names), "points": int(event.get("points", 0))}
    if event.get("crib"):
        return gettext("%(player)s counts %(points)d for the crib") % fields
    return gettext("%(player)s counts %(points)d for the hand") % fields


@_or_engine_text("owner")
def _muggins(event, names):
    points = int(event.get("points", 0))
    return ngettext(
        "%(player)s claims %(points)d missed point from %(owner)s (muggins)",
        "%(player)s claims %(points)d missed points from %(owner)s (muggins)",
        points,
    ) % {
        "player": _player(event, names),
        "points": points,
        "owner": seat_name(names, event.get("owner")),
    }


@_or_engine_text("result")
def _game_over(event, names):
    text = game_result_text(event.get("result", {}), names)
    if int(event.get("games", 1)) > 1:
        return gettext("game %(number)d: %(result)s") % {
            "number": int(event.get("game", 1)),
            "result": text,
        }
    return text


@_or_engine_text("winners", "games_won")
def _match_over(event, names):
    won = list(event.get("games_won", []))
    side = int(event.get("side", 0))
    others = [n for i, n in enumerate(won) if i != side]
    return match_result_text(event.get("winners", []), won[side] if won else 0, others, names)


EVENTS: dict[str, Describer] = {
    "cut": _cut,
    "cut_tie": _cut_tie,
    "dealer": _dealer,
    "deal": _deal,
    "discard": _discard,
    "starter": _starter,
    "heels": _heels,
    "play": _play,
    "peg": _peg,
    "go": _go,
    "go_point": _go_point,
    "last_card": _last_card,
    "show": _show,
    "count": _count,
    "muggins": _muggins,
    "game_over": _game_over,
    "match_over": _match_over,
}


# --- the prompt -------------------------------------------------------------------------------


def prompt(view: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """What the table asks of the view's seat, or whom it waits for; None in English (the
    engine's own prompt is used)."""
    if english_is_active():
        return None
    seat = view.get("seat")
    to_move = list(view.get("to_move", []))
    acting = seat is not None and seat in to_move
    waiting = {"players": seats_text(to_move, names)}
    many = len(to_move)
    phase = view.get("phase")
    if phase == "discard":
        need = 2 if view.get("players") == 2 else 1
        if not acting:
            return (
                ngettext(
                    "Waiting for %(players)s to choose cards for the crib",
                    "Waiting for %(players)s to choose cards for the crib",
                    many,
                )
                % waiting
            )
        if seat == view.get("dealer"):
            return ngettext(
                "Choose %(count)d card for your own crib",
                "Choose %(count)d cards for your own crib",
                need,
            ) % {"count": need}
        return ngettext(
            "Choose %(count)d card for the crib of %(dealer)s",
            "Choose %(count)d cards for the crib of %(dealer)s",
            need,
        ) % {"count": need, "dealer": seat_name(names, view.get("dealer"))}
    if phase == "play":
        count = {"count": int(view.get("count", 0))}
        if not acting:
            return gettext("Waiting for %(players)s to play") % waiting
        if view.get("legal_moves") == [{"type": "go"}]:
            return (
                gettext("No card of yours fits under 31 (the count is %(count)d): say go") % count
            )
        if not view.get("current"):
            return gettext("Your lead: play any card")
        return gettext("Your turn to play (the count is %(count)d)") % count
    if phase == "show":
        counting = view.get("counting") or {}
        crib = bool(counting.get("crib"))
        if counting.get("declared") is None:
            if acting:
                return gettext("Count your crib") if crib else gettext("Count your hand")
            if crib:
                return gettext("Waiting for %(players)s to count the crib") % waiting
            return gettext("Waiting for %(players)s to count the hand") % waiting
        counted = gettext("%(player)s counted %(points)d") % {
            "player": seat_name(names, counting.get("owner")),
            "points": int(counting.get("declared") or 0),
        }
        if acting:
            return gettext("%(counted)s: claim any points missed (muggins), or continue") % {
                "counted": counted
            }
        return ngettext(
            "%(counted)s. Waiting for %(players)s to claim missed points or let them go",
            "%(counted)s. Waiting for %(players)s to claim missed points or let them go",
            many,
        ) % {"counted": counted, **waiting}
    if phase == "counted":
        if acting:
            return gettext("The hand is over: continue when you are ready for the next deal")
        return gettext("Waiting for %(players)s to be ready for the next deal") % waiting
    if phase == "game_over":
        results = view.get("results") or []
        done = game_result_text(results[-1], names) if results else ""
        if acting:
            return gettext("%(result)s. Continue when you are ready for the next game") % {
                "result": done
            }
        return gettext("%(result)s. Waiting for %(players)s to be ready for the next game") % {
            "result": done,
            **waiting,
        }
    outcome = view.get("outcome")
    if not outcome:
        return ""
    return gettext("The match is over: %(reason)s") % {"reason": outcome_reason(outcome, names)}
