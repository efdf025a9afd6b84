"""The shared engine core: the Variant protocol and registry, options, events, states, the
scoreboard, muggins, results and the computer's entry point. It knows no game's rules."""

from .computer import computer_move, default_level, levels
from .events import Event, FrozenEvent, event, freeze_event, thaw_event
from .options import clean_options, whole_number, yes_no
from .outcome import (
    RACE,
    BadScores,
    GameResult,
    Outcome,
    SideResult,
    TournamentScoring,
    places,
)
from .scoreboard import SKUNK_NAMES, add_points, match_won, skunk_level, skunk_lines
from .state import evolve, next_seat, seats_from, with_item
from .text import gettext_noop
from .variant import (
    VARIANTS,
    BadOptions,
    IllegalMove,
    Move,
    UnknownVariant,
    Variant,
    candidates,
    describe,
    fill_names,
    get_variant,
    illegal_answer,
    preview,
    register,
    seat_list,
    table_view,
    variant_keys,
)

__all__ = [
    "RACE", "SKUNK_NAMES", "VARIANTS", "BadOptions", "Event", "FrozenEvent", "GameResult",
    "BadScores", "IllegalMove", "Move", "Outcome", "SideResult", "TournamentScoring",
    "UnknownVariant",
    "Variant", "add_points", "candidates", "clean_options", "computer_move", "default_level",
    "describe", "event", "evolve", "fill_names", "freeze_event", "get_variant", "gettext_noop",
    "illegal_answer", "levels",
    "match_won", "next_seat", "places", "preview", "register", "seat_list", "seats_from",
    "skunk_level", "skunk_lines", "table_view", "thaw_event", "variant_keys", "whole_number",
    "with_item", "yes_no",
]  # fmt: skip
