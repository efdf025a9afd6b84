"""Events frozen into a state and thawed back, and the key equal events share."""

from __future__ import annotations

from games.engine.core.events import event, event_key, freeze_event, thaw_event

NESTED = event(
    "lay", 1, "{p1} laid 5L", 6, tiles=["5La", "5Db"], calls=[{"kind": "fifteen", "points": 2}]
)


def test_an_event_thaws_back_to_itself():
    for item in (NESTED, event("pass", 0, "{p0} passed"), {"kind": "x", "seat": None, "n": 1.5}):
        assert thaw_event(freeze_event(item)) == item


def test_equal_events_share_a_key():
    assert event_key(NESTED) == event_key(dict(NESTED))
    assert hash(event_key(NESTED)) == hash(event_key(dict(NESTED)))


def test_the_key_tells_apart_what_equality_does_not():
    one, true, real = ({"kind": "x", "n": v} for v in (1, True, 1.0))
    assert one == true == real  # as Python's == sees them
    assert len({event_key(one), event_key(true), event_key(real)}) == 3
    assert thaw_event(freeze_event(true))["n"] is True


def test_a_value_marshal_cannot_write_is_keyed_frozen():
    class Odd:
        pass

    odd = Odd()
    item = {"kind": "x", "odd": odd}
    assert event_key(item) == freeze_event(item)
