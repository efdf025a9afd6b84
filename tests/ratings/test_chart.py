"""The rating chart's geometry and the admin pages of ratings."""

from __future__ import annotations

import datetime as dt

import pytest

from accounts.charts import HEIGHT, WIDTH, rating_chart

T0 = dt.datetime(2026, 10, 1, tzinfo=dt.UTC)


def test_it_draws_one_point_per_result_plus_the_start():
    points = [(T0 + dt.timedelta(days=d), r) for d, r in ((1, 1600), (2, 1550), (10, 1700))]
    chart = rating_chart(points)
    coords = [tuple(map(float, xy.split(","))) for xy in chart["line"].split()]
    assert len(coords) == 4
    assert all(0 <= x <= WIDTH and 0 <= y <= HEIGHT for x, y in coords)
    assert coords[3][1] < coords[1][1] < coords[0][1]  # higher ratings are drawn higher
    assert [x for x, _ in coords] == sorted(x for x, _ in coords)
    labels = [int(t["label"]) for t in chart["ticks"]]
    assert min(labels) <= 1500 and max(labels) >= 1700 - 100
    assert chart["summary"] == (
        "Rating from 1500 to 1700 over 3 rated games; highest 1700, lowest 1500."
    )


def test_results_at_the_same_moment_are_spread_out():
    chart = rating_chart([(T0, 1510), (T0, 1520)])
    xs = [float(xy.split(",")[0]) for xy in chart["line"].split()]
    assert len(set(xs)) == 3


def test_no_results_no_chart():
    assert rating_chart([]) is None


@pytest.mark.django_db
def test_the_admin_lists_ratings_and_rated_events(client, dana, alice, bob):
    from tests.ratings.conftest import finished

    finished([alice, bob], winners=[0])
    client.force_login(dana)
    assert client.get("/admin/accounts/rating/").status_code == 200
    assert client.get("/admin/accounts/ratedevent/").status_code == 200
    assert client.get("/admin/accounts/ratedevent/add/").status_code == 200
