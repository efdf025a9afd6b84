"""The protocol every game variant implements, its registry, and the engine's shared errors."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from .events import Event
from .outcome import Outcome, TournamentScoring
from .text import gettext_noop

Move = dict[str, Any]


class IllegalMove(Exception):
    """A move the rules do not allow now; the message says why, in words a player understands.

    The message may be a template with named fields, `IllegalMove(gettext_noop("{card} is not
    in your hand"), card="5H")`: `str(error)` is the English text, while `template` and
    `params` let the site say the same in the reader's language.
    """

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message.format(**params) if params else message)
        self.template = message
        self.params = params


class BadOptions(ValueError):
    """Match options that cannot be used; names the option and the reason.

    Like IllegalMove's message, the reason may be a template with named fields, marked with
    `gettext_noop` (`BadOptions("target", gettext_noop("must be from {low} to {high}"), low=61,
    high=121)`): `str(error)` and `reason` are English, `template` and `params` let the site
    say it in the reader's language.
    """

    def __init__(self, option: str, reason: str, **params: Any) -> None:
        text = reason.format(**params) if params else reason
        super().__init__(f"{option}: {text}")
        self.option = option
        self.reason = text
        self.template = reason
        self.params = params


class UnknownVariant(KeyError):
    """No variant is registered under that key. `template` and `params` give the message for
    the site's catalogue, as IllegalMove's do."""

    template = gettext_noop("there is no game called {name} (known: {known})")
    params: dict[str, Any] = {}

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown variant"


@runtime_checkable
class Variant(Protocol):
    """One game of the family. States are immutable; `apply` returns a new one and never mutates.

    `legal_moves(state, seat)` is empty exactly when `seat` is not in `to_move(state)`, and
    every move it lists is accepted by `apply` unchanged (a variant whose full list would be
    unwieldy may list templates instead and say so with `lists_templates`; `candidates` then
    gives bots and tests concrete moves). `view(state, seat)` is the only thing a seat (or a
    spectator, seat None) is ever shown, and `hidden(state, seat)` names every piece that seat
    must not see, so one shared test can check every view. `dump`/`load` round-trip exactly
    through JSON. `levels` names the computer's levels, weakest first; `computer(state, seat,
    level, rng)` picks a move from what that seat may see. `tournament` says how a club
    tournament scores one of its games. Optional `timed(options)`: True when the game needs
    the time of each move (Cribist's time limit); the server then stamps every move with
    "at" (whole seconds), so the engine itself never reads a clock and replays stay exact.
    Optional `table_view(state, seat)`: the view as a table page draws it, where listing
    every legal move is dear and the page only asks which kinds are open (see `table_view`).
    """

    key: str
    name: str
    player_counts: tuple[int, ...]
    options_schema: dict[str, dict[str, Any]]
    levels: tuple[str, ...]
    tournament: TournamentScoring

    def clean_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]: ...

    def teams(self, players: int) -> list[tuple[int, ...]]: ...

    def new_state(self, players: int, options: Mapping[str, Any] | None, seed: bytes) -> Any: ...

    def to_move(self, state: Any) -> frozenset[int]: ...

    def legal_moves(self, state: Any, seat: int) -> list[Move]: ...

    def apply(self, state: Any, seat: int, move: Move) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def hidden(self, state: Any, seat: int | None) -> set[str]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def dump(self, state: Any) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> Any: ...

    def computer(self, state: Any, seat: int, level: str, rng: Any) -> Move: ...


def candidates(variant: Variant, state: Any, seat: int) -> list[Move]:
    """Concrete moves for bots and tests: the variant's own `candidates` when it lists move
    templates, else its legal moves."""
    own = getattr(variant, "candidates", None)
    return list(own(state, seat)) if own is not None else variant.legal_moves(state, seat)


def table_view(variant: Variant, state: Any, seat: int | None) -> dict[str, Any]:
    """The view a table page draws: the variant's own `table_view` when it has one (the same
    view, save that its `legal_moves` may give only the first move of each kind, one of every
    type the full list holds), else its view. Programs (the API, bots) get the full view."""
    own = getattr(variant, "table_view", None)
    return own(state, seat) if own is not None else variant.view(state, seat)


def preview(variant: Variant, state: Any, seat: int, move: Move) -> dict[str, Any]:
    """Whether `move` would be accepted, changing nothing: {"legal": True} or {"legal": False,
    "reason": "..."}. A variant may say more with its own `preview` (Kings Cribbage: the hands a
    lay forms and their points). This default says only legal or not: what a move would make
    happen may depend on pieces the seat may not see yet (the starter turned after the last
    discard), so a preview built by applying the move could leak them."""
    own = getattr(variant, "preview", None)
    if own is not None:
        return own(state, seat, move)
    if seat not in variant.to_move(state):
        return illegal_answer(IllegalMove(gettext_noop("it is not your turn")))
    try:
        variant.apply(state, seat, move)
    except IllegalMove as error:
        return illegal_answer(error)
    return {"legal": True}


def illegal_answer(error: IllegalMove) -> dict[str, Any]:
    """A preview's answer for an illegal move: the reason in English, and its template and
    fields so that the site can give it in the reader's language."""
    answer: dict[str, Any] = {"legal": False, "reason": str(error)}
    if error.template != answer["reason"] or error.params:
        answer["reason_template"] = error.template
        answer["reason_params"] = error.params
    return answer


VARIANTS: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add a variant to the registry under its key (registering the same key twice is an error)."""
    existing = VARIANTS.get(variant.key)
    if existing is not None and existing is not variant:
        raise ValueError(f"a variant is already registered under {variant.key!r}")
    VARIANTS[variant.key] = variant
    return variant


def get_variant(key: str) -> Variant:
    """The variant registered under `key`; UnknownVariant (a KeyError) names the known keys."""
    try:
        return VARIANTS[key]
    except (KeyError, TypeError):
        known = ", ".join(variant_keys()) or "none"
        shown = repr(key) if len(repr(key)) <= 24 else repr(key)[:21] + "..."
        error = UnknownVariant(UnknownVariant.template.format(name=shown, known=known))
        error.params = {"name": shown, "known": known}
        raise error from None


def variant_keys() -> list[str]:
    return sorted(VARIANTS)


def describe(event: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """The event's text with {p0}, {p1}... replaced by player names ("Player 1"... by default)."""
    return fill_names(str(event.get("text", "")), names)


def fill_names(text: str, names: Sequence[str] | None = None) -> str:
    """Replace the seat placeholders {p0}, {p1}... in any engine text (a prompt, a reason)."""
    return _SEAT_PLACEHOLDER.sub(lambda m: _seat_name(int(m.group(1)), names), text)


def seat_list(seats: Iterable[int]) -> str:
    """Placeholders for several seats joined in words: "{p0}", "{p0} and {p2}", "{p0}, {p1} and
    {p2}"."""
    marks = [f"{{p{seat}}}" for seat in seats]
    if len(marks) <= 1:
        return "".join(marks)
    return ", ".join(marks[:-1]) + " and " + marks[-1]


_SEAT_PLACEHOLDER = re.compile(r"\{p(\d+)\}")


def _seat_name(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and seat < len(names) and names[seat]:
        return str(names[seat])
    return f"Player {seat + 1}"
