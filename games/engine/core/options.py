"""Match options cleaned from a variant's schema, so every game checks them the same way.

A schema maps each option to {"type": "choice" | "int" | "bool", "default": ..., "label": ...,
"help": ...} with "choices" (choice) or "min"/"max" (int). Values may come from JSON or from a
form (text), so "121", " 3 " and "on" are understood. `BadOptions` names the option at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .text import gettext_noop
from .variant import BadOptions

_YES = {"true", "yes", "on", "1"}
_NO = {"false", "no", "off", "0", ""}


def clean_options(
    game: str, schema: Mapping[str, Mapping[str, Any]], given: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Every option of the schema, checked, with defaults filled in."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(schema))
    if unknown:
        raise BadOptions(unknown[0], gettext_noop("{game} has no such option"), game=game)
    cleaned: dict[str, Any] = {}
    for name, spec in schema.items():
        value = given.get(name, spec["default"])
        kind = spec["type"]
        if kind == "bool":
            cleaned[name] = yes_no(name, value)
        elif kind == "int":
            number = whole_number(name, value)
            low, high = spec.get("min"), spec.get("max")
            if (low is not None and number < low) or (high is not None and number > high):
                raise BadOptions(
                    name, gettext_noop("must be from {low} to {high}"), low=low, high=high
                )
            cleaned[name] = number
        elif kind == "choice":
            cleaned[name] = _choice(name, value, spec["choices"])
        else:  # pragma: no cover - a schema mistake, caught by the variant's own tests
            raise ValueError(f"unknown option type {kind!r} for {name}")
    return cleaned


def whole_number(option: str, value: Any) -> int:
    """An int from JSON or form text; BadOptions otherwise."""
    if isinstance(value, bool):
        raise BadOptions(option, gettext_noop("must be a whole number"))
    text = value.strip() if isinstance(value, str) else None
    if text and text.isascii() and text.isdigit():
        return int(text)
    if not isinstance(value, int):
        raise BadOptions(option, gettext_noop("must be a whole number"))
    return value


def yes_no(option: str, value: Any) -> bool:
    """A bool from JSON or form text ("on", "true", "1"...); BadOptions otherwise."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _YES | _NO:
        return value.strip().lower() in _YES
    raise BadOptions(option, gettext_noop("must be on or off (true or false)"))


def _choice(option: str, value: Any, choices: list[Any]) -> Any:
    if all(isinstance(c, int) for c in choices):
        number = whole_number(option, value)
        if number in choices:
            return number
    elif isinstance(value, str) and value.strip() in choices:
        return value.strip()
    if len(choices) == 1:
        raise BadOptions(option, gettext_noop("must be {choice}"), choice=choices[0])
    listed = ", ".join(str(c) for c in choices[:-1])
    raise BadOptions(
        option, gettext_noop("must be {choices} or {last}"), choices=listed, last=choices[-1]
    )
