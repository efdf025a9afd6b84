"""The tournament pages in Spanish: the public page, the director's pages, sign-up, results,
the projector and print views, flashed messages, form and service errors, and the CSV headers.

Each page is rendered with `Accept-Language: es` for a tournament that has rounds, pairings,
results (one waiting for confirmation, one in dispute) and standings; what the page itself says
must hold no English-only word (`english_left`) and must hold a real Spanish phrase. The shared
site frame (navigation, footer) is checked by its own tests, so pages inside base.html are read
from their <main>.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.tournaments import services
from games.tournaments.models import Game
from tests.i18n.spanish import english_left
from tests.tournaments.conftest import current_games, make_event, play_round, tess  # noqa: F401

pytestmark = pytest.mark.django_db

ES = {"HTTP_ACCEPT_LANGUAGE": "es"}


def main_of(html: str) -> str:
    """The page's own part (inside <main>), or the whole page when it has no <main>."""
    found = re.search(r"<main\b.*?</main>", html, re.S)
    return found.group(0) if found else html


def spanish(client, url: str, *, status: int = 200) -> str:
    response = client.get(url, **ES)
    assert response.status_code == status
    assert response["Content-Language"] == "es"
    return response.content.decode()


def engine_words_not_yet_in_spanish() -> frozenset[str]:
    """Words of the games' names and options (labels, help, choices) that the catalogue has no
    Spanish for yet.

    Those texts belong to each game (marked with gettext_noop in its engine folder and
    translated by its own helper); the tournament pages show them through `engine_text`. Once
    a game's texts are in the catalogue this set is empty for it and the check is strict.
    """
    from games.engine import get_variant, variant_keys

    words: set[str] = set()
    with translation.override("es"):
        for key in variant_keys():
            engine = get_variant(key)
            texts = [engine.name]
            for spec in engine.options_schema.values():
                texts += [spec.get("label", ""), spec.get("help", "")]
                texts += [c for c in spec.get("choices", ()) if isinstance(c, str)]
            for text in texts:
                if text and translation.gettext(text) == text:
                    words.update(w.lower() for w in re.findall(r"[A-Za-z']+", text))
    return frozenset(words)


def assert_spanish(html: str, *phrases: str) -> None:
    assert english_left(main_of(html), allowed=engine_words_not_yet_in_spanish()) == []
    for phrase in phrases:
        assert phrase in html, phrase


@pytest.fixture
def night(make_event, make_member, alice, bob, charlie, dana, tess):  # noqa: F811
    """Five entrants, a playoff to come: round 1 played, round 2 with one result waiting for
    confirmation (Alice's), one decided and a bye; standings after each round."""
    event = make_event(
        [alice, bob, charlie, dana, make_member("eva")],
        rounds=3,
        playoff=True,
        qualifiers=2,
        date=dt.date(2026, 11, 24),
    )
    services.round_generate(tournament_id=event.pk, by=tess)
    play_round(event, tess, scores=((121, 88), (121, 60)))
    services.round_generate(tournament_id=event.pk, by=tess)
    for game in current_games(event):
        side = game.pairing.side_of(alice)
        if side is None:
            services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=110)
        else:
            mine, theirs = (121, 95) if side == "a" else (95, 121)
            services.result_enter(game_id=game.pk, by=alice, score_a=mine, score_b=theirs)
    return event


def alices_game(event, alice) -> Game:
    return next(g for g in current_games(event) if g.pairing.side_of(alice))


def alices_opponent(event, alice):
    pairing = alices_game(event, alice).pairing
    return next(e.user for letter, e in pairing.seated if letter != pairing.side_of(alice))


def test_the_list_of_tournaments_in_spanish(client, night, tess):  # noqa: F811
    html = spanish(client, reverse("tournaments"))
    assert_spanish(html, "Próximos y en juego", "Todavía no hay torneos terminados.")
    assert "24 de noviembre de 2026" in html  # the reader's date format
    client.force_login(tess)
    assert_spanish(spanish(client, reverse("tournaments")), "Organizar un torneo")


def test_the_public_page_in_spanish_for_a_visitor(client, night):
    html = spanish(client, reverse("tournament", args=[night.pk]))
    assert_spanish(
        html,
        "Ronda 2",
        "Clasificación",
        "Rondas anteriores",
        "descansa",
        "Vista para proyector",
        "martes, 24 de noviembre de 2026",
        "5 participantes",
        "Puntuación: victoria 2, capote 3",
    )


def test_the_member_waiting_for_confirmation_and_the_one_who_confirms(client, night, alice):
    client.force_login(alice)
    html = spanish(client, reverse("tournament", args=[night.pk]))
    assert_spanish(html, "Tu partida", "falta que otra persona de la mesa lo confirme")
    client.force_login(alices_opponent(night, alice))
    html = spanish(client, reverse("tournament", args=[night.pk]))
    assert_spanish(html, "Tu partida", "Confirmar este resultado", "Anotar otro resultado")
    game = alices_game(night, alice)
    answer = client.post(reverse("tournament_game_confirm", args=[game.pk]), follow=True, **ES)
    assert_spanish(answer.content.decode(), "Resultado confirmado.")


def test_a_member_entering_a_result_sees_spanish_messages_and_errors(client, night, alice):
    game = alices_game(night, alice)
    client.force_login(alices_opponent(night, alice))
    url = reverse("tournament_game_result", args=[game.pk])
    differs = client.post(url, {"score_a": 121, "score_b": 100}, follow=True, **ES)
    assert_spanish(differs.content.decode(), "No coincide con lo que anotó tu rival")
    client.force_login(alice)
    refused = client.post(url, {"score_a": 100, "score_b": 90}, **ES)
    assert refused.status_code == 409  # the result is disputed now: the director settles it
    assert_spanish(refused.content.decode(), "el director lo resolverá")


def test_the_rule_a_score_breaks_is_given_in_spanish(client, make_event, alice, bob, tess):  # noqa: F811
    event = make_event([alice, bob])
    services.round_generate(tournament_id=event.pk, by=tess)
    client.force_login(alice)
    game = current_games(event)[0]
    url = reverse("tournament_game_result", args=[game.pk])
    short = client.post(url, {"score_a": 100, "score_b": 90}, **ES)
    assert short.status_code == 400
    assert_spanish(short.content.decode(), "El ganador debe llegar a 121; a 100 le falta.")
    bad = client.post(url, {"score_a": "mucho", "score_b": 90}, **ES)
    assert_spanish(bad.content.decode(), ": escribe un número entero.")  # the field, then the rule


def test_the_directors_page_in_spanish(client, night, alice, tess):  # noqa: F811
    game = alices_game(night, alice)
    client.force_login(alices_opponent(night, alice))
    url = reverse("tournament_game_result", args=[game.pk])
    client.post(url, {"score_a": 1, "score_b": 121}, **ES)
    client.force_login(tess)
    html = spanish(client, reverse("tournament_direct", args=[night.pk]))
    assert_spanish(
        html,
        "El trabajo de esta noche",
        "Empezar las eliminatorias",
        "Disputas",
        "Resultados recibidos: Ronda 2",
        "Intercambiar dos participantes",
        "Participantes (5)",
        "Recalcular la clasificación",
    )


def test_the_directors_buttons_flash_spanish_and_refuse_in_spanish(client, night, tess):  # noqa: F811
    client.force_login(tess)
    action = reverse("tournament_action", args=[night.pk, "next-round"])
    refused = client.post(action, **ES)
    assert refused.status_code == 409
    assert_spanish(refused.content.decode(), "Ronda 2: aún queda 1 emparejamiento sin resultado")
    recompute = reverse("tournament_action", args=[night.pk, "recompute"])
    done = client.post(recompute, follow=True, **ES)
    assert_spanish(done.content.decode(), "Clasificación recalculada.")
    late = reverse("tournament_action", args=[night.pk, "late"])
    bad = client.post(late, {"member": "nadie", "games": 1, "wins": 0, "game_points": 0}, **ES)
    assert bad.status_code == 400
    assert_spanish(bad.content.decode(), "No hay ningún socio llamado", "Revisa el formulario.")


def test_sign_up_and_check_in_before_the_first_round_in_spanish(client, make_event, alice, tess):  # noqa: F811
    event = make_event(["Gail Invitada"], checked_in=False)
    client.force_login(tess)
    add = reverse("tournament_action", args=[event.pk, "add"])
    entered = client.post(add, {"member": "alice", "checked_in": "on"}, follow=True, **ES)
    assert_spanish(entered.content.decode(), "está inscrito.", "Añadir un participante")
    again = client.post(add, {"member": "alice"}, **ES)
    assert again.status_code == 409
    assert_spanish(again.content.decode(), "ya está inscrito")
    neither = client.post(add, {}, **ES)
    assert_spanish(neither.content.decode(), "Escribe un socio o el nombre de un invitado")
    html = spanish(client, reverse("tournament_direct", args=[event.pk]))
    assert_spanish(html, "Inscripciones abiertas", "Deshacer llegada", "Marcar llegada")


def test_setting_up_a_tournament_in_spanish_names_the_field_and_the_rule(client, tess):  # noqa: F811
    client.force_login(tess)
    html = spanish(client, reverse("tournament_new"))
    assert_spanish(html, "Organizar un torneo", "Jugadores en cada partida", "Orden de desempate")
    answer = client.post(reverse("tournament_new"), {"name": "", "rounds": 99}, **ES)
    assert answer.status_code == 400
    page = answer.content.decode()
    assert_spanish(page, "Este campo es obligatorio.", "Rondas clasificatorias")
    assert "Rondas clasificatorias: como máximo 40." in page  # the field, then the rule
    made = client.post(
        reverse("tournament_new"),
        {"name": "Noche de cribbage", "date": "2026-11-24", "variant": "cribbage", "players": 2,
         "venue": "table", "qualifying": "swiss", "rounds": 3, "series_length": 1,
         "points_win": 2, "points_skunk": 3, "points_double_skunk": 3,
         "tiebreaks": "game_points,wins,spread,head_to_head", "forfeit_minutes": 15},
        follow=True, **ES,
    )  # fmt: skip
    assert_spanish(made.content.decode(), "Ahora añade a los participantes.")


def test_the_projector_view_in_spanish(client, night):
    html = spanish(client, reverse("tournament_screen", args=[night.pk]))
    assert '<html lang="es">' in html
    assert_spanish(html, "Ronda 2", "Clasificación", "queda 1 ronda clasificatoria")


def test_the_print_sheets_in_spanish(client, night):
    html = spanish(client, reverse("tournament_print", args=[night.pk]))
    assert '<html lang="es">' in html
    assert_spanish(html, "Firma del ganador", "Volver al torneo", "Mesa 1")


def test_a_playoff_bracket_in_spanish(client, make_event, alice, bob, dana, charlie, tess):  # noqa: F811
    event = make_event([alice, bob, charlie, dana], qualifying="none", playoff=True, qualifiers=4)
    services.playoffs_start(tournament_id=event.pk, by=tess)
    html = spanish(client, reverse("tournament", args=[event.pk]))
    assert_spanish(html, "Eliminatorias", "Semifinales")


def test_the_csv_exports_have_spanish_headers_and_keep_their_values(client, night):
    def rows(kind: str, **headers) -> list[dict]:
        url = reverse("tournament_export", args=[night.pk, kind])
        return list(csv.DictReader(io.StringIO(client.get(url, **headers).content.decode())))

    games = rows("games", **ES)
    assert {"ronda", "mesa", "tanteo_a", "puntos_a", "ganador", "estado"} <= set(games[0])
    assert games[0]["estado"] in {"confirmed", "pending", "bye"}  # values stay codes
    standings = rows("standings", **ES)
    assert {"puesto", "nombre", "marcador", "puntos_partida", "diferencia"} <= set(standings[0])
    assert {"nombre", "socio", "presente"} <= set(rows("entrants", **ES)[0])
    english = rows("standings", HTTP_ACCEPT_LANGUAGE="en")
    assert {"position", "name", "card"} <= set(english[0])


def test_finishes_and_round_titles_in_spanish():
    from games.tournaments.texts import finish_text, local_points, playoff_title

    with translation.override("es"):
        assert finish_text(1, 8, finished=True) == "1.º de 8"
        assert finish_text(3, 8, finished=False) == "de momento 3.º de 8"
        assert playoff_title(2, 4) == "Cuartos de final"
        from decimal import Decimal

        assert local_points(Decimal("12.50")) == "12,5"
    with translation.override("en"):
        assert finish_text(2, 8, finished=True) == "2nd of 8"


def test_the_admin_speaks_spanish_for_tournaments(client, make_event, tess):  # noqa: F811
    event = make_event(["Ana Invitada", "Bea Invitada", "Cal Invitado"], rounds=1)
    client.force_login(tess)
    url = reverse("admin:games_tournament_changelist")
    page = spanish(client, url)
    assert "Sortear la ronda siguiente" in page and "Recalcular la clasificación" in page
    assert "Inscripciones abiertas" in page  # a stage, by its label
    change = spanish(client, reverse("admin:games_tournament_change", args=[event.pk]))
    assert "Formato" in change and "Línea de capote" in change and "Participantes" in change
    post = {"action": "generate_next_round", "_selected_action": [event.pk]}
    done = client.post(url, post, follow=True, **ES).content.decode()
    assert "la ronda siguiente está sorteada" in done
    refused = client.post(url, {**post, "action": "start_playoffs"}, follow=True, **ES)
    assert "este torneo no tiene eliminatorias" in refused.content.decode()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_live_page_pushes_spanish_to_a_spanish_reader(make_event, tess):  # noqa: F811
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from cribsite.asgi import application

    event = await sync_to_async(make_event)(["Ana", "Bea", "Cal", "Dee"])
    await sync_to_async(services.round_generate)(tournament_id=event.pk, by=tess)
    headers = [(b"origin", b"http://localhost"), (b"accept-language", b"es-ES,es;q=0.9")]
    watcher = WebsocketCommunicator(application, f"/ws/tournaments/{event.pk}/", headers=headers)
    connected, _ = await watcher.connect()
    assert connected
    first = await watcher.receive_from(timeout=3)
    assert "Ronda 1" in first and "Clasificación" in first
    assert english_left(first, allowed=engine_words_not_yet_in_spanish()) == []
    await watcher.disconnect()
