"""Whatever a program sends to a POST endpoint, the answer is JSON and never a server error."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.conftest import ApiClient, started

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=80,
    deadline=None,
    derandomize=True,  # the same examples every run: CI stays steady, a failure reproduces
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["cribbage", "5H", "JD", "go", "discard", "play", "count", "121", "61"])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
create_keys = ["variant", "players", "options", "computer_seats", "invite", "invite_only"]
option_keys = ["target", "games", "muggins"]
move_types = ["discard", "play", "go", "count", "muggins", "continue"]

create_bodies = st.fixed_dictionaries(
    {},
    optional={
        "variant": st.sampled_from(["cribbage", "Cribbage", "", "chess"]) | json_values,
        "players": st.integers(min_value=-3, max_value=6) | json_values,
        "options": st.dictionaries(st.sampled_from(option_keys), json_values, max_size=3)
        | json_values,
        "computer_seats": st.lists(st.integers(min_value=-2, max_value=5), max_size=4)
        | json_values,
        "invite": st.lists(st.sampled_from(["bob", "charlie", "alice", "nobody"]), max_size=3)
        | json_values,
        "invite_only": json_values,
    },
) | st.dictionaries(st.sampled_from(create_keys) | st.text(max_size=8), json_values, max_size=6)

moves = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(move_types) | json_values},
        optional={
            "cards": st.lists(st.sampled_from(["5H", "JD", "AS", "10C", "TC", "XX"]), max_size=3)
            | json_values,
            "card": st.sampled_from(["5H", "JD", "AS", "10C", "XX"]) | json_values,
            "points": st.integers(min_value=-2, max_value=40) | json_values,
        },
    )
    | json_values
)
move_bodies = (
    st.fixed_dictionaries(
        {}, optional={"seq": st.integers(min_value=-1, max_value=6) | json_values, "move": moves}
    )
    | json_values
)

garbage = st.binary(max_size=200) | st.text(max_size=200).map(str.encode)
content_types = st.sampled_from(
    ["application/json", "text/plain", "application/x-www-form-urlencoded",
     "multipart/form-data; boundary=xyz", "application/json; charset=utf-8", ""]
)  # fmt: skip


def check(response) -> None:
    assert response.status_code < 500, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    body = response.json()
    if response.status_code >= 400:
        assert isinstance(body["detail"], str) and body["detail"]


@pytest.fixture
def table(alice_api, bob_api, charlie_api):
    state = started(alice_api, bob_api)
    return state["id"], {"alice": alice_api, "bob": bob_api, "charlie": charlie_api}


@FUZZ
@given(body=create_bodies)
def test_creating_a_match(alice_api, bob, charlie, body):
    check(alice_api.post("/matches", body))


@FUZZ
@given(body=move_bodies, who=st.sampled_from(["alice", "bob", "charlie"]))
def test_posting_moves(table, body, who):
    match_id, clients = table
    check(clients[who].post(f"/matches/{match_id}/moves", body))


@FUZZ
@given(
    raw=garbage,
    content_type=content_types,
    path=st.sampled_from(
        ["/matches", "/moves", "/join", "/resign", "/abort", "/cancel", "/leave", "/claim"]
    ),
)
def test_sending_garbage(table, raw, content_type, path):
    match_id, clients = table
    url = path if path == "/matches" else f"/matches/{match_id}{path}"
    check(clients["alice"].post(url, raw=raw, content_type=content_type))


@settings(FUZZ, max_examples=30)
@given(
    body=json_values,
    path=st.sampled_from(["/join", "/resign", "/abort", "/cancel", "/leave", "/claim"]),
)
def test_odd_bodies_to_the_actions(table, body, path):
    match_id, clients = table
    check(clients["charlie"].post(f"/matches/{match_id}{path}", raw=json.dumps(body)))


def test_a_huge_body_is_refused_as_json(alice_api):
    response = alice_api.post("/matches", {"variant": "cribbage", "pad": "x" * 3_000_000})
    assert response.status_code == 413
    check(response)


def test_unauthenticated_garbage_is_401(alice):
    check(ApiClient(None).post("/matches", raw=b"\x00\xff"))
