"""Kings Cribbage and Cribist in Spanish: every event line, prompt and preview reason, the
tables in several phases, and both rules pages, with no English left.

Random games run to the end with the engine for every player count and every option that
changes the events; each event kind they produce must have a describer in the game's
texts.py, and each line said in Spanish must leave no English word (tests/i18n/spanish.py).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine import get_variant
from games.engine.core.variant import fill_names
from games.engine.kings.game import draw_for_start
from games.models import Match
from games.texts import engine_text, event_text, prompt_text
from games.variants import web_game
from games.variants.cribist import texts as cribist_texts
from games.variants.kings import texts as kings_texts
from tests.engine.kings.helpers import board_with, game_with, lay, row_of
from tests.i18n.spanish import english_left

NAMES = ["Ana", "Bea", "Carla", "Dani"]
KINGS = get_variant("kings")
CRIBIST = get_variant("cribist")


def spanish(text: str) -> list[str]:
    """English words left in a line said in Spanish."""
    return english_left(text)


# --- the engine's events and prompts, game by game ------------------------------------------


def kings_game(players: int, options: dict[str, Any], seed: int) -> Iterator[tuple[Any, list]]:
    """A random Kings game to the end: (state, events of the move that led there)."""
    rng = random.Random(seed)
    state = KINGS.new_state(players, options, f"kings es {seed}".encode())
    yield state, state.events()
    while KINGS.outcome(state) is None:
        seat = rng.choice(sorted(KINGS.to_move(state)))
        legal = KINGS.legal_moves(state, seat)
        calls = [m for m in legal if m["type"] == "joker"]
        move = calls[0] if calls and rng.random() < 0.5 else rng.choice(legal)
        if options.get("joker") and move["type"] == "lay" and move["points"] and rng.random() < 0.5:
            move = {**move, "points": move["points"] - 1}  # under-counted: open to a call
        state, events = KINGS.apply(state, seat, move)
        yield state, events


def cribist_game(options: dict[str, Any], seed: int) -> Iterator[tuple[Any, list]]:
    """A random Cribist match to the end; a timed one stamps each move a minute apart."""
    rng = random.Random(seed)
    state = CRIBIST.new_state(4, options, f"cribist es {seed}".encode())
    yield state, state.events()
    clock = 1_000
    while CRIBIST.outcome(state) is None:
        seat = rng.choice(sorted(CRIBIST.to_move(state)))
        move = dict(rng.choice(CRIBIST.legal_moves(state, seat)))
        if options.get("ending") == "time":
            clock += 60
            move["at"] = clock
        state, events = CRIBIST.apply(state, seat, move)
        yield state, events


KINGS_GAMES = [
    (players, options, seed)
    for players in (2, 3, 4)
    for seed, options in enumerate(
        [{}, {"joker": True}, {"centre_start": True, "reduced_first_bonus": True}]
    )
]
CRIBIST_GAMES = [
    ({"deals": 1}, 1),
    ({"deals": 2, "muggins": True}, 2),
    ({"ending": "target", "target": 25}, 3),
    ({"ending": "target", "target": 25, "muggins": True}, 4),
    ({"ending": "time", "minutes": 5}, 5),
    ({"ending": "time", "minutes": 5, "muggins": True}, 6),
]


def check_events(web_key: str, describers: dict, events: list[dict], seen: set[str]) -> None:
    web = web_game(web_key)
    names = NAMES[: 4 if web_key == "cribist" else len(NAMES)]
    for event in events:
        kind = event["kind"]
        assert kind in describers, f"{web_key} has no Spanish line for its {kind!r} events"
        seen.add(kind)
        with translation.override("es"):
            line = event_text(web, event, names)
        assert not spanish(line), (kind, line, spanish(line))
        assert line != fill_names(event["text"], names), (kind, line)


@pytest.mark.parametrize(("players", "options", "seed"), KINGS_GAMES)
def test_every_kings_event_and_prompt_reads_in_spanish(players, options, seed):
    seen: set[str] = set()
    for number, (state, events) in enumerate(kings_game(players, options, seed)):
        check_events("kings", kings_texts.EVENTS, events, seen)
        if number % 7 == 0 or KINGS.outcome(state) is not None:
            for seat in [None, *range(players)]:
                check_prompt("kings", KINGS.view(state, seat))
    assert {"draw", "start", "deal", "lay", "game_over"} <= seen
    check_outcome(kings_texts, KINGS, state)
    if options.get("joker"):
        assert "joker" in seen


def test_a_tie_in_the_draw_for_the_start_reads_in_spanish():
    for number in range(200):
        _, events = draw_for_start(f"tie {number}".encode(), 4)
        if any(e["kind"] == "draw_tie" for e in events):
            check_events("kings", kings_texts.EVENTS, events, set())
            return
    pytest.fail("no seed in 200 gave a tie in the draw")


@pytest.mark.parametrize(("options", "seed"), CRIBIST_GAMES)
def test_every_cribist_event_and_prompt_reads_in_spanish(options, seed):
    seen: set[str] = set()
    for state, events in cribist_game(options, seed):
        check_events("cribist", cribist_texts.EVENTS, events, seen)
        for seat in [None, 0, 1, 2, 3]:
            check_prompt("cribist", CRIBIST.view(state, seat))
    assert {"dealer", "deal", "lead", "play", "trick", "match_over"} <= seen
    check_outcome(cribist_texts, CRIBIST, state)
    if options.get("muggins"):
        assert {"declare", "muggins", "pass"} <= seen


def test_every_kind_of_event_the_engines_name_has_a_spanish_line():
    kings = {"draw", "draw_tie", "start", "deal", "lay", "exchange", "pass", "joker", "game_over"}
    cribist = {
        "dealer", "deal", "lead", "play", "trick", "declare", "muggins", "pass", "unclaimed",
        "trick_points", "match_over",
    }  # fmt: skip
    assert kings <= set(kings_texts.EVENTS)
    assert cribist <= set(cribist_texts.EVENTS)


def check_outcome(texts, engine, state) -> None:
    """The result said in Spanish (for the shared outcome text, through texts.outcome)."""
    result = engine.outcome(state)
    with translation.override("es"):
        said = texts.outcome(result.to_json(), NAMES, engine.view(state, None))
    assert not spanish(said) and said != fill_names(result.reason, NAMES), said
    assert "gana" in said or "comparten" in said


def check_prompt(web_key: str, view: dict[str, Any]) -> None:
    english = fill_names(view.get("prompt") or "", NAMES)
    with translation.override("es"):
        said = prompt_text(web_game(web_key), view, NAMES)
    assert not spanish(said), (view["phase"], said)
    assert said != english or not english, said


# --- Kings' live preview: every reason a lay is refused, in Spanish --------------------------

BAD_LAYS = {
    "gap": lay("6,5=9D 6,7=TD"),
    "off the board": lay("6,12=5D 6,13=TD"),
    "missing corner": lay("12,9=5D 12,10=TD"),
    "two on a square": lay("6,5=5D 6,5=TD"),
    "not in a line": lay("6,5=5D 7,6=TD"),
    "first lay of one tile": lay("6,6=5D"),
    "too many tiles": lay(*row_of(6, 2, "5D TD 5L TL 9D 6D")),
    "no tiles": {"type": "lay", "tiles": []},
    "not a placement": lay("66=5D"),
    "row out of range": lay("x,6=5D 6,7=TD"),
    "not a tile": lay("6,6=5X 6,7=TD"),
    "no light tile": lay("6,6=KL 6,7=5D"),
    "no dark tile": lay("6,6=KD 6,7=5D"),
    "no light 6 or 9": lay("6,6=9L 6,7=6D"),
    "no dark 6 or 9": lay("6,6=6D 6,7=9D"),
    "one tile scores nothing": lay("6,6=5D 6,7=TD 6,8=9D"),
    "tiles score nothing": lay(*row_of(6, 5, "5D TD 9D 2L")),
}
BAD_LATER_LAYS = {
    "already has a tile": lay("6,6=5D 6,7=TD"),
    "not touching": lay("2,2=5D 2,3=TD"),
    "line too long": lay(*row_of(6, 10, "5D TD")),
}
BAD_MOVES = {
    "pass with points": {"type": "pass", "points": 3},
    "exchange nothing": {"type": "exchange", "tiles": [], "points": 0},
    "exchange too many": {"type": "exchange", "tiles": ["5D", "TD"], "points": 0},
    "joker with nothing open": {"type": "joker"},
    "no such move": {"type": "castle"},
}


@pytest.fixture
def kings_match(alice, bob):
    return services.match_create_seated(
        creator=alice, players=[alice, bob], variant="kings", options={}
    )


def set_state(match: Match, state: Any) -> None:
    match.snapshot = KINGS.dump(state)
    match.save(update_fields=["snapshot"])


def preview_in(language: str, match: Match, user, move: dict) -> dict:
    with translation.override(language):
        return services.match_preview(match_id=match.pk, user=user, move=move)


def assert_spanish_reason(match: Match, user, move: dict, label: str) -> str:
    english = preview_in("en", match, user, move)
    answer = preview_in("es", match, user, move)
    assert english["legal"] is False and answer["legal"] is False, (label, answer)
    assert answer["reason"] != english["reason"], (label, answer["reason"])
    assert not spanish(answer["reason"]), (label, answer["reason"])
    return answer["reason"]


def test_every_reason_a_first_lay_is_refused_comes_out_in_spanish(kings_match, alice):
    rack = "5D TD 9D 2L 5L"
    set_state(kings_match, game_with(board_with(), [rack, "KL KD 2L 3L 4L"], bag=1))
    reasons = {
        label: assert_spanish_reason(kings_match, alice, move, label)
        for label, move in BAD_LAYS.items()
    }
    assert len(set(reasons.values())) == len(reasons), reasons  # each its own reason
    assert "hueco" in reasons["gap"] and "atril" in reasons["no light tile"]
    for label, move in BAD_MOVES.items():
        assert_spanish_reason(kings_match, alice, move, label)


def test_the_centre_start_and_later_lays_are_refused_in_spanish(kings_match, alice):
    centre = game_with(board_with(), ["5D TD 9D 5L TL", "KL"], options={"centre_start": True})
    set_state(kings_match, centre)
    said = assert_spanish_reason(kings_match, alice, lay("2,2=5D 2,3=TD"), "centre")
    assert "central" in said
    later = game_with(board_with(*row_of(6, 6, "5L TL 5L TL")), ["5D TD 9D 6D 7D", "KL"])
    set_state(kings_match, later)
    for label, move in BAD_LATER_LAYS.items():
        assert_spanish_reason(kings_match, alice, move, label)


def test_the_preview_view_answers_in_spanish(client, kings_match, alice):
    set_state(kings_match, game_with(board_with(), ["5D TD 9D 5L TL", "KL KD"]))
    client.force_login(alice)
    url = reverse("kings_preview", args=[kings_match.pk])
    page = client.post(
        url, {"tiles": ["6,5=9D", "6,7=TD"]}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "Aún no se puede colocar así" in page and "hueco" in page
    assert not english_left(page)
    good = client.post(url, {"tiles": ["6,5=5D", "6,6=TD"]}, HTTP_ACCEPT_LANGUAGE="es")
    text = good.content.decode()
    assert "mano 5-10" in text and not english_left(text)


# --- the pages, in several phases -------------------------------------------------------------


class _Regions(HTMLParser):
    """The inner HTML of elements with the given ids, and the log's lines."""

    def __init__(self, ids: set[str]) -> None:
        super().__init__(convert_charrefs=False)
        self.ids, self.found, self._open = ids, {}, []

    def handle_starttag(self, tag, attrs):
        for record in self._open:
            record[1] += 1 if tag not in VOID else 0
            record[2].append(self.get_starttag_text())
        ident = dict(attrs).get("id")
        if ident in self.ids:
            self._open.append([ident, 1, [self.get_starttag_text()]])

    def handle_endtag(self, tag):
        for record in list(self._open):
            record[2].append(f"</{tag}>")
            record[1] -= 1
            if record[1] == 0:
                self.found[record[0]] = "".join(record[2])
                self._open.remove(record)

    def handle_data(self, data):
        for record in self._open:
            record[2].append(data)

    def handle_entityref(self, name):
        self.handle_data(f"&{name};")

    def handle_charref(self, name):
        self.handle_data(f"&#{name};")


VOID = {"input", "br", "img", "hr", "meta", "link", "source", "col", "wbr"}


def regions(page: str) -> dict[str, str]:
    """The game's own parts of a match page: its board and hand regions, the prompt (without
    the shared "Your move" badge) and the lines of the log."""
    parser = _Regions({"board", "hand", "status", "events"})
    parser.feed(page)
    found = parser.found
    status = re.sub(r'<span class="badge">.*?</span>', "", found.get("status", ""))
    prompt = re.findall(r'<p class="prompt">(.*?)</p>', status, re.S)
    return {
        "board": found.get("board", ""),
        "hand": found.get("hand", ""),
        "prompt": " ".join(prompt),
        "log": " ".join(re.findall(r"<li>(.*?)</li>", found.get("events", ""), re.S)),
    }


def page_in_spanish(client, match: Match, user) -> dict[str, str]:
    client.force_login(user)
    response = client.get(reverse("match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    parts = regions(response.content.decode())
    for name, html in parts.items():
        assert not english_left(html), (name, english_left(html), html[:500])
    return parts


def replay_in_spanish(client, match: Match) -> list[str]:
    """The game's own part of the replay page (after its step buttons), at every fifth step
    and the last, in Spanish."""
    match.refresh_from_db()
    steps = [*range(0, match.moves_played, 5), match.moves_played]
    parts = []
    for step in steps:
        url = reverse("match_replay", args=[match.pk]) + f"?step={step}"
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
        after = page.split('<nav class="replay-nav"', 1)[1].split("</nav>", 1)[1]
        part = after.rsplit("<p><a href=", 1)[0]
        assert not english_left(part), (step, english_left(part))
        parts.append(part)
    return parts


def play_until(match: Match, users: list, rng: random.Random, stop, *, under: bool = False):
    """Random legal moves through the services until `stop(state)` (or the end)."""
    engine = get_variant(match.variant)
    for _ in range(2_000):
        match.refresh_from_db()
        state = engine.load(match.snapshot)
        if stop(state) or engine.outcome(state) is not None:
            return state
        seat = rng.choice(sorted(engine.to_move(state)))
        move = rng.choice(engine.legal_moves(state, seat))
        if under and move["type"] == "lay" and move.get("points"):
            move = {**move, "points": move["points"] - 1}
        services.match_play(match_id=match.pk, user=users[seat], seq=match.seq, move=move)
    raise AssertionError("the match did not get there")


def test_a_kings_match_reads_in_spanish_from_the_draw_to_the_racks_left(
    client, alice, bob, charlie
):
    users = [alice, bob]
    match = services.match_create_seated(
        creator=alice, players=users, variant="kings", options={"joker": True}
    )
    rng = random.Random(15)
    state = KINGS.load(match.snapshot)
    first = page_in_spanish(client, match, users[state.turn])
    assert "Bolsa:" in first["board"] and "Tu atril" in first["hand"]
    assert "Te toca" in first["prompt"] and "saca" in first["log"]
    page_in_spanish(client, match, users[1 - state.turn])
    watching = page_in_spanish(client, match, charlie)  # a spectator
    assert "Estás mirando" in watching["hand"]
    state = play_until(match, users, rng, lambda s: s.pending is not None, under=True)
    caller = min(KINGS.to_move(state) - {state.pending.scorer})
    calling = page_in_spanish(client, match, users[caller])
    assert "¡Comodín!" in calling["hand"] and "declara" in calling["log"]
    play_until(match, users, rng, lambda s: False)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    over = page_in_spanish(client, match, alice)
    assert "Fin de la partida" in over["log"] and "En los atriles" in over["board"]
    replay = replay_in_spanish(client, match)
    assert "El sorteo para empezar" in replay[0] and "Bolsa:" in replay[-1]


def test_a_cribist_match_reads_in_spanish_through_its_phases(
    client, alice, bob, charlie, dana, make_member
):
    users = [alice, bob, charlie, dana]
    match = services.match_create_seated(
        creator=alice, players=users, variant="cribist", options={"muggins": True, "deals": 2}
    )
    rng = random.Random(15)
    state = CRIBIST.load(match.snapshot)
    opening = page_in_spanish(client, match, users[state.turn])
    assert "Sales tú" in opening["prompt"] and "Triunfo" in opening["board"]
    watching = page_in_spanish(client, match, make_member("eva"))  # a spectator
    assert "Estás mirando" in watching["hand"]
    state = play_until(match, users, rng, lambda s: s.phase == "declare")
    counting = page_in_spanish(client, match, users[state.tricks[-1].winner])
    assert "¿cuánto vale?" in counting["hand"] and "gana la baza" in counting["log"]
    state = play_until(match, users, rng, lambda s: s.phase == "calls")
    caller = min(CRIBIST.to_move(state))
    calling = page_in_spanish(client, match, users[caller])
    assert "Robo" in calling["hand"] and "quince" in calling["hand"]
    state = play_until(match, users, rng, lambda s: s.phase == "hand_over")
    over_hand = page_in_spanish(client, match, alice)
    assert "Bazas ganadas" in over_hand["log"] and "Hoja de puntuación" in over_hand["board"]
    play_until(match, users, rng, lambda s: False)
    page_in_spanish(client, match, alice)
    replay = replay_in_spanish(client, match)
    assert "El reparto" in replay[0] and "Mano 2" in replay[-1]


@pytest.mark.parametrize(
    ("variant", "title"), [("kings", "Kings Cribbage"), ("cribist", "Cribist")]
)
def test_the_rules_pages_are_in_spanish(client, variant, title):
    page = client.get(reverse("rules", args=[variant]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    article = re.search(r"<article.*?</article>", page, re.S).group(0)
    assert f"Cómo se juega a {title}" in article
    assert not english_left(article), english_left(article)
    english = client.get(reverse("rules", args=[variant]), HTTP_ACCEPT_LANGUAGE="en")
    assert f"How to play {title}" in english.content.decode()


def test_an_engine_message_of_the_muggins_form_reads_in_spanish():
    with translation.override("es"):
        said = engine_text("you named the same pair twice")
    assert said.startswith("has indicado") and not spanish(said)


def said_in_spanish(error) -> str:
    with translation.override("es"):
        said = engine_text(error.template, error.params)
    assert said != str(error) and not spanish(said), said
    return said


def test_an_over_counted_declaration_is_refused_in_spanish():
    from games.engine.core.variant import IllegalMove

    joker = game_with(board_with(), ["5D TD 9D 2L 5L", "KL"], options={"joker": True})
    with pytest.raises(IllegalMove) as refused:
        KINGS.apply(joker, 0, lay("6,5=5D 6,6=TD", points=30))
    assert "no vale 30" in said_in_spanish(refused.value)
    with pytest.raises(IllegalMove) as refused:
        KINGS.apply(joker, 0, lay("6,5=5D 6,6=TD", points=-1))
    said_in_spanish(refused.value)
    for state, _ in cribist_game({"muggins": True, "deals": 1}, 8):
        if state.phase == "declare":
            winner = state.tricks[-1].winner
            with pytest.raises(IllegalMove) as refused:
                CRIBIST.apply(state, winner, {"type": "declare", "points": 99})
            assert "esa baza no vale 99" in said_in_spanish(refused.value)
            with pytest.raises(IllegalMove) as refused:
                CRIBIST.apply(state, winner, {"type": "play", "card": "5H"})
            said_in_spanish(refused.value)
            return
    pytest.fail("no trick was counted")
