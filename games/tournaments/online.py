"""Tournament games played online: a match per game, and its result flowing back.

`start_match` seats both sides of a pairing in a new match (doubles: partners opposite, side a
in seats 0 and 2). `record_online_result` hears (games.signals.match_ended) when any match
ends, inside the match's own transaction, so the game's result is written with the match's end.
"""

from __future__ import annotations

from games.tournaments.models import Game, Pairing, Tournament


def plays_online(pairing: Pairing) -> bool:
    """Online events play every game online; mixed ones do when everyone has an account."""
    tournament = pairing.round.tournament
    if pairing.is_bye or tournament.venue == Tournament.Venue.TABLE:
        return False
    people = _seating(pairing)
    return all(person is not None for person in people)


def start_match(game: Game) -> None:
    from games import services as match_services

    pairing = game.pairing
    tournament = pairing.round.tournament
    match = match_services.match_create_seated(
        creator=tournament.director or pairing.a.user,
        players=_seating(pairing),
        variant=tournament.variant,
        options=tournament.options,
    )
    game.match = match
    game.source = Game.Source.ONLINE
    game.save(update_fields=["match", "source"])


def on_match_ended(*, match, **_: object) -> None:
    """`games.signals.match_ended`: a tournament game's result flows in with the match's end."""
    record_online_result(match)


def record_online_result(match) -> None:
    """Turn a finished match into its tournament game's result (nothing for other matches).

    A match played out gives its scores; one resigned or abandoned counts as the winner
    reaching the target with the loser's score as it stood. A match called off leaves the game
    in play for the director (a result by hand, or a forfeit).
    """
    game = (
        Game.objects.select_related("pairing__round__tournament").filter(match_id=match.pk).first()
    )
    if game is None or not game.in_play:
        return
    from games.tournaments.results import record_match_result

    outcome = match.outcome or {}
    if match.status != match.Status.FINISHED or not outcome.get("winners"):
        from games.tournaments.common import notify

        notify(game.pairing.round.tournament)
        return
    target = game.pairing.round.tournament.target
    scores = {}
    for side in outcome.get("sides", []):
        key = "a" if 0 in side["seats"] else "b"
        scores[key] = min(int(side.get("score", 0)), target)
    winner = "a" if 0 in outcome["winners"] else "b"
    loser = "b" if winner == "a" else "a"
    scores[winner] = target
    scores[loser] = min(scores.get(loser, 0), target - 1)
    record_match_result(game, scores["a"], scores["b"])


def _seating(pairing: Pairing) -> list:
    a, b = pairing.a, pairing.b
    if b is None:
        return []
    if pairing.round.tournament.is_doubles:
        return [a.user, b.user, a.partner, b.partner]
    return [a.user, b.user]
