"""Staff tools: matches in the Django admin (found by member or number, filtered, read-only,
aborted through the services; the move log is never edited there), and the API docs served
from our own static files.

Dana is a superuser; Sam is staff with no permission; Alice and Bob play.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services, signals
from games.engine import get_variant
from games.models import Match, Move

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:games_match_changelist"


@pytest.fixture
def sam(make_member):
    return make_member("sam", is_staff=True)


def started(alice, bob, *, rated=True) -> Match:
    match = services.match_create(creator=alice, variant="cribbage", players=2, rated=rated)
    return services.match_join(match_id=match.pk, user=bob)


def play_one(match: Match, users) -> Match:
    """Make the first legal move of the first seat to move."""
    engine = get_variant(match.variant)
    seat = match.to_move[0]
    move = engine.legal_moves(engine.load(match.snapshot), seat)[0]
    services.match_play(match_id=match.pk, user=users[seat], seq=match.seq, move=move)
    return Match.objects.get(pk=match.pk)


def ids_in(page) -> set[int]:
    return {match.pk for match in page.context["cl"].result_list}


def test_it_lists_matches_with_their_players_and_finds_them(client, dana, alice, bob, charlie):
    ours = started(alice, bob)
    theirs = services.match_create(creator=charlie, variant="cribbage", players=2)
    client.force_login(dana)
    url = reverse(CHANGELIST)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Alice, Bob" in html and "Charlie, Open seat" in html
    assert ids_in(client.get(url, {"q": "bob"})) == {ours.pk}
    assert ids_in(client.get(url, {"q": "Charlie"})) == {theirs.pk}  # display name
    assert ids_in(client.get(url, {"q": str(theirs.pk)})) == {theirs.pk}  # the match's number
    assert ids_in(client.get(url, {"q": "nobody"})) == set()


def test_it_filters_by_game_status_rated_and_date(client, dana, alice, bob, charlie):
    active = started(alice, bob, rated=False)
    waiting = services.match_create(creator=charlie, variant="tabletop", players=2)
    client.force_login(dana)
    url = reverse(CHANGELIST)
    assert ids_in(client.get(url, {"variant": "cribbage"})) == {active.pk}
    assert ids_in(client.get(url, {"variant": "tabletop"})) == {waiting.pk}
    assert ids_in(client.get(url, {"status__exact": "waiting"})) == {waiting.pk}
    assert ids_in(client.get(url, {"rated__exact": "0"})) == {active.pk}
    day = active.created_at
    by_day = {"created_at__year": day.year, "created_at__month": day.month,
              "created_at__day": day.day}  # fmt: skip
    assert ids_in(client.get(url, by_day)) == {active.pk, waiting.pk}
    html = client.get(url).content.decode()
    for game in ("Cribbage", "Table Top Cribbage", "CrossCrib"):  # every game, played or not
        assert game in html


def test_a_match_and_its_log_are_read_only(client, dana, alice, bob):
    match = play_one(started(alice, bob), {0: alice, 1: bob})
    client.force_login(dana)
    change = reverse("admin:games_match_change", args=[match.pk])
    page = client.get(change)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="snapshot"' not in html and 'name="moves-0-move"' not in html
    assert "<textarea" not in html and 'name="_save"' not in html
    assert match.seed not in html  # the seed stays secret while the match is on
    assert match.seed_sha256 in html
    assert "Alice" in html and "Bob" in html  # the seats inline
    before = (match.seq, list(Move.objects.filter(match=match).values_list("move", flat=True)))
    assert client.post(change, {"status": "finished"}).status_code == 403
    match.refresh_from_db()
    after = (match.seq, list(Move.objects.filter(match=match).values_list("move", flat=True)))
    assert after == before
    assert client.get(reverse("admin:games_match_add")).status_code == 403
    assert client.get(reverse("admin:games_match_delete", args=[match.pk])).status_code == 403
    move = Move.objects.get(match=match)
    assert client.get(reverse("admin:games_move_change", args=[move.pk])).status_code == 200
    assert client.post(reverse("admin:games_move_change", args=[move.pk]), {}).status_code == 403
    actions = client.get(reverse(CHANGELIST)).context["action_form"].fields["action"].choices
    assert [name for name, _ in actions if name] == ["abort_matches"]  # no bulk delete


def test_the_abort_action_calls_the_match_off_through_the_services(
    client, dana, alice, bob, charlie, django_capture_on_commit_callbacks
):
    stuck = play_one(started(alice, bob), {0: alice, 1: bob})
    waiting = services.match_create(creator=charlie, variant="cribbage", players=2)
    moves = list(Move.objects.filter(match=stuck).values_list("seq", "move"))
    heard = []

    def listener(**kwargs):
        heard.append(kwargs["match_id"])

    signals.match_changed.connect(listener)
    client.force_login(dana)
    post = {"action": "abort_matches", "_selected_action": [stuck.pk, waiting.pk]}
    try:
        with django_capture_on_commit_callbacks(execute=True):
            page = client.post(reverse(CHANGELIST), post, follow=True)
    finally:
        signals.match_changed.disconnect(listener)
    html = page.content.decode()
    assert f"Match {stuck.pk} is aborted." in html and f"Match {waiting.pk} is aborted." in html
    for match in (stuck, waiting):
        match.refresh_from_db()
        assert (match.status, match.ending) == (Match.Status.ABORTED, Match.Ending.ABORTED)
        assert match.finished_at is not None
    assert sorted(heard) == sorted([stuck.pk, waiting.pk])  # the table and lobby were told
    assert list(Move.objects.filter(match=stuck).values_list("seq", "move")) == moves


def test_a_match_already_over_is_left_as_it_was(client, dana, alice, bob):
    match = started(alice, bob)
    services.match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    client.force_login(dana)
    post = {"action": "abort_matches", "_selected_action": [match.pk]}
    html = client.post(reverse(CHANGELIST), post, follow=True).content.decode()
    assert f"Match {match.pk} is already over (Finished): left as it was." in html
    finished = Match.objects.get(pk=match.pk)
    assert (finished.status, finished.ending, finished.seq) == ("finished", "resigned", match.seq)


def test_only_staff_with_the_permission_see_or_abort_matches(client, sam, alice, bob):
    from django.contrib.auth.models import Permission

    match = started(alice, bob)
    url = reverse(CHANGELIST)
    client.force_login(alice)  # not staff: sent to the admin log-in
    assert client.get(url).status_code == 302
    client.force_login(sam)  # staff without permissions
    assert client.get(url).status_code == 403
    post = {"action": "abort_matches", "_selected_action": [match.pk]}
    assert client.post(url, post).status_code == 403
    sam.user_permissions.add(Permission.objects.get(codename="view_match"))
    sam = type(sam).objects.get(pk=sam.pk)
    client.force_login(sam)
    page = client.get(url)
    assert page.status_code == 200 and "abort_matches" not in page.content.decode()
    client.post(url, post)  # an action it does not offer changes nothing
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE


def test_the_list_takes_a_fixed_number_of_queries(
    client, dana, alice, bob, make_member, django_assert_max_num_queries
):
    for i in range(8):
        started(make_member(f"p{i}"), make_member(f"q{i}"))
    client.force_login(dana)
    with django_assert_max_num_queries(12):
        assert client.get(reverse(CHANGELIST)).status_code == 200


def test_the_api_docs_load_swagger_from_our_own_static_files(client):
    html = client.get("/api/v1/docs").content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html and "/static/ninja/swagger-ui.css" in html
    assert "cdn." not in html and "https://" not in html
    for path in ("ninja/swagger-ui-bundle.js", "ninja/swagger-ui-init.js", "ninja/swagger-ui.css"):
        answer = client.get(f"/static/{path}")
        assert answer.status_code == 200, path
        answer.close()
