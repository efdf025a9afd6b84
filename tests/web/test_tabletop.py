"""Table Top Cribbage and CrossCrib on the site: the lobby, the drawn layout with its buttons,
a deal played against the computer, partner suggestions, the crib, secrecy in every page and
socket message, the replay and the rules pages."""

from __future__ import annotations

import html
import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games import services
from games.engine import get_variant
from games.models import Match
from tests.games.helpers import fresh
from tests.realtime.test_match_socket import drain, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")
SQUARE = re.compile(r'<button type="submit" name="move" value="([^"]+)" class="tt-cell tt-square')


def _squares(page: str) -> list[dict]:
    return [json.loads(html.unescape(value)) for value in SQUARE.findall(page)]


def _hidden_shown(match: Match, seat: int | None, page: str) -> set[str]:
    engine = get_variant(match.variant)
    return set(CARD.findall(page)) & engine.hidden(engine.load(match.snapshot), seat)


def _start(client, member, variant: str, players: int = 2) -> Match:
    client.force_login(member)
    response = client.post(
        reverse("match_create"),
        {"variant": variant, "players": players, "opponents": "computer", "level": "easy"},
    )
    assert response.status_code == 302, response.content
    return fresh(Match.objects.get())


def test_the_lobby_offers_both_games_with_their_own_options_and_rules(client, alice):
    client.force_login(alice)
    page = client.get(reverse("lobby")).content.decode()
    for key in ("tabletop", "crosscrib"):
        assert f'<option value="{key}">' in page
        fieldset = page.split(f'data-game="{key}"')[1].split("</fieldset>")[0]
        assert f'name="{key}__target"' in fieldset and "muggins" not in fieldset
        assert reverse("rules", args=[key]) in page
    rules = client.get(reverse("rules", args=["tabletop"])).content.decode()
    assert "How to play Table Top Cribbage" in rules and "6, 7, 7, 8, 8 is worth 24" in rules
    rules = client.get(reverse("rules", args=["crosscrib"])).content.decode()
    assert "How to play CrossCrib" in rules and "game points" in rules


def test_a_member_plays_a_deal_of_table_top_against_the_computer(client, alice):
    match = _start(client, alice, "tabletop")
    for _ in range(30):
        match = fresh(match)
        page = client.get(match.get_absolute_url()).content.decode()
        assert not _hidden_shown(match, 0, page)
        squares = _squares(page)
        if not squares:
            break
        assert 'class="tt-grid is-choosing"' in page and "Your card" in page
        view = services.engine_view(match, 0)
        assert {(m["row"], m["col"]) for m in squares} == {
            (m["row"], m["col"]) for m in view["legal_moves"]
        }
        answer = client.post(
            reverse("match_move", args=[match.pk]),
            {"seq": match.seq, "move": json.dumps(squares[0])},
            **HTMX,
        )
        assert answer.status_code == 200, answer.content
    match = fresh(match)
    view = services.engine_view(match, 0)
    assert view["phase"] in ("counted", "over") and all(all(row) for row in view["board"])
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Deal 1: the count" in page and "Column 1" in page and "Row 5" in page
    assert page.count('class="tt-line"') == 10
    if view["phase"] == "counted":
        assert "Next deal" in page
        client.post(
            reverse("match_move", args=[match.pk]),
            {"seq": match.seq, "move": json.dumps({"type": "continue"})},
            **HTMX,
        )
        assert services.engine_view(fresh(match), 0)["deal"] == 2


def test_an_illegal_square_is_refused_with_the_rule(client, alice):
    match = _start(client, alice, "tabletop")
    # an empty square that touches no card (the computer may have laid one next to a corner)
    view = services.engine_view(match, 0)
    legal = {(m["row"], m["col"]) for m in view["legal_moves"] if m["type"] == "place"}
    row, col = next(
        (r, c)
        for r in range(5)
        for c in range(5)
        if not view["board"][r][c] and (r, c) not in legal
    )
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "move": json.dumps({"type": "place", "row": row, "col": col})},
        **HTMX,
    )
    assert answer.status_code == 400 and "touch one already down" in answer.content.decode()


def test_crosscrib_shows_the_crib_action_and_counts_and_keeps_the_crib_secret(
    client, alice, make_member
):
    match = _start(client, alice, "crosscrib")
    assert 0 in match.to_move  # the computer, if it went first, has moved already
    page = client.get(match.get_absolute_url()).content.decode()
    assert "To the crib" in page
    assert "You have put 0 of 2 in the crib" in page and "has put" in page
    assert not _hidden_shown(match, 0, page)
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "move": json.dumps({"type": "crib"})},
        **HTMX,
    )
    assert answer.status_code == 200, answer.content
    match = fresh(match)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "You have put 1 of 2 in the crib" in page and "Yours in the crib" in page
    assert not _hidden_shown(match, 0, page)
    client.force_login(make_member("carol"))
    watcher = client.get(match.get_absolute_url()).content.decode()
    assert not _hidden_shown(match, None, watcher)
    assert "Yours in the crib" not in watcher


def test_a_partner_suggests_a_square_seen_by_the_partnership_only(client, alice, bob, make_member):
    match = services.match_create(
        creator=alice, variant="tabletop", players=4, computer_seats=[1, 3]
    )
    services.match_join(match_id=match.pk, user=bob)
    match = fresh(match)
    seats = {s.index: s.user for s in match.seats.all() if s.user_id}
    assert set(seats) == {0, 2}
    # The computer plays seats 1 and 3 at once, so a member of the partnership is to place.
    turn = services.engine_view(match, 0)["turn"]
    assert turn in seats
    mover, partner = turn, (turn + 2) % 4
    client.force_login(seats[partner])
    page = client.get(match.get_absolute_url()).content.decode()
    suggestions = _squares(page)
    assert suggestions and {m["type"] for m in suggestions} == {"advise"}
    assert "suggest it to" in page
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "move": json.dumps(suggestions[0])},
        **HTMX,
    )
    assert answer.status_code == 200, answer.content
    match = fresh(match)
    client.force_login(seats[mover])
    page = client.get(match.get_absolute_url()).content.decode()
    square = suggestions[0]
    assert f"suggests row {square['row'] + 1}, column {square['col'] + 1}" in page
    assert "tt-square is-open is-advised" in page
    client.force_login(make_member("carol"))  # watching: not of the partnership
    watched = client.get(match.get_absolute_url()).content.decode()
    assert "is-advised" not in watched and "suggests" not in watched


@pytest.mark.asyncio
async def test_sockets_never_push_a_face_down_or_crib_card(alice, bob):
    @sync_to_async
    def start():
        match = services.match_create(creator=alice, variant="crosscrib", players=2)
        services.match_join(match_id=match.pk, user=bob)
        return fresh(match)

    match = await start()
    sockets = {0: await open_socket(match.pk, alice), 1: await open_socket(match.pk, bob)}
    for seat, (socket, connected, _) in sockets.items():
        assert connected
        first = await drain(socket)
        assert 'id="board"' in first
        assert not await sync_to_async(_hidden_shown)(match, seat, first)

    @sync_to_async
    def move(number: int):
        current = fresh(match)
        engine = get_variant("crosscrib")
        state = engine.load(current.snapshot)
        seat = state.turn
        legal = engine.legal_moves(state, seat)
        choice = {"type": "crib"} if number < 2 else legal[0]
        user = alice if seat == 0 else bob
        services.match_play(match_id=current.pk, user=user, seq=current.seq, move=choice)
        return fresh(match)

    for number in range(4):
        current = await move(number)
        for seat, (socket, _, _) in sockets.items():
            pushed = await drain(socket)
            assert 'id="board"' in pushed
            assert not await sync_to_async(_hidden_shown)(current, seat, pushed)
    for socket, _, _ in sockets.values():
        await socket.disconnect()


def test_the_replay_draws_the_layout_and_the_count(client, alice):
    match = services.match_create(
        creator=alice, variant="tabletop", players=2, computer_seats=[1], options={"target": 31}
    )
    match = fresh(match)
    engine = get_variant("tabletop")
    for _ in range(500):
        if match.status != Match.Status.ACTIVE:
            break
        state = engine.load(match.snapshot)
        move = engine.legal_moves(state, 0)[0]
        services.match_play(match_id=match.pk, user=alice, seq=match.seq, move=move)
        match = fresh(match)
    assert match.status == Match.Status.FINISHED
    client.force_login(alice)
    page = client.get(reverse("match_replay", args=[match.pk]) + "?step=3").content.decode()
    assert "placed a card at row" in page and 'class="tt-grid' in page
    end = client.get(reverse("match_replay", args=[match.pk])).content.decode()
    assert "the count" in end and "wins" in end
