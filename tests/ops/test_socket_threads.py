"""The sockets' database threads (cribsite.threads.socket_database): the database work of
different sockets runs side by side instead of in channels' one thread, each thread keeps its
connection until told to close it, and sockets of one process that hear the same message
still share one read of the board (games.presenters.shared_board)."""

import asyncio
import threading
import time

import pytest
from django.db import connection

from cribsite.threads import DatabaseThreads, socket_database
from games import presenters, services

pytestmark = pytest.mark.django_db(transaction=True)


def connected_threads(threads: DatabaseThreads) -> int:
    return sum(threads.in_every_thread(lambda: connection.connection is not None))


def test_the_sockets_use_several_threads():
    assert socket_database.threads >= 2


@pytest.mark.asyncio
async def test_two_sockets_work_side_by_side():
    """Each call waits until the other has started: one thread alone would never get there."""
    both = threading.Barrier(2, timeout=5)

    def work() -> str:
        both.wait()
        return threading.current_thread().name

    names = await asyncio.gather(socket_database(work)(), socket_database(work)())
    assert len(set(names)) == 2
    assert all(name.startswith("socket-db") for name in names)


@pytest.mark.asyncio
async def test_the_threads_keep_their_connections_until_closed():
    threads = DatabaseThreads(2, "test-db")

    def read() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone()[0]

    assert await threads(read)() == 1
    assert connected_threads(threads) == 1  # kept for the next event (CONN_MAX_AGE)
    threads.close_connections()
    assert connected_threads(threads) == 0
    assert await threads(read)() == 1
    threads.close_connections()
    threads.pool.shutdown()


def test_a_pool_that_did_nothing_since_is_left_alone():
    threads = DatabaseThreads(3, "test-db")
    threads.close_connections()
    assert len(threads.pool._threads) == 0
    threads.pool.shutdown()


def test_sockets_reading_the_same_board_at_once_read_it_once(alice, bob, monkeypatch):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    load = presenters.load_match

    def slow_load(match_id, **options):
        time.sleep(0.05)  # long enough for every thread to arrive while the first reads
        return load(match_id, **options)

    monkeypatch.setattr(presenters, "load_match", slow_load)
    heard = time.monotonic()
    boards = []

    def socket() -> None:
        boards.append(presenters.shared_board(match.pk, stamp="elsewhere-1", heard=heard))
        connection.close()

    readers = [threading.Thread(target=socket) for _ in range(4)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(10)
    assert presenters.board_reads[match.pk] == 1
    assert len(boards) == 4 and all(board is boards[0] for board in boards)
    assert boards[0].pk == match.pk
