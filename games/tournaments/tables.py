"""Drawing a round at tables of more than two seats (games of three or four each for themselves).

No Django here. The first round is drawn at random; later rounds seat entrants by standings,
the best at table 1, each seat filled from the next few in the standings (as many as a table
holds), taking the one who has met the people already seated least often. When the field is
not a multiple of the table size, the spare entrants sit out with a bye, chosen among those
who have had the fewest byes so far (the lowest ranked of them first), so nobody sits out
twice before everyone has once.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence

from games.engine.core.text import gettext_noop
from games.tournaments.pairing import NoPairing

Id = Hashable


def tables_round(
    ranked: Sequence[Id],
    size: int,
    *,
    met: Mapping[frozenset, int] | None = None,
    byes_had: Mapping[Id, int] | None = None,
    first: bool = False,
    seed: int | str | None = None,
) -> tuple[list[tuple[Id, ...]], list[Id]]:
    """Seat `ranked` (best first) at tables of `size`; returns (tables, byes)."""
    order = list(ranked)
    if len(set(order)) != len(order):
        raise ValueError("an entrant is listed twice")
    if size < 2:
        raise ValueError("a table has at least two seats")
    if len(order) < size:
        raise NoPairing(
            gettext_noop("a table needs {size} entrants; only {playing} are playing"),
            size=size,
            playing=len(order),
        )
    if first:
        random.Random(seed).shuffle(order)
    met = met or {}
    byes_had = byes_had or {}
    byes = pick_byes(order, len(order) % size, byes_had)
    left = [e for e in order if e not in byes]
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            window = left[:size]  # the next few in the standings, so tables stay by standings
            best = min(
                range(len(window)),
                key=lambda k: (sum(met.get(frozenset((window[k], t)), 0) for t in table), k),
            )
            table.append(left.pop(best))
        tables.append(tuple(table))
    return tables, byes


def pick_byes(order: Sequence[Id], count: int, byes_had: Mapping[Id, int]) -> list[Id]:
    """`count` entrants to sit out: the fewest byes so far first, the lowest ranked among them."""
    if count <= 0:
        return []
    position = {e: i for i, e in enumerate(order)}
    chosen = sorted(order, key=lambda e: (byes_had.get(e, 0), -position[e]))[:count]
    return sorted(chosen, key=position.__getitem__)
