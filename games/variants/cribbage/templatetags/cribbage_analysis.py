"""The match page's way into the discard analysis: {% discard_link match seat view %}.

It renders a link to "how did I discard?" for the seat's own hands once a hand has been shown,
and nothing where the analysis is not offered (see games.variants.cribbage.analysis)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from cribsite.remembered_url import remembered_reverse
from games.engine.cribbage.view import REVEALED
from games.variants.cribbage.analysis import offered_to_seat

register = template.Library()


@register.simple_tag
def discard_link(match: Any, seat: int | None, view: dict[str, Any] | None) -> SafeString:
    if not view or view.get("phase") not in REVEALED or not offered_to_seat(match, seat):
        return SafeString("")
    url = remembered_reverse("cribbage_match_discards", match.pk)
    anchor = f"game-{view['game']}-hand-{view['hand_number']}"
    return format_html(
        '<p class="small discard-link"><a href="{}#{}">{}</a></p>',
        url,
        anchor,
        gettext("How did I discard?"),
    )


@register.filter
def plural_count(value: Any) -> int:
    """A whole number that picks the same plural as `value` (1 for exactly one, else 2), for
    {% blocktranslate count %} over a decimal such as 0.37 points."""
    try:
        return 1 if float(value) == 1 else 2
    except (TypeError, ValueError):
        return 2
