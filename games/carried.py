"""A board carried in its move's group message, so that another process need not read it again.

With several server processes (the Redis channel layer), a move's message reaches every process
with a socket at that table. The process that made the move hands its sockets the board it wrote
(games.realtime); every other process used to read the match back from the database before
drawing it: a query, its rows made into objects, and a hop to a database thread and back, on
the way from the move to the other player's page. The message now carries that board packed
(`pack`), and such a process makes it again (`unpack`) with no query at all: the same
objects a read gives (services.read_match: the seats with their members, the match, its creator
and its tournament game), with the same fields loaded and the same left unread.

The board travels between the site's own processes only, through the channel layer, like the
rest of the message; no socket is ever sent a message as it is (each draws its own viewer's
fragments from the board, games/consumers.py). It holds what the database holds (the match's
seed and every hidden card), so Redis must be kept as private as the database is.
"""

from __future__ import annotations

from typing import Any

import msgpack
from django.db import router
from django.db.models import DateField, DecimalField, Model

from games import services
from games.models import Match, Seat

FORMAT = 2  # bumped if what is packed changes: a process meeting another format reads instead

_CREATOR = Match._meta.get_field("created_by")
_GAME = Match._meta.get_field("tournament_game")  # the reverse of the game's one-to-one
_GAME_MATCH = _GAME.remote_field  # the game's own field for its match
_SEAT_MATCH = Seat._meta.get_field("match")
_SEAT_USER = Seat._meta.get_field("user")


def pack(match: Match) -> bytes:
    """The board as msgpack bytes (dates and decimals as text), which travel in the message as
    they are: a process whose sockets hold the board already (the mover's own) hears the message
    without decoding the board, which it would then throw away (about 2 KB for a Cribbage
    board; channels-redis decodes a message once for every socket it reaches). A related object
    the board does not hold (never read) is left out, and stays unread."""
    data = {"format": FORMAT, "match": _values(match), "seats": []}
    _related(data, "creator", _CREATOR, match)
    _related(data, "game", _GAME, match)
    for seat in match.seats.all():
        item = {"seat": _values(seat)}
        _related(item, "user", _SEAT_USER, seat)
        data["seats"].append(item)
    return msgpack.packb(data, use_bin_type=True)


def unpack(packed: Any) -> Match | None:
    """The board of `pack` made again (None for anything else: the caller then reads it)."""
    if not isinstance(packed, bytes):
        return None
    try:
        data = msgpack.unpackb(packed, raw=False)
    except (ValueError, TypeError, msgpack.UnpackException):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not data.get("seats"):
        return None
    db = router.db_for_read(Match)
    match = _model(Match, data["match"], db)
    if "creator" in data:
        _CREATOR.set_cached_value(match, _model(_CREATOR.related_model, data["creator"], db))
    if "game" in data:
        game = _model(_GAME.related_model, data["game"], db)
        _GAME.set_cached_value(match, game)
        if game is not None:
            _GAME_MATCH.set_cached_value(game, match)
    seats = []
    for item in data["seats"]:
        seat = _model(Seat, item["seat"], db)
        _SEAT_MATCH.set_cached_value(seat, match)
        if "user" in item:
            _SEAT_USER.set_cached_value(seat, _model(_SEAT_USER.related_model, item["user"], db))
        seats.append(seat)
    return services.seated(seats)[0]


def _related(data: dict, key: str, field: Any, obj: Model) -> None:
    if field.is_cached(obj):
        related = field.get_cached_value(obj)
        data[key] = None if related is None else _values(related)


# Fields whose values msgpack cannot carry: sent as text, made again by the field's to_python.
_AS_TEXT = (DateField, DecimalField)  # DateTimeField is a DateField


def _values(obj: Model) -> dict[str, Any]:
    """The fields the object has loaded (those a read left unread stay so)."""
    loaded = obj.__dict__
    values = {}
    for field, as_text in _fields(type(obj)):
        name = field.attname
        if name in loaded:
            value = loaded[name]
            if as_text and value is not None:
                value = value.isoformat() if isinstance(field, DateField) else str(value)
            values[name] = value
    return values


def _model(model: type[Model], values: dict[str, Any] | None, db: str) -> Model | None:
    """The object as a read builds it (Model.from_db: not new, of `db`, the fields not given
    left unread)."""
    if values is None:
        return None
    names, row = [], []
    for field, as_text in _fields(model):
        name = field.attname
        if name in values:
            value = values[name]
            names.append(name)
            row.append(field.to_python(value) if as_text and value is not None else value)
    return model.from_db(db, names, row)


_field_lists: dict[type[Model], tuple[tuple[Any, bool], ...]] = {}


def _fields(model: type[Model]) -> tuple[tuple[Any, bool], ...]:
    """The model's concrete fields in order, each with whether it travels as text."""
    fields = _field_lists.get(model)
    if fields is None:
        fields = tuple((f, isinstance(f, _AS_TEXT)) for f in model._meta.concrete_fields)
        _field_lists[model] = fields
    return fields
