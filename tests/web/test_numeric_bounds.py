"""Every number a form or the API takes has bounds inside its database column, and the
extremes (huge, negative, zero, a fraction, text, nothing) get a 4xx naming the field: never a
500, never a record written. Run it on PostgreSQL too, whose small-integer columns overflow at
32767 (DATABASE_URL=postgres://...).

The forms' number fields are discovered, so a new field (or a new form) without bounds fails."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.engine.core.variant import get_variant
from games.forms import NUMBER_FIELDS, NewMatchForm
from games.models import Match
from games.tournaments import services
from games.tournaments.forms import LateEntryForm, ScoreForm, TournamentForm
from games.tournaments.models import Entrant, Game, Tournament

from ..api.conftest import ApiClient, token_of

pytestmark = pytest.mark.django_db

EXTREMES = ("1000000000000", "-1", "0", "1.5", "abc", "")
SMALL_INTEGER = 32767  # PostgreSQL's smallint


def project_forms() -> list[type[forms.BaseForm]]:
    """Every form class of the project (modules named *form* or *view* under the apps)."""
    for package in ("accounts", "games", "cribsite"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            leaf = info.name.rsplit(".", 1)[-1]
            if ".engine" in info.name or "migrations" in info.name:
                continue
            if "form" in leaf or "view" in leaf:
                importlib.import_module(info.name)
    found, todo = [], [forms.BaseForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.split(".")[0] in {"accounts", "games", "cribsite"}:
                found.append(sub)
    return found


def _instance(form_class: type[forms.BaseForm]) -> forms.BaseForm:
    return form_class()


def number_fields(form: forms.BaseForm) -> dict[str, forms.Field]:
    return {n: f for n, f in form.fields.items() if isinstance(f, NUMBER_FIELDS)}


# -- the forms, each with a page to post it to ------------------------------------------------


@dataclass
class Case:
    """How to post one form: who, where, a valid body, and what a post must not write."""

    form: type[forms.BaseForm]
    setup: Callable  # (client, personas) -> (url, valid data, snapshot of what it could write)
    form_key: str = "form"  # the form's name in the page's context (None: a one-line error)


def _new_match(client, p):
    client.force_login(p["alice"])
    data = {"variant": "cribbage", "players": "2", "opponents": "open", "level": ""}
    return reverse("match_create"), data, lambda: Match.objects.count()


def _new_tournament(client, p):
    client.force_login(p["tess"])
    data = {
        "name": "Bounds open", "date": "2026-04-01", "variant": "cribbage", "players": "2",
        "venue": "table", "qualifying": "swiss", "rounds": "6", "qualifiers": "",
        "series_length": "3", "points_win": "2", "points_skunk": "3", "points_double_skunk": "4",
        "bye_points": "2", "tiebreaks": "game_points,wins,spread,head_to_head",
        "forfeit_minutes": "10",
    }  # fmt: skip
    return reverse("tournament_new"), data, lambda: Tournament.objects.count()


def _late_entry(client, p):
    event = p["night"]()
    client.force_login(p["tess"])
    data = {"guest_name": "Late Larry", "games": "1", "wins": "0", "game_points": "0",
            "spread": "0"}  # fmt: skip
    url = reverse("tournament_action", args=[event.pk, "late"])
    return url, data, lambda: Entrant.objects.count()


def _director_result(client, p):
    event = p["night"]()
    game = Game.objects.filter(pairing__round__tournament=event).first()
    client.force_login(p["tess"])
    data = {"game": str(game.pk), "score_a": "121", "score_b": "100"}
    url = reverse("tournament_action", args=[event.pk, "result"])
    return url, data, lambda: _game_row(game.pk)


def _player_result(client, p):
    event = p["night"]()
    game = next(
        g
        for g in Game.objects.filter(pairing__round__tournament=event)
        if g.pairing.side_of(p["alice"])
    )
    client.force_login(p["alice"])
    data = {"score_a": "121", "score_b": "100"}
    url = reverse("tournament_game_result", args=[game.pk])
    return url, data, lambda: _game_row(game.pk)


def _game_row(pk: int) -> tuple:
    return tuple(
        Game.objects.filter(pk=pk).values_list("status", "score_a", "score_b", "score_c").get()
    )


CASES = {
    NewMatchForm: [Case(NewMatchForm, _new_match)],
    TournamentForm: [Case(TournamentForm, _new_tournament)],
    LateEntryForm: [Case(LateEntryForm, _late_entry, form_key="late_form")],
    ScoreForm: [
        Case(ScoreForm, _director_result, form_key=""),
        Case(ScoreForm, _player_result, form_key=""),
    ],
}


@pytest.fixture
def personas(alice, bob, tess, make_event):
    def night():
        event = make_event([alice, bob, "Guest Gail", "Guest Hugh"])
        services.round_generate(tournament_id=event.pk, by=tess)
        return event

    return {"alice": alice, "bob": bob, "tess": tess, "night": night}


@pytest.fixture
def tess(make_member):
    from django.contrib.auth.models import Permission

    user = make_member("tess", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="direct_tournament"))
    return type(user).objects.get(pk=user.pk)


@pytest.fixture
def make_event(tess):
    import datetime as dt

    def make(entrants=()):
        event = services.tournament_create(
            director=tess, name="Night", date=dt.date(2026, 11, 24), seed="fixed-seed"
        )
        for who in entrants:
            kwargs = {"guest_name": who} if isinstance(who, str) else {"user": who}
            services.entrant_add(tournament_id=event.pk, by=tess, checked_in=True, **kwargs)
        return event

    return make


# -- every number field has bounds --------------------------------------------------------------


def test_every_form_with_numbers_is_tried_here():
    """A new form that takes numbers must join CASES (and so be sent the extremes)."""
    with_numbers = {f for f in project_forms() if number_fields(_instance(f))}
    assert with_numbers <= set(CASES), f"forms to add to CASES: {with_numbers - set(CASES)}"
    assert with_numbers, "the discovery found no form"


@pytest.mark.parametrize("form_class", list(CASES), ids=lambda f: f.__name__)
def test_every_number_field_has_bounds_inside_its_column(form_class):
    for name, field in number_fields(_instance(form_class)).items():
        assert field.min_value is not None, f"{form_class.__name__}.{name} has no min_value"
        assert field.max_value is not None, f"{form_class.__name__}.{name} has no max_value"
        assert -SMALL_INTEGER <= field.min_value <= field.max_value <= SMALL_INTEGER, name
        if isinstance(field, forms.DecimalField):
            assert field.max_digits and field.decimal_places is not None, name


@pytest.mark.parametrize("form_class", list(CASES), ids=lambda f: f.__name__)
def test_the_messages_name_the_field_and_the_rule(form_class):
    for name, field in number_fields(_instance(form_class)).items():
        label = str(field.label)
        for limit, beyond, rule in (
            (field.max_value, field.max_value + 1, "at most"),
            (field.min_value, field.min_value - 1, "at least"),
        ):
            with pytest.raises(ValidationError) as caught:
                field.clean(str(beyond))
            text = " ".join(caught.value.messages)
            assert label in text and f"{rule} {limit}" in text, (name, text)
        with pytest.raises(ValidationError) as caught:
            field.clean("abc")
        assert label in " ".join(caught.value.messages), name


# -- the extremes, posted ----------------------------------------------------------------------


def _case_fields() -> list[tuple[Case, str]]:
    return [
        (case, name)
        for cases in CASES.values()
        for case in cases
        for name in number_fields(_instance(case.form))
    ]


@pytest.mark.parametrize(
    ("case", "name"),
    _case_fields(),
    ids=[f"{c.setup.__name__.strip('_')}-{n}" for c, n in _case_fields()],
)
def test_the_extremes_get_a_4xx_and_write_nothing(client, personas, case, name):
    url, data, snapshot = case.setup(client, personas)
    field = number_fields(_instance(case.form))[name]
    game = name.split("__", 1)[0] if "__" in name else None
    if game:  # a game's own option: only counted when that game is chosen
        data["variant"] = game
        counts = get_variant(game).player_counts
        data["players"] = str(2 if 2 in counts else counts[0])
        if case.form is NewMatchForm and "computer_seats" not in name:
            data["opponents"] = "computer"
    for value in EXTREMES:
        before = snapshot()
        response = client.post(url, {**data, name: value})
        where = f"{name}={value!r}: {response.status_code}"
        assert response.status_code < 500, where
        if _accepted(field, value):
            continue
        assert 400 <= response.status_code < 500, where
        assert snapshot() == before, f"{where} wrote a record"
        if case.form_key:
            errors = response.context[case.form_key].errors
            assert name in errors, f"{where}: no error on the field ({errors})"
            assert str(field.label) in " ".join(errors[name]), errors[name]


def _accepted(field: forms.Field, value: str) -> bool:
    try:
        field.clean(value)
    except ValidationError:
        return False
    return True


# -- the API ------------------------------------------------------------------------------------

API_EXTREMES = (10**12, -1, 0, 1.5, "abc", None)


@pytest.fixture
def alice_api(alice) -> ApiClient:
    return ApiClient(token_of(alice))


def _api_refused(response, field: str) -> None:
    assert 400 <= response.status_code < 500, (field, response.status_code, response.content)
    body = response.json()
    assert field in body["detail"], body


@pytest.mark.parametrize("value", API_EXTREMES, ids=repr)
@pytest.mark.parametrize(
    ("field", "body"),
    [
        ("players", lambda v: {"variant": "cribbage", "players": v}),
        ("computer_seats", lambda v: {"variant": "cribbage", "computer_seats": [v]}),
        ("options.target", lambda v: {"variant": "cribbage", "options": {"target": v}}),
        ("options.games", lambda v: {"variant": "cribist", "players": 4, "options": {"games": v}}),
    ],
)
def test_the_api_refuses_numbers_out_of_bounds_when_creating_a_match(alice_api, field, body, value):
    before = Match.objects.count()
    response = alice_api.post("/matches", body(value))
    assert response.status_code < 500, response.content
    if response.status_code == 201:  # a number the game takes (0 computer seats...)
        assert value in (0, 1.5) or value is None or field == "players", response.json()
        return
    _api_refused(response, field.split(".")[-1])
    assert Match.objects.count() == before


@pytest.mark.parametrize("value", API_EXTREMES, ids=repr)
def test_the_api_refuses_a_move_with_a_seq_out_of_bounds(alice_api, bob, value):
    match = alice_api.create(computer_seats=[1])
    moves = match["seq"]
    response = alice_api.move(match["id"], value, {"type": "discard", "cards": []})
    assert response.status_code < 500, response.content
    assert 400 <= response.status_code < 500
    if value in (10**12, -1, 1.5, "abc", None):
        _api_refused(response, "seq")
    assert Match.objects.get(pk=match["id"]).seq >= moves


@pytest.mark.parametrize("value", (10**12, -1, "abc"), ids=repr)
@pytest.mark.parametrize("param", ["wait_after_seq", "limit", "offset"])
def test_the_api_refuses_query_numbers_out_of_bounds(alice_api, param, value):
    match = alice_api.create(computer_seats=[1])
    path = f"/matches/{match['id']}" if param == "wait_after_seq" else "/matches"
    response = alice_api.get(path, **{param: value})
    _api_refused(response, param)


@pytest.mark.parametrize("value", (10**12, -1, 0))
def test_the_api_answers_a_match_id_out_of_bounds_with_a_404(alice_api, value):
    for path in (f"/matches/{value}", f"/matches/{value}/log"):
        response = alice_api.get(path)
        assert response.status_code == 404, (path, response.status_code)
    for action in ("moves", "preview", "join", "resign", "abort", "cancel", "leave", "claim"):
        response = alice_api.post(f"/matches/{value}/{action}", {"seq": 0, "move": {}})
        assert response.status_code in (404, 422), (action, response.status_code)


def test_a_decimal_field_keeps_its_digits():
    """The bye's points fit its column (5 digits, 2 after the point)."""
    field = TournamentForm().fields["bye_points"]
    assert field.clean("99") == Decimal("99")
    with pytest.raises(ValidationError):
        field.clean("1.234")
