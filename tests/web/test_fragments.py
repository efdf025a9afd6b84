"""How the match page's fragments are tightened and keyed (games.presenters, games.fragments)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django.utils import timezone

from games import fragments, presenters, services
from games.fragments import tight as _tight
from games.models import Seat

INDENT = re.compile(r"\s*\n\s*")  # what _tight does, said as a regular expression
TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games"


def test_tightening_turns_each_run_of_white_space_with_a_line_break_into_one_line_break():
    assert _tight("<p>\n    <b>x</b>  \n\n  y</p>") == "<p>\n<b>x</b>\ny</p>"
    assert _tight("  a  b  ") == "  a  b  "  # no line break: left alone
    assert _tight("\n  a\n") == "\na\n"
    assert _tight("<pre>\n  kept\n</pre>") == "<pre>\n  kept\n</pre>"


def test_tightening_gives_what_the_regular_expression_gives_on_any_text():
    rng = random.Random(13)
    pieces = ["a", "<p>", " ", "  ", "\n", "\t", "\r", "\xa0", "\x0b", "\x1c", "\x85", "\u2028"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        assert _tight(text) == INDENT.sub("\n", text), repr(text)


@pytest.mark.parametrize(
    "path", sorted(TEMPLATES.glob("*/table.html")), ids=lambda p: p.parent.name
)
def test_tightening_gives_what_the_regular_expression_gives_on_every_table(path):
    html = path.read_text()
    assert _tight(html) == INDENT.sub("\n", html)


def test_a_members_profile_address_is_worked_out_once(alice):
    presenters.profile_url.cache_clear()
    assert presenters.profile_url("alice") == "/players/alice/"
    presenters.profile_url("alice")
    assert presenters.profile_url.cache_info().hits == 1


def _players_of(match, users) -> dict[str, str]:
    """Each viewer's players region, drawn as a move's pushes draw them (the shared drawings
    cleared first)."""
    fragments._cache.clear()
    return {
        user.username if user else "anonymous": presenters.render_regions(
            presenters.match_context(match, user), ("players",)
        )["players"]
        for user in users
    }


def _tags(html: str) -> list[tuple[str, str]]:
    """(seat name, tag) for each "you" and "partner" tag in a players region."""
    return re.findall(
        r'<a href="/players/(\w+)/">\w+</a>\n<span class="tag(?: tag-partner)?">(\w+)</span>', html
    )


@pytest.mark.django_db
def test_the_players_region_is_drawn_once_for_every_viewer_with_each_ones_own_tags(
    alice, bob, charlie, dana, make_member
):
    erin = make_member("erin")
    match = services.match_create(creator=alice, variant="cribbage", players=4)
    for user in (bob, charlie, dana):
        services.match_join(match_id=match.pk, user=user)
    Seat.objects.filter(match_id=match.pk).update(connections=1)  # every page open
    match = presenters.load_match(match.pk)
    teams = {s.user.username: s.team for s in match.seats.all()}
    before = fragments.drawn["players"]
    players = _players_of(match, [alice, bob, charlie, dana, erin, None])
    assert fragments.drawn["players"] == before + 1  # one drawing for all six
    for viewer, html in players.items():
        assert "<!--" not in html  # no slot is left in
        expected = sorted(
            (name, "you" if name == viewer else "partner")
            for name, team in teams.items()
            if viewer in teams and team == teams[viewer]
        )
        assert sorted(_tags(html)) == expected, viewer
    assert players["erin"] == players["anonymous"]  # spectators: no tag at all


@pytest.mark.django_db
def test_a_member_is_never_shown_away_at_their_own_table(alice, bob):
    """A page drawn before its socket is back (a reload) shows the other seat away, never the
    reader's own; a spectator sees both away."""
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    Seat.objects.filter(match_id=match.pk).update(connections=0, away_since=timezone.now())
    match = presenters.load_match(match.pk)
    players = _players_of(match, [alice, bob, None])
    away = {
        viewer: re.findall(r'class="away" data-seat="(\d)"', html)
        for viewer, html in players.items()
    }
    assert away == {"alice": ["1"], "bob": ["0"], "anonymous": ["0", "1"]}
    assert all("<!--" not in html for html in players.values())


def test_a_log_line_worded_once_is_worded_again_for_other_names_and_another_language():
    from django.utils import translation

    from games.variants import web_game

    web = web_game("cribbage")
    event = {"kind": "play", "seat": 1, "text": "{p1} plays 5H (5)", "card": "5H", "count": 5}
    view = {"events": [event]}
    with translation.override("en"):
        english = presenters._events(web, view, ["Ann", "Bea"])
        assert presenters._events(web, view, ["Ann", "Bea"]) == english  # from the memo
        assert presenters._events(web, view, ["Ann", "Cal"]) != english
        assert "Cal" in presenters._events(web, view, ["Ann", "Cal"])[0]
    with translation.override("es"):
        spanish = presenters._events(web, view, ["Ann", "Bea"])
    assert "Bea" in english[0] and "Bea" in spanish[0]
    assert spanish != english
    presenters._event_lines.clear()
    with translation.override("es"):
        assert presenters._events(web, view, ["Ann", "Bea"]) == spanish  # worded afresh alike


def _play_until(match, members, reached, rng: random.Random, limit: int = 400):
    """Random legal moves until `reached(spectator's view)`; the match read afresh."""
    from games.engine import get_variant

    game = get_variant(match.variant)
    for _ in range(limit):
        match = presenters.load_match(match.pk)
        state = game.load(match.snapshot)
        if reached(game.view(state, None)):
            return match
        _play_one(match, members, rng, game, state)
    pytest.fail("the match never reached the board this test needs")


def _play_one(match, members, rng: random.Random, game, state=None) -> None:
    """One random legal move by the seat to move (the lowest, where several may)."""
    from games.engine import computer_move

    state = state if state is not None else game.load(match.snapshot)
    seat = min(game.to_move(state))
    move = computer_move(game, state, seat, "random", rng)
    services.match_play(match_id=match.pk, user=members[seat], seq=match.seq, move=move)


SHARED = {
    # game: (what the view must hold, where the shared part starts in the region, its name)
    "cribist": (
        lambda view: view["last_trick"] and len(view["tricks"]) > 1,
        '<section class="cx-last"',
        "cribist-record",
    ),
    "cribbage": (lambda view: len(view["shows"]) > 1, '<section class="shows"', "cribbage-shows"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("variant", sorted(SHARED))
def test_what_every_viewer_sees_alike_is_drawn_once_a_move_and_language(
    variant, alice, bob, charlie, dana, make_member
):
    """The Cribist hand's record and the Cribbage show are cached for all viewers of a board: drawn
    apart, each viewer's is the same, and drawn together, once (again in another language)."""
    from django.core.cache import caches
    from django.utils import translation

    members = [alice, bob, charlie, dana]
    match = services.match_create_seated(creator=alice, players=members, variant=variant)
    Seat.objects.filter(match_id=match.pk).update(connections=1)
    reached, start, fragment = SHARED[variant]
    match = _play_until(match, members, reached, random.Random(7))
    region = "board" if variant == "cribist" else "hand"
    shared = caches["fragments"]
    viewers = [*members, make_member("erin")]

    def part(html: str) -> str:
        assert start in html
        return html[html.index(start) : html.rindex("</section>")]

    apart = set()
    for viewer in viewers:
        shared.clear()
        fragments._cache.clear()
        presenters._render_cache.clear()
        apart.add(part(presenters.viewer_regions(match, viewer)[region]))
    assert len(apart) == 1  # the same for every viewer, each drawn on its own

    shared.clear()
    fragments._cache.clear()
    presenters._render_cache.clear()
    drawn_before = fragments.drawn[fragment]
    together = {part(presenters.viewer_regions(match, v)[region]) for v in viewers}

    def drawings() -> int:  # in the template cache, or kept in Python (fragments.region)
        cached = sum(fragment in key for key in shared._cache)  # noqa: SLF001
        return cached + fragments.drawn[fragment] - drawn_before

    assert together == apart and drawings() == 1
    with translation.override("es"):
        presenters._render_cache.clear()
        spanish = {part(presenters.viewer_regions(match, v)[region]) for v in viewers}
    assert drawings() == 2 and spanish != apart


# game: (the name of its shared board drawing, how many kinds of viewer it has)
SHARED_BOARDS = {"cribbage": ("cribbage-board", 1), "kings": ("kings-board", 2)}


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", sorted(SHARED_BOARDS))
def test_each_viewer_gets_the_board_it_would_get_drawn_on_its_own(
    variant, players, alice, bob, charlie, dana, make_member
):
    """What lies on the table is drawn once a move for all viewers alike: in Cribbage the
    pegboard, starter, crib, the count and the cards played (one drawing); in Kings the board,
    scores and racks' sizes (one for the seats, whose empty squares are buttons, and one for
    spectators). Through a random match, with the shared drawings kept from move to move as a
    server keeps them, each seat's and a spectator's board is the very board drawn for it alone
    from nothing, and each move adds at most one shared drawing per kind of viewer."""
    from django.core.cache import caches

    from games.engine import get_variant

    name, kinds = SHARED_BOARDS[variant]
    members = [alice, bob, charlie, dana][:players]
    viewers = [*members, make_member("erin")]
    match = services.match_create_seated(creator=alice, players=members, variant=variant)
    Seat.objects.filter(match_id=match.pk).update(connections=1)
    game, rng, shared = get_variant(variant), random.Random(players), caches["fragments"]
    kept, expiry = shared._cache, shared._expire_info  # noqa: SLF001 (the process's drawings)
    shared.clear()
    for _ in range(60):
        match = presenters.load_match(match.pk)
        before = sum(name in key for key in kept)
        presenters._render_cache.clear()
        together = [presenters.viewer_regions(match, viewer)["board"] for viewer in viewers]
        assert sum(name in key for key in kept) - before <= kinds
        saved = (kept.copy(), expiry.copy())
        for viewer, board in zip(viewers, together, strict=True):
            shared.clear()
            presenters._render_cache.clear()
            assert presenters.viewer_regions(match, viewer)["board"] == board
        kept.update(saved[0])
        expiry.update(saved[1])
        if match.status != "active":
            break
        _play_one(match, members, rng, game)


def test_a_seat_is_shown_a_shared_drawing_without_its_own_part():
    html = (
        "<ul><!--seat-part-0--><li>zero</li><!--/seat-part-->"
        "<!--seat-part-1-->\n<li>one</li>\n<!--/seat-part-->"
        "<!--seat-part-10--><li>ten</li><!--/seat-part--></ul>"
    )
    assert fragments.without_seat(html, 1) == "<ul><li>zero</li><li>ten</li></ul>"
    assert fragments.without_seat(html, 10) == "<ul><li>zero</li>\n<li>one</li>\n</ul>"
    everyone = "<ul><li>zero</li>\n<li>one</li>\n<li>ten</li></ul>"
    assert fragments.without_seat(html, None) == everyone
    assert fragments.without_seat("<p>no parts</p>", 0) == "<p>no parts</p>"


@pytest.mark.django_db
def test_the_cribbage_board_shows_each_seat_the_other_hands_and_a_spectator_all(
    alice, bob, charlie, make_member
):
    """The other hands are drawn once with the board for every viewer; each seat is shown every
    hand but its own, a spectator every hand, and no viewer a marker."""
    members = [alice, bob, charlie]
    match = services.match_create_seated(creator=alice, players=members, variant="cribbage")
    match = presenters.load_match(match.pk)
    hands = re.compile(r'<li data-source="seat-(\d)">')
    for seat, viewer in [(0, alice), (1, bob), (2, charlie), (None, make_member("erin"))]:
        board = presenters.viewer_regions(match, viewer)["board"]
        shown = {int(index) for index in hands.findall(board)}
        assert shown == {0, 1, 2} - {seat}
        assert "seat-part" not in board


def _parted(frame: str, **parts: str) -> fragments.Parted:
    pieces = tuple((name, f'<div id="{name}">{body}</div>') for name, body in parts.items())
    html = "\n".join([frame, *(html for _, html in pieces), "</section>"])
    return fragments.Parted.of(html, frame, pieces)


def test_a_region_drawn_in_parts_is_sent_as_the_parts_that_changed():
    frame = '<section id="board">'
    before = _parted(frame, a="1", b="2", c="3")
    after = _parted(frame, a="1", b="two", c="three")
    assert fragments.changes(before, after) == (
        '<div id="b" hx-swap-oob="true">two</div><div id="c" hx-swap-oob="true">three</div>'
    )
    assert fragments.changes(before, _parted(frame, a="1", b="2", c="3")) == ""


def test_a_region_whose_frame_or_parts_changed_is_sent_whole():
    frame = '<section id="board">'
    before = _parted(frame, a="1", b="2")
    for after in (
        _parted('<section id="board" class="over">', a="1", b="3"),  # another frame
        _parted(frame, a="1", c="3"),  # another part
        _parted(frame, a="1", b="2", c="3"),  # one more part
    ):
        assert fragments.changes(before, after) is after
    plain = "<section>plain</section>"
    assert fragments.changes(None, before) is before  # nothing sent yet
    assert fragments.changes(plain, before) is before
    assert fragments.changes(before, plain) is plain
    assert fragments.changes("<p>old</p>", plain) is plain


def test_a_region_drawn_in_parts_is_not_tightened_again():
    drawn = fragments.Parted.of("<section>\n  <p>kept as drawn</p>\n</section>", "", ())
    assert _tight(drawn) is drawn


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("variant", "players"),
    [("cribbage", 2), ("cribbage", 3), ("cribbage", 4), ("tabletop", 2), ("tabletop", 4),
     ("crosscrib", 2), ("kings", 2), ("kings", 4), ("cribist", 4)],
)  # fmt: skip
def test_every_region_every_viewer_is_shown_comes_tight(
    variant, players, alice, bob, charlie, dana, make_member
):
    """Through a random match, in English and Spanish, each region drawn for each seat and a
    spectator is as tightening would leave it: those put together from pieces kept tight (the
    players, the Cribbage board) or drawn tight by their game are not gone over again at every
    push, and must not bring indentation or blank lines back."""
    from django.utils import translation

    from games.engine import get_variant

    members = [alice, bob, charlie, dana][:players]
    viewers = [*members, make_member("erin"), None]
    match = services.match_create_seated(creator=alice, players=members, variant=variant)
    Seat.objects.filter(match_id=match.pk).update(connections=1)
    game, rng = get_variant(variant), random.Random(players)
    for _ in range(40):
        match = presenters.load_match(match.pk)
        for language in ("en", "es"):
            with translation.override(language):
                for viewer in viewers:
                    for name, html in presenters.viewer_regions(match, viewer).items():
                        assert _tight(str(html)) == html, (variant, name, language)
        if match.status != "active":
            break
        _play_one(match, members, rng, game)
