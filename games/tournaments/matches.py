"""Tournament games played online: seating a table in a match, and calling matches off.

A table's entrants sit in the sides the variant names (`teams`): seat letter a takes the first
side, b the second, and so on; an entrant who is a team of two fills both seats of its side
(doubles: partners opposite). Results come back through online.py.
"""

from __future__ import annotations

from games import services as match_services
from games.models import Match
from games.tournaments.models import Game, Pairing, Tournament


def plays_online(pairing: Pairing) -> bool:
    """Online events play every game online; mixed ones do when everyone has an account."""
    tournament = pairing.round.tournament
    if pairing.is_bye or tournament.venue == Tournament.Venue.TABLE:
        return False
    return all(person is not None for person in seating(pairing))


def start_match(game: Game) -> None:
    pairing = game.pairing
    tournament = pairing.round.tournament
    match = match_services.match_create_seated(
        creator=tournament.director or pairing.a.user,
        players=seating(pairing),
        variant=tournament.variant,
        options=tournament.options,
    )
    game.match = match
    game.source = Game.Source.ONLINE
    game.save(update_fields=["match", "source"])


def seating(pairing: Pairing) -> list:
    """The members in the match's seats (None where a guest sits); empty for a bye."""
    if pairing.is_bye:
        return []
    tournament = pairing.round.tournament
    sides = tournament.engine.teams(tournament.players)
    people: list = [None] * tournament.players
    for (_, entrant), seats in zip(pairing.seated, sides, strict=False):
        for seat, member in zip(seats, (entrant.user, entrant.partner), strict=False):
            people[seat] = member
    return people


def side_letters(tournament: Tournament) -> dict[tuple[int, ...], str]:
    """Each side's seats in the match -> the table's seat letter."""
    sides = tournament.engine.teams(tournament.players)
    return {tuple(seats): letter for seats, letter in zip(sides, tournament.seats, strict=False)}


def seat_online(pairing: Pairing) -> None:
    """Give the pairing's open games new online matches with the players now at the table."""
    if not plays_online(pairing):
        return
    for game in pairing.games.filter(match=None, status=Game.Status.OPEN):
        start_match(game)


def lock_round_matches(round_id: int) -> None:
    """Lock the round's matches before the tournament: a match that ends locks its match and
    then the tournament, so taking them in the same order can never deadlock."""
    ids = Game.objects.filter(pairing__round_id=round_id).exclude(match=None)
    list(Match.objects.select_for_update().filter(pk__in=ids.values("match_id")).order_by("pk"))


def call_off_unplayed(pairing: Pairing) -> None:
    """The unplayed online matches of a pairing that is about to change go, with no result."""
    for game in pairing.games.exclude(match=None):
        match_id = game.match_id
        game.match = None
        game.save(update_fields=["match"])
        match_services.match_call_off(match_id=match_id, only_unplayed=True)


def call_off(match_id: int) -> None:
    """End a forfeited game's match (after the tournament's commit, in its own transaction)."""
    match_services.match_call_off(match_id=match_id)
