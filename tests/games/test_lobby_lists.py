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


# -- the lists kept while their rows stay the same ----------------------------------------------


def test_unchanged_lists_are_handed_out_again_after_their_two_queries(club, alice, monkeypatch):
    first = presenters.lobby_context(alice)
    built = []
    monkeypatch.setattr(presenters, "_lobby_row", lambda *args: built.append(args))
    with CaptureQueriesContext(connection) as queries:
        again = presenters.lobby_context(alice)
    assert len(queries) == 2 and built == []  # read, not built again
    assert again["waiting"] is first["waiting"] and again["mine"] is first["mine"]
    again["mine"] = []  # the context handed out is the caller's own: the kept lists stay
    assert presenters.lobby_context(alice)["mine"] is first["mine"]


def _rename(alice, bob, charlie):
    services.User.objects.filter(pk=bob.pk).update(display_name="Roberta")


LOBBY_CHANGES = {
    "a new open match": lambda a, b, c: services.match_create(
        creator=c, variant="cribbage", players=2
    ),
    "a seat taken": lambda a, b, c: services.match_join(
        match_id=Match.objects.filter(players=4, status="waiting").get().pk, user=b
    ),
    "a creator's new name": _rename,
    "a move in a match of hers": lambda a, b, c: Match.objects.filter(
        status="active", seats__user=a
    ).update(seq=99),
    "an invitation withdrawn": lambda a, b, c: Match.invited.through.objects.filter(
        user=a
    ).delete(),
}


@pytest.mark.parametrize("change", LOBBY_CHANGES.values(), ids=LOBBY_CHANGES.keys())
def test_any_change_to_what_the_lists_read_makes_them_again(club, alice, bob, charlie, change):
    first = presenters.lobby_context(alice)
    before = (_shown(first["waiting"]), _shown(first["mine"]))
    change(alice, bob, charlie)
    again = presenters.lobby_context(alice)
    assert again["waiting"] is not first["waiting"]
    waiting, mine = _defined(alice)
    assert _shown(again["waiting"]) == _shown(presenters._lobby_row(m, alice) for m in waiting)
    assert _shown(again["mine"]) == _shown(presenters._lobby_row(m, alice) for m in mine)
    shown = (_shown(again["waiting"]), _shown(again["mine"]))
    assert shown != before or [r["match"].seq for r in again["mine"]] != [
        r["match"].seq for r in first["mine"]
    ]


def test_each_member_and_language_has_lists_of_their_own(club, alice, bob):
    from django.utils import translation

    mine = presenters.lobby_context(alice)
    assert presenters.lobby_context(bob)["waiting"] is not mine["waiting"]
    with translation.override("es"):
        spanish = presenters.lobby_context(alice)
    assert spanish["waiting"] is not mine["waiting"]  # its words are in its language
    with translation.override("es"):
        assert presenters.lobby_context(alice)["waiting"] is spanish["waiting"]
    assert presenters.lobby_context(alice)["waiting"] is mine["waiting"]
