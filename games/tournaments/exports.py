"""CSV exports of a tournament: its entrants, every game, and the standings."""

from __future__ import annotations

import csv

from games.tournaments.models import Game, Pairing, Tournament
from games.tournaments.presenters import standings


def entrants(tournament: Tournament, out) -> None:
    writer = csv.writer(out)
    writer.writerow(["id", "name", "member", "partner", "checked_in", "withdrawn", "late"])
    for e in tournament.entrants.select_related("user", "partner").order_by("pk"):
        writer.writerow([
            e.pk, _safe(e.name), e.user.username if e.user_id else "",
            e.partner.username if e.partner_id else "", int(e.checked_in), int(e.withdrawn),
            int(e.late),
        ])  # fmt: skip


def games(tournament: Tournament, out) -> None:
    writer = csv.writer(out)
    writer.writerow([
        "round", "stage", "table", "game", "a", "b", "score_a", "score_b", "winner",
        "points_a", "points_b", "spread_a", "status", "source", "match",
    ])  # fmt: skip
    rows = (
        Game.objects.filter(pairing__round__tournament=tournament)
        .select_related(
            "pairing__round",
            "pairing__a__user",
            "pairing__a__partner",
            "pairing__b__user",
            "pairing__b__partner",
        )  # fmt: skip
        .order_by("pairing__round__number", "pairing__table", "pairing__slot", "number")
    )
    for g in rows:
        p = g.pairing
        winner = {"a": p.a.name, "b": p.b.name if p.b_id else ""}.get(g.winner, "")
        writer.writerow([
            p.round.number, p.round.stage, p.table or "", g.number, _safe(p.a.name),
            _safe(p.b.name) if p.b_id else "", _blank(g.score_a), _blank(g.score_b),
            _safe(winner), g.points_a, g.points_b, g.spread_a, g.status, g.source,
            g.match_id or "",
        ])  # fmt: skip
    byes = (
        Pairing.objects.filter(round__tournament=tournament, b__isnull=True)
        .select_related("round", "a__user", "a__partner")
        .order_by("round__number", "slot")
    )
    for p in byes:
        name = _safe(p.a.name)
        points, spread = (
            (tournament.bye_points, tournament.bye_spread)
            if p.round.stage == "qualifying"
            else ("", "")
        )
        writer.writerow(
            [p.round.number, p.round.stage, "", "", name, "(bye)", "", "", name, points, "",
             spread, "bye", "", ""]
        )  # fmt: skip


def standings_csv(tournament: Tournament, out) -> None:
    writer = csv.writer(out)
    writer.writerow(["position", "entrant_id", "name", "card", "game_points", "wins", "losses",
                     "spread", "games", "withdrawn"])  # fmt: skip
    for s in standings(tournament):
        writer.writerow(
            [s.position, s.entrant_id, _safe(s.entrant.name), s.card, s.game_points, s.wins,
             s.losses, s.spread, s.games, int(s.entrant.withdrawn)]
        )  # fmt: skip


WRITERS = {"entrants": entrants, "games": games, "standings": standings_csv}


def _blank(value) -> str | int:
    return "" if value is None else value


def _safe(text: str) -> str:
    """Keep a name from being read as a formula by a spreadsheet."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
