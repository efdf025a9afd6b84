"""The Django admin: tournaments only for staff with the director permission, and its actions."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.tournaments.models import Round

pytestmark = pytest.mark.django_db


def test_only_directors_see_tournaments_in_the_admin(client, make_event, tess, sam, alice):
    event = make_event(["Ann", "Bea"])
    change = reverse("admin:games_tournament_change", args=[event.pk])
    changelist = reverse("admin:games_tournament_changelist")
    client.force_login(sam)  # staff, no director permission
    assert client.get(changelist).status_code == 403
    assert client.get(change).status_code == 403
    client.force_login(alice)  # not staff: sent to the admin log-in
    assert client.get(changelist).status_code == 302
    client.force_login(tess)
    page = client.get(changelist)
    assert page.status_code == 200 and event.name in page.content.decode()
    detail = client.get(change).content.decode()
    assert "Ann" in detail and "Bea" in detail  # the entrants inline
    search = client.get(changelist, {"q": "Ann"}).content.decode()
    assert event.name in search


def test_the_admin_actions_call_the_services(client, make_event, tess, sam):
    event = make_event(["Ann", "Bea", "Cal"], rounds=1, playoff=True, qualifiers=2)
    url = reverse("admin:games_tournament_changelist")
    client.force_login(tess)
    post = {"action": "generate_next_round", "_selected_action": [event.pk]}
    response = client.post(url, post, follow=True)
    assert "the next round is drawn" in response.content.decode()
    assert Round.objects.filter(tournament=event).count() == 1
    response = client.post(url, {**post, "action": "start_playoffs"}, follow=True)
    assert "still has" in response.content.decode()  # refused with the service's reason
    response = client.post(url, {**post, "action": "recompute_standings"}, follow=True)
    assert "standings recomputed" in response.content.decode()
    client.force_login(sam)
    assert client.post(url, post).status_code == 403
