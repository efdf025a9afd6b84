"""The read side of a tournament: rows for its pages, the socket and the exports.

Views and the consumer build their context here, so a page and a live push render the same
fragments. What only the director may see is added only for a director.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q
from django.utils.translation import gettext as _

from games.texts import engine_text, join_words
from games.tournaments.common import can_direct, qualifying_rounds_left
from games.tournaments.models import (
    Dispute,
    Entrant,
    Game,
    Pairing,
    Round,
    Standing,
    Tournament,
)
from games.tournaments.rounds import models_q_entrant
from games.tournaments.scoring import SEATS, score_text
from games.tournaments.texts import finish_text, local_points, playoff_title, round_title

SEAT_RELATED = [f"{letter}__{who}" for letter in SEATS for who in ("user", "partner")]


@dataclass
class GameRow:
    game: Game
    number: int
    score: str
    status: str
    decided: bool


@dataclass
class SeatRow:
    letter: str
    entrant: Entrant
    won: bool


@dataclass
class PairingRow:
    pairing: Pairing
    table: int | None
    a: Entrant
    b: Entrant | None
    seats: list[SeatRow]
    seed_a: int | None
    seed_b: int | None
    games: list[GameRow]
    series: str  # "2–1" in a playoff series
    winner_id: int | None
    done: bool


@dataclass
class RoundView:
    round: Round
    title: str
    rows: list[PairingRow] = field(default_factory=list)


def load(tournament_id) -> Tournament | None:
    try:
        return Tournament.objects.select_related("director").filter(pk=int(tournament_id)).first()
    except (TypeError, ValueError):
        return None


def rounds(tournament: Tournament) -> list[RoundView]:
    """Every round with its pairings and games, in three queries."""
    pairings = Pairing.objects.select_related(*SEAT_RELATED).prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("number"))
    )
    seats = tournament.seats
    views = []
    playoff_number = 0
    for round_ in tournament.round_set.prefetch_related(Prefetch("pairings", queryset=pairings)):
        if round_.stage == Round.Stage.PLAYOFF:
            playoff_number += 1
            title = playoff_title(playoff_number, len(round_.pairings.all()))
        else:
            title = round_title(round_.number)
        view = RoundView(round=round_, title=title)
        ordered = sorted(
            round_.pairings.all(),
            key=lambda p: (p.slot if p.slot is not None else 0, p.table is None, p.table or 0),
        )
        for p in ordered:
            games = [_game_row(g, seats) for g in p.games.all()]
            decided = [g for g in p.games.all() if g.is_decided]
            table_winners = decided[-1].winner if p.c_id and decided else ""
            wins_a = sum(1 for g in p.games.all() if g.is_decided and g.winner == "a")
            wins_b = sum(1 for g in p.games.all() if g.is_decided and g.winner == "b")
            view.rows.append(
                PairingRow(
                    pairing=p,
                    table=p.table,
                    a=p.a,
                    b=p.b,
                    seats=[
                        SeatRow(
                            letter, entrant, letter in table_winners or p.winner_id == entrant.pk
                        )
                        for letter, entrant in p.seated
                    ],
                    seed_a=p.seed_a,
                    seed_b=p.seed_b,
                    games=games,
                    series=f"{wins_a}–{wins_b}" if p.series_length > 1 else "",
                    winner_id=p.winner_id,
                    done=p.status == Pairing.Status.DONE,
                )
            )
        views.append(view)
    return views


def standings(tournament: Tournament) -> list[Standing]:
    return list(
        Standing.objects.filter(tournament=tournament)
        .select_related("entrant__user", "entrant__partner")
        .order_by("position")
    )


def tournament_context(tournament: Tournament, user) -> dict[str, Any]:
    """Everything the public page, the projector and the socket push need."""
    all_rounds = rounds(tournament)
    qualifying = [r for r in all_rounds if r.round.stage == Round.Stage.QUALIFYING]
    playoff = [r for r in all_rounds if r.round.stage == Round.Stage.PLAYOFF]
    return {
        "tournament": tournament,
        "game_text": game_text(tournament),
        "scoring_text": scoring_text(tournament),
        "current": all_rounds[-1] if all_rounds else None,
        "qualifying_rounds": qualifying,
        "earlier_rounds": list(reversed(all_rounds[:-1])),
        "bracket": playoff,
        "standings": standings(tournament),
        "entrant_count": tournament.entrants.filter(withdrawn=False).count(),
        "rounds_left": qualifying_rounds_left(tournament)
        if tournament.stage == Tournament.Stage.QUALIFYING
        else None,
        "mine": my_games(tournament, user),
        "is_director": can_direct(user),
    }


def game_text(tournament: Tournament) -> str:
    """The game and its options in words: its name, the table and each option (label: value)."""
    engine = tournament.engine
    if tournament.is_doubles:
        kind = _("doubles")
    elif tournament.table_size == 2:
        kind = _("singles")
    else:
        kind = _("%(count)d at a table") % {"count": tournament.table_size}
    parts = [f"{engine_text(engine.name)}, {kind}"]
    for name, spec in engine.options_schema.items():
        if name not in tournament.options or name == "games":
            continue
        value = tournament.options[name]
        if isinstance(value, bool):
            value = _("yes") if value else _("no")
        elif isinstance(value, str):
            value = engine_text(value)
        label = engine_text(spec["label"]) if spec.get("label") else name
        parts.append(f"{label}: {value}")
    return " · ".join(parts)


def scoring_text(tournament: Tournament) -> str:
    """How a game counts, in one line for the pages and the printed sheet."""
    if tournament.is_ranked:
        places = "/".join(local_points(p) for p in tournament.places)
        bye = local_points(tournament.bye_points)
        return _("game points by place %(places)s, shared on ties · bye %(bye)s") % {
            "places": places,
            "bye": bye,
        }
    text = _("win %(points)s") % {"points": tournament.points_win}
    if tournament.scoring.skunks:
        skunk, double = tournament.skunk_lines_in_force
        if skunk is not None:
            text += _(", skunk %(points)s (loser on %(line)s or fewer)") % {
                "points": tournament.points_skunk,
                "line": skunk,
            }
        if double is not None:
            text += _(", double skunk %(points)s (%(line)s or fewer)") % {
                "points": tournament.points_double_skunk,
                "line": double,
            }
    return text


@dataclass
class SeatEntry:
    letter: str
    name: str
    score: int | None


@dataclass
class MyGame:
    game: Game
    side: str
    opponent: str
    seats: list[SeatEntry]
    table: int | None
    round_title: str
    can_enter: bool
    can_confirm: bool
    waiting_for_opponent: bool
    pending_score: str


def my_games(tournament: Tournament, user) -> list[MyGame]:
    """The member's own games in play in this tournament, with what they may do about each."""
    if user is None or not user.is_authenticated:
        return []
    games = (
        Game.objects.filter(
            pairing__round__tournament=tournament,
            status__in=[Game.Status.OPEN, Game.Status.PENDING, Game.Status.DISPUTED],
        )
        .filter(_member_at_table(user))
        .select_related("pairing__round", *(f"pairing__{r}" for r in SEAT_RELATED), "match")
        .prefetch_related("entries")
    )
    rows = []
    for game in games:
        p = game.pairing
        side = p.side_of(user)
        others = [e.name for letter, e in p.seated if letter != side]
        entries = [e for e in game.entries.all() if e.side]
        pending = entries[-1] if entries and game.status == Game.Status.PENDING else None
        rows.append(
            MyGame(
                game=game,
                side=side,
                opponent=join_words(others),
                seats=seat_entries(game),
                table=p.table,
                round_title=p.round.title,
                can_enter=game.status in (Game.Status.OPEN, Game.Status.PENDING)
                and game.match_id is None,
                can_confirm=pending is not None and pending.side != side,
                waiting_for_opponent=pending is not None and pending.side == side,
                pending_score=pending.score_text if pending else "",
            )
        )
    return rows


def seat_entries(game: Game) -> list[SeatEntry]:
    """Each seat of the game's table with its name and score, for the score forms."""
    return [
        SeatEntry(letter, entrant.name, getattr(game, f"score_{letter}"))
        for letter, entrant in game.pairing.seated
    ]


def _member_at_table(user) -> Q:
    found = Q()
    for letter in SEATS:
        found |= Q(**{f"pairing__{letter}__user": user}) | Q(
            **{f"pairing__{letter}__partner": user}
        )
    return found


def director_context(tournament: Tournament) -> dict[str, Any]:
    """The director's page: entrants, games needing a result, disputes."""
    entrants = list(tournament.entrants.select_related("user", "partner").order_by("pk"))
    last = tournament.round_set.order_by("-number").first()
    open_games = []
    decided_games = []
    if last is not None:
        games = (
            Game.objects.filter(pairing__round=last)
            .select_related(*(f"pairing__{r}" for r in SEAT_RELATED), "match", "entered_by")
            .order_by("pairing__slot", "pairing__table", "number")
        )
        seats = tournament.seats
        for g in games:
            g.seat_entries = seat_entries(g)
            g.table_names = versus(entry.name for entry in g.seat_entries)
            g.scores_text = score_text(g.scores(seats))
            (decided_games if g.is_decided else open_games).append(g)
    disputes = list(
        Dispute.objects.filter(game__pairing__round__tournament=tournament, resolved_at=None)
        .select_related("first__by", "second__by", *(f"game__pairing__{s}" for s in SEATS))
        .order_by("opened_at")
    )
    for d in disputes:
        d.seat_entries = seat_entries(d.game)
        d.table_names = versus(entry.name for entry in d.seat_entries)
    return {
        "entrants": entrants,
        "checked_in_count": sum(1 for e in entrants if e.checked_in and not e.withdrawn),
        "last_round": last,
        "open_games": open_games,
        "decided_games": decided_games,
        "disputes": disputes,
        "round_complete": last is None
        or not last.pairings.exclude(status=Pairing.Status.DONE).exists(),
        "active_entrants": [e for e in entrants if not e.withdrawn],
    }


def _game_row(game: Game, seats: str) -> GameRow:
    if game.status == Game.Status.FORFEIT:
        score = _("forfeit")
    elif game.is_decided:
        score = score_text(game.scores(seats))
    else:
        score = ""
    return GameRow(
        game=game,
        number=game.number,
        score=score,
        status=game.get_status_display(),
        decided=game.is_decided,
    )


def profile_rows(user) -> list[dict[str, Any]]:
    """The member's tournaments for their profile: event, card and finish, newest first."""
    entries = (
        Entrant.objects.filter(Q(user=user) | Q(partner=user))
        .select_related("tournament", "standing", "user", "partner")
        .order_by("-tournament__date", "-tournament__pk")
    )
    rows = []
    for entrant in entries:
        tournament = entrant.tournament
        if tournament.stage == Tournament.Stage.ENTRY:
            continue
        standing = getattr(entrant, "standing", None)
        rows.append(
            {
                "tournament": tournament,
                "entrant": entrant,
                "card": standing.card if standing else "",
                "spread": standing.spread if standing else None,
                "finish": finish(tournament, entrant, standing),
            }
        )
    return rows


def finish(tournament: Tournament, entrant: Entrant, standing: Standing | None) -> str:
    """Where the entrant finished: the playoff round reached, or the standing position."""
    playoff = list(
        Pairing.objects.filter(round__tournament=tournament, round__stage=Round.Stage.PLAYOFF)
        .filter(models_q_entrant(entrant.pk))
        .select_related("round")
        .order_by("-round__number")[:1]
    )
    if playoff:
        last = playoff[0]
        size = last.round.pairings.count()
        if last.winner_id == entrant.pk and size == 1:
            return _("Champion")
        if last.winner_id is None and last.status != Pairing.Status.DONE:
            return _("In the playoff")
        if size == 1:
            return _("Runner-up")
        if size == 2:
            return _("Semi-finalist")
        if size == 4:
            return _("Quarter-finalist")
        return _("Last %(count)d") % {"count": size * 2}
    if standing is None:
        return ""
    total = Standing.objects.filter(tournament=tournament).count()
    finished = tournament.stage == Tournament.Stage.FINISHED
    return finish_text(standing.position, total, finished=finished)


def versus(names) -> str:
    """ "Bea v Cat", the names of a table in seat order."""
    return _(" v ").join(names)
