"""The tournament pages' words that are built in Python, in the reader's language.

scoring.py and pairing.py stay free of Django (the simulation and the benchmark use them), so
what they say to people is put into words here: game points in the reader's number format, the
names of the scoring settings and tie-breaks, round titles and finishes.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext, pgettext

from games.tournaments.pairing import TIEBREAK_LABELS
from games.tournaments.scoring import points_text


def local_points(value) -> str:
    """Game points as people write them in the reader's locale: 13, 12.5 (12,5 in Spanish)."""
    text = points_text(value)
    if isinstance(value, (Decimal, float)) and "." in text:
        return text.replace(".", str(formats.get_format("DECIMAL_SEPARATOR")))
    return text


def local_card(game_points, wins: int) -> str:
    """Game points over games won, as clubs write them ("13/6", "12,5/6" in Spanish)."""
    return f"{local_points(game_points)}/{wins}"


def setting_name(key: str) -> str:
    """A scoring setting or a late entrant's figure, named for an error message."""
    names = {
        "win": gettext("game points for a win"),
        "skunk": gettext("game points for a skunk"),
        "double_skunk": gettext("game points for a double skunk"),
        "loss": gettext("game points for a loss"),
        "skunk_line": gettext("the skunk line"),
        "double_skunk_line": gettext("the double skunk line"),
        "bye_points": gettext("game points for a bye"),
        "bye_spread": gettext("the spread of a bye"),
        "wins": gettext("wins so far"),
        "spread": gettext("spread so far"),
        "games": gettext("games so far"),
    }
    return names.get(key, key.replace("_", " "))


def tiebreak_label(key: str) -> str:
    return gettext(TIEBREAK_LABELS[key])


def round_title(number: int) -> str:
    return gettext("Round %(number)d") % {"number": number}


def playoff_title(number: int, pairings: int) -> str:
    """The name of a playoff round by the number of its pairings."""
    if pairings == 1:
        return gettext("Final")
    if pairings == 2:
        return gettext("Semi-finals")
    if pairings == 4:
        return gettext("Quarter-finals")
    return gettext("Playoff round %(number)d") % {"number": number}


def ordinal(n: int) -> str:
    """ "1st", "2nd"... in English; "1.º", "2.º" in Spanish."""
    if 10 <= n % 100 <= 20:
        template = pgettext("ordinal", "%(n)dth")
    else:
        template = {
            1: pgettext("ordinal", "%(n)dst"),
            2: pgettext("ordinal", "%(n)dnd"),
            3: pgettext("ordinal", "%(n)drd"),
        }.get(n % 10, pgettext("ordinal", "%(n)dth"))
    return template % {"n": n}


def finish_text(position: int, total: int, *, finished: bool) -> str:
    fields = {"place": ordinal(position), "total": total}
    if finished:
        return gettext("%(place)s of %(total)d") % fields
    return gettext("currently %(place)s of %(total)d") % fields
