"""The match page's status line (whose move, what is asked) and its log ("What happened"),
drawn in Python, for every game.

Both change at nearly every move: the status once for each kind of viewer (a seat is asked its
move, the others are told who moves), the log once for everyone. Every text is the catalogue's,
with the template's own message ids, written as {% translate %} writes them (as they are: the
catalogue is trusted), and every value is escaped as the template engine escapes it. The end
of a match (the outcome, drawn once) is still a template's, games/outcome.html.
tests/web/test_table_lines.py holds the HTML to the template partials they replaced
(tests/web/table_lines_reference.html), line for line. A move drawn for 2 seats and a
spectator: 1.06 -> 0.96 ms in process, 5,270 -> 4,790 Python calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.defaultfilters import capfirst  # a safe line stays safe
from django.template.loader import render_to_string
from django.utils.translation import gettext, pgettext

from games.markup import text


def status_html(context: Mapping[str, Any]) -> str:
    """The status region from the match page's context: match, your_turn, prompt and oob (and,
    once the match is over, what games/outcome.html reads)."""
    match = context["match"]
    your_turn = context.get("your_turn")
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    line = ""
    if match.status == "waiting":
        waiting = gettext(
            "Waiting for the open seats to fill. Share this page's address to invite someone."
        )
        line = f'<p class="prompt">{waiting}</p>'
    elif match.is_over:
        line = render_to_string("games/outcome.html", context)
    elif context.get("prompt"):
        yours = gettext("Your move")
        badge = f'<span class="badge">{yours}</span> ' if your_turn else ""
        line = f'<p class="prompt">{badge}{text(context["prompt"])}</p>'
    return (
        f'\n<div id="status" class="status{" status-your-turn" if your_turn else ""}"{oob}'
        f' role="status" aria-live="polite">\n{line}\n</div>\n'
    )


def events_html(context: Mapping[str, Any]) -> str:
    """The log region from the match page's context: events (the lines, oldest first) and oob."""
    events = context.get("events") or ()
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    title = gettext("What happened")
    out = [
        f'\n<section id="events" class="panel events-panel"{oob} aria-labelledby="events-title">',
        f'<h2 id="events-title">{title}</h2>',
    ]
    if events:
        label = gettext("Events, newest first")
        lines = "".join(f"<li>{text(capfirst(line))}</li>" for line in reversed(events))
        out.append(
            f'<ol class="events" tabindex="0" aria-label="{label}" aria-live="polite">{lines}</ol>'
        )
        if len(events) > 1:
            more = pgettext("the events", "Show all")
            less = pgettext("the events", "Show less")
            out.append(
                f'<label for="log-open" class="log-more"><span class="log-closed">{more}</span>'
                f'<span class="log-opened">{less}</span></label>'
            )
    else:
        nothing = gettext("Nothing yet.")
        out.append(f'<p class="muted small">{nothing}</p>')
    out.append("</section>\n")
    return "\n".join(out)
