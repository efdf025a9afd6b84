"""Table Top Cribbage and CrossCrib in Spanish: every event of whole random games, every prompt,
the engine's refusals, the match page in each phase and both rules pages, with no English left.

The match page's own frame (templates/games/match.html, outcome.html) is shared by every game;
here the regions the game draws are checked: the layout (#board), the card being placed
(#hand), the prompt (#status, while the match is on) and the log's lines.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine import IllegalMove, get_variant
from games.engine.tabletop import position
from games.models import Match
from games.texts import engine_text, event_text
from games.variants import web_game
from games.variants.tabletop import texts
from tests.engine.tabletop.helpers import LAYOUT, layout_missing_last, random_steps
from tests.games.helpers import fresh
from tests.i18n.spanish import english_left

GAMES = [("tabletop", 2), ("tabletop", 4), ("crosscrib", 2)]
NAMES = ["Bea", "Ana", "Carmen", "Dolores"]
KINDS = {"dealer", "deal", "place", "crib", "lines", "crib_count", "deal_over", "game_over"}


@pytest.fixture
def spanish():
    with translation.override("es"):
        yield


# --- the engine's words, from whole random games ------------------------------------------------


@pytest.mark.parametrize(("key", "players"), GAMES)
@pytest.mark.parametrize("n", range(2))
def test_every_event_and_prompt_of_a_whole_game_reads_in_spanish(spanish, key, players, n):
    web = web_game(key)
    engine = get_variant(key)
    names = NAMES[:players]
    options = {"target": 61 if key == "tabletop" else 15}
    seen: set[str] = set()
    rng = random.Random(n)
    steps = random_steps(key, players, f"es-{n}".encode(), rng, options)
    for step, (before, _, _, after, events) in enumerate(steps):
        if step == 0:
            events = before.events() + events  # the draw for the first dealer and the deal
        for event in events:
            assert event["kind"] in texts.EVENTS, event["kind"]
            seen.add(event["kind"])
            line = event_text(web, event, names)
            assert line and english_left(line) == [], (event, line)
            assert "{" not in line and "%(" not in line, line
        for seat in [None, *range(players)]:
            view = engine.view(after, seat)
            said = texts.prompt(view, names)
            if view["prompt"]:
                assert said, view["prompt"]
                assert english_left(said) == [], (view["prompt"], said)
    expected = KINDS if key == "crosscrib" else KINDS - {"crib", "crib_count"}
    assert seen == expected


def test_the_log_says_the_moves_and_the_count_in_spanish(spanish):
    web = web_game("crosscrib")
    place = {"kind": "place", "seat": 0, "text": "", "card": "TH", "row": 1, "col": 3}
    assert event_text(web, place, NAMES) == "Bea coloca 10♥\ufe0e en la fila 2, columna 4"
    crib = {
        "kind": "crib_count",
        "seat": 1,
        "text": "",
        "points": 4,
        "calls": [
            {"kind": "fifteen", "size": 2, "many": 1, "points": 2, "running": 2},
            {"kind": "pair", "size": 2, "many": 1, "points": 2, "running": 4},
        ],
    }
    assert event_text(web, crib, NAMES) == "Cuna de Ana: 4 (quince 2, par 4)"
    lines = {"kind": "lines", "seat": 0, "text": "", "points": 39, "lines": "columns"}
    assert event_text(web, {**lines, "seats": [0, 2]}, NAMES) == (
        "Bea y Carmen se anotan 39 en las columnas"
    )
    over = {"kind": "deal_over", "seat": None, "text": "", "scores": [40, 32], "deal": 3}
    assert event_text(web, over, NAMES) == "Tras la mano 3: 40 a 32"


def test_an_event_stored_before_its_parameters_keeps_the_engines_words(spanish):
    old = {"kind": "crib_count", "seat": 0, "text": "Crib of {p0}: 4 (fifteen 2, a pair is 4)"}
    assert (
        event_text(web_game("crosscrib"), old, NAMES) == "Crib of Bea: 4 (fifteen 2, a pair is 4)"
    )


def test_the_end_is_said_in_spanish_with_the_skunk_and_the_game_points(spanish):
    def said(**fields):
        return texts.result_text(NAMES, **fields)

    assert said(winners=[0], score=121, loser_score=88, unit="points", skunk=1) == (
        "Bea gana 121 a 88 (capote)"
    )
    assert said(winners=[1, 3], score=122, loser_score=50, unit="points", skunk=2) == (
        "Ana y Dolores ganan 122 a 50 (doble capote)"
    )
    assert said(winners=[1], score=31, loser_score=12, unit="game_points", skunk=0) == (
        "Ana gana 31 a 12 en puntos de partida"
    )


def test_the_engines_refusals_are_said_in_spanish(spanish):
    game = get_variant("tabletop")
    state = position("tabletop", layout_missing_last(), ["QD", ""], turn=0)
    tries = [
        (state, 1, {"type": "place", "row": 4, "col": 4}),
        (state, 0, {"type": "place", "row": 0, "col": 0}),
        (state, 0, {"type": "place", "row": 7, "col": 0}),
        (state, 0, {"type": "place", "row": "a", "col": 0}),
        (state, 0, {"type": "fly"}),
        (state, 0, {"type": "continue"}),
        (state, 5, {"type": "place"}),
    ]
    board = LAYOUT.split()
    board[0] = "."
    crossed = position("crosscrib", " ".join(board), ["5H 7H", ""], cribs=["", ""], turn=0)
    cross = get_variant("crosscrib")
    tries.append((crossed, 0, {"type": "place", "row": 0, "col": 0}))
    for before, seat, move in tries:
        engine = cross if before is crossed else game
        with pytest.raises(IllegalMove) as refused:
            engine.apply(before, seat, move)
        error = refused.value
        spanish_words = engine_text(error.template, error.params)
        assert spanish_words != str(error), str(error)
        assert english_left(spanish_words) == [], spanish_words
    assert engine_text("the match is over") == "el encuentro ha terminado"


def test_the_game_names_options_and_tags_are_in_spanish(spanish):
    assert engine_text(get_variant("tabletop").name) == "Cribbage de mesa"
    spec = get_variant("crosscrib").options_schema["target"]
    assert engine_text(spec["label"]) == "Puntos de partida para ganar"
    assert engine_text(spec["summary"]).format(31) == "a 31 puntos de partida"
    for key in ("tabletop", "crosscrib"):
        assert english_left(str(web_game(key).description)) == []
    view = get_variant("tabletop").view(get_variant("tabletop").new_state(2, {}, b"tags"), 0)
    tags = web_game("tabletop").seat_tags(view)
    assert sorted(sum(tags.values(), [])) == ["columnas", "filas", "repartidor"]


# --- the match page and the rules pages ----------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _Region(HTMLParser):
    """The HTML of the elements whose id (or class) is asked for, each with what it holds."""

    def __init__(self, wanted) -> None:
        super().__init__(convert_charrefs=False)
        self.wanted = wanted
        self.found: list[str] = []
        self._depth = 0
        self._parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        text = self.get_starttag_text() or ""
        if self._depth:
            self._parts.append(text)
            if tag not in VOID:
                self._depth += 1
        elif self.wanted(dict(attrs)):
            self._parts = [text]
            self._depth = 0 if tag in VOID else 1

    def handle_startendtag(self, tag, attrs):
        if self._depth:
            self._parts.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag):
        if not self._depth:
            return
        self._parts.append(f"</{tag}>")
        self._depth -= 1
        if not self._depth:
            self.found.append("".join(self._parts))

    def handle_data(self, data):
        if self._depth:
            self._parts.append(data)

    def handle_entityref(self, name):
        self.handle_data(f"&{name};")

    def handle_charref(self, name):
        self.handle_data(f"&#{name};")


def regions(page: str, *, status: bool = True) -> str:
    """The parts of the match page the game draws (and the prompt while the match is on)."""
    ids = {"board", "hand"} | ({"status"} if status else set())

    def wanted(attrs):
        return attrs.get("id") in ids or "events" in (attrs.get("class") or "").split()

    reader = _Region(wanted)
    reader.feed(page)
    # The "your move" badge before the prompt is the shared frame's (templates/games/match.html).
    return re.sub(r'<span class="badge">[^<]*</span>', "", "\n".join(reader.found))


@pytest.fixture
def members(make_member):
    return [make_member(name.lower(), display_name=name) for name in [*NAMES, "Elena"]]


def _play(match: Match, members, rng: random.Random, until) -> Match:
    """Random legal moves by whoever is to move, until `until(view)` holds (or the end)."""
    engine = get_variant(match.variant)
    for _ in range(2000):
        match = fresh(match)
        if match.status != Match.Status.ACTIVE:
            return match
        state = engine.load(match.snapshot)
        if until(engine.view(state, None)):
            return match
        seat = rng.choice(sorted(match.to_move))
        move = rng.choice(engine.legal_moves(state, seat))
        services.match_play(match_id=match.pk, user=members[seat], seq=match.seq, move=move)
    raise AssertionError("the match did not get there")


def _read(client, match: Match, member, *, status: bool = True) -> str:
    client.force_login(member)
    page = client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es")
    assert page["Content-Language"] == "es"
    html = regions(page.content.decode(), status=status)
    assert 'id="board"' in html and 'id="hand"' in html
    assert english_left(html) == [], english_left(html)
    return html


@pytest.mark.django_db
@pytest.mark.parametrize(("key", "players"), GAMES)
def test_the_match_page_reads_in_spanish_in_every_phase(client, members, key, players):
    seated = members[:players]
    options = {"target": 31 if key == "tabletop" else 5}
    match = services.match_create_seated(
        creator=seated[0], players=seated, variant=key, options=options
    )
    rng = random.Random(players)
    engine = get_variant(key)
    state = engine.load(fresh(match).snapshot)
    turn = state.turn
    placing = _read(client, match, seated[turn])
    assert "Tu carta" in placing and "casilla resaltada" in placing
    watching = _read(client, match, members[4])  # Elena, who has no seat
    assert "Estás mirando" in watching
    waiting = _read(client, match, seated[(turn + 1) % players])
    assert f"Esperando a que juegue {NAMES[turn]}" in waiting
    if players == 4:
        partner = _read(client, match, seated[(turn + 2) % 4])
        assert "Toca una casilla para sugerírsela a" in partner
        suggestion = engine.legal_moves(state, (turn + 2) % 4)[0]
        services.match_play(
            match_id=match.pk, user=seated[(turn + 2) % 4], seq=fresh(match).seq, move=suggestion
        )
        advised = _read(client, match, seated[turn])
        assert "sugiere la fila" in advised and "(sugerencia de tu pareja)" in advised
    if key == "crosscrib":
        assert "A la cuna" in placing and "Has puesto 0 de 2 en la cuna" in placing
        match = _play(match, seated, rng, lambda view: sum(view["crib"]["counts"]) >= 1)
        mid = _read(client, match, seated[0])
        assert "en la cuna" in mid
    match = _play(match, seated, rng, lambda view: view["phase"] == "counted")
    if match.status == Match.Status.ACTIVE:
        counted = _read(client, match, seated[0])
        assert "Mano 1: el recuento" in counted and "Siguiente mano" in counted
        assert "Columna 1" in counted and "Fila 5" in counted and "quince 2" in counted
        assert "Tras la mano 1:" in counted
        if key == "crosscrib":
            assert "con la carta central como carta inicial" in counted
    match = _play(match, seated, rng, lambda view: False)
    assert match.status == Match.Status.FINISHED
    end = _read(client, match, seated[0], status=False)
    assert " gana" in end
    replay = client.get(
        reverse("match_replay", args=[match.pk]) + "?step=2", HTTP_ACCEPT_LANGUAGE="es"
    )
    html = regions(replay.content.decode().replace('class="status"', 'id="status"'))
    assert english_left(html) == [] and "colocó una carta en la fila" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "phrase"),
    [("tabletop", "Cómo se juega al cribbage de mesa"), ("crosscrib", "puntos de partida")],
)
def test_both_rules_pages_are_in_spanish(client, key, phrase):
    page = client.get(reverse("rules", args=[key]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    article = re.split(r'<article class="rules card"[^>]*>', page)[1].split("</article>")[0]
    assert english_left(article) == [], english_left(article)
    assert phrase in article
    english = client.get(reverse("rules", args=[key]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "How to play" in english
