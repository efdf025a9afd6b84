"""The engine's lazily built tables are safe to build from several threads at once (a server's
computer players start together after a restart)."""

from __future__ import annotations

import threading

from games.engine.scoring import combinations


def test_threads_asking_for_the_show_table_together_all_get_it_whole(monkeypatch):
    monkeypatch.setattr(combinations, "_TABLE", {})
    start = threading.Barrier(8)
    sizes: list[int] = []

    def ask() -> None:
        start.wait()
        sizes.append(len(combinations._combination_table()))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sizes == [6175] * 8
