"""games.engine.core.kept.by_identity: the answer for the very same objects, worked out once."""

from __future__ import annotations

from games.engine.core.kept import by_identity


class Thing:
    def __init__(self, value: int) -> None:
        self.value = value


def make():
    calls = []

    def work(a, b=None):
        calls.append((a, b))
        return [a.value, b.value if b is not None else None]

    return by_identity(work, size=2), calls


def test_it_works_out_once_for_the_same_objects():
    kept, calls = make()
    one = Thing(1)
    assert kept(one) is kept(one)
    assert len(calls) == 1


def test_equal_but_different_objects_are_worked_out_apart():
    kept, calls = make()
    assert kept(Thing(1)) == kept(Thing(1)) == [1, None]
    assert len(calls) == 2


def test_every_argument_counts():
    kept, calls = make()
    a, b, c = Thing(1), Thing(2), Thing(3)
    assert kept(a, b) == [1, 2]
    assert kept(a, c) == [1, 3]
    assert kept(a, b) == [1, 2]
    assert len(calls) == 2


def test_it_lets_the_least_recently_used_go_and_holds_the_rest():
    kept, calls = make()
    a, b, c = Thing(1), Thing(2), Thing(3)
    kept(a), kept(b), kept(a), kept(c)  # b is the least recently used
    assert len(calls) == 3
    kept(a)
    assert len(calls) == 3
    kept(b)
    assert len(calls) == 4


def test_an_identity_reused_by_a_new_object_is_never_handed_the_old_answer():
    kept, _ = make()
    # The kept arguments stay alive, so no new object can take their identity while they are
    # kept; once let go, a new object with a reused id is worked out afresh.
    answers = {tuple(kept(Thing(n))) for n in range(50)}
    assert answers == {(n, None) for n in range(50)}
