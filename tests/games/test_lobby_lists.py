"""The lobby's two lists (games.presenters.lobby_context): the same matches, in the same order,
as the plain queries that define them, with their seats and members, read in two queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Prefetch, Q
from django.test.utils import CaptureQueriesContext

from games import presenters, services
from games.models import Match, Seat

pytestmark = pytest.mark.django_db


def _defined(user) -> tuple[list[Match], list[Match]]:
    """The lists as plainly said with the ORM (the lobby's queries before they were compiled)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    waiting = (
        Match.objects.filter(status=Match.Status.WAITING)
        .filter(Q(invite_only=False) | Q(invited=user) | Q(created_by=user))
        .distinct()
        .prefetch_related(seats)
        .order_by("-created_at", "-pk")[: presenters.LOBBY_LIMIT]
    )
    mine = (
        Match.objects.filter(status=Match.Status.ACTIVE, seats__user=user)
        .prefetch_related(seats)
        .order_by("-updated_at", "-pk")[: presenters.LOBBY_LIMIT]
    )
    return list(waiting), list(mine)


def _shown(rows) -> list[tuple]:
    return [
        (
            row["match"].pk,
            row["match"].created_by.username,
            [(s.index, s.user.username if s.user else None) for s in row["match"].seats.all()],
            row["seat_names"],
            row["open"],
            row["is_mine"],
            row["seated"],
        )
        for row in rows
    ]


@pytest.fixture
def club(alice, bob, charlie, dana):
    """Open matches of every kind, matches in play and ended ones, made in a mixed order."""
    make = services.match_create
    made = [
        make(creator=bob, variant="cribbage", players=2),  # open to all
        make(creator=bob, variant="cribbage", players=3, invite_only=True, invited=[alice]),
        make(creator=bob, variant="cribbage", players=2, invite_only=True, invited=[charlie]),
        make(creator=alice, variant="cribbage", players=3, invite_only=True, invited=[dana]),
        make(creator=charlie, variant="kings", players=2),
        make(creator=charlie, variant="cribbage", players=4),
    ]
    services.match_join(match_id=made[5].pk, user=alice)  # still waiting, alice seated
    for creator, other in ((bob, alice), (charlie, dana), (alice, charlie), (dana, alice)):
        match = make(creator=creator, variant="cribbage", players=2)
        services.match_join(match_id=match.pk, user=other)  # in play
    ended = make(creator=bob, variant="cribbage", players=2)
    services.match_join(match_id=ended.pk, user=alice)
    services.match_resign(match_id=ended.pk, user=alice)
    services.match_cancel(
        match_id=make(creator=alice, variant="cribbage", players=2).pk, user=alice
    )


@pytest.mark.parametrize("who", ["alice", "bob", "charlie", "dana"])
def test_the_lobby_lists_are_the_matches_their_queries_define(club, who, request):
    user = request.getfixturevalue(who)
    waiting, mine = _defined(user)
    context = presenters.lobby_context(user)
    assert _shown(context["waiting"]) == _shown(presenters._lobby_row(m, user) for m in waiting)
    assert _shown(context["mine"]) == _shown(presenters._lobby_row(m, user) for m in mine)
    assert context["waiting"] or context["mine"]


def test_the_lobby_lists_take_two_queries_whatever_their_length(club, alice):
    presenters.lobby_context(alice)  # compiled on first use
    with CaptureQueriesContext(connection) as queries:
        context = presenters.lobby_context(alice)
        for row in context["waiting"] + context["mine"]:
            assert all(s.user or s.is_open for s in row["match"].seats.all())
        assert all(row["match"].created_by.name for row in context["waiting"])  # "by Bob"
    assert len(queries) == 2, [q["sql"] for q in queries]
    assert len(context["waiting"]) == 5 and len(context["mine"]) == 3  # not the one for charlie


def test_the_members_last_game_is_their_latest_match_among_the_games_asked(alice, bob):
    assert services.last_variant(user=alice, among=["cribbage", "kings"]) is None
    services.match_create(creator=alice, variant="kings", players=2)
    services.match_create(creator=alice, variant="crosscrib", players=2)
    services.match_create(creator=bob, variant="cribbage", players=2)  # not hers
    assert services.last_variant(user=alice, among=["cribbage", "kings"]) == "kings"
    assert services.last_variant(user=alice, among=["kings", "crosscrib"]) == "crosscrib"
    assert services.last_variant(user=bob, among=["kings", "cribbage"]) == "cribbage"
    assert services.last_variant(user=alice, among=[]) is None
    with CaptureQueriesContext(connection) as queries:
        services.last_variant(user=alice, among=["cribbage", "kings"])
    assert len(queries) == 1
    assert services._LAST_VARIANT[("cribbage", "kings")]._for(connection.alias) is not None
