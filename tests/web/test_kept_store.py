"""cribsite.kept.Kept: the one bounded store the site keeps its drawings and reads in."""

from __future__ import annotations

import threading

from cribsite import kept
from cribsite.kept import Kept
from games import fragments, presenters
from games.variants.cribbage import board
from games.variants.cribbage.templatetags import cribbage_table


def test_it_hands_back_what_it_was_given_and_a_default_for_what_it_was_not():
    store = Kept(3)
    store.put(("a", 1), "first")
    assert store.get(("a", 1)) == "first"
    assert store.get(("b", 2)) is None
    assert store.get(("b", 2), "none") == "none"
    store.put(("a", 1), "again")
    assert store.get(("a", 1)) == "again" and len(store) == 1


def test_it_keeps_at_most_its_size_letting_the_least_recently_used_go_first():
    store = Kept(3)
    for key in "abc":
        store.put(key, key.upper())
    assert store.get("a") == "A"  # a is now the most recently used; b the least
    store.put("d", "D")
    assert len(store) == 3
    assert store.get("b") is None
    assert [store.get(key) for key in "acd"] == ["A", "C", "D"]
    store.put("c", "C2")  # putting counts as use too: a is the least recently used now
    store.put("e", "E")
    assert store.get("a") is None and store.get("c") == "C2"


def test_asked_with_seconds_it_hands_back_only_what_was_put_no_longer_ago(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(kept.time, "monotonic", lambda: now[0])
    store = Kept(2)
    store.put("a", "A")
    now[0] += 4.9
    assert store.get("a", seconds=5) == "A"
    now[0] += 0.1
    assert store.get("a", seconds=5) is None
    assert store.get("a") == "A"  # without seconds, however old
    store.put("a", "A2")
    assert store.get("a", seconds=5) == "A2"


def test_it_can_be_emptied():
    store = Kept(2)
    store.put("a", 1)
    store.clear()
    assert len(store) == 0 and store.get("a") is None


def test_threads_putting_and_getting_at_once_leave_it_within_its_size():
    store = Kept(50)
    failures = []

    def work(offset: int) -> None:
        try:
            for n in range(2000):
                store.put((offset, n), n)
                store.get((offset, n - 7))
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures and len(store) == 50


def test_every_store_of_drawings_and_reads_is_a_bounded_kept_store():
    stores = {
        "kept pieces": (kept._kept, kept.KEPT_SIZE),
        "kept pages": (kept._pages, kept.PAGES_KEPT),
        "fragments": (fragments._cache, fragments.CACHE_SIZE),
        "regions": (presenters._render_cache, presenters.RENDER_CACHE_SIZE),
        "lobby lists": (presenters._lobby_lists, presenters.LOBBY_LISTS_KEPT),
        "cribbage tables": (board._tables, board.TABLES_KEPT),
        "pegboards": (cribbage_table._boards, cribbage_table.BOARDS_KEPT),
    }
    for name, (store, size) in stores.items():
        assert isinstance(store, Kept), name
        assert store.size == size, name
