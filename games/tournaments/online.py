"""Results of tournament games played online, from the match layer's outcome.

`on_match_ended` hears `games.signals.match_ended` (connected in games/apps.py) inside the
match's own transaction, so a game's result is written with the match's end; locks go match
first, then tournament. Matches are set up in matches.py.
"""

from __future__ import annotations

from games.tournaments.common import notify
from games.tournaments.matches import side_letters
from games.tournaments.models import Game, Tournament
from games.tournaments.results import record_match_result


def on_match_ended(*, match, **_: object) -> None:
    """`games.signals.match_ended`: a tournament game's result flows in with the match's end."""
    record_online_result(match)


def record_online_result(match) -> None:
    """Turn a finished match into its tournament game's result (nothing for other matches).

    The outcome is taken as it is: each side's score, the winners and (in record_match_result)
    the engine's skunk level. A match resigned or abandoned before the engine's end is read
    by the variant's TournamentScoring (`result_of`). A match called off leaves the game in
    play for the director (a result by hand, or a forfeit).
    """
    game = (
        Game.objects.select_related("pairing__round__tournament").filter(match_id=match.pk).first()
    )
    if game is None or not game.in_play:
        return
    tournament = game.pairing.round.tournament
    outcome = match.outcome or {}
    if match.status != match.Status.FINISHED or not outcome.get("winners"):
        notify(tournament)
        return
    scores, winners = result_of(tournament, outcome, played_out=match.ending == "played")
    record_match_result(game, scores, winners)


def result_of(tournament: Tournament, outcome: dict, *, played_out: bool) -> tuple[list[int], str]:
    """(each seat's score, the winning seats' letters) from a match's outcome.

    A game played out gives its scores as they are. In a race ended early (resigned,
    abandoned), the winner is put on the target (or kept above it, for a game whose winner may
    pass it) and the loser keeps the score they had, below the winner's; a ranked game keeps
    every score and the match layer's winners.
    """
    letter_of = side_letters(tournament)
    seats = tournament.seats
    by_letter = {}
    for side in outcome.get("sides", []):
        letter = letter_of.get(tuple(side["seats"]))
        if letter is not None:
            by_letter[letter] = int(side.get("score", 0))
    scores = [by_letter.get(letter, 0) for letter in seats]
    won = set(outcome["winners"])
    winners = "".join(letter for seats_, letter in letter_of.items() if won & set(seats_))
    winners = "".join(sorted(winners, key=seats.index))
    scoring = tournament.scoring
    if scoring.kind == "race" and not played_out and len(winners) == 1:
        target = tournament.target or 0
        w = seats.index(winners)
        top = target if scoring.stops_at_target else max(scores[w], target)
        scores = [top if i == w else min(s, top - 1) for i, s in enumerate(scores)]
    return scores, winners
