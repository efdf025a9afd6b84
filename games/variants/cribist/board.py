"""The Cribist board region, drawn in Python (WebGame.regions["board"]): board_region(context)
reads the match page's context for the region (view, seat, names, seats, web, oob).

The board is drawn at every move for every seat and a spectator, and the template engine took
about 1.1 ms a viewer to draw it. Each viewer sees the table from their own place (the seats
round the felt, the trick in the middle), so that part is drawn for each; the hand's record
(the last trick, every trick, the score sheet) is the same for every viewer, and is drawn once a
move and language for all of them (kept by games.fragments under "cribist-record"). Every text
is the catalogue's, with the template's own message ids, and every value is escaped as the
template engine escapes it; tests/web/test_cribist_regions.py holds the HTML to the template
partial it replaced (tests/web/cribist_board_reference.html), line for line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext, ngettext, pgettext

from games import fragments, texts
from games.markup import text
from games.templatetags.cards import card
from games.templatetags.match_tags import at
from games.variants.cribist import texts as cribist_texts
from games.variants.cribist.templatetags.cribist_table import (
    suit_symbol,
    table_seats,
    trick_places,
)

SHEET_OPEN = ("hand_over", "match_over")  # the phases that show the score sheet open


def board_region(context: Mapping[str, Any]) -> str:
    """The match page's board region: the deal, the table from the viewer's place, what the
    last move called out, and the hand's record."""
    view, names, seat = context["view"], list(context.get("names") or ()), context.get("seat")
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    places = table_seats(view, names, seat)
    words = _seat_words(get_language(), view.get("phase"))
    label = escape(gettext("The table"))
    return "\n".join(
        [
            "",  # the partial it replaced began and ended with a line break
            f'<section id="board" class="board cx-board"{oob}>',
            '<p class="cx-deal muted small">',
            *_deal_lines(view, names),
            "</p>",
            f'<div class="cx-table" role="group" aria-label="{label}" data-scores>',
            *_trump_lines(view.get("trump")),
            *(line for place in places for line in _seat_lines(place, words)),
            *_centre_lines(view, names, places, seat),
            "</div>",
            _callouts_html(context),
            fragments.region(
                "games/cribist/board.py#record",
                "cribist-record",
                dict(context),
                draw=_record_html,
                key=_recorded,
            ),
            "</section>",
            "",
        ]
    )


def _deal_lines(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """Which hand this is, how the match ends, who deals, and whether muggins is played."""
    options = view.get("options") or {}
    ending, number = options.get("ending"), text(view.get("hand_number"))
    if ending == "deals":
        deal = gettext("Hand %(number)s of %(deals)s") % {
            "number": number,
            "deals": text(options.get("deals")),
        }
    else:
        deal = gettext("Hand %(number)s") % {"number": number}
    if ending == "target":
        deal += " · " + gettext("first to %(target)s") % {"target": text(options.get("target"))}
    elif ending == "time":
        deal += " · " + gettext("%(minutes)s minutes") % {"minutes": text(options.get("minutes"))}
        if (view.get("clock") or {}).get("time_up"):
            deal += escape(gettext(": time is up, this is the last hand"))
    dealer = "· " + gettext("%(name)s deals") % {"name": text(at(names, view.get("dealer")))}
    if options.get("muggins"):
        dealer += " · " + escape(gettext("muggins"))
    return [deal, dealer]


def _trump_lines(trump: str | None) -> list[str]:
    """The trump suit, or that the first lead names it."""
    if not trump:
        words = gettext("Trumps: <strong>the suit of the first lead</strong>")
        return [
            '<div class="cx-trump" aria-live="polite">',
            f'<span class="cx-trump-words">{words}</span>',
            "</div>",
        ]
    words = gettext("Trumps: <strong>%(suit)s</strong>") % {
        "suit": text(cribist_texts.suit_name(trump))
    }
    return [
        f'<div class="cx-trump cx-trump-{text(trump)}" aria-live="polite">',
        f'<span class="cx-trump-symbol" aria-hidden="true">{text(suit_symbol(trump))}</span>',
        f'<span class="cx-trump-words">{words}</span>',
        "</div>",
    ]


def _seat_lines(place: Mapping[str, Any], words: _SeatWords) -> list[str]:
    """One seat at its place round the table: its name and tags, score, tricks taken, the
    cards it holds (not told to the viewer of their own) and whether it is to move."""
    where = text(place["place"])
    name = f'<span class="cx-name-text">{text(place["name"])}</span>'
    if place["is_you"]:
        name += f' <span class="tag">{words.you}</span>'
    if place["dealer"]:
        name += f' <span class="tag tag-dealer">{words.dealer}</span>'
    tricks = words.counted("tricks", place["tricks"])
    lines = [
        f'<div class="cx-seat cx-{where}{" is-to-move" if place["to_move"] else ""}"'
        f' data-seat="{text(place["seat"])}" data-source="place-{where}">',
        f'<span class="cx-name">{name}</span>',
        '<span class="cx-stats">',
        f'<span class="cx-score" title="{words.score}"><strong>{text(place["score"])}</strong>'
        f' <span class="sr-only">{words.points}</span></span>',
        f'<span class="cx-tricks" title="{words.tricks_taken}">{tricks}</span>',
    ]
    if not place["is_you"]:
        lines.append(
            f'<span class="cx-held muted" title="{words.cards_in_hand}">'
            f"{words.counted('cards', place['held'])}</span>"
        )
    lines.append("</span>")
    if place["to_move"]:
        lines.append(f'<span class="cx-turn">{words.turn}</span>')
    lines.append("</div>")
    return lines


class _SeatWords:
    """The words of the seats round the table in one language and phase, escaped as the
    template wrote them: looked up in the catalogue once (`_seat_words`), not for each of the
    four seats of each of the five viewers of every move."""

    def __init__(self, phase: str | None) -> None:
        self.you = escape(gettext("you"))
        self.dealer = escape(pgettext("seat tag", "dealer"))
        self.score = escape(gettext("score"))
        self.points = escape(gettext("points"))
        self.tricks_taken = escape(gettext("tricks taken this hand"))
        self.cards_in_hand = escape(gettext("cards in hand"))
        self.turn = escape(_turn_words(phase))
        self._counted: dict[tuple[str, int], str] = {}

    def counted(self, what: str, count: int) -> str:
        """ "3 tricks" (what="tricks") or "5 cards" ("cards")."""
        said = self._counted.get((what, count))
        if said is None:
            said = self._counted[what, count] = _count_words(what, count)
        return said


def _count_words(what: str, count: int) -> str:
    """How many tricks a seat has taken, or cards it holds, in words."""
    if what == "tricks":
        return ngettext("%(count)s trick", "%(count)s tricks", count) % {"count": text(count)}
    return ngettext("%(count)s card", "%(count)s cards", count) % {"count": text(count)}


@lru_cache(maxsize=64)
def _seat_words(language: str, phase: str | None) -> _SeatWords:
    """The seats' words in `language` (the active one: it is the key) and `phase`."""
    return _SeatWords(phase)


def _turn_words(phase: str | None) -> str:
    """What a seat to move is doing."""
    if phase == "play":
        return gettext("to play")
    if phase == "declare":
        return gettext("counting")
    if phase == "calls":
        return gettext("may call")
    return gettext("to continue")


def _centre_lines(view, names, places, seat: int | None) -> list[str]:
    """The middle of the felt: the trick in progress, else the last trick with its winner,
    else who leads (and names trumps)."""
    last = view.get("last_trick")
    if view.get("trick"):
        label = gettext("The trick in progress")
        lines = ["".join(_played(place) for place in places if place["card"])]
    elif last:
        label = gettext("The last trick")
        shown = [
            f'<span class="cx-play cx-play-{text(p["place"])} cx-done'
            f'{" cx-winning" if p["winning"] else ""}" data-from="place-{text(p["place"])}">'
            f"{card(p['card'], 'small')}</span>"
            for p in trick_places(last, seat)
        ]
        note = gettext("Trick %(number)s to %(name)s") % {
            "number": text(last["number"]),
            "name": text(at(names, last["winner"])),
        }
        lines = ["".join(shown), f'<span class="cx-centre-note">{note}</span>']
    else:
        label = gettext("The trick")
        leads = (
            gettext("%(name)s leads")
            if view.get("trump")
            else gettext("%(name)s leads and names trumps")
        )
        note = leads % {"name": text(at(names, view.get("leader")))}
        lines = [f'<span class="cx-centre-note">{note}</span>']
    return [f'<div class="cx-centre felt" aria-label="{escape(label)}">', *lines, "</div>"]


def _played(place: Mapping[str, Any]) -> str:
    """A card on the trick in progress, before the seat that played it."""
    where = text(place["place"])
    by = gettext("by %(name)s") % {"name": text(place["name"])}
    return (
        f'<span class="cx-play cx-play-{where}" data-from="place-{where}">'
        f'{card(place["card"], "small")}<span class="sr-only"> {by}</span></span>'
    )


def _callouts_html(context: Mapping[str, Any]) -> str:
    """What the table calls out for the last move (games/callout.html)."""
    view, web = context.get("view"), context.get("web")
    if not view or web is None:
        return ""
    found = texts.callouts(web, view, context.get("names") or [])
    teams = {seat.index: seat.team for seat in context.get("seats") or []}
    return "".join(
        f'<p class="callout team-{text(teams.get(said["seat"], said["seat"]))}"'
        f' data-voice="{text(found["key"])}"><strong aria-hidden="true">+{text(said["points"])}'
        f'</strong> <span class="say">{text(said["who"])}: {text(said["text"])}</span></p>'
        for said in found["said"]
    )


# --- the hand's record: the same for every viewer ------------------------------------------


def _recorded(context: Mapping[str, Any]) -> tuple:
    """Everything the record shows, its key (the view's entries are public): the last trick
    whole, of every trick what the list shows, the sheet, whether it is open, and the names.
    (The whole of every trick took longer to write out than the record to draw.)"""
    view = context["view"]
    return (
        repr(view["last_trick"]),
        tuple(_listed(trick) for trick in view["tricks"]),
        repr(view["sheet"]),
        view["phase"] in SHEET_OPEN,
        view["players"],
        tuple(context["names"]),
    )


def _listed(trick: Mapping[str, Any]) -> tuple:
    """What the list of every trick shows of one."""
    cards = tuple(play["card"] for play in trick["plays"])
    return (trick["number"], trick["winner"], trick["points"], cards)


def _record_html(context: Mapping[str, Any]) -> str:
    """The last finished trick with its count and calls, every trick this hand, and the
    score sheet."""
    view, names = context["view"], list(context["names"])
    lines = []
    if view.get("last_trick"):
        lines += _last_trick_lines(view["last_trick"], names)
    if len(view.get("tricks") or ()) > 1:
        lines += _history_lines(view["tricks"], names)
    if view.get("sheet"):
        lines += _sheet_lines(view, names)
    return "\n".join(lines)


def _last_trick_lines(trick: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The last finished trick: who took it and its worth, its cards, its count, and what was
    declared and called on it."""
    fields = {
        "number": text(trick["number"]),
        "name": text(at(names, trick["winner"])),
        "points": text(trick["points"]),
    }
    if trick["points"] is not None:
        title = gettext("Trick %(number)s: %(name)s scores %(points)s") % fields
    else:
        title = gettext("Trick %(number)s: %(name)s is counting it") % fields
    label = escape(gettext("The last finished trick"))
    plays = "".join(
        f'<li class="{"cx-winning" if p["seat"] == trick["winner"] else ""}">'
        f'{card(p["card"], "small")}<span class="play-by">{text(at(names, p["seat"]))}</span></li>'
        for p in trick["plays"]
    )
    lines = [
        f'<section class="cx-last" aria-label="{label}">',
        f"<h2>{title}</h2>",
        '<ol class="cx-trick-cards">',
        plays,
        "</ol>",
    ]
    if trick["points"] is not None:
        if trick["points"]:
            said = text(capfirst(cribist_texts.trick_count(trick["count"]))) + "."
        else:
            said = escape(gettext("Nothing to count in these cards."))
        lines.append(f'<p class="cx-breakdown">{said}</p>')
    if trick["declared"] is not None:
        lines += _declared_lines(trick, names)
    lines.append("</section>")
    return lines


def _declared_lines(trick: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """What the winner declared, each muggins call with its combinations, and what went
    unclaimed."""
    declared = gettext("%(name)s declared %(points)s.") % {
        "name": text(at(names, trick["winner"])),
        "points": text(trick["declared"]),
    }
    calls = []
    for call in trick["calls"]:
        fields = {"name": text(at(names, call["seat"])), "points": text(call["points"])}
        items = "; ".join(
            f"{text(cribist_texts.kind_name(item['kind']))} "
            + " ".join(text(code) for code in item["cards"])
            for item in call["items"]
        )
        if call["correct"]:
            verdict = gettext("right, and scores %(points)s") % fields
        else:
            verdict = gettext("wrong, and loses %(points)s") % fields
        called = gettext("%(name)s called muggins for %(points)s") % fields
        calls.append(f"{called} ({items}): {verdict}. ")
    lines = ['<p class="small">' + declared, "".join(calls)]
    if trick["unclaimed"]:
        lines.append(
            ngettext(
                "%(count)s point went unclaimed.",
                "%(count)s points went unclaimed.",
                trick["unclaimed"],
            )
            % {"count": text(trick["unclaimed"])}
        )
    lines.append("</p>")
    return lines


def _history_lines(tricks: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    """Every trick of this hand: its number, cards, winner and worth once settled."""
    items = []
    for trick in tricks:
        cards = "".join(card(p["card"], "small") for p in trick["plays"])
        worth = "" if trick["points"] is None else f": {text(trick['points'])}"
        items.append(
            f'<li><span class="cx-trick-no">{text(trick["number"])}</span>'
            f' <span class="fan">{cards}</span>'
            f" <span>{text(at(names, trick['winner']))}{worth}</span></li>"
        )
    summary = gettext("Every trick this hand (%(count)s)") % {"count": text(len(tricks))}
    return [
        '<details class="cx-history">',
        f"<summary>{summary}</summary>",
        '<ol class="cx-trick-list">',
        "".join(items),
        "</ol>",
        "</details>",
    ]


def _sheet_lines(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The scores after each hand, a column a seat; open once the hand or match is over."""
    opened = " open" if view.get("phase") in SHEET_OPEN else ""
    summary, hand = escape(gettext("Score sheet")), escape(gettext("Hand"))
    heads = "".join(
        f'<th scope="col">{text(texts.seat_name(names, index))}</th>'
        for index in range(view["players"])
    )
    rows = "".join(
        f'<tr><th scope="row">{number}</th>'
        + "".join(f"<td>{text(score)}</td>" for score in row)
        + "</tr>"
        for number, row in enumerate(view["sheet"], start=1)
    )
    return [
        f'<details class="cx-sheet"{opened}>',
        f"<summary>{summary}</summary>",
        "<table>",
        f'<thead><tr><th scope="col">{hand}</th>{heads}</tr></thead>',
        f"<tbody>{rows}</tbody>",
        "</table>",
        "</details>",
    ]
