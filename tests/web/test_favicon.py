"""/favicon.ico, asked for by pages that name no icon of their own (the admin's, the API docs)."""

import pytest


@pytest.mark.django_db
def test_the_icon_is_the_peg_from_the_sites_own_static_files(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    assert answer["Location"].startswith("/static/img/peg")
    assert answer["Location"].endswith(".svg")
