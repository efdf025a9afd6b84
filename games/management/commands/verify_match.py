"""Replay a match's move log from its seed and confirm every deal, move and score."""

from __future__ import annotations

import hashlib

from django.core.management.base import BaseCommand, CommandError

from games.engine.core.variant import get_variant
from games.models import Match


class Command(BaseCommand):
    help = "Replay a match from its seed and check the log against the stored state and result."

    def add_arguments(self, parser) -> None:
        parser.add_argument("match_id", type=int)

    def handle(self, *args, match_id: int, **options) -> None:
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"there is no match {match_id}")
        seed = bytes.fromhex(match.seed)
        if hashlib.sha256(seed).hexdigest() != match.seed_sha256:
            raise CommandError("the seed does not match the hash published at the start")
        if match.snapshot is None:
            self.stdout.write(f"match {match_id} never started: nothing was dealt")
            return
        engine = get_variant(match.variant)
        state = engine.new_state(match.players, match.options, seed)
        deals = 0
        for move in match.moves.order_by("seq"):
            if move.seat not in engine.to_move(state):
                raise CommandError(f"move {move.seq}: seat {move.seat} was not due to move")
            try:
                state, events = engine.apply(state, move.seat, move.move)
            except Exception as error:  # noqa: BLE001 - report whatever the engine refuses
                raise CommandError(f"move {move.seq} does not replay: {error}") from None
            deals += sum(1 for e in events if e.get("kind") == "deal")
        if engine.dump(state) != match.snapshot:
            raise CommandError("the replayed state differs from the stored one")
        outcome = engine.outcome(state)
        played_out = match.ending == Match.Ending.PLAYED
        if played_out and (outcome is None or outcome.to_json() != match.outcome):
            raise CommandError("the replayed result differs from the stored one")
        view = engine.view(state, None)
        scores = ", ".join(
            f"seats {'+'.join(str(s) for s in side['seats'])}: {side['score']}"
            for side in view.get("sides", [])
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"match {match_id} verified: seed matches its hash, {match.moves.count()} moves "
                f"and {deals + 1} deals replay exactly; scores {scores}"
            )
        )
        if match.outcome:
            self.stdout.write(f"result: {match.outcome.get('reason', '')}")
