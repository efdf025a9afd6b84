"""The match socket: two players and a spectator each get their own fragments; hidden cards and
the seed never travel to anyone who may not see them; an illegal move reaches no one."""

from __future__ import annotations

import re
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import services
from games.engine.core.variant import get_variant
from tests.games.helpers import any_move, fresh
from tests.realtime.test_presence import ORIGIN, app, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

CARD = re.compile(r'data-card="([A2-9TJQK][CDHS])"')


async def open_socket(match_id, user=None, seq=None):
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await session_cookie(user)))
    path = f"/ws/matches/{match_id}/" + (f"?seq={seq}" if seq else "")
    communicator = WebsocketCommunicator(app(), path, headers=headers)
    connected, code = await communicator.connect()
    return communicator, connected, code


async def drain(communicator) -> str:
    """Everything the socket has sent so far, joined (waiting a while for the first message:
    the first render of a fresh process compiles templates, slow on a busy machine)."""
    parts = []
    if not await communicator.receive_nothing(timeout=10):
        parts.append(await communicator.receive_from())
    while not await communicator.receive_nothing(timeout=0.3):
        parts.append(await communicator.receive_from())
    return "".join(parts)


@sync_to_async
def start_two_player(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    return fresh(match)


@sync_to_async
def hidden_from(match, seat):
    """Cards the seat may not see now: other hands, the crib, the undealt deck."""
    snapshot = fresh(match).snapshot
    engine = get_variant("cribbage")
    state = engine.load(snapshot)
    view_cards = set(re.findall(r"[A2-9TJQK][CDHS]", str(engine.view(state, seat))))
    everything = {str(c) for hand in state.held for c in hand} | {str(c) for c in state.deck}
    everything |= {str(c) for c in state.crib}
    return everything - view_cards


@sync_to_async
def play(match, user, seat):
    match = fresh(match)
    services.match_play(match_id=match.pk, user=user, seq=match.seq, move=any_move(match, seat))
    return fresh(match)


async def test_each_seat_gets_its_own_hand_and_nobody_sees_hidden_cards(alice, bob, charlie):
    match = await start_two_player(alice, bob)
    sockets = {}
    for name, user in (("alice", alice), ("bob", bob), ("charlie", charlie)):
        communicator, connected, _ = await open_socket(match.pk, user)
        assert connected
        sockets[name] = communicator
    first = {name: await drain(sock) for name, sock in sockets.items()}
    hidden = {"alice": await hidden_from(match, 0), "bob": await hidden_from(match, 1)}
    hidden["charlie"] = hidden["alice"] | hidden["bob"]
    for name, html in first.items():
        shown = set(CARD.findall(html))
        assert not shown & hidden[name], f"{name} was sent hidden cards {shown & hidden[name]}"
        assert match.seed not in html
    assert len(CARD.findall(first["alice"].split('id="hand"')[1])) >= 6  # her own six cards
    assert 'id="hand"' in first["charlie"] and "You are watching" in first["charlie"]

    # Alice discards: everyone hears of it, but only as fragments for their own seat.
    match = await play(match, alice, 0)
    pushed = {name: await drain(sock) for name, sock in sockets.items()}
    hidden = {"alice": await hidden_from(match, 0), "bob": await hidden_from(match, 1)}
    hidden["charlie"] = hidden["alice"] | hidden["bob"]
    for name, html in pushed.items():
        assert f'data-seq="{match.seq}"' in html
        shown = set(CARD.findall(html))
        assert not shown & hidden[name], f"{name} was sent hidden cards {shown & hidden[name]}"
        assert match.seed not in html
    for sock in sockets.values():
        await sock.disconnect()


async def test_an_illegal_move_reaches_no_one(alice, bob):
    match = await start_two_player(alice, bob)
    bob_socket, _, _ = await open_socket(match.pk, bob, seq=match.seq)
    await drain(bob_socket)

    @sync_to_async
    def cheat():
        with pytest.raises(services.Illegal):
            services.match_play(
                match_id=match.pk, user=alice, seq=match.seq, move={"type": "discard", "cards": []}
            )

    await cheat()
    assert await bob_socket.receive_nothing(timeout=0.3)
    await bob_socket.disconnect()


async def test_a_page_that_is_up_to_date_is_not_sent_its_fragments_again(alice, bob):
    match = await start_two_player(alice, bob)
    fresh_page, _, _ = await open_socket(match.pk, alice, seq=match.seq)
    first = await drain(fresh_page)
    assert 'id="hand"' not in first and f'data-seq="{match.seq}"' in first
    stale_page, _, _ = await open_socket(match.pk, bob, seq=match.seq - 1)
    assert 'id="hand"' in await drain(stale_page)  # a page that missed moves is healed
    await fresh_page.disconnect()
    await stale_page.disconnect()


async def test_sockets_need_a_member_and_a_match(alice):
    for user in (alice, None):
        sock, connected, _ = await open_socket(12345, user)
        assert not connected
        await sock.disconnect()  # as the server does: the consumer ends, not cancelled


async def test_a_socket_finds_its_member_in_the_sockets_database_threads(alice, monkeypatch):
    """Not in channels' one thread for a process's database work, where every handshake of the
    process waited behind the others (cribsite/socket_auth.py)."""
    from cribsite import socket_auth

    threads = []
    find = socket_auth.auth.get_user

    def noted(request):
        threads.append(threading.current_thread().name)
        return find(request)

    monkeypatch.setattr(socket_auth.auth, "get_user", noted)
    match = await sync_to_async(services.match_create)(creator=alice, variant="cribbage", players=2)
    communicator, connected, _ = await open_socket(match.pk, alice)
    assert connected
    assert 'id="match-seq"' in await drain(communicator)  # the table, drawn for her
    await communicator.disconnect()
    communicator, connected, code = await open_socket(match.pk)  # no session: no member
    assert not connected and code == 4401
    assert len(threads) == 2 and all(name.startswith("socket-db") for name in threads), threads


async def test_connections_mark_a_seat_present_and_away(alice, bob):
    match = await start_two_player(alice, bob)
    sock, _, _ = await open_socket(match.pk, bob)
    await drain(sock)

    @sync_to_async
    def bob_seat():
        return fresh(match).seats.get(user=bob)

    seat = await bob_seat()
    assert (seat.connections, seat.away_since) == (1, None)
    await sock.disconnect()
    seat = await bob_seat()
    assert seat.connections == 0 and seat.away_since is not None


async def test_a_move_first_read_by_a_presence_push_still_brings_its_board(alice, bob, monkeypatch):
    """A move whose own message the socket missed (made while it was joining) and that a
    presence change is the first to read: the push carries the new board with the new seq,
    never the seq alone, which would leave the page believing it shows a board it does not."""
    match = await start_two_player(alice, bob)
    sock, connected, _ = await open_socket(match.pk, alice, seq=match.seq)
    assert connected
    assert 'id="hand"' not in await drain(sock)  # the page already shows this board
    monkeypatch.setattr(services.realtime, "group_send", lambda *args, **kwargs: None)
    moved = await play(match, alice, 0)  # the discard of seat 0; its message never leaves
    monkeypatch.undo()
    other, connected, _ = await open_socket(match.pk, bob)  # bob sits down: a presence push
    assert connected
    html = await drain(sock)
    assert f'data-seq="{moved.seq}"' in html
    assert 'id="hand"' in html and 'id="players"' in html
    await other.disconnect()
    await sock.disconnect()


async def test_the_lobby_updates_live(alice, bob):
    headers = [ORIGIN, (b"cookie", await session_cookie(bob))]

    @sync_to_async
    def create():
        return services.match_create(creator=alice, variant="cribbage", players=2)

    earlier = await create()  # made while the page's socket was away
    lobby = WebsocketCommunicator(app(), "/ws/lobby/", headers=headers)
    connected, _ = await lobby.connect()
    assert connected
    html = await lobby.receive_from(timeout=3)  # the lists as they stand, on every connect
    assert f"open-match-{earlier.pk}" in html and 'id="lobby-lists" hx-swap-oob="true"' in html

    match = await create()
    html = await lobby.receive_from(timeout=3)
    assert f"open-match-{match.pk}" in html and 'hx-swap-oob="true"' in html

    @sync_to_async
    def cancel():
        services.match_cancel(match_id=match.pk, user=alice)

    await cancel()
    html = await lobby.receive_from(timeout=3)
    assert f"open-match-{match.pk}" not in html
    await lobby.disconnect()
