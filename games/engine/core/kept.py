"""Work done once for the same objects: what every view of one state shares.

A table draws every seat's view and a spectator's from one state object at every move, so what
those views show alike (a board written out, a log thawed, running totals) is worth working out
once. `by_identity` keeps a function's answers for the last few argument objects it was given,
by identity: states are immutable, so an answer for one stays true, and no two objects alive at
once share an identity (the arguments are held with the answer, so theirs is not handed on).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class by_identity(Generic[T]):  # noqa: N801 - used as a decorator, named like one
    """`work(*args)`, kept for the last `size` tuples of argument objects it was called with
    (the least recently used let go first). Answers are shared: treat them as read-only."""

    def __init__(self, work: Callable[..., T], size: int = 64) -> None:
        self.work, self.size = work, size
        self._kept: OrderedDict[tuple[int, ...], tuple[tuple[Any, ...], T]] = OrderedDict()
        self._lock = threading.Lock()
        self.__doc__, self.__wrapped__ = work.__doc__, work

    def __call__(self, *args: Any) -> T:
        key = tuple(map(id, args))
        with self._lock:
            found = self._kept.get(key)
            if found is not None and all(a is b for a, b in zip(found[0], args, strict=True)):
                self._kept.move_to_end(key)
                return found[1]
        answer = self.work(*args)
        with self._lock:
            self._kept[key] = (args, answer)
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return answer

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
