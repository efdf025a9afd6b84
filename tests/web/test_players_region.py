"""Who is at the table (the match page's "players" region) is drawn in Python
(games/players.py), not by the template engine: the same HTML, line for line, as the template
partial it replaced, for matches waiting, in play, won and called off; with computer seats,
partners, pages gone away, several games, every game's seat tags; in English and Spanish."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from games import presenters, services
from games.fragments import tight as _tight
from games.models import Seat
from games.players import players_html
from tests.web.random_states import play_moves

# The template partial players.py replaced, kept word for word as the reference.
REFERENCE = (Path(__file__).parent / "players_reference.html").read_text()

pytestmark = pytest.mark.django_db


def _compare(match_id: int, viewers, seen: set[str]) -> None:
    reference = Template(REFERENCE)
    match = presenters.load_match(match_id)
    for language in ("en", "es"):
        with translation.override(language):
            for viewer in viewers:
                context = {**presenters.match_context(match, viewer), "oob": viewer is not None}
                want = _tight(reference.render(Context(context))).strip()
                got = _tight(players_html(context)).strip()
                assert got == want, (match.status, viewer)
                seen |= {part for part in PARTS if part in got}


PARTS = (
    "is-to-move",
    "is-away",
    "is-here",
    'class="away"',
    "with-games",
    'class="tag"',  # a computer seat's tag
    "tag-",  # a game's seat tag (the dealer)
    "<!--seat-",  # the viewer's tag slots
    "hx-swap-oob",
    'class="scores',
)


def test_the_players_region_is_the_templates_line_for_line(alice, bob, charlie, dana):
    seen: set[str] = set()
    waiting = services.match_create(creator=alice, variant="cribbage", players=2)
    _compare(waiting.pk, [alice, None], seen)

    for variant, players, options in (
        ("cribbage", 2, {"target": 61, "games": 3}),
        ("cribbage", 4, {"target": 61}),
        ("tabletop", 2, {}),
        ("cribist", 4, {}),
        ("kings", 3, {}),
    ):
        members = [alice, bob, charlie, dana][:players]
        match = services.match_create_seated(
            creator=alice, players=members, variant=variant, options=options
        )
        Seat.objects.filter(match_id=match.pk, index=0).update(connections=1)
        Seat.objects.filter(match_id=match.pk, index=1).update(
            connections=0, away_since=timezone.now() - timezone.timedelta(seconds=95)
        )
        play_moves(match.pk, dict(enumerate(members)), 7, players)
        _compare(match.pk, [*members, None], seen)

    computer = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 61}, computer_seats=[1]
    )
    _compare(computer.pk, [alice, None], seen)

    over = services.match_create_seated(creator=alice, players=[alice, bob], variant="cribbage")
    services.match_resign(match_id=over.pk, user=bob)
    _compare(over.pk, [alice, bob, None], seen)
    assert seen == set(PARTS), set(PARTS) - seen
