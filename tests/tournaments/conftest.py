"""Personas for tournaments: Tess directs (staff with the director permission); Sam is staff
without it; Alice and Bob play; Charlie is an outsider."""

from __future__ import annotations

import datetime as dt

import pytest

from games.tournaments import services


@pytest.fixture
def tess(make_member):
    from django.contrib.auth.models import Permission

    user = make_member("tess", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="direct_tournament"))
    return type(user).objects.get(pk=user.pk)  # fresh permission cache


@pytest.fixture
def sam(make_member):
    return make_member("sam", is_staff=True)


@pytest.fixture
def make_event(tess):
    def make(entrants=(), *, checked_in=True, **settings):
        settings.setdefault("name", "Tuesday club night")
        settings.setdefault("date", dt.date(2026, 11, 24))
        settings.setdefault("seed", "fixed-seed")
        event = services.tournament_create(director=tess, **settings)
        for who in entrants:
            kwargs = {"guest_name": who} if isinstance(who, str) else {"user": who}
            services.entrant_add(tournament_id=event.pk, by=tess, checked_in=checked_in, **kwargs)
        return event

    return make


def current_games(event):
    """The games in play in the tournament's latest round, by table."""
    from games.tournaments.models import Game

    last = event.round_set.order_by("-number").first()
    return list(
        Game.objects.filter(pairing__round=last, status__in=["open", "pending"])
        .select_related("pairing__a", "pairing__b")
        .order_by("pairing__table", "number")
    )


def play_round(event, director, scores=((121, 100),)):
    """Enter a result for every game in play, cycling through `scores`."""
    for i, game in enumerate(current_games(event)):
        a, b = scores[i % len(scores)]
        services.result_enter(game_id=game.pk, by=director, score_a=a, score_b=b)
