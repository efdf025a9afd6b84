"""Table Top Cribbage (and CrossCrib) in the reader's language: the log, the prompt, the end.

`EVENTS` describes every event kind the engine emits (games/engine/tabletop/game.py) from its
kind and parameters; `prompt(view, names)` says what the table asks of the seat; `outcome_text`
says how the match ended. An event stored before its parameters existed keeps the engine's
English line. The words for the layout (rows, columns, squares) are here too, for the table's
templates (templatetags/tabletop_table.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from games.engine.core import fill_names
from games.texts import Describer, card_text, join_words, seat_name
from games.variants.cribbage.texts import count_text

Event = Mapping[str, Any]
Names = Sequence[str]


# --- words for the layout and the cards -------------------------------------------------------


def square_name(row: int, col: int) -> str:
    """A square of the layout, counted from 1: "row 2, column 3"."""
    return gettext("row %(row)d, column %(col)d") % {"row": row + 1, "col": col + 1}


def line_name(kind: str, number: int) -> str:
    """A line of the layout, counted from 1: "Row 2", "Column 5"."""
    if kind == "row":
        return gettext("Row %(number)d") % {"number": number + 1}
    return gettext("Column %(number)d") % {"number": number + 1}


def lines_word(lines: str) -> str:
    """The lines a side scores, "columns" or "rows", in the reader's language."""
    if lines == "rows":
        return pgettext("the lines of the layout", "rows")
    if lines == "columns":
        return pgettext("the lines of the layout", "columns")
    return lines


def names_of(names: Names, seats: Sequence[int]) -> str:
    """The names of some seats in words: "Bea", "Bea and Carl"."""
    return join_words([seat_name(names, seat) for seat in seats])


# --- the log ----------------------------------------------------------------------------------


def _english(event: Event, names: Names) -> str:
    return fill_names(str(event.get("text", "")), names)


def _who(event: Event, names: Names) -> str:
    return seat_name(names, event.get("seat"))


def _dealer(event: Event, names: Names) -> str:
    return gettext("%(name)s is drawn to deal first") % {"name": _who(event, names)}


def _deal(event: Event, names: Names) -> str:
    if "deal" not in event or "card" not in event:
        return _english(event, names)
    return gettext("Deal %(deal)d: %(name)s deals; the centre card is %(card)s") % {
        "deal": event["deal"],
        "name": _who(event, names),
        "card": card_text(event["card"]),
    }


def _place(event: Event, names: Names) -> str:
    if not {"card", "row", "col"} <= set(event):
        return _english(event, names)
    return gettext("%(name)s places %(card)s at %(square)s") % {
        "name": _who(event, names),
        "card": card_text(event["card"]),
        "square": square_name(int(event["row"]), int(event["col"])),
    }


def _crib(event: Event, names: Names) -> str:
    if "cribbed" not in event or "of" not in event:
        return _english(event, names)
    return gettext("%(name)s puts a card face down in the crib (%(done)d of %(of)d)") % {
        "name": _who(event, names),
        "done": event["cribbed"],
        "of": event["of"],
    }


def _lines(event: Event, names: Names) -> str:
    seats = event.get("seats")
    if not isinstance(seats, list) or "points" not in event:
        return _english(event, names)
    fields = {"names": names_of(names, seats), "points": event["points"]}
    if event.get("lines") == "rows":
        if len(seats) == 1:
            return gettext("%(names)s scores %(points)d in the rows") % fields
        return gettext("%(names)s score %(points)d in the rows") % fields
    if len(seats) == 1:
        return gettext("%(names)s scores %(points)d in the columns") % fields
    return gettext("%(names)s score %(points)d in the columns") % fields


def _crib_count(event: Event, names: Names) -> str:
    calls = event.get("calls")
    if not isinstance(calls, list) or "points" not in event:
        return _english(event, names)
    return gettext("Crib of %(name)s: %(points)d (%(count)s)") % {
        "name": _who(event, names),
        "points": event["points"],
        "count": count_text(calls),
    }


def _deal_over(event: Event, names: Names) -> str:
    scores = event.get("scores")
    if "deal" not in event or not isinstance(scores, list):
        return _english(event, names)
    return gettext("After deal %(deal)d: %(scores)s") % {
        "deal": event["deal"],
        "scores": scores_text(scores),
    }


def _game_over(event: Event, names: Names) -> str:
    if not {"winners", "score", "loser_score"} <= set(event):
        return _english(event, names)
    return result_text(
        names,
        winners=event["winners"],
        score=int(event["score"]),
        loser_score=int(event["loser_score"]),
        unit=str(event.get("unit", "points")),
        skunk=int(event.get("skunk", 0)),
    )


# --- callouts (games.texts.callouts): what the table says as a deal is counted -------------


def callout(event: Event, names: Names) -> str | None:
    """A side's line points at the count of a deal ("24 in the rows"), or the crib's."""
    fields = {"points": int(event.get("points") or 0)}
    if event.get("kind") == "lines":
        if event.get("lines") == "rows":
            return gettext("%(points)d in the rows") % fields
        return gettext("%(points)d in the columns") % fields
    if event.get("kind") == "crib_count":
        return gettext("the crib for %(points)d") % fields
    return None


MOVES = ("place", "crib")  # the events that start a move


EVENTS: dict[str, Describer] = {
    "dealer": _dealer,
    "deal": _deal,
    "place": _place,
    "crib": _crib,
    "lines": _lines,
    "crib_count": _crib_count,
    "deal_over": _deal_over,
    "game_over": _game_over,
}


def scores_text(scores: Sequence[int]) -> str:
    """The sides' scores, "40 to 32"."""
    text = str(scores[0]) if scores else ""
    for score in scores[1:]:
        text = gettext("%(first)s to %(second)s") % {"first": text, "second": score}
    return text


def result_text(
    names: Names, *, winners: Sequence[int], score: int, loser_score: int, unit: str, skunk: int
) -> str:
    """How a match ended: "Bea wins 121 to 87 (skunk)", "Bea wins 31 to 20 game points"."""
    fields = {"names": names_of(names, winners), "score": score, "other": loser_score}
    one = len(winners) == 1
    if unit == "game_points":
        text = (
            gettext("%(names)s wins %(score)d to %(other)d game points")
            if one
            else gettext("%(names)s win %(score)d to %(other)d game points")
        ) % fields
    else:
        text = (
            gettext("%(names)s wins %(score)d to %(other)d")
            if one
            else gettext("%(names)s win %(score)d to %(other)d")
        ) % fields
    if skunk == 1:
        return gettext("%(result)s (skunk)") % {"result": text}
    if skunk >= 2:
        return gettext("%(result)s (double skunk)") % {"result": text}
    return text


def outcome_text(outcome: Mapping[str, Any] | None, names: Names) -> str | None:
    """The result of a finished match (the engine's Outcome as JSON) in the reader's language,
    or None when it cannot be said from the data."""
    if not outcome or not outcome.get("winners"):
        return None
    winners = list(outcome["winners"])
    sides = outcome.get("sides") or []
    winner = next((s for s in sides if list(s.get("seats", [])) == winners), None)
    loser = next((s for s in sides if list(s.get("seats", [])) != winners), None)
    if winner is None or loser is None:
        return None
    terms = winner.get("terms") or {}
    return result_text(
        names,
        winners=winners,
        score=int(winner["score"]),
        loser_score=int(loser["score"]),
        unit="game_points" if "game_points" in terms else "points",
        skunk=int(loser.get("skunk", 0)),
    )


def outcome(
    result: Mapping[str, Any], names: Names, view: Mapping[str, Any] | None = None
) -> str | None:
    """The site's hook for the result banner (see games/texts.py `outcome_text`)."""
    return outcome_text(result, names)


# --- the prompt -------------------------------------------------------------------------------


def prompt(view: Mapping[str, Any], names: Names) -> str | None:
    """What the table asks of the view's seat now, or whom it is waiting for (None: the
    engine's English prompt)."""
    phase, seat, turn = view.get("phase"), view.get("seat"), view.get("turn")
    to_move = list(view.get("to_move", []))
    if phase == "place":
        if seat != turn:
            if seat is not None and seat in to_move:
                return gettext(
                    "Suggest a square to %(name)s, your partner (only your side sees it)"
                ) % {"name": seat_name(names, turn)}
            return gettext("Waiting for %(name)s to play") % {"name": seat_name(names, turn)}
        owed = int((view.get("crib") or {}).get("owed", [0] * (seat + 1))[seat])
        if view.get("legal_moves") == [{"type": "crib"}]:
            return ngettext(
                "This card must go to the crib: you owe %(owed)d and have %(owed)d turn left",
                "This card must go to the crib: you owe %(owed)d and have %(owed)d turns left",
                owed,
            ) % {"owed": owed}
        if owed:
            return ngettext(
                "Place your card on a highlighted square, or put it in the crib (%(owed)d more "
                "to go)",
                "Place your card on a highlighted square, or put it in the crib (%(owed)d more "
                "to go)",
                owed,
            ) % {"owed": owed}
        return gettext("Place your card on a highlighted square")
    if phase == "counted":
        if seat is not None and seat in to_move:
            return gettext("The deal is counted: continue when you are ready for the next deal")
        return gettext("Waiting for %(names)s to be ready for the next deal") % {
            "names": names_of(names, sorted(to_move))
        }
    if phase == "over":
        result = outcome_text(view.get("outcome"), names)
        if result is None:
            return None
        return gettext("The match is over: %(result)s") % {"result": result}
    return None
