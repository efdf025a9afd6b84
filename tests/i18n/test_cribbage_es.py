"""Classic Cribbage in Spanish: every event kind the engine emits has a Spanish line, the
prompts are in Spanish, and the table, the replay, the rules and the analysis pages leave no
English in what Cribbage itself writes on them.

The match page's shared frame (navigation, "At the table", the actions) is the shared
templates' work; here the Cribbage regions are checked: the board, the hand (with the show),
the prompt in the status line and the log of what happened.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine import get_variant
from games.engine.core import IllegalMove
from games.engine.cribbage import game as cribbage_game
from games.engine.cribbage.game import cut_for_deal
from games.texts import card_text, engine_text, event_text, prompt_text
from games.variants import web_game
from games.variants.cribbage.texts import EVENTS, count_text, outcome_reason
from tests.games.helpers import fresh
from tests.i18n.spanish import english_left

CRIBBAGE = get_variant("cribbage")
WEB = web_game("cribbage")
NAMES = ["Ana", "Bea", "Carlos", "Dani"]
TABLES = [
    (2, {"target": 61}),
    (2, {"target": 61, "muggins": True}),
    (3, {"target": 61, "games": 3}),
    (3, {"target": 61, "muggins": True}),
    (4, {"target": 61, "games": 3}),
    (4, {"target": 61, "muggins": True}),
]


def _kinds_documented() -> set[str]:
    """The event kinds the engine's docstring lists."""
    listed = (cribbage_game.__doc__ or "").split("Event kinds:")[1].split(".")[0]
    return {kind.strip() for kind in listed.replace("\n", " ").split(",")}


def _random_match(players: int, options: dict, seed: int):
    """Every state and event of a random match played to its end by the engine alone."""
    rng = random.Random(seed)
    state = CRIBBAGE.new_state(players, options, f"es-{players}-{seed}".encode())
    events = list(state.events())
    states = [state]
    while CRIBBAGE.outcome(state) is None:
        seat = min(CRIBBAGE.to_move(state))
        state, new = CRIBBAGE.apply(state, seat, rng.choice(CRIBBAGE.legal_moves(state, seat)))
        events += new
        states.append(state)
    return states, events


@pytest.fixture(scope="module")
def played():
    return [
        (players, _random_match(players, options, seed))
        for players, options in TABLES
        for seed in range(2)
    ]


def test_every_documented_event_kind_has_a_spanish_describer():
    assert _kinds_documented() <= set(EVENTS), _kinds_documented() - set(EVENTS)


def test_every_event_of_random_games_reads_in_spanish(played):
    seen: set[str] = set()
    with translation.override("es"):
        for players, (_, events) in played:
            names = NAMES[:players]
            for item in events:
                kind = item["kind"]
                assert kind in EVENTS, f"no Spanish for the event kind {kind!r}"
                line = event_text(WEB, item, names)
                assert english_left(line) == [], (kind, line, item["text"])
                assert "{" not in line and "%(" not in line, line
                seen.add(kind)
    # a tie in the cut for the deal and his heels are rare: find them on purpose below
    assert seen >= _kinds_documented() - {"cut_tie", "heels"}, _kinds_documented() - seen


def test_a_tie_in_the_cut_and_his_heels_read_in_spanish():
    tie = next(
        e
        for seed in range(200)
        for e in cut_for_deal(f"tie-{seed}".encode(), 3)[1]
        if e["kind"] == "cut_tie"
    )
    heels = next(e for seed in range(400) for e in _deal_and_cut(seed) if e["kind"] == "heels")
    with translation.override("es"):
        tie_line = event_text(WEB, tie, NAMES[:3])
        heels_line = event_text(WEB, heels, NAMES[:2])
    assert "vuelven a cortar" in tie_line and english_left(tie_line) == []
    assert "sota de corte" in heels_line and english_left(heels_line) == []


def _deal_and_cut(seed: int):
    """The events of one deal's discard and cut in a two-player game."""
    state = CRIBBAGE.new_state(2, {}, f"heels-{seed}".encode())
    events = []
    for seat in (0, 1):
        state, new = CRIBBAGE.apply(state, seat, CRIBBAGE.legal_moves(state, seat)[0])
        events += new
    return events


def test_the_log_says_the_play_and_the_count_as_spanish_players_do():
    play = {"kind": "play", "seat": 1, "text": "{p1} plays 5H (15)", "card": "5H", "count": 15}
    peg = {
        "kind": "peg",
        "seat": 1,
        "text": "{p1} pegs 2 for fifteen",
        "points": 2,
        "reasons": [{"kind": "fifteen", "size": 0, "points": 2}],
    }
    state = CRIBBAGE.load(CRIBBAGE.dump(_shown_state()))
    show = next(e for e in state.events() if e["kind"] == "show" and e.get("calls"))
    with translation.override("es"):
        assert event_text(WEB, play, NAMES[:2]) == "Bea juega 5♥\ufe0e (15)"
        assert event_text(WEB, peg, NAMES[:2]) == "Bea se anota 2 por quince"
        assert count_text(show["calls"]) in event_text(WEB, show, NAMES[:2])
        assert "quince 2" in count_text([{"kind": "fifteen", "running": 2}])
    with translation.override("en"):
        assert event_text(WEB, play, ["Ana", "Bea"]) == "Bea plays 5♥\ufe0e (15)"  # not "5H"


def _shown_state():
    """A two-player hand played through to the show."""
    state = CRIBBAGE.new_state(2, {}, b"show")
    while state.phase not in ("counted", "match_over"):
        seat = min(CRIBBAGE.to_move(state))
        state, _ = CRIBBAGE.apply(state, seat, CRIBBAGE.legal_moves(state, seat)[0])
    return state


def test_every_prompt_and_result_of_random_games_reads_in_spanish(played):
    with translation.override("es"):
        for players, (states, _) in played:
            names = NAMES[:players]
            for state in states[:: max(1, len(states) // 60)] + [states[-1]]:
                for seat in [None, *range(players)]:
                    view = CRIBBAGE.view(state, seat)
                    said = prompt_text(WEB, view, names)
                    assert english_left(said) == [], (view["phase"], said, view["prompt"])
            outcome = CRIBBAGE.view(states[-1], None)["outcome"]
            reason = outcome_reason(outcome, names)
            assert "gana" in reason and english_left(reason) == [], reason


def test_illegal_moves_are_explained_in_spanish():
    state = CRIBBAGE.new_state(2, {}, b"illegal")
    held = [str(card) for card in state.held[0]]
    other = next(str(card) for card in state.held[1])
    tries = [
        {"type": "discard", "cards": held[:1]},
        {"type": "discard", "cards": ["ZZ", held[0]]},
        {"type": "discard", "cards": [held[0], held[0]]},
        {"type": "discard", "cards": [held[0], other]},
        {"type": "go"},
        {"type": "jump"},
    ]
    for move in tries:
        with pytest.raises(IllegalMove) as caught:
            CRIBBAGE.apply(state, 0, move)
        with translation.override("es"):
            said = engine_text(caught.value.template, caught.value.params)
        # the names of the moves in the JSON API ("play", "count") are written as they are
        api_words = frozenset({"play", "count"}) if move["type"] == "jump" else frozenset()
        assert said != str(caught.value), said
        assert english_left(said, allowed=api_words) == [], said


# --- pages ----------------------------------------------------------------------------------


class _Region(HTMLParser):
    """The HTML of the element with a given id (the element itself included)."""

    def __init__(self, element_id: str) -> None:
        super().__init__(convert_charrefs=False)
        self.element_id, self.depth, self.tag, self.parts = element_id, 0, None, []

    def handle_starttag(self, tag, attrs):
        if self.depth == 0 and dict(attrs).get("id") == self.element_id:
            self.tag, self.depth = tag, 1
            self.parts.append(self.get_starttag_text())
        elif self.depth:
            self.parts.append(self.get_starttag_text())
            self.depth += tag == self.tag

    def handle_startendtag(self, tag, attrs):
        if self.depth:
            self.parts.append(self.get_starttag_text())

    def handle_endtag(self, tag):
        if self.depth:
            self.parts.append(f"</{tag}>")
            if tag == self.tag:
                self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)

    def handle_entityref(self, name):
        if self.depth:
            self.parts.append(f"&{name};")

    def handle_charref(self, name):
        if self.depth:
            self.parts.append(f"&#{name};")


def region(html: str, element_id: str) -> str:
    reader = _Region(element_id)
    reader.feed(html)
    return "".join(reader.parts)


def cribbage_parts(page: str, *, over: bool) -> dict[str, str]:
    """What Cribbage writes on the match page: its board and hand regions, the prompt (the
    status line without the shared "your move" badge) and the lines of the log (without the
    shared heading). Once the match is over the status line is the shared outcome banner."""
    status = re.sub(r'<span class="badge">.*?</span>', "", region(page, "status"))
    log = re.search(r'<ol class="events".*?</ol>', region(page, "events"), re.S)
    parts = {
        "board": region(page, "board"),
        "hand": region(page, "hand"),
        "log": log.group(0) if log else "",
    }
    if not over:
        parts["prompt"] = status
    return parts


def _play_seated(members, options, seed):
    """A match of members only; yields (match, phase, legal move types of the seat to move)."""
    match = services.match_create_seated(
        creator=members[0], players=members, variant="cribbage", options=options
    )
    rng = random.Random(seed)
    for _ in range(4000):
        match = fresh(match)
        if match.is_over:
            yield match, "match_over", set()
            return
        state = CRIBBAGE.load(match.snapshot)
        seat = min(CRIBBAGE.to_move(state))
        legal = CRIBBAGE.legal_moves(state, seat)
        yield match, state.phase, {m["type"] for m in legal}
        services.match_play(
            match_id=match.pk, user=members[seat], seq=match.seq, move=rng.choice(legal)
        )
    raise AssertionError("the match did not end")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"target": 61, "muggins": True}),
        (3, {"target": 61}),
        (4, {"target": 61, "games": 2}),
    ],
)
def test_the_match_page_reads_in_spanish_in_every_phase(client, make_member, players, options):
    members = [make_member(name.lower()) for name in NAMES[:players]]
    seen: set[tuple] = set()
    for match, phase, moves in _play_seated(members, options, players):
        key = (phase, frozenset(moves))
        if key in seen:
            continue
        seen.add(key)
        state = CRIBBAGE.load(match.snapshot)
        acting = sorted(CRIBBAGE.to_move(state)) or [0]
        idle = [s for s in range(players) if s not in acting] or [acting[0]]
        for seat in {acting[0], idle[0]}:
            client.force_login(members[seat])
            page = client.get(
                reverse("match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="es"
            ).content.decode()
            parts = cribbage_parts(page, over=match.is_over)
            for name, html in parts.items():
                assert english_left(html) == [], (phase, sorted(moves), name, english_left(html))
            assert "Carta inicial" in parts["board"] and "Cuenta" in parts["board"]
    phases = {phase for phase, _ in seen}
    assert {"discard", "play", "counted", "match_over"} <= phases, phases
    if options.get("muggins"):
        assert "show" in phases
    if options.get("games", 1) > 1:
        assert "game_over" in phases


@pytest.mark.django_db
def test_the_show_is_said_aloud_in_spanish_on_the_table(client, alice, bob):
    match = next(
        match
        for match, phase, _ in _play_seated([alice, bob], {"target": 121}, 7)
        if phase == "counted"
    )
    client.force_login(alice)
    page = client.get(reverse("match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="es").content
    hand = region(page.decode(), "hand")
    assert "El recuento" in hand and "Siguiente mano" in hand
    assert re.search(r"quince 2|par 2|escalera de \d|diecinueve: nada que contar", hand)
    assert 'class="tag tag-repartidor">repartidor<' in page.decode()
    assert english_left(hand) == []


@pytest.mark.django_db
def test_the_rules_page_is_in_spanish(client):
    page = client.get(reverse("rules", args=["cribbage"]), HTTP_ACCEPT_LANGUAGE="es")
    article = region(page.content.decode().replace("<article", '<article id="rules"', 1), "rules")
    assert "Cómo se juega al cribbage" in article
    for word in ("cuna", "carta inicial", "«ir»", "repartidor", "sota de corte", "capote"):
        assert word in article, word
    assert english_left(article) == []
    english = client.get(reverse("rules", args=["cribbage"]), HTTP_ACCEPT_LANGUAGE="en")
    assert "How to play Cribbage" in english.content.decode()


@pytest.mark.django_db
def test_the_analysis_pages_are_in_spanish(client, alice, bob):
    client.force_login(alice)
    page = client.get(
        reverse("cribbage_analyser"), {"cards": "5H 5C JD 6S 7S KH"}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    article = region(page.replace("<article", '<article id="analysis"', 1), "analysis")
    assert "Analizador de descartes" in article and "De mejor a peor" in article
    assert english_left(article) == []
    wrong = client.get(reverse("cribbage_analyser"), {"cards": "5H 5X"}, HTTP_ACCEPT_LANGUAGE="es")
    assert wrong.status_code == 400 and "no es una carta" in wrong.content.decode()

    *_, (match, _, _) = _play_seated([alice, bob], {"target": 61}, 3)
    assert match.is_over
    page = client.get(
        reverse("cribbage_match_discards", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    article = region(page.replace("<article", '<article id="analysis"', 1), "analysis")
    assert "¿Cómo ha descartado" in article and "Mano 1" in article
    assert english_left(article) == []
    replay = client.get(
        reverse("match_replay", args=[match.pk]), {"step": 3}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "Carta inicial" in replay and "descarta" in replay


def test_english_keeps_the_engines_words_and_names_cards_by_rank_and_suit(played):
    with translation.override("en"):
        for players, (_, events) in played[:2]:
            for item in events:
                expected = item["text"].format(
                    **{f"p{i}": n for i, n in enumerate(NAMES[:players])}
                )
                if "card" in item:  # "Ana cuts 5♥", not "Ana cuts 5H"
                    expected = expected.replace(item["card"], card_text(item["card"]))
                assert event_text(WEB, item, NAMES[:players]) == expected


def test_events_stored_before_they_carried_their_data_still_read():
    """A match in progress keeps its recent events in its snapshot: those written before the
    events had their data keep the engine's words rather than a broken Spanish line."""
    old = [
        {"kind": "show", "seat": 0, "text": "{p0} shows 4 (fifteen 2, fifteen 4)", "points": 4},
        {"kind": "peg", "seat": 1, "text": "{p1} pegs 2 for fifteen", "points": 2},
        {"kind": "discard", "seat": 1, "text": "{p1} lays 2 cards in the crib"},
        {"kind": "game_over", "seat": 1, "text": "{p1} wins 121 to 80"},
    ]
    with translation.override("es"):
        lines = [event_text(WEB, item, ["Ana", "Bea"]) for item in old]
    assert lines[0] == "mano de Ana: 4"
    assert lines[1] == "Bea se anota 2"
    assert lines[2:] == ["Bea lays 2 cards in the crib", "Bea wins 121 to 80"]
