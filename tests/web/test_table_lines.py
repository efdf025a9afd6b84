"""The match page's status line and log are drawn in Python (games/table_lines.py), not by the
template engine: the same HTML, line for line, as the template partials they replaced, for
every viewer of matches waiting, in play (every game, many moves), won, resigned and called off;
in English and Spanish; for a page and for a socket."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.safestring import mark_safe

from games import fragments, presenters, services
from games.fragments import tight as _tight
from games.models import Match
from games.table_lines import events_html, status_html
from tests.web.random_states import play_moves

# The template partials table_lines.py replaced, kept word for word as the reference.
_SOURCE = (Path(__file__).parent / "table_lines_reference.html").read_text()
_LOAD = _SOURCE.split("\n", 1)[0]


def _partial(name: str) -> Template:
    body = re.search(rf"{{% partialdef {name} %}}(.*?){{% endpartialdef %}}", _SOURCE, re.DOTALL)
    return Template(_LOAD + body[1])


REFERENCES = {
    "status": (_partial("status"), status_html),
    "events": (_partial("events"), events_html),
}

pytestmark = pytest.mark.django_db


def _compare(match_id: int, viewers, seen: set[str]) -> None:
    match = presenters.load_match(match_id)
    for language in ("en", "es"):
        with translation.override(language):
            for viewer in viewers:
                for oob in (True, False):
                    context = {**presenters.match_context(match, viewer), "oob": oob}
                    if not oob:
                        context["csrf_token"] = fragments.CSRF_SLOT
                    for name, (reference, draw) in REFERENCES.items():
                        want = _tight(reference.render(Context(context))).strip()
                        got = _tight(draw(context)).strip()
                        assert got == want, (name, match.status, viewer, language)
                        seen |= {part for part in PARTS if part in got}


PARTS = (
    "status-your-turn",
    'class="badge"',  # your move
    "Waiting for the open seats",
    "data-over",  # the outcome
    "outcome-won",
    "outcome-lost",
    'class="events"',
    "log-more",  # more than one line
    "Nothing yet.",
    "Nada todavía.",
    "hx-swap-oob",
    fragments.CSRF_SLOT,  # a page's rematch form
)


def test_the_status_and_the_log_are_the_templates_line_for_line(alice, bob, charlie, dana):
    seen: set[str] = set()
    waiting = services.match_create(creator=alice, variant="cribbage", players=2)
    _compare(waiting.pk, [alice, bob, None], seen)
    cancelled = services.match_create(creator=alice, variant="kings", players=2)
    services.match_cancel(match_id=cancelled.pk, user=alice)
    _compare(cancelled.pk, [alice, None], seen)

    for variant, players, options, moves in (
        ("cribbage", 2, {"target": 61}, 40),
        ("cribbage", 3, {"target": 61}, 25),
        ("cribbage", 4, {"target": 61}, 25),
        ("tabletop", 2, {}, 20),
        ("tabletop", 4, {}, 20),
        ("crosscrib", 2, {}, 20),
        ("cribist", 4, {}, 30),
        ("kings", 2, {}, 15),
    ):
        members = [alice, bob, charlie, dana][:players]
        match = services.match_create_seated(
            creator=alice, players=members, variant=variant, options=options
        )
        _compare(match.pk, [members[0], None], seen)  # before the first move
        for step in range(3):
            play_moves(match.pk, dict(enumerate(members)), moves, players + step)
            _compare(match.pk, [*members, None], seen)

    played_out = services.match_create_seated(
        creator=alice, players=[alice, bob], variant="cribbage", options={"target": 61}
    )
    play_moves(played_out.pk, {0: alice, 1: bob}, 600, 7)
    assert Match.objects.get(pk=played_out.pk).status == Match.Status.FINISHED
    _compare(played_out.pk, [alice, bob, None], seen)

    resigned = services.match_create_seated(creator=alice, players=[alice, bob], variant="kings")
    services.match_resign(match_id=resigned.pk, user=bob)
    _compare(resigned.pk, [alice, bob, None], seen)
    assert seen == set(PARTS), set(PARTS) - seen


def test_a_log_line_keeps_its_markup_and_any_other_text_is_escaped():
    context = {"events": [mark_safe("<b>ann</b> pegs 2"), "bea <script> 1"], "oob": False}
    reference = REFERENCES["events"][0]
    want = _tight(reference.render(Context(context))).strip()
    got = _tight(events_html(context)).strip()
    assert got == want
    assert "<li>Bea &lt;script&gt; 1</li><li><b>ann</b> pegs 2</li>" in got
