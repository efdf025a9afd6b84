"""The live preview: what a tentative lay would score for the member's seat, or why not."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from games import presenters, services
from games.engine import get_variant
from games.texts import engine_text

MOST_TILES = 5


@login_required
@require_POST
def preview(request: HttpRequest, match_id: int) -> HttpResponse:
    """The preview fragment for the tiles posted as `tiles` (ROW,COL=FACE each); the reason a
    lay is not legal comes in the reader's language."""
    match = presenters.load_match(match_id)
    if match is None or match.variant != "kings":
        raise Http404("There is no such match.")
    seat = services.seat_for(match, request.user)
    tiles = request.POST.getlist("tiles")[: MOST_TILES + 1]
    result: dict | None = None
    if seat is not None and match.snapshot is not None and tiles:
        engine = get_variant("kings")
        state = engine.load(match.snapshot)
        result = engine.preview(state, seat.index, {"type": "lay", "tiles": tiles})
        if "reason" in result:  # in the reader's language, as services.match_preview does
            template = result.pop("reason_template", result["reason"])
            result["reason"] = engine_text(template, result.pop("reason_params", None))
    context = {"preview": result, "lays": True}
    return render(request, "games/kings/table.html#preview", context)
