"""Cribist's lines in the reader's language: the log's events, a trick's count and the prompt.

Each describer takes an event of the engine (games/engine/cribist: its kind and params) and
the players' names, and says it with gettext. Cards are written as their rank and suit symbol
(10♥), which every language reads alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from games.engine.scoring.trick import TRUMP_JACK_KIND
from games.texts import card_text, join_words, points_text, seat_name
from games.variants.cribbage.texts import call_text

Names = Sequence[str]


def cards_text(codes: Sequence[str]) -> str:
    return " ".join(card_text(code) for code in codes)


# The suits' and the combinations' names, looked up in the catalogue only when said.
SUIT_NAMES = {
    "C": gettext_noop("clubs"),
    "D": gettext_noop("diamonds"),
    "H": gettext_noop("hearts"),
    "S": gettext_noop("spades"),
}
KIND_NAMES = {
    "fifteen": gettext_noop("fifteen"),
    "pair": gettext_noop("pair"),
    "run": gettext_noop("run"),
    "flush": gettext_noop("flush"),
    TRUMP_JACK_KIND: gettext_noop("jack of trumps"),
}


def suit_name(suit: str | None) -> str:
    """The suit's name in the reader's language ("hearts")."""
    name = SUIT_NAMES.get(str(suit))
    return gettext(name) if name else ""


def kind_name(kind: str) -> str:
    """A kind of combination a muggins call can name, in the reader's language."""
    name = KIND_NAMES.get(kind)
    return gettext(name) if name else kind


def trick_count(calls: Sequence[Mapping[str, Any]] | None) -> str:
    """A trick's count said aloud ("fifteen 2, a pair is 4, jack of trumps 5"), or "nothing"."""
    words = []
    for call in calls or []:
        if call.get("kind") == TRUMP_JACK_KIND:
            words.append(gettext("jack of trumps %(running)d") % {"running": call["running"]})
        else:
            words.append(call_text(call))
    return ", ".join(words) or gettext("nothing")


def named_items(items: Sequence[Mapping[str, Any]]) -> str:
    """The combinations a muggins call names: "fifteen 7♣ 8♣; pair 5♥ 5♠"."""
    return "; ".join(
        f"{kind_name(str(item.get('kind')))} {cards_text(item.get('cards', []))}" for item in items
    )


# --- the log ------------------------------------------------------------------------------


def _name(event: Mapping[str, Any], names: Names) -> str:
    return seat_name(names, event.get("seat"))


def _dealer(event: Mapping[str, Any], names: Names) -> str:
    return gettext("%(name)s is drawn to deal first") % {"name": _name(event, names)}


def _deal(event: Mapping[str, Any], names: Names) -> str:
    return gettext("Hand %(hand)d: %(dealer)s deals; %(leader)s leads and names trumps") % {
        "hand": event.get("hand", 1),
        "dealer": _name(event, names),
        "leader": seat_name(names, event.get("leader")),
    }


def _lead(event: Mapping[str, Any], names: Names) -> str:
    fields = {"name": _name(event, names), "card": card_text(event["card"])}
    template = {
        "C": gettext("%(name)s leads %(card)s: clubs are trumps this hand"),
        "D": gettext("%(name)s leads %(card)s: diamonds are trumps this hand"),
        "H": gettext("%(name)s leads %(card)s: hearts are trumps this hand"),
        "S": gettext("%(name)s leads %(card)s: spades are trumps this hand"),
    }[event["trump"]]
    return template % fields


def _play(event: Mapping[str, Any], names: Names) -> str:
    return gettext("%(name)s plays %(card)s") % {
        "name": _name(event, names),
        "card": card_text(event["card"]),
    }


def _trick(event: Mapping[str, Any], names: Names) -> str:
    fields = {
        "name": seat_name(names, event.get("winner", event.get("seat"))),
        "number": event.get("trick", 0),
        "card": card_text(event.get("card", "")),
    }
    if "points" not in event:  # muggins: the winner counts it
        return gettext("%(name)s takes trick %(number)d with %(card)s, and counts it") % fields
    points = int(event["points"])
    if not points:
        return gettext("%(name)s takes trick %(number)d with %(card)s: nothing to count") % fields
    fields.update(points=points_text(points), count=trick_count(event.get("calls")))
    return gettext("%(name)s takes trick %(number)d with %(card)s for %(points)s: %(count)s") % (
        fields
    )


def _declare(event: Mapping[str, Any], names: Names) -> str:
    return gettext("%(name)s declares %(points)d for trick %(number)d") % {
        "name": _name(event, names),
        "points": event.get("points", 0),
        "number": event.get("trick", 0),
    }


def _muggins(event: Mapping[str, Any], names: Names) -> str:
    points = abs(int(event.get("points") or 0))
    fields = {
        "name": _name(event, names),
        "points": points,
        "lost": points_text(points),
        "items": named_items(event.get("items", [])),
    }
    if event.get("correct"):
        return gettext("%(name)s calls muggins: %(points)d missed (%(items)s) and scores them") % (
            fields
        )
    return gettext(
        "%(name)s calls muggins for %(points)d (%(items)s), wrongly, and loses %(lost)s"
    ) % (fields)


def _pass(event: Mapping[str, Any], names: Names) -> str:
    return gettext("%(name)s lets the count stand") % {"name": _name(event, names)}


def _unclaimed(event: Mapping[str, Any], names: Names) -> str:
    points = int(event.get("points") or 0)
    number = event.get("trick")
    if number is None:
        return ngettext(
            "%(count)d point went unclaimed", "%(count)d points went unclaimed", points
        ) % {"count": points}
    return ngettext(
        "%(count)d point of trick %(number)d went unclaimed",
        "%(count)d points of trick %(number)d went unclaimed",
        points,
    ) % {"count": points, "number": number}


def _trick_points(event: Mapping[str, Any], names: Names) -> str:
    taken = ", ".join(f"{seat_name(names, s)} {n}" for s, n in enumerate(event.get("tricks", [])))
    return gettext("Tricks taken (1 point each): %(taken)s") % {"taken": taken}


def _match_over(event: Mapping[str, Any], names: Names) -> str:
    return match_result(
        names,
        winners=event.get("winners", []),
        top=int(event.get("top", 0)),
        finish=str(event.get("finish", "")),
        target=int(event.get("target", 0)),
        deals=int(event.get("deals", 0)),
        time_up=bool(event.get("time_up")),
    )


def match_result(
    names: Names,
    *,
    winners: Sequence[int],
    top: int,
    finish: str,
    target: int,
    deals: int,
    time_up: bool,
) -> str:
    """Who won the match, with what, and why it ended then."""
    if finish == "target":
        why = gettext("reaching %(target)d") % {"target": target}
    elif finish == "time" and time_up:
        why = gettext("when time was called")
    elif finish == "time":
        why = gettext("after %(count)d deals (the most a timed match plays)") % {"count": deals}
    else:
        why = ngettext("after %(count)d deal", "after %(count)d deals", deals) % {"count": deals}
    fields = {"top": top, "why": why, "name": seat_name(names, winners[0] if winners else None)}
    if len(winners) > 1:
        fields["names"] = join_words([seat_name(names, s) for s in winners])
        return gettext("%(names)s share the win with %(top)d, %(why)s") % fields
    return gettext("%(name)s wins with %(top)d, %(why)s") % fields


# --- callouts (games.texts.callouts): what the table says as a trick scores ---------------


def callout(event: Mapping[str, Any], names: Names) -> str | None:
    """A trick's count ("fifteen 2, a pair is 4"), a declared count, or a right muggins."""
    kind, points = event.get("kind"), int(event.get("points") or 0)
    if kind == "trick":
        return trick_count(event.get("calls"))
    if kind == "declare":
        return gettext("counts %(points)d") % {"points": points}
    if kind == "muggins":
        return gettext("muggins for %(points)d") % {"points": points}
    return None


MOVES = ("lead", "play", "declare", "muggins", "pass")  # the events that start a move


EVENTS: dict[str, Callable[[Mapping[str, Any], Names], str]] = {
    "dealer": _dealer,
    "deal": _deal,
    "lead": _lead,
    "play": _play,
    "trick": _trick,
    "declare": _declare,
    "muggins": _muggins,
    "pass": _pass,
    "unclaimed": _unclaimed,
    "trick_points": _trick_points,
    "match_over": _match_over,
}


# --- the prompt ---------------------------------------------------------------------------


def prompt(view: Mapping[str, Any], names: Names) -> str | None:
    """What the table asks of the view's seat now, or whom it waits for."""
    seat, phase = view.get("seat"), view.get("phase")
    to_move = list(view.get("to_move", []))
    acting = seat is not None and seat in to_move
    waiting = join_words([seat_name(names, s) for s in to_move])
    number = len(view.get("tricks", []))
    if phase == "play":
        if not acting:
            return gettext("Waiting for %(names)s to play") % {"names": waiting}
        if view.get("trump") is None:
            return gettext("Your lead opens the hand: the suit you lead is trumps")
        trick = view.get("trick", [])
        if not trick:
            return gettext("Your lead: play any card")
        led = trick[0]["card"][-1]
        legal = view.get("legal_moves", [])
        if all(move.get("card", "")[-1:] == led for move in legal):
            return gettext("Your turn: follow suit (%(suit)s)") % {"suit": suit_name(led)}
        return gettext("Your turn: you have no %(suit)s, so play any card") % {
            "suit": suit_name(led)
        }
    if phase == "declare":
        if acting:
            return gettext("You took trick %(number)d: declare what it is worth") % {
                "number": number
            }
        return gettext("Waiting for %(names)s to count trick %(number)d") % {
            "names": waiting,
            "number": number,
        }
    if phase == "calls":
        last = view.get("last_trick") or {}
        fields = {
            "name": seat_name(names, last.get("winner")),
            "points": last.get("declared") or 0,
            "names": waiting,
        }
        if acting:
            return (
                gettext("%(name)s declared %(points)d: call muggins on any points missed, or pass")
                % fields
            )
        return (
            gettext("%(name)s declared %(points)d. Waiting for %(names)s to call muggins or pass")
            % fields
        )
    if phase == "hand_over":
        if acting:
            return gettext("The hand is over: continue when you are ready for the next deal")
        return gettext("Waiting for %(names)s to be ready for the next deal") % {"names": waiting}
    result = view.get("outcome")
    if not result:
        return None
    return gettext("The match is over: %(reason)s") % {"reason": outcome(result, names, view)}


# --- the result ---------------------------------------------------------------------------


def outcome(result: Mapping[str, Any], names: Names, view: Mapping[str, Any] | None = None) -> str:
    """The engine's Outcome (as JSON) said in the reader's language, with why the match ended
    then (read from the final `view`: its options, hand number and clock). For the shared
    outcome text, when it asks the game."""
    view = view or {}
    options = view.get("options", {})
    scores = [side.get("score", 0) for side in result.get("sides", [])]
    return match_result(
        names,
        winners=result.get("winners", []),
        top=max(scores or [0]),
        finish=str(options.get("ending", "")),
        target=int(options.get("target", 0)),
        deals=int(view.get("hand_number", 0)),
        time_up=bool((view.get("clock") or {}).get("time_up")),
    )
