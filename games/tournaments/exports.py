"""CSV exports of a tournament: its entrants, every game, and the standings.

The headers follow the reader's language; the values (names, codes, numbers with a point) stay
as they are, so a spreadsheet reads them the same in every language.
"""

from __future__ import annotations

import csv

from django.utils.translation import pgettext

from games.tournaments.models import Game, Pairing, Tournament
from games.tournaments.presenters import SEAT_RELATED, standings
from games.tournaments.scoring import points_text


def entrants(tournament: Tournament, out) -> None:
    writer = csv.writer(out)
    writer.writerow(_headers("id", "name", "member", "partner", "checked_in", "withdrawn", "late"))
    for e in tournament.entrants.select_related("user", "partner").order_by("pk"):
        writer.writerow([
            e.pk, _safe(e.name), e.user.username if e.user_id else "",
            e.partner.username if e.partner_id else "", int(e.checked_in), int(e.withdrawn),
            int(e.late),
        ])  # fmt: skip


def games(tournament: Tournament, out) -> None:
    """One row per game: a and b always; c and d columns only for tables of three or four."""
    seats = tournament.seats
    writer = csv.writer(out)
    wide = len(seats) > 2
    header = [*_headers("round", "stage", "table", "game"), *seats]
    header += [_seat_header("score", s) for s in seats] + _headers("winner")
    header += [_seat_header("points", s) for s in seats]
    header += [_seat_header("spread", s) for s in (seats if wide else "a")]
    writer.writerow([*header, *_headers("status", "source", "match")])
    rows = (
        Game.objects.filter(pairing__round__tournament=tournament)
        .select_related("pairing__round", *(f"pairing__{r}" for r in SEAT_RELATED))
        .order_by("pairing__round__number", "pairing__table", "pairing__slot", "number")
    )
    for g in rows:
        p = g.pairing
        names = {letter: entrant.name for letter, entrant in p.seated}
        winner = " & ".join(names[letter] for letter in g.winner if letter in names)
        spreads = [getattr(g, f"spread_{s}") for s in seats] if wide else [g.spread_a]
        writer.writerow([
            p.round.number, p.round.stage, p.table or "", g.number,
            *(_safe(names.get(s, "")) for s in seats),
            *(_blank(getattr(g, f"score_{s}")) for s in seats), _safe(winner),
            *(points_text(getattr(g, f"points_{s}")) for s in seats), *spreads,
            g.status, g.source, g.match_id or "",
        ])  # fmt: skip
    byes = (
        Pairing.objects.filter(round__tournament=tournament, b__isnull=True)
        .select_related("round", "a__user", "a__partner")
        .order_by("round__number", "slot")
    )
    bye_label = pgettext("CSV value", "(bye)")
    for p in byes:
        name = _safe(p.a.name)
        qualifying = p.round.stage == "qualifying"
        points = points_text(tournament.bye_points) if qualifying else ""
        spread = tournament.bye_spread if qualifying else ""
        blanks = [""] * (len(seats) - 2)
        writer.writerow([
            p.round.number, p.round.stage, "", "", name, bye_label, *blanks, "", "", *blanks,
            name, points, "", *blanks, spread, *([""] * (len(seats) - 1) if wide else []),
            "bye", "", "",
        ])  # fmt: skip


def standings_csv(tournament: Tournament, out) -> None:
    writer = csv.writer(out)
    writer.writerow(_headers("position", "entrant_id", "name", "card", "game_points", "wins",
                             "losses", "spread", "games", "withdrawn"))  # fmt: skip
    for s in standings(tournament):
        writer.writerow(
            [s.position, s.entrant_id, _safe(s.entrant.name),
             f"{points_text(s.game_points)}/{s.wins}", points_text(s.game_points),
             s.wins,
             s.losses, s.spread, s.games, int(s.entrant.withdrawn)]
        )  # fmt: skip


WRITERS = {"entrants": entrants, "games": games, "standings": standings_csv}


def _headers(*keys: str) -> list[str]:
    """The columns' names in the reader's language (one word each, underscores for spaces)."""
    names = {
        "id": pgettext("CSV header", "id"),
        "name": pgettext("CSV header", "name"),
        "member": pgettext("CSV header", "member"),
        "partner": pgettext("CSV header", "partner"),
        "checked_in": pgettext("CSV header", "checked_in"),
        "withdrawn": pgettext("CSV header", "withdrawn"),
        "late": pgettext("CSV header", "late"),
        "round": pgettext("CSV header", "round"),
        "stage": pgettext("CSV header", "stage"),
        "table": pgettext("CSV header", "table"),
        "game": pgettext("CSV header", "game"),
        "winner": pgettext("CSV header", "winner"),
        "status": pgettext("CSV header", "status"),
        "source": pgettext("CSV header", "source"),
        "match": pgettext("CSV header", "match"),
        "position": pgettext("CSV header", "position"),
        "entrant_id": pgettext("CSV header", "entrant_id"),
        "card": pgettext("CSV header", "card"),
        "game_points": pgettext("CSV header", "game_points"),
        "wins": pgettext("CSV header", "wins"),
        "losses": pgettext("CSV header", "losses"),
        "spread": pgettext("CSV header", "spread"),
        "games": pgettext("CSV header", "games"),
    }
    return [names[key] for key in keys]


def _seat_header(kind: str, seat: str) -> str:
    """ "score_a", "points_b", "spread_c" in the reader's language."""
    names = {
        "score": pgettext("CSV header", "score_%(seat)s"),
        "points": pgettext("CSV header", "points_%(seat)s"),
        "spread": pgettext("CSV header", "spread_%(seat)s"),
    }
    return names[kind] % {"seat": seat}


def _blank(value) -> str | int:
    return "" if value is None else value


def _safe(text: str) -> str:
    """Keep a name from being read as a formula by a spreadsheet."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
