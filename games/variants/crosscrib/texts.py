"""CrossCrib in the reader's language: its events and prompts are Table Top Cribbage's (the
crib's events included), so it says them with the same words."""

from games.variants.tabletop.texts import EVENTS, outcome, outcome_text, prompt

__all__ = ["EVENTS", "outcome", "outcome_text", "prompt"]
