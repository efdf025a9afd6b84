"""The site's words for what the engine says in English: events, error messages, names.

The engine speaks English and keeps every event's kind and parameters beside its text (see
games/engine/core/events.py). Here the site turns them into the reader's language:

- `engine_text(template, params)`: a text the engine marked with `gettext_noop` (an option's
  label, a game's name, an IllegalMove's message), looked up in the catalogue and filled in.
- `event_text(web, event, names)`: one line of a game's log. Each game's web folder may have a
  `texts.py` whose `EVENTS` maps an event kind to a function `(event, names) -> str` written
  with gettext; a kind it does not list keeps the engine's English text. The same module may
  define `prompt(view, names) -> str | None` for what the table asks of a seat, and
  `outcome(outcome, names, view) -> str | None` for how a finished match ended.
- `callouts(web, view, names)`: the points the latest move made, for the table to call out
  ("Ana: fifteen for 2"): from the game's `texts.callout(event, names) -> str | None` for each
  scoring event, over the events since the last one whose kind is in `texts.MOVES`.
- `join_words`, `card_text` and the names of cards. The count of a hand said aloud
  ("fifteen 2, a pair is 4") is the cribbage family's, in games/variants/cribbage/texts.py.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.text import get_text_list
from django.utils.translation import gettext, gettext_lazy, ngettext

from games.engine.core import fill_names

if TYPE_CHECKING:
    from games.variants import WebGame

Describer = Callable[[Mapping[str, Any], Sequence[str]], str]


def engine_text(template: str, params: Mapping[str, Any] | None = None) -> str:
    """An engine text in the active language, its named fields filled in; the English if the
    catalogue has no entry or its translation does not fit the fields."""
    params = params or {}
    english = template.format(**params) if params else template
    translated = gettext(template) if template else template
    if translated == template:
        return english
    try:
        return translated.format(**params) if params else translated
    except (KeyError, IndexError, ValueError):
        return english


def event_describers(web: WebGame) -> Mapping[str, Describer]:
    """The game's own describers of its events, by kind (empty when it has none)."""
    module = web.extension("texts")
    return getattr(module, "EVENTS", {}) if module is not None else {}


def event_text(web: WebGame, event: Mapping[str, Any], names: Sequence[str]) -> str:
    """One event as a line of the log, in the active language."""
    describer = event_describers(web).get(str(event.get("kind", "")))
    if describer is None:
        return fill_names(str(event.get("text", "")), names)
    return describer(event, names)


def prompt_text(web: WebGame, view: Mapping[str, Any], names: Sequence[str]) -> str:
    """What the view asks of its seat, in the active language: the game's `texts.prompt(view,
    names)` when it has one and it answers, else the engine's English prompt."""
    module = web.extension("texts")
    describer = getattr(module, "prompt", None) if module is not None else None
    text = describer(view, names) if describer is not None else None
    return text if text is not None else fill_names(str(view.get("prompt", "")), names)


def outcome_text(
    web: WebGame,
    outcome: Mapping[str, Any],
    names: Sequence[str],
    view: Mapping[str, Any] | None = None,
) -> str | None:
    """How a finished match ended, in the active language: the game's `texts.outcome(outcome,
    names, view)`, or None when the game has no such hook or cannot say it."""
    module = web.extension("texts")
    describer = getattr(module, "outcome", None) if module is not None else None
    return describer(outcome, names, view) if describer is not None else None


def callouts(web: WebGame, view: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """What the table calls out for the latest move: {"key": a short id of the move (the same
    on every render of it), "said": [{"seat", "who", "points", "text"}, one per scoring seat]};
    "said" is empty when the move made no points or the game has no `callout` hook."""
    module = web.extension("texts")
    describe = getattr(module, "callout", None) if module is not None else None
    events = list(view.get("events") or [])
    if describe is None or not events:
        return {"key": "", "said": []}
    moves = getattr(module, "MOVES", ())
    start = max((i for i, e in enumerate(events) if e.get("kind") in moves), default=0)
    tail = events[start:]
    points: dict[Any, int] = {}
    texts: dict[Any, list[str]] = {}
    for event in tail:
        made = int(event.get("points") or 0)
        text = describe(event, names) if made > 0 else None
        if text:
            seat = event.get("seat")
            points[seat] = points.get(seat, 0) + made
            texts.setdefault(seat, []).append(text)
    signature = json.dumps(tail, sort_keys=True, default=str, separators=(",", ":"))
    said = [
        {"seat": seat, "who": seat_name(names, seat), "points": points[seat], "text": ", ".join(t)}
        for seat, t in texts.items()
    ]
    return {"key": f"{zlib.crc32(signature.encode()):08x}", "said": said}


def seat_name(names: Sequence[str], seat: int | None) -> str:
    """The name of a seat, or "Player N" when the match has no name for it."""
    if seat is not None and 0 <= seat < len(names):
        return names[seat]
    return gettext("Player %(number)s") % {"number": (seat or 0) + 1}


def join_words(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c" in the active language."""
    return str(get_text_list(list(items), gettext("and")))


def card_text(code: Any) -> str:
    """A card as read in a line of text: "5♥", "10♣", "J♠" (the code itself if it is no card);
    the suit is drawn as text, never as an emoji."""
    from games.engine.pieces.cards import CardError, parse_card
    from games.templatetags.cards import RANK_LABELS, SUIT_SYMBOLS, TEXT_STYLE

    try:
        card = parse_card(str(code))
    except CardError:
        return str(code)
    return RANK_LABELS.get(card.rank, str(card.rank)) + SUIT_SYMBOLS[card.suit] + TEXT_STYLE


def points_text(points: int) -> str:
    """ "1 point", "5 points"."""
    return ngettext("%(count)d point", "%(count)d points", points) % {"count": points}


# --- playing cards in words (the drawn cards' accessible names) ------------------------------

RANK_WORDS = {
    1: gettext_lazy("ace"),
    2: gettext_lazy("two"),
    3: gettext_lazy("three"),
    4: gettext_lazy("four"),
    5: gettext_lazy("five"),
    6: gettext_lazy("six"),
    7: gettext_lazy("seven"),
    8: gettext_lazy("eight"),
    9: gettext_lazy("nine"),
    10: gettext_lazy("ten"),
    11: gettext_lazy("jack"),
    12: gettext_lazy("queen"),
    13: gettext_lazy("king"),
}
SUIT_WORDS = {
    "C": gettext_lazy("clubs"),
    "D": gettext_lazy("diamonds"),
    "H": gettext_lazy("hearts"),
    "S": gettext_lazy("spades"),
}


def card_name(rank: int, suit: str) -> str:
    """A card in words of the active language: "five of hearts", "cinco de corazones"."""
    return gettext("%(rank)s of %(suit)s") % {
        "rank": RANK_WORDS.get(rank, str(rank)),
        "suit": SUIT_WORDS.get(suit, suit),
    }
