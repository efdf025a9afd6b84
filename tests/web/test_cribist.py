"""Cribist on the site: the lobby, the four-seat table against three computers, the muggins
forms, a timed match's clock, the replay and the rules page; no page shows another hand."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.http import QueryDict
from django.urls import reverse

from games import services
from games.engine import get_variant
from games.models import Match
from games.variants import web_game
from games.variants.cribist import claim_items
from tests.api.conftest import ApiClient, token_of
from tests.games.helpers import fresh

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
SHOWN_CARD = re.compile(r'data-card="([A2-9TJQK][CDHS])"')


def _start(client, alice, **options) -> Match:
    client.force_login(alice)
    fields = {"variant": "cribist", "players": 4, "opponents": "computer"}
    fields.update({f"cribist__{name}": value for name, value in options.items()})
    response = client.post(reverse("match_create"), fields)
    assert response.status_code == 302, response.content
    return fresh(Match.objects.get())


def _hidden(match: Match, seat: int | None) -> set[str]:
    engine = get_variant("cribist")
    return engine.hidden(engine.load(match.snapshot), seat)


def _post(client, match: Match, data: dict) -> int:
    response = client.post(
        reverse("match_move", args=[match.pk]), {"seq": match.seq, **data}, **HTMX
    )
    return response.status_code


def _play_my_turn(client, match: Match) -> Match:
    """Play seat 0's first playable card, or continue, as the page's buttons would."""
    view = services.engine_view(match, 0)
    move = view["legal_moves"][0]
    if move["type"] == "play":
        assert _post(client, match, {"type": "play", "card": move["card"]}) == 200
    else:
        assert _post(client, match, {"move": '{"type": "continue"}'}) == 200
    return fresh(match)


def test_the_lobby_offers_cribist_with_its_own_options(client, alice):
    client.force_login(alice)
    page = client.get(reverse("lobby")).content.decode()
    assert '<option value="cribist">Cribist</option>' in page
    fieldset = page.split('data-game="cribist"')[1].split("</fieldset>")[0]
    for name in ("ending", "deals", "target", "minutes", "muggins"):
        assert f'name="cribist__{name}"' in fieldset
    assert reverse("rules", args=["cribist"]) in page


def test_a_member_plays_tricks_against_three_computers(client, alice):
    match = _start(client, alice, deals=1)
    assert match.status == Match.Status.ACTIVE and match.options["deals"] == 1
    assert match.options["ending"] == "deals"
    for _ in range(60):
        if match.status != Match.Status.ACTIVE:
            break
        if 0 in match.to_move:
            page = client.get(match.get_absolute_url()).content.decode()
            shown = set(SHOWN_CARD.findall(page))
            assert not shown & _hidden(match, 0), "the page shows another seat's card"
            assert "Trumps:" in page
            match = _play_my_turn(client, match)
        else:
            match = fresh(match)
    assert match.status == Match.Status.FINISHED
    assert sorted(side["place"] for side in match.outcome["sides"])[0] == 1
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Score sheet" in page
    replay = client.get(reverse("match_replay", args=[match.pk]) + "?step=3")
    assert replay.status_code == 200 and "trumps" in replay.content.decode()
    call_command("verify_match", str(match.pk))


def test_the_table_shows_trumps_the_trick_and_the_last_trick_with_its_score(client, alice):
    match = _start(client, alice)
    for _ in range(8):
        if 0 in match.to_move:
            match = _play_my_turn(client, match)
    view = services.engine_view(match, 0)
    page = client.get(match.get_absolute_url()).content.decode()
    assert f"Trumps: <strong>{view['trump_name']}</strong>" in page
    last = view["last_trick"]
    assert f"Trick {last['number']}:" in page and f"scores {last['points']}" in page
    assert page.count('class="cx-seat') == 4


def test_a_bad_move_names_the_rule(client, alice):
    match = _start(client, alice)
    while 0 not in match.to_move:
        match = fresh(match)
    view = services.engine_view(match, 0)
    playable = {m["card"] for m in view["legal_moves"]}
    unplayable = [c for c in view["hand"] if c not in playable]
    response = client.post(
        reverse("match_move", args=[match.pk]), {"seq": match.seq, "type": "play", "card": "ZZ"},
        **HTMX,
    )  # fmt: skip
    assert response.status_code == 400 and "is not a card" in response.content.decode()
    if unplayable:
        response = client.post(
            reverse("match_move", args=[match.pk]),
            {"seq": match.seq, "type": "play", "card": unplayable[0]},
            **HTMX,
        )
        assert response.status_code == 400 and "follow suit" in response.content.decode()


def test_the_muggins_form_reads_each_combination_row():
    data = QueryDict(mutable=True)
    data.update({"type": "muggins", "points": "4", "kind_0": "pair", "kind_2": "fifteen"})
    data.setlist("cards_0", ["5C", "5S"])
    data.setlist("cards_2", ["4H", "5C", "6D"])
    move = web_game("cribist").parse_move(data)
    assert move == {
        "type": "muggins",
        "points": 4,
        "items": [
            {"kind": "pair", "cards": ["5C", "5S"]},
            {"kind": "fifteen", "cards": ["4H", "5C", "6D"]},
        ],
    }


@pytest.mark.parametrize(
    ("fields", "reason"),
    [({}, "at least one"), ({"kind_0": "pair"}, "tick the cards"), ({"cards_1": "5C"}, "say what")],
)
def test_a_muggins_form_with_a_row_half_filled_says_what_is_missing(fields, reason):
    data = QueryDict(mutable=True)
    data.update(fields)
    with pytest.raises(ValueError, match=reason):
        claim_items(data)


def test_with_muggins_the_member_declares_and_the_others_may_call(client, alice):
    match = _start(client, alice, muggins="on")
    assert match.options["muggins"] is True
    declared = False
    for _ in range(200):
        if match.status != Match.Status.ACTIVE or declared:
            break
        if 0 not in match.to_move:
            match = fresh(match)
            continue
        view = services.engine_view(match, 0)
        kind = view["legal_moves"][0]["type"]
        if kind == "declare":
            page = client.get(match.get_absolute_url()).content.decode()
            assert 'id="move-declare"' in page
            assert _post(client, match, {"type": "declare", "points": 0}) == 200
            declared = True
            match = fresh(match)
        else:
            match = _play_my_turn(client, match)
    assert declared
    moves = list(match.moves.order_by("seq"))
    declare = next(m for m in moves if m.move["type"] == "declare" and m.seat == 0)
    after = [m for m in moves if m.seq > declare.seq]
    # three computers answer a short count with a call or a pass (a trick worth 0 needs none)
    assert all(m.by_computer for m in after[:3])


def test_a_timed_match_has_its_moves_stamped_by_the_server(client, alice):
    match = _start(client, alice, ending="time", minutes=30)
    while 0 not in match.to_move:
        match = fresh(match)
    match = _play_my_turn(client, match)
    moves = list(match.moves.order_by("seq"))
    assert moves and all(isinstance(m.move.get("at"), int) for m in moves)
    state = get_variant("cribist").load(match.snapshot)
    assert state.started is not None and state.deadline == state.started + 30 * 60
    page = client.get(match.get_absolute_url()).content.decode()
    assert "30 minutes" in page


def test_an_untimed_match_keeps_its_moves_as_sent(client, alice):
    match = _start(client, alice)
    while 0 not in match.to_move:
        match = fresh(match)
    match = _play_my_turn(client, match)
    assert all("at" not in m.move for m in match.moves.all())


def test_the_rules_page_explains_the_game(client):
    page = client.get(reverse("rules", args=["cribist"])).content.decode()
    assert "How to play Cribist" in page and "trumps" in page and "muggins" in page.lower()


def test_the_api_plays_cribist_against_three_computers(alice):
    api = ApiClient(token_of(alice))
    variants = {v["key"]: v for v in api.get("/variants").json()}
    assert variants["cribist"]["options_schema"]["ending"]["default"] == "deals"
    state = api.create(
        variant="cribist", players=4, computer_seats=[1, 2, 3], options={"muggins": True}
    )
    for _ in range(40):
        state = api.get(f"/matches/{state['id']}").json()
        if 0 in state["to_move"]:
            break
    view = state["view"]
    hidden = _hidden(fresh(Match.objects.get(pk=state["id"])), 0)
    assert not set(re.findall(r"\b[A2-9TJQK][CDHS]\b", str(state))) & hidden
    move = view["legal_moves"][0]
    answer = api.move(state["id"], state["seq"], move)
    assert answer.status_code == 200, answer.json()
    bad = api.move(state["id"], answer.json()["seq"], {"type": "muggins", "points": 2})
    assert bad.status_code in (400, 403, 409)
