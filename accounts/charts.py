"""The rating chart's geometry, worked out here so the SVG template only places what it gets."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from django.utils.translation import ngettext

WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 24


def rating_chart(points: Sequence[tuple[datetime, float]], *, start: float = 1500.0) -> dict | None:
    """A line chart of a rating over time (x: time; y: rating), or None without any point.

    `points` are (when, rating after) per rated result; the line starts from `start` at the
    first result's time. Equal times (a busy evening) are spread evenly, so no step is lost.
    """
    if not points:
        return None
    values = [start, *(value for _, value in points)]
    times = [points[0][0], *(at for at, _ in points)]
    low, high = _nice_range(min(values), max(values))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    xs = _x_positions(times, plot_w)

    def y_of(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    coords = [(LEFT + x, y_of(v)) for x, v in zip(xs, values, strict=True)]
    ticks = [
        {"y": round(y_of(v), 1), "label": f"{v:.0f}"}
        for v in _ticks(low, high)
    ]  # fmt: skip
    last_x, last_y = coords[-1]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": HEIGHT - BOTTOM,
        "line": " ".join(f"{x:.1f},{y:.1f}" for x, y in coords),
        "last": {"x": round(last_x, 1), "y": round(last_y, 1)},
        "ticks": ticks,
        "first_date": times[0],
        "last_date": times[-1],
        "summary": ngettext(
            "Rating from %(first).0f to %(last).0f over %(count)d rated game; "
            "highest %(high).0f, lowest %(low).0f.",
            "Rating from %(first).0f to %(last).0f over %(count)d rated games; "
            "highest %(high).0f, lowest %(low).0f.",
            len(points),
        )
        % {
            "first": values[0],
            "last": values[-1],
            "count": len(points),
            "high": max(values),
            "low": min(values),
        },
    }


def _x_positions(times: Sequence[datetime], width: float) -> list[float]:
    """Time across the width; if every point has the same time, evenly by order."""
    first, last = times[0], times[-1]
    span = (last - first).total_seconds()
    if len(times) == 1:
        return [width / 2]
    if span <= 0:
        return [width * i / (len(times) - 1) for i in range(len(times))]
    return [width * (t - first).total_seconds() / span for t in times]


def _nice_range(low: float, high: float) -> tuple[float, float]:
    """Round bounds with some air, at least 100 points apart."""
    middle = (low + high) / 2
    half = max((high - low) / 2 * 1.15, 50)
    step = _step(2 * half)
    return math.floor((middle - half) / step) * step, math.ceil((middle + half) / step) * step


def _ticks(low: float, high: float) -> list[float]:
    step = _step(high - low)
    first = math.ceil(low / step) * step
    count = int((high - first) // step) + 1
    return [first + i * step for i in range(count)]


def _step(span: float) -> float:
    """A round step giving three to six ticks over `span`."""
    for step in (25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 5:
            return step
    return 1000
