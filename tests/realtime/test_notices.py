"""Live notices to one member, on any page: an invitation to a match, a rematch offered.

Alice invites Bob; Charlie is an outsider who must hear nothing. Each page of a member holds a
socket on /ws/notices/ (base.html); the notice comes from games.signals.match_changed, heard by
accounts.notices (the match layer does not know it).
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts import notices
from games import realtime, services
from tests.games.helpers import play_out
from tests.realtime.test_presence import ORIGIN, app, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def notice_socket(user=None, *, accept: bytes = b"") -> WebsocketCommunicator:
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await session_cookie(user)))
    if accept:
        headers.append((b"accept-language", accept))
    communicator = WebsocketCommunicator(app(), "/ws/notices/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@sync_to_async
def invite(host, *guests, players=2):
    return services.match_create(
        creator=host, variant="testgame", players=players, options={"cards": 1}, invited=guests
    )


@sync_to_async
def join(match, user):
    return services.match_join(match_id=match.pk, user=user)


@sync_to_async
def finish_and_offer_rematch(alice, bob):
    match = services.match_create(
        creator=alice, variant="testgame", players=2, options={"cards": 1}, invited=[bob]
    )
    services.match_join(match_id=match.pk, user=bob)
    match = play_out(match, {0: alice, 1: bob})
    return match, services.match_rematch(match_id=match.pk, user=bob)


async def test_an_invited_member_is_told_live_and_no_one_else(alice, bob, charlie):
    bobs_page, bobs_other_tab = await notice_socket(bob), await notice_socket(bob)
    alices_page, charlies_page = await notice_socket(alice), await notice_socket(charlie)

    match = await invite(alice, bob)

    for page in (bobs_page, bobs_other_tab):  # every page of Bob's
        html = await page.receive_from(timeout=5)
        assert 'id="notices" hx-swap-oob="beforeend"' in html
        assert "Alice invites you to a game of High Card." in html
        assert f'href="/matches/{match.pk}/"' in html
        assert f'data-match="{match.pk}"' in html
    assert await alices_page.receive_nothing(timeout=0.5)  # the host is not told her own match
    assert await charlies_page.receive_nothing(timeout=0.2)

    # Told once: Bob taking his seat (the match starts) tells nobody anything more.
    await join(match, bob)
    for page in (bobs_page, bobs_other_tab, alices_page, charlies_page):
        assert await page.receive_nothing(timeout=0.3)
    for page in (bobs_page, bobs_other_tab, alices_page, charlies_page):
        await page.disconnect()


async def test_a_rematch_offer_reaches_the_other_member(alice, bob):
    alices_page = await notice_socket(alice)
    match, rematch = await finish_and_offer_rematch(alice, bob)
    html = await alices_page.receive_from(timeout=5)
    assert "Bob offers you a rematch of High Card." in html
    assert f'href="/matches/{rematch.pk}/"' in html
    # The pages that already show the offer (the finished match's end panel) leave it out.
    assert f'data-shown-on="/matches/{rematch.pk}/ /matches/{match.pk}/"' in html
    await alices_page.disconnect()


async def test_the_notice_is_in_the_member_s_language(alice, bob):
    bob.language = "es"
    await sync_to_async(bob.save)(update_fields=["language"])
    bobs_page = await notice_socket(bob, accept=b"en")  # his saved language wins
    await invite(alice, bob)
    html = await bobs_page.receive_from(timeout=5)
    assert "Alice te invita a una partida de" in html and "Ir a la partida" in html
    assert "invites you" not in html
    await bobs_page.disconnect()


async def test_a_match_that_is_no_longer_waiting_is_not_announced(alice, bob):
    """A notice drawn after the match started (or was cancelled) would invite to nothing."""
    match = await invite(alice, bob, players=2)
    bobs_page = await notice_socket(bob)
    await sync_to_async(services.match_cancel)(match_id=match.pk, user=alice)
    await bobs_page.send_input({"type": "websocket.receive", "text": "ping"})  # pages only listen
    await sync_to_async(realtime.group_send)(
        notices.group_name(bob.pk), {"type": "notice.invited", "match_id": match.pk}
    )
    assert await bobs_page.receive_nothing(timeout=0.5)
    await bobs_page.disconnect()


async def test_a_visitor_s_socket_is_refused():
    communicator = WebsocketCommunicator(app(), "/ws/notices/", headers=[ORIGIN])
    connected, code = await communicator.connect()
    assert not connected and code == notices.CLOSE_UNAUTHENTICATED
    await communicator.disconnect()  # as the server does: the consumer ends, not cancelled


@sync_to_async
def queries_of_a_move_heard() -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        notices.on_match_changed(sender=None, match_id=1, seq=40, to_move=[0])
    return len(queries)


async def test_a_move_costs_the_listener_no_query():
    assert await queries_of_a_move_heard() == 0
