"""Each match socket renders in its own reader's language: the member's saved language, else the
page's (the language cookie, then the handshake's Accept-Language). Readers of one kind (the
spectators) share rendered fragments only within one language."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import services
from tests.games.helpers import fresh
from tests.realtime.test_match_socket import drain
from tests.realtime.test_presence import ORIGIN, app, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def open_socket(match_id, user, *, cookie: bytes = b"", accept: bytes = b""):
    headers = [ORIGIN, (b"cookie", await session_cookie(user) + cookie)]
    if accept:
        headers.append((b"accept-language", accept))
    communicator = WebsocketCommunicator(app(), f"/ws/matches/{match_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@sync_to_async
def high_card(alice, bob):
    alice.language = "es"
    alice.save(update_fields=["language"])
    match = services.match_create(creator=alice, variant="testgame", players=2)
    services.match_join(match_id=match.pk, user=bob)
    return fresh(match)


@sync_to_async
def lay(match, user, seat):
    from games.engine.core.variant import get_variant

    engine = get_variant("testgame")
    card = engine.view(engine.load(fresh(match).snapshot), seat)["hand"][0]
    services.match_play(
        match_id=match.pk, user=user, seq=fresh(match).seq, move={"type": "lay", "card": card}
    )


async def test_a_spanish_member_gets_spanish_and_an_english_one_english(alice, bob, charlie, dana):
    match = await high_card(alice, bob)
    spanish = await open_socket(match.pk, alice, accept=b"en")  # her saved choice wins
    english = await open_socket(match.pk, bob)
    cookie_reader = await open_socket(match.pk, charlie, cookie=b"; django_language=es")
    header_reader = await open_socket(match.pk, dana, accept=b"en-GB,en;q=0.9")
    first = {
        "alice": await drain(spanish),
        "bob": await drain(english),
        "charlie": await drain(cookie_reader),
        "dana": await drain(header_reader),
    }
    assert "En la mesa" in first["alice"] and "At the table" not in first["alice"]
    assert "At the table" in first["bob"] and "En la mesa" not in first["bob"]
    # Two spectators, one kind of viewer, two languages: each gets their own.
    assert "En la mesa" in first["charlie"] and "At the table" not in first["charlie"]
    assert "At the table" in first["dana"] and "En la mesa" not in first["dana"]

    await lay(match, alice, 0)
    pushed = {
        "alice": await drain(spanish),
        "bob": await drain(english),
        "charlie": await drain(cookie_reader),
        "dana": await drain(header_reader),
    }
    for reader in ("alice", "charlie"):  # who is to move has changed: the players are redrawn
        assert "le toca" in pushed[reader] and "to move" not in pushed[reader]
    for reader in ("bob", "dana"):
        assert "to move" in pushed[reader] and "le toca" not in pushed[reader]
    assert "Your move" in pushed["bob"] and "Te toca" not in pushed["bob"]
    for communicator in (spanish, english, cookie_reader, header_reader):
        await communicator.disconnect()
