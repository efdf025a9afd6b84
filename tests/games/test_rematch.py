"""A rematch from the end panel: the same game, options and seats, offered once, accepted live.

Alice and Bob play High Card (the test game, two cards each); Charlie is an outsider.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.translation import override

from games import services
from games.errors import Conflict, Forbidden
from games.models import Match
from tests.games.helpers import any_move, fresh, play_out

pytestmark = pytest.mark.django_db

OPTIONS = {"cards": 2}


def finished(alice, bob) -> Match:
    match = services.match_create(
        creator=alice, variant="testgame", players=2, options=OPTIONS, invited=[bob]
    )
    services.match_join(match_id=match.pk, user=bob)
    return play_out(match, {0: alice, 1: bob})


@pytest.fixture
def against_the_computer(alice) -> Match:
    """A finished match of Alice's against the computer, its moves made here in turn."""
    match = services.match_create(
        creator=alice,
        variant="testgame",
        players=2,
        options=OPTIONS,
        computer_seats=[1],
        computer_level="easy",
    )
    match = fresh(match)
    while match.status == Match.Status.ACTIVE:
        if 0 in match.to_move:
            services.match_play(
                match_id=match.pk, user=alice, seq=match.seq, move=any_move(match, 0)
            )
        else:
            services.match_play_computer(match_id=match.pk, seq=match.seq)
        match = fresh(match)
    return match


def test_it_offers_a_rematch_with_the_same_game_and_seats(alice, bob):
    match = finished(alice, bob)
    seq = match.seq
    rematch = services.match_rematch(match_id=match.pk, user=bob)
    rematch = fresh(rematch)
    assert rematch.variant == "testgame"
    assert rematch.options == match.options
    assert rematch.status == Match.Status.WAITING
    assert rematch.invite_only
    assert list(rematch.invited.all()) == [alice]
    assert [(s.index, s.user) for s in rematch.seats.all()] == [(0, None), (1, bob)]
    match = fresh(match)
    assert match.rematch == rematch
    assert match.seq == seq + 1  # the end panels are drawn again


def test_it_makes_one_rematch_however_often_it_is_offered(alice, bob):
    match = finished(alice, bob)
    first = services.match_rematch(match_id=match.pk, user=bob)
    again = services.match_rematch(match_id=match.pk, user=bob)
    assert first.pk == again.pk
    assert Match.objects.count() == 2


def test_the_other_member_accepts_with_the_same_call_and_it_starts(alice, bob):
    match = finished(alice, bob)
    rematch = services.match_rematch(match_id=match.pk, user=bob)
    accepted = services.match_rematch(match_id=match.pk, user=alice)
    assert accepted.pk == rematch.pk
    rematch = fresh(rematch)
    assert rematch.status == Match.Status.ACTIVE
    assert [s.user for s in rematch.seats.all()] == [alice, bob]
    assert services.match_rematch(match_id=match.pk, user=alice).pk == rematch.pk  # again


def test_the_rematch_can_also_be_joined_from_the_lobby(alice, bob):
    match = finished(alice, bob)
    rematch = services.match_rematch(match_id=match.pk, user=alice)
    services.match_join(match_id=rematch.pk, user=bob)
    assert fresh(rematch).status == Match.Status.ACTIVE


def test_each_member_takes_their_own_seat_with_partners_kept(alice, bob, charlie, dana):
    match = services.match_create(creator=alice, variant="cribbage", players=4)
    for member in (bob, charlie, dana):
        services.match_join(match_id=match.pk, user=member)
    services.match_resign(match_id=match.pk, user=alice)
    rematch = services.match_rematch(match_id=match.pk, user=charlie)
    services.match_rematch(match_id=match.pk, user=dana)
    services.match_rematch(match_id=match.pk, user=alice)
    assert fresh(rematch).status == Match.Status.WAITING
    services.match_rematch(match_id=match.pk, user=bob)
    rematch = fresh(rematch)
    assert rematch.status == Match.Status.ACTIVE
    assert [(s.user, s.team) for s in rematch.seats.all()] == [
        (s.user, s.team) for s in fresh(match).seats.all()
    ]


def test_against_the_computer_it_starts_at_once_at_the_same_level(alice, against_the_computer):
    match = against_the_computer
    rematch = fresh(services.match_rematch(match_id=match.pk, user=alice))
    assert rematch.status == Match.Status.ACTIVE
    computer = rematch.seats.get(index=1)
    assert computer.is_computer and computer.level == "easy"
    assert not rematch.rated


def test_it_is_refused_to_outsiders_and_before_the_end(alice, bob, charlie):
    match = finished(alice, bob)
    with pytest.raises(Forbidden):
        services.match_rematch(match_id=match.pk, user=charlie)
    playing = services.match_create(
        creator=alice, variant="testgame", players=2, options=OPTIONS, computer_seats=[1]
    )
    with pytest.raises(Conflict):
        services.match_rematch(match_id=playing.pk, user=alice)


def test_it_offers_shows_and_accepts_on_the_end_panel(client, alice, bob):
    match = finished(alice, bob)
    client.force_login(bob)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert reverse("match_rematch", args=[match.pk]) in page
    answer = client.post(reverse("match_rematch", args=[match.pk]))
    rematch = fresh(match).rematch
    assert answer.status_code == 302 and answer["Location"] == rematch.get_absolute_url()
    twice = client.post(reverse("match_rematch", args=[match.pk]), HTTP_HX_REQUEST="true")
    assert twice["HX-Redirect"] == rematch.get_absolute_url()  # the end panel posts with htmx
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Go to the rematch" in page

    client.force_login(alice)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Bob offers a rematch." in page
    assert "Accept the rematch" in page
    answer = client.post(reverse("match_rematch", args=[match.pk]))
    assert answer["Location"] == rematch.get_absolute_url()
    assert fresh(rematch).status == Match.Status.ACTIVE


def test_an_outsider_sees_no_rematch_button(client, alice, bob, charlie):
    match = finished(alice, bob)
    client.force_login(charlie)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert reverse("match_rematch", args=[match.pk]) not in page
    assert client.post(reverse("match_rematch", args=[match.pk])).status_code == 302
    assert fresh(match).rematch is None


def test_computer_seats_have_a_name_and_show_their_level(against_the_computer):
    match = against_the_computer
    assert services.seat_names(fresh(match)) == ["Alice", "Max"]
    computer = fresh(match).seats.get(index=1)
    assert services.computer_tag(computer) == "computer · easy"
    with override("es"):
        assert services.seat_names(fresh(match))[1] == "Max"
        assert services.computer_tag(computer) == "ordenador · fácil"
