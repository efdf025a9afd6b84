"""The shared site in Spanish: every page and fragment outside the games' own tables and rules
and outside tournaments, signed in and out, with forms and their errors, a match in play (High
Card, the test game), a finished match's outcome, the replay, the e-mail and the API's errors.

Each page is checked with `english_left` and for a real Spanish phrase. What a game owns (its
name, description, option labels, computer levels, its table and hand, its prompt and log
lines) is the game's to translate: those texts are taken out before the check while the
catalogue has no Spanish for them (`without_game_texts`), so this file fails only for English
of the shared site.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import override

from accounts.tokens import token_create
from games import services
from games.engine.core import levels
from games.engine.core.variant import get_variant
from games.texts import engine_text
from games.variants import web_games
from tests.conftest import PASSWORD
from tests.games.helpers import fresh
from tests.i18n.spanish import english_left

pytestmark = pytest.mark.django_db

ES = {"HTTP_ACCEPT_LANGUAGE": "es"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def game_texts() -> set[str]:
    """Every text a registered game owns and the shared pages show."""
    texts: set[str] = set()
    for web in web_games():
        variant = get_variant(web.key)
        texts |= {variant.name, web.description, *levels(variant)}
        for spec in variant.options_schema.values():
            texts |= {spec.get("label", ""), spec.get("help", ""), spec.get("summary", "")}
            texts |= {str(choice) for choice in spec.get("choices", [])}
    return {str(text) for text in texts if text}


def without_game_texts(html: str) -> str:
    """The page less the game-owned texts that have no Spanish yet, and less the game's own
    regions (#board, #hand: templates/games/<game>/table.html)."""
    for region in ("board", "hand"):
        html = re.sub(rf'<section id="{region}".*?</section>', " ", html, flags=re.S)
    with override("es"):
        untranslated = [text for text in game_texts() if engine_text(text) == text]
    patterns = [
        re.compile(
            r"(?<!\w)" + re.escape(escape(text)).replace(r"\{\}", r"[^<·]*?") + r"(?!\w)", re.I
        )
        for text in sorted(untranslated, key=len, reverse=True)
    ]

    def strip(match: re.Match) -> str:
        words = match.group(0)
        for pattern in patterns:
            words = pattern.sub(" ", words)
        return words

    return re.sub(r">[^<]*<", strip, html)  # text between tags only, never a tag's name


def spanish(html: str, phrase: str, *, allowed: frozenset[str] = frozenset()) -> None:
    assert phrase in html, phrase
    assert english_left(without_game_texts(html), allowed=allowed) == []


def page(client, name: str, *args, status: int = 200, **query) -> str:
    response = client.get(reverse(name, args=args), query, **ES)
    assert response.status_code == status, response.content[:500]
    assert response["Content-Language"] == "es"
    return response.content.decode()


@pytest.fixture
def game_prompts(monkeypatch):
    """High Card is a test game without Spanish words of its own: its prompt and log lines are
    stood in for here, as a real game's texts.py would give them."""
    monkeypatch.setattr("games.presenters.prompt_text", lambda web, view, names: "Pon una carta")
    monkeypatch.setattr("games.presenters.event_text", lambda web, event, names: "Una carta")
    monkeypatch.setattr("games.views.event_text", lambda web, event, names: "Una carta")


def high_card(alice, bob):
    match = services.match_create(creator=alice, variant="testgame", players=2)
    services.match_join(match_id=match.pk, user=bob)
    return fresh(match)


def lay(match, user, seat):
    card = get_variant("testgame").view(get_variant("testgame").load(match.snapshot), seat)
    move = {"type": "lay", "card": card["hand"][0]}
    services.match_play(match_id=match.pk, user=user, seq=match.seq, move=move)
    return fresh(match)


def finished(alice, bob):
    match = high_card(alice, bob)
    members = {0: alice, 1: bob}
    while match.status == match.Status.ACTIVE:
        seat = next(iter(match.to_move))
        match = lay(match, members[seat], seat)
    return match


# -- signed out ----------------------------------------------------------------------------


def test_it_shows_the_home_page_and_the_navigation_in_spanish(client):
    html = page(client, "home")
    spanish(html, "La sala de cartas del club")
    assert "Únete al club" in html and "Clasificaciones" in html and "conectados ahora" in html
    assert 'class="link-button">English</button>' in html  # the other language, in its words


def test_it_shows_log_in_sign_up_and_their_errors_in_spanish(client, alice):
    spanish(page(client, "login"), "¿Has olvidado tu contraseña?")
    answer = client.post(reverse("login"), {"username": "alice", "password": "nope"}, **ES)
    spanish(answer.content.decode(), "Escribe un nombre de usuario y una contraseña correctos")
    spanish(page(client, "signup"), "Ser miembro es gratis")
    answer = client.post(
        reverse("signup"),
        {"username": "alice", "email": "alice@example.org", "password1": "x", "password2": "y"},
        **ES,
    )
    html = answer.content.decode()
    spanish(html, "Otro miembro ya usa este correo electrónico.")


def test_it_shows_the_password_pages_in_spanish(client, alice):
    spanish(page(client, "password_reset"), "Restablece tu contraseña")
    spanish(page(client, "password_reset_done"), "Mira tu correo")
    spanish(page(client, "password_reset_complete"), "Contraseña guardada")
    link = reverse("password_reset_confirm", args=["MQ", "not-a-token"])
    spanish(client.get(link, **ES).content.decode(), "Este enlace ha caducado")
    client.force_login(alice)
    spanish(page(client, "password_change"), "Cambia tu contraseña")
    spanish(page(client, "password_change_done"), "Contraseña cambiada")


def test_the_reset_mail_is_in_the_members_language_whatever_the_page(client, alice, bob):
    alice.language = "es"
    alice.save()
    client.post(reverse("password_reset"), {"email": alice.email}, HTTP_ACCEPT_LANGUAGE="en")
    client.post(reverse("password_reset"), {"email": bob.email}, **ES)
    to_alice, to_bob = mail.outbox
    assert to_alice.subject == "Restablece tu contraseña del Club de Cribbage"
    assert "Hola, Alice:" in to_alice.body and "Tu nombre de usuario es alice" in to_alice.body
    assert english_left(re.sub(r"https?://\S+", "", to_alice.body)) == []
    assert "Hola, Bob:" in to_bob.body  # no choice saved: the language of the request


def test_it_shows_leaderboards_and_head_to_head_in_spanish(client, alice, bob):
    finished(alice, bob)
    html = page(client, "leaderboard", "testgame")
    spanish(html, "Más activos en")
    assert "noviembre" in html or "jugados" in html
    html = page(client, "head_to_head", first="alice", second="bob")
    spanish(html, "Alice contra Bob")
    html = page(client, "head_to_head", status=400, first="alice", second="nobody")
    spanish(html, "Ningún miembro tiene este nombre de usuario.")


def test_it_shows_a_profile_with_its_history_in_spanish(client, alice, bob):
    finished(alice, bob)
    html = page(client, "profile", "alice")
    spanish(html, "Historial de encuentros")
    assert "miembro desde" in html and "Puntuaciones y estadísticas" in html
    client.force_login(bob)
    spanish(page(client, "profile", "alice"), "Tu historial contra Alice")
    spanish(page(client, "profile", "bob"), "Editar tus datos")


# -- signed in -----------------------------------------------------------------------------


def test_it_shows_the_account_and_token_pages_in_spanish(client, alice):
    client.force_login(alice)
    spanish(page(client, "edit_profile"), "Tu cuenta")
    answer = client.post(reverse("api_tokens"), {"name": "mi bot"}, **ES)
    spanish(answer.content.decode(), "Cópialo ahora", allowed=frozenset({"bot"}))
    html = page(client, "api_tokens")
    spanish(html, "Tus tokens", allowed=frozenset({"bot"}))
    assert "nunca" in html
    answer = client.post(reverse("api_tokens"), {"name": "  "}, **ES)
    spanish(answer.content.decode(), "Este campo es obligatorio.", allowed=frozenset({"bot"}))


def test_it_shows_the_lobby_its_form_and_its_errors_in_spanish(client, alice, bob):
    services.match_create(creator=bob, variant="testgame", players=2)
    client.force_login(alice)
    html = page(client, "lobby")
    spanish(html, "Esperando jugadores")
    assert "Empezar un encuentro" in html and "1 asiento libre" in html
    answer = client.post(
        reverse("match_create"),
        {"variant": "testgame", "players": 2, "opponents": "invite", "invite": "nobody"},
        **ES,
    )
    assert answer.status_code == 400
    spanish(answer.content.decode(), "Ningún miembro se llama nobody.", allowed={"nobody"})
    answer = client.post(
        reverse("match_create"),
        {"variant": "testgame", "players": 2, "opponents": "open", "testgame__cards": "9"},
        **ES,
    )
    spanish(answer.content.decode(), ": como máximo 5.")  # the field, then the rule


def test_it_shows_the_waiting_room_in_spanish(client, alice, bob):
    match = services.match_create(creator=alice, variant="testgame", players=2)
    client.force_login(alice)
    spanish(page(client, "match", match.pk), "Esperando a que se ocupen los asientos libres")
    client.force_login(bob)
    spanish(page(client, "match", match.pk), "Sentarme")


def test_it_shows_a_match_in_play_in_spanish_to_players_and_spectators(
    client, alice, bob, charlie, game_prompts
):
    match = lay(high_card(alice, bob), alice, 0)
    client.force_login(bob)
    html = page(client, "match", match.pk)
    spanish(html, "Te toca")
    assert "En la mesa" in html and "Lo que ha pasado" in html and "Barajado limpio" in html
    assert "Rendirse…" in html
    client.force_login(alice)
    html = page(client, "match", match.pk)
    spanish(html, "En la mesa")
    client.force_login(charlie)
    spanish(page(client, "match", match.pk), "La mesa")


def test_a_refused_move_says_why_in_spanish(client, alice, bob, game_prompts):
    match = high_card(alice, bob)
    client.force_login(bob)
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "type": "lay", "card": "5H"},
        **ES,
        **HTMX,
    )
    assert answer.status_code == 403
    spanish(answer.content.decode(), "No es tu turno.")
    client.force_login(alice)
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq - 1, "type": "lay", "card": "5H"},
        **ES,
        **HTMX,
    )
    spanish(answer.content.decode(), "La mesa ha cambiado")


def test_it_shows_a_finished_match_its_outcome_and_replay_in_spanish(
    client, alice, bob, game_prompts
):
    match = finished(alice, bob)
    client.force_login(alice)
    html = page(client, "match", match.pk)
    winners = match.outcome["winners"]
    if len(winners) == 2:  # High Card's last cards can tie
        spanish(html, "Un resultado compartido")
        assert "comparten el resultado" in html
    else:
        won = winners == [0]
        spanish(html, "Has ganado" if won else "Has perdido")
        assert f"{'Alice' if won else 'Bob'} gana " in html
    assert "Ver la repetición" in html and "La semilla, ahora pública" in html
    spanish(page(client, "match_replay", match.pk), "Todo está boca arriba")
    spanish(page(client, "match_replay", match.pk, step=1), "Jugada 1")


def test_it_says_how_a_match_ended_early_in_spanish(client, alice, bob, game_prompts):
    match = high_card(alice, bob)
    services.match_resign(match_id=match.pk, user=bob)
    client.force_login(alice)
    html = page(client, "match", match.pk)
    spanish(html, "Bob se rindió")
    assert "por abandono" in html
    called_off = high_card(alice, bob)
    services.match_abort(match_id=called_off.pk, user=alice)
    spanish(page(client, "match", called_off.pk), "Este encuentro se anuló")


def test_the_api_answers_errors_in_the_language_asked_for_with_english_keys(alice):
    from django.test import Client

    _row, token = token_create(user=alice, name="bot")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    spanish_answer = api.get("/api/v1/matches/999999", **ES)
    assert spanish_answer.status_code == 404
    assert spanish_answer.json() == {"detail": "no existe ese encuentro", "field": None}
    english = api.get("/api/v1/matches/999999", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["detail"] == "there is no such match"
    refused = api.post(
        "/api/v1/matches",
        {"variant": "testgame", "players": 2, "options": {"cards": 9}},
        content_type="application/json",
        **ES,
    )
    assert refused.status_code == 400
    assert refused.json()["detail"] == "options.cards: debe estar entre 1 y 5"


def test_dates_and_numbers_follow_the_readers_locale(client, alice, bob):
    finished(alice, bob)
    html = page(client, "profile", "alice")
    day = fresh_finished_date(alice)
    assert day.strftime("%d/%m/%Y") in html
    english = client.get(reverse("profile", args=["alice"]), HTTP_ACCEPT_LANGUAGE="en")
    assert day.strftime("%m/%d/%Y") in english.content.decode()


def fresh_finished_date(member):
    from games.models import Match

    return Match.objects.filter(seats__user=member).latest("finished_at").finished_at


def test_cards_are_named_in_spanish():
    from django.template import Context, Template

    with override("es"):
        html = Template('{% load cards %}{% card "5H" %}{% card_back %}').render(Context())
    assert 'aria-label="cinco de corazones"' in html and 'aria-label="carta boca abajo"' in html


def test_a_password_is_still_accepted_in_spanish(client, alice):
    answer = client.post(reverse("login"), {"username": "alice", "password": PASSWORD}, **ES)
    assert answer.status_code == 302


def test_the_admin_names_the_clubs_fields_in_spanish(client, dana):
    from accounts.models import Rating

    Rating.objects.create(user=dana, game="testgame", players=2)
    client.force_login(dana)
    html = client.get("/admin/accounts/rating/", **ES).content.decode()
    assert "Desviación" in html and "Última partida" in html
    html = client.get(f"/admin/accounts/user/{dana.pk}/change/", **ES).content.decode()
    assert "Nombre visible" in html and "Idioma" in html


def test_the_locked_out_page_is_in_spanish(rf):
    from django.contrib.auth.models import AnonymousUser

    from accounts.views import locked_out

    request = rf.post("/login/", {"username": "alice"}, **ES)
    request.user = AnonymousUser()
    with override("es"):
        html = locked_out(request).content.decode()
    spanish(html, "Entrada en pausa")
    assert "<strong>alice</strong>" in html


def test_the_plain_table_rules_and_replay_are_in_spanish(alice, bob):
    from django.template.loader import render_to_string

    match = high_card(alice, bob)
    with override("es"):
        table = render_to_string(
            "games/plain/table.html#hand", {"match": match, "seat": None, "view": {}}
        )
        board = render_to_string("games/plain/table.html#board", {"match": match})
        replay = render_to_string("games/plain/replay.html", {"move": None, "events": []})
    assert english_left(table + board + replay) == []
    assert "Estás mirando." in table and "Este juego aún no tiene mesa dibujada" in board
    assert "El comienzo" in replay
