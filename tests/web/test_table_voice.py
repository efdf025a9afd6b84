"""The table's voice and the member's settings for it, as pages and fragments carry them.

- Callouts: the points the latest move made ("Ana: fifteen for 2, last card for 1"), in every
  game that scores as it goes, and the show's callouts for each counted hand ("a double run of 3
  for 8"), in English and in Spanish, keyed so that a page says each once.
- The pegboard names the holes at a turn of the track a front peg just went round.
- Settings: table motion (on by default) and sounds (off by default), saved on the account and
  written on <body> for the page's scripts; signed-in pages open the notices socket.
"""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils.translation import override

from games import services, texts
from games.engine import get_variant
from games.engine.pieces.cards import parse_card
from games.engine.scoring.combinations import score_show
from games.variants import web_game
from games.variants.cribbage.templatetags import cribbage_table
from games.variants.cribbage.texts import show_callouts
from tests.games.helpers import fresh
from tests.i18n.spanish import english_left

pytestmark = pytest.mark.django_db
CRIBBAGE = get_variant("cribbage")
NAMES = ["Ana", "Bea"]

# The show's callouts, one phrase a combination; a run made twice takes its pair with it.
SHOWS = [
    ("5H 5C 5S JD", "5D", ["8 fifteens for 16", "four of a kind for 12", "his nobs for 1"]),
    ("3H 4C 5S 5D", "KD", ["2 fifteens for 4", "a double run of 3 for 8"]),
    ("3H 3C 3S 4D", "5H", ["3 fifteens for 6", "a triple run of 3 for 15"]),
    ("3H 3C 4S 5D", "5H", ["2 fifteens for 4", "a double double run of 3 for 16"]),
    ("2H 4H 6H 8H", "KD", ["a flush of 4 for 4"]),
    ("7H 8C KS QD", "AS", ["fifteen for 2"]),
    ("AH 2C 9S 10D", "KS", ["nothing"]),
]


@pytest.mark.parametrize(("hand", "starter", "said"), SHOWS)
def test_the_show_is_called_out_a_combination_at_a_time(hand, starter, said):
    calls = score_show([parse_card(c) for c in hand.split()], parse_card(starter)).calls()
    assert show_callouts(calls) == said
    with override("es"):
        spanish = show_callouts(calls)
    assert len(spanish) == len(said) and not english_left(" ".join(spanish))


def test_a_double_run_is_said_in_spanish():
    calls = score_show([parse_card(c) for c in ["3H", "4C", "5S", "5D"]], parse_card("KD")).calls()
    with override("es"):
        assert show_callouts(calls) == ["2 quinces por 4", "escalera doble de 3 por 8"]


def _play_events(*scoring):
    return [
        {"kind": "deal", "seat": 0, "text": "game 1, hand 1: {p0} deals", "game": 1, "hand": 1},
        {"kind": "play", "seat": 1, "text": "{p1} plays 5H (5)", "card": "5H", "count": 5},
        {"kind": "play", "seat": 0, "text": "{p0} plays TD (15)", "card": "TD", "count": 15},
        *scoring,
    ]


FIFTEEN = {
    "kind": "peg", "seat": 0, "text": "{p0} pegs 2 for fifteen", "points": 2, "count": 15,
    "reasons": [{"kind": "fifteen", "size": 0, "points": 2}],
}  # fmt: skip
LAST_CARD = {"kind": "last_card", "seat": 0, "text": "{p0}: last card for 1", "points": 1}


def test_the_play_calls_out_what_the_last_move_made():
    view = {"events": _play_events(FIFTEEN, LAST_CARD)}
    said = texts.callouts(web_game("cribbage"), view, NAMES)
    assert said["said"] == [
        {"seat": 0, "who": "Ana", "points": 3, "text": "fifteen for 2, last card for 1"}
    ]
    assert re.fullmatch(r"[0-9a-f]{8}", said["key"])
    assert texts.callouts(web_game("cribbage"), view, NAMES)["key"] == said["key"]  # stable
    with override("es"):
        spanish = texts.callouts(web_game("cribbage"), view, NAMES)
    assert spanish["said"][0]["text"] == "quince por 2, última carta por 1"
    assert spanish["key"] == said["key"]  # one move, one key, whatever the language

    # The next move made nothing: nothing to call out (the earlier points are not said again).
    go = {"kind": "go", "seat": 1, "text": "{p1} says go", "count": 15}
    after = texts.callouts(web_game("cribbage"), {"events": [*view["events"], go]}, NAMES)
    assert after["said"] == [] and after["key"] != said["key"]


OTHER_GAMES = [
    (
        "tabletop",
        [
            {"kind": "place", "seat": 1, "text": "{p1} places 5H", "card": "5H", "row": 0,
             "col": 0},
            {"kind": "lines", "seat": 0, "text": "{p0} scores 24 in the columns", "points": 24,
             "side": 0, "lines": "columns", "seats": [0]},
            {"kind": "lines", "seat": 1, "text": "{p1} scores 18 in the rows", "points": 18,
             "side": 1, "lines": "rows", "seats": [1]},
        ],
        [("Ana", 24, "24 in the columns"), ("Bea", 18, "18 in the rows")],
    ),
    (
        "kings",
        [
            {"kind": "lay", "seat": 1, "text": "{p1} lays 5 5 for 2", "points": 2,
             "tiles": ["5La", "5Db"], "faces": ["5L", "5D"], "drew": 2,
             "hands": [{"tiles": ["5L", "5D"], "points": 2, "pairs": 2}], "bonus": []},
        ],
        [("Bea", 2, None)],
    ),
    (
        "cribist",
        [
            {"kind": "play", "seat": 1, "text": "{p1} plays 5H", "card": "5H"},
            {"kind": "trick", "seat": 1, "text": "{p1} takes trick 1 with 5H for 2: pair 2",
             "points": 2, "winner": 1, "trick": 1, "card": "5H",
             "calls": [{"kind": "pair", "size": 2, "many": 1, "points": 2, "running": 2}]},
        ],
        [("Bea", 2, "a pair is 2")],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("key", "events", "expected"), OTHER_GAMES)
def test_the_other_games_call_out_their_scores(key, events, expected):
    web = web_game(key)
    said = texts.callouts(web, {"events": events}, NAMES)["said"]
    assert [(s["who"], s["points"]) for s in said] == [(who, pts) for who, pts, _ in expected]
    for entry, (_, _, text) in zip(said, expected, strict=True):
        assert entry["text"] and (text is None or entry["text"] == text)
    with override("es"):
        spanish = texts.callouts(web, {"events": events}, NAMES)["said"]
    assert not english_left(" ".join(s["text"] for s in spanish))
    if key == "tabletop":  # CrossCrib says what Table Top says
        crosscrib = texts.callouts(web_game("crosscrib"), {"events": events}, NAMES)
        assert crosscrib == texts.callouts(web, {"events": events}, NAMES)


def _two_members(alice, bob):
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 61}
    )
    services.match_join(match_id=match.pk, user=bob)
    return fresh(match)


def _play_until(match, members, stop, seed):
    rng = random.Random(seed)
    for _ in range(3000):
        match = fresh(match)
        state = CRIBBAGE.load(match.snapshot)
        if stop(state):
            return match
        seat = min(CRIBBAGE.to_move(state))
        move = rng.choice(CRIBBAGE.legal_moves(state, seat))
        services.match_play(match_id=match.pk, user=members[seat], seq=match.seq, move=move)
    raise AssertionError("the match did not get there")


def test_the_show_on_the_page_carries_its_callouts_and_their_keys(client, alice, bob):
    match = _play_until(_two_members(alice, bob), [alice, bob], lambda s: s.phase == "counted", 3)
    state = CRIBBAGE.load(match.snapshot)
    client.force_login(alice)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    lists = re.findall(r'<ul class="callouts" data-voice="([^"]+)">(.*?)</ul>', page)
    assert len(lists) == len(state.shows) == 3  # the two hands and the crib
    view = CRIBBAGE.view(state, 0)
    for (key, items), shown in zip(lists, view["shows"], strict=True):
        assert key == f"s{view['game']}.{view['hand_number']}.{shown['owner']}.{int(shown['crib'])}"
        assert re.findall(r"<li>(.*?)</li>", items) == show_callouts(shown["calls"])
    # What they add to the pushed hand region stays small.
    assert sum(len(m) for m in re.findall(r'<ul class="callouts".*?</ul>', page)) <= 450


def test_the_pegboard_names_the_turn_a_peg_went_round():
    layout = cribbage_table.board_layout(
        [{"score": 35, "back_peg": 25}, {"score": 12, "back_peg": 4}], 121
    )
    front = {peg["side"]: peg for peg in layout["pegs"] if peg["kind"] == "front"}
    holes = {h["n"]: (h["x"], h["y"]) for h in layout["tracks"][0]["holes"]}
    assert front[0]["via"] == " ".join(f"{holes[n][0]},{holes[n][1]}" for n in (30, 31))
    assert front[1]["via"] == ""  # along one street: a straight line
    html = cribbage_table.pegboard(
        [{"score": 35, "back_peg": 25}, {"score": 12, "back_peg": 4}], 121, NAMES
    )
    assert html.count("data-via=") == 1


def test_the_settings_are_saved_and_written_for_the_page(client, alice):
    client.force_login(alice)
    page = client.get(reverse("edit_profile")).content.decode()
    motion = re.search(r'<input type="checkbox" name="motion"[^>]*>', page).group(0)
    sounds = re.search(r'<input type="checkbox" name="sounds"[^>]*>', page).group(0)
    assert " checked" in motion and " checked" not in sounds
    home = client.get(reverse("home")).content.decode()
    assert 'ws-connect="/ws/notices/"' in home
    assert "data-motion=" not in home and "data-sounds=" not in home  # the defaults

    answer = client.post(
        reverse("edit_profile"),
        {"display_name": "Alice", "email": alice.email, "language": "", "sounds": "on"},
    )
    assert answer.status_code == 302
    alice.refresh_from_db()
    assert alice.sounds and not alice.motion  # an unticked box is off
    home = client.get(reverse("home")).content.decode()
    assert 'data-motion="off"' in home and 'data-sounds="on"' in home


def test_the_settings_read_in_spanish_and_visitors_open_no_notices(client, alice):
    assert 'ws-connect="/ws/notices/"' not in client.get(reverse("home")).content.decode()
    alice.language = "es"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    page = client.get(reverse("edit_profile")).content.decode()
    assert "Movimiento en la mesa" in page and "Sonidos" in page
    assert not english_left(page.split('<fieldset class="settings">')[1].split("</fieldset>")[0])
