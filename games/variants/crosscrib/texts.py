"""CrossCrib in the reader's language: its events and prompts are Table Top Cribbage's (the
crib's events included), so it says them with the same words, and calls out the same points."""

from games.variants.tabletop.texts import EVENTS, MOVES, callout, outcome, outcome_text, prompt

__all__ = ["EVENTS", "MOVES", "callout", "outcome", "outcome_text", "prompt"]
