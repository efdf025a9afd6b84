"""Muggins, shared by every game that lets players count for themselves.

The scorer declares what their hand (or move, or trick) is worth; any other side may then
call for points the scorer missed. A game keeps a `Declaration` in its state while the call is
open and asks these functions whether a declaration or a call stands. The games differ only in
what a wrong call costs (`penalty`), which each passes in.
"""

from __future__ import annotations

from typing import NamedTuple

from .text import gettext_noop
from .variant import IllegalMove


class Declaration(NamedTuple):
    """A count open to muggins: whose it is, what it is truly worth, and what was declared."""

    scorer: int
    points: int
    declared: int | None = None

    @property
    def missed(self) -> int:
        """Points the scorer left on the table (0 before the declaration)."""
        return 0 if self.declared is None else max(0, self.points - self.declared)


# What is counted ("hand", "crib", "trick", "lay") is part of each sentence, so that a
# translation can say it whole; any other `what` is named as given.
_COUNTED = {
    "hand": gettext_noop("this hand has been counted already"),
    "crib": gettext_noop("this crib has been counted already"),
    "trick": gettext_noop("this trick has been counted already"),
    "lay": gettext_noop("this lay has been counted already"),
}
_NOT_HELD = {
    "hand": gettext_noop("that hand does not hold {points}"),
    "crib": gettext_noop("that crib does not hold {points}"),
    "trick": gettext_noop("that trick does not hold {points}"),
    "lay": gettext_noop("that lay does not hold {points}"),
}


def declare(pending: Declaration, points: object, what: str = "hand") -> Declaration:
    """The scorer's count. Over-counting is refused (the table checks a count out loud), so a
    declaration is the true value or less."""
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise IllegalMove(gettext_noop("give the points as a whole number, 0 or more"))
    if pending.declared is not None:
        template = _COUNTED.get(what, gettext_noop("this {what} has been counted already"))
        raise IllegalMove(template, what=what)
    if points > pending.points:
        template = _NOT_HELD.get(what, gettext_noop("that {what} does not hold {points}"))
        raise IllegalMove(template, what=what, points=points)
    return pending._replace(declared=points)


def judge_call(pending: Declaration, claimed: object) -> bool:
    """Whether a muggins call for `claimed` points stands: True when at least that many were
    missed. Bad numbers are refused outright; a wrong call is the game's to punish."""
    if pending.declared is None:
        raise IllegalMove(gettext_noop("wait until the count has been declared"))
    if isinstance(claimed, bool) or not isinstance(claimed, int) or claimed < 1:
        raise IllegalMove(gettext_noop("claim a whole number of points, 1 or more"))
    return claimed <= pending.missed
