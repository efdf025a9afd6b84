"""The table's voice: {% callouts as said %} gives the points the latest move made, for a game's
table to call out where they were made ({% include "games/callout.html" %} draws them). The
words come from the game's texts.py (`callout`, `MOVES`; see games.texts.callouts); each callout
carries the move's key, so static/js/motion.js says it once (aloud to screen readers too) and
lets it fade."""

from __future__ import annotations

from typing import Any

from django import template

from games import texts

register = template.Library()


@register.simple_tag(takes_context=True)
def callouts(context: template.Context) -> dict[str, Any]:
    view, web = context.get("view"), context.get("web")
    if not view or web is None:
        return {"key": "", "said": []}
    found = texts.callouts(web, view, context.get("names") or [])
    teams = {seat.index: seat.team for seat in context.get("seats") or []}
    for said in found["said"]:
        said["team"] = teams.get(said["seat"], said["seat"])
    return found
