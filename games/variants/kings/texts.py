"""Kings Cribbage's lines in the reader's language: the log's events and the table's prompt.

Each describer takes an event of the engine (games/engine/kings/game.py: its kind and params)
and the players' names, and says it with gettext. Tiles are named by the rank printed on them
(10 for T); their colour is a word of its own (`colour_word`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from games.texts import join_words, points_text, seat_name

Names = Sequence[str]


def tile_rank(face: str) -> str:
    """The rank printed on a tile: "10" for T, else the letter or digit ("7L" -> "7")."""
    rank = str(face)[:1]
    return "10" if rank == "T" else rank


def colour_word(face: str) -> str:
    """ "light" or "dark" in the reader's language, from a face ("7L") or a suit ("D")."""
    suit = str(face)[-1:]
    if suit == "L":
        return gettext("light")
    if suit == "D":
        return gettext("dark")
    return ""


def tile_words(face: str) -> str:
    """A tile by its colour and rank: "light 7" ("7 clara")."""
    return gettext("%(colour)s %(rank)s") % {"colour": colour_word(face), "rank": tile_rank(face)}


def hand_name(faces: Sequence[str]) -> str:
    """A line of tiles by their ranks: "9-10-J-J-5"."""
    return "-".join(tile_rank(face) for face in faces)


def hand_text(hand: Mapping[str, Any]) -> str:
    """One hand of a lay with what it scores: "hand 9-10-J-J-5: 14 (fifteens 6, ...)"."""
    parts = []
    if hand.get("fifteens"):
        parts.append(gettext("fifteens %(points)d") % {"points": hand["fifteens"]})
    if hand.get("pairs"):
        parts.append(gettext("pairs %(points)d") % {"points": hand["pairs"]})
    if hand.get("runs"):
        parts.append(gettext("runs %(points)d") % {"points": hand["runs"]})
    fields = {"tiles": hand_name(hand.get("tiles", [])), "points": hand.get("points", 0)}
    text = gettext("hand %(tiles)s: %(points)d") % fields
    return f"{text} ({', '.join(parts)})" if parts else text


def bonus_text(bonus: Mapping[str, Any]) -> str:
    """ "+ 10 bonus (all five tiles)"."""
    why = {
        "first": gettext("first lay"),
        "five_tiles": gettext("all five tiles"),
        "flush": gettext("five of one colour"),
    }.get(str(bonus.get("kind")), str(bonus.get("kind")))
    return gettext("+ %(points)d bonus (%(why)s)") % {"points": bonus.get("points", 0), "why": why}


def lay_breakdown(hands: Sequence[Mapping[str, Any]], bonus: Sequence[Mapping[str, Any]]) -> str:
    """Every hand of a lay and its bonuses on one line."""
    return ", ".join([*(hand_text(h) for h in hands), *(bonus_text(b) for b in bonus)])


# --- the log ------------------------------------------------------------------------------


def _draw(event: Mapping[str, Any], names: Names) -> str:
    fields = {"name": seat_name(names, event.get("seat")), "rank": tile_rank(event["rank"])}
    if event.get("suit") == "L":
        return gettext("%(name)s draws a light %(rank)s") % fields
    return gettext("%(name)s draws a dark %(rank)s") % fields


def _draw_tie(event: Mapping[str, Any], names: Names) -> str:
    tied = join_words([seat_name(names, s) for s in event.get("seats", [])])
    return gettext("%(names)s tie and draw again") % {"names": tied}


def _start(event: Mapping[str, Any], names: Names) -> str:
    return gettext("%(name)s draws lowest and starts") % {
        "name": seat_name(names, event.get("seat"))
    }


def _deal(event: Mapping[str, Any], names: Names) -> str:
    count = int(event.get("tiles", 5))
    return ngettext(
        "Each player draws %(count)d tile for their rack",
        "Each player draws %(count)d tiles for their rack",
        count,
    ) % {"count": count}


def _lay(event: Mapping[str, Any], names: Names) -> str:
    faces = event.get("faces") or [str(t).split("=")[-1] for t in event.get("tiles", [])]
    fields = {
        "name": seat_name(names, event.get("seat")),
        "tiles": " ".join(tile_rank(face) for face in faces),
        "points": points_text(int(event.get("points") or 0)),
    }
    if "declared" in event:
        fields["points"] = event["declared"]
        return gettext("%(name)s lays %(tiles)s and declares %(points)s") % fields
    fields["breakdown"] = lay_breakdown(event.get("hands", []), event.get("bonus", []))
    return gettext("%(name)s lays %(tiles)s for %(points)s: %(breakdown)s") % fields


def _exchange(event: Mapping[str, Any], names: Names) -> str:
    count = int(event.get("count", 0))
    return ngettext(
        "%(name)s exchanges %(count)d tile", "%(name)s exchanges %(count)d tiles", count
    ) % {"name": seat_name(names, event.get("seat")), "count": count}


def _pass(event: Mapping[str, Any], names: Names) -> str:
    return gettext("%(name)s passes") % {"name": seat_name(names, event.get("seat"))}


def _joker(event: Mapping[str, Any], names: Names) -> str:
    fields = {
        "name": seat_name(names, event.get("seat")),
        "scorer": seat_name(names, event.get("scorer")),
        "points": points_text(abs(int(event.get("points") or 0))),
    }
    if event.get("right"):
        return gettext("%(name)s calls Joker and takes the %(points)s %(scorer)s missed") % fields
    fields["points"] = points_text(int(event.get("penalty", -int(event.get("points") or 0))))
    return gettext("%(name)s calls Joker, but %(scorer)s missed nothing: %(points)s off") % fields


def _game_over(event: Mapping[str, Any], names: Names) -> str:
    why = (
        gettext("a rack is empty")
        if event.get("reason") == "out"
        else gettext("every player passed in turn")
    )
    lost = ", ".join(
        f"{seat_name(names, seat)} −{points}"
        for seat, points in enumerate(event.get("penalties", []))
    )
    return gettext(
        "The game is over (%(why)s): the tiles left on each rack count against its player: %(lost)s"
    ) % {"why": why, "lost": lost}


# --- callouts (games.texts.callouts): what the table says as a lay scores -----------------


def callout(event: Mapping[str, Any], names: Names) -> str | None:
    """A lay's hands and bonuses ("hand 5-5-5: 6 (pairs 6)"), or a Joker called rightly."""
    if event.get("kind") == "lay" and "declared" not in event:
        return lay_breakdown(event.get("hands", []), event.get("bonus", [])) or None
    if event.get("kind") == "joker" and event.get("right"):
        return gettext("Joker for %(points)s") % {"points": points_text(int(event["points"]))}
    return None


MOVES = ("lay", "exchange", "pass", "joker")  # the events that start a move


EVENTS: dict[str, Callable[[Mapping[str, Any], Names], str]] = {
    "draw": _draw,
    "draw_tie": _draw_tie,
    "start": _start,
    "deal": _deal,
    "lay": _lay,
    "exchange": _exchange,
    "pass": _pass,
    "joker": _joker,
    "game_over": _game_over,
}


# --- the prompt ---------------------------------------------------------------------------


def prompt(view: Mapping[str, Any], names: Names) -> str | None:
    """What the table asks of the view's seat now, or whom it waits for."""
    seat, turn = view.get("seat"), view.get("turn")
    if view.get("phase") == "over" or turn is None:
        return gettext("The game is over")
    if seat is not None and seat in view.get("to_move", []) and seat != turn:
        return gettext("Call Joker if the last lay was under-counted, or let the count stand")
    if view.get("closing"):
        waiting = join_words([seat_name(names, s) for s in view.get("to_move", [])])
        return gettext(
            "A rack is empty: the game ends once the Joker call is settled (waiting for %(names)s)"
        ) % {"names": waiting}
    if seat == turn:
        if view.get("first_lay"):
            if view.get("options", {}).get("centre_start"):
                return gettext(
                    "Your turn: lay the first hand, two tiles or more, over the centre square"
                )
            return gettext("Your turn: lay the first hand, two tiles or more")
        if view.get("bag"):
            return gettext("Your turn: lay tiles next to those on the board, exchange or pass")
        return gettext("Your turn: lay tiles next to those on the board or pass")
    return gettext("Waiting for %(name)s to play") % {"name": seat_name(names, turn)}


# --- the result ---------------------------------------------------------------------------


def outcome(result: Mapping[str, Any], names: Names, view: Mapping[str, Any] | None = None) -> str:
    """The engine's Outcome (as JSON) said in the reader's language: "Ana wins 6 to -13",
    "Ana and Carla share the win on -3". For the shared outcome text, when it asks the game."""
    winners = list(result.get("winners", []))
    scores = {side["seats"][0]: side["score"] for side in result.get("sides", [])}
    best = scores.get(winners[0], 0) if winners else 0
    if len(winners) > 1:
        return gettext("%(names)s share the win on %(score)d") % {
            "names": join_words([seat_name(names, s) for s in winners]),
            "score": best,
        }
    others = sorted((s for seat, s in scores.items() if seat not in winners), reverse=True)
    return gettext("%(name)s wins %(score)d to %(others)s") % {
        "name": seat_name(names, winners[0] if winners else None),
        "score": best,
        "others": join_words([str(s) for s in others]),
    }
