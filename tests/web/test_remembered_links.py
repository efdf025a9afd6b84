"""Links and asset URLs that pages ask for again and again are worked out once
(cribsite.remembered_url, cribsite.storage), and always agree with Django's own answers."""

from __future__ import annotations

import pytest
from django.template import Context, Engine, engines
from django.templatetags.static import static
from django.test import RequestFactory, override_settings
from django.urls import NoReverseMatch, reverse, set_script_prefix
from django.utils import translation

from cribsite.remembered_url import RememberedURLNode, _reverse, remembered_reverse

SITE = engines["django"].engine  # the project's engine: `url` is the remembered one
DJANGO = Engine(app_dirs=False)  # Django's engine as shipped: its own `url`

CASES = [
    ("{% url 'home' %}", {}),
    ("{% url 'lobby' %}", {}),
    ("{% url 'match' 7 %}", {}),
    ("{% url 'match' match_id=7 %}", {}),
    ("{% url 'match' number %}", {"number": 12}),
    ("{% url 'rules' key %}", {"key": "kings"}),
    ("{% url name key %}", {"name": "rules", "key": "cribist"}),
    ("{% url 'rules' 'tabletop' as link %}[{{ link }}]", {}),
    ("{% url 'no-such-route' as link %}[{{ link }}]", {}),
    ("{% url 'profile' who %}", {"who": "o'brien & co"}),
    ("{% autoescape off %}{% url 'profile' who %}{% endautoescape %}", {"who": "a&b"}),
]


@pytest.mark.parametrize(("text", "values"), CASES)
def test_the_site_url_tag_gives_what_djangos_gives(text, values):
    ours = SITE.from_string(text)
    assert ours.nodelist.get_nodes_by_type(RememberedURLNode)
    expected = DJANGO.from_string(text).render(Context(values))
    assert ours.render(Context(values)) == expected
    assert ours.render(Context(values)) == expected  # and again, from what was remembered


def test_a_route_that_does_not_exist_still_fails_loudly():
    with pytest.raises(NoReverseMatch):
        SITE.from_string("{% url 'no-such-route' %}").render(Context())


def test_arguments_equal_in_python_but_of_another_type_are_not_taken_for_each_other():
    page = SITE.from_string("{% url 'match' number %}")
    assert page.render(Context({"number": 1})) == "/matches/1/"
    with pytest.raises(NoReverseMatch):  # True is not a match number, though True == 1
        page.render(Context({"number": True}))


def test_a_list_argument_is_reversed_each_time_instead_of_remembered():
    page = SITE.from_string("{% url 'rules' key %}")
    before = _reverse.cache_info().currsize
    with pytest.raises(NoReverseMatch):
        page.render(Context({"key": ["kings"]}))
    assert _reverse.cache_info().currsize == before


def test_the_answer_follows_the_script_prefix_and_the_request_namespace():
    page = SITE.from_string("{% url 'lobby' %}")
    try:
        set_script_prefix("/club/")
        assert page.render(Context()) == "/club/play/"
    finally:
        set_script_prefix("/")
    assert page.render(Context()) == "/play/"
    request = RequestFactory().get("/")
    request.current_app = "admin"
    link = SITE.from_string("{% url 'admin:index' %}")
    assert link.render(Context({"request": request})) == reverse("admin:index")


def test_another_urlconf_gets_its_own_answers():
    page = SITE.from_string("{% url 'home' %}")
    assert page.render(Context()) == "/"
    with override_settings(ROOT_URLCONF="tests.web.prefixed_urls"):
        assert page.render(Context()) == "/club/"
    assert page.render(Context()) == "/"


def test_the_answer_is_kept_apart_for_each_language():
    page = SITE.from_string("{% url 'home' %}")
    for language in ("en", "es"):
        with translation.override(language):
            assert page.render(Context()) == reverse("home")


def test_static_urls_are_remembered_and_match_a_fresh_answer():
    from django.contrib.staticfiles.storage import staticfiles_storage

    first = static("css/site.css")
    assert first == static("css/site.css") == staticfiles_storage.url("css/site.css")
    assert "css/site.css" in staticfiles_storage._urls
    with override_settings(STATIC_URL="/assets/"):  # Django builds a new storage
        assert static("css/site.css").startswith("/assets/css/site")
    assert static("css/site.css") == first


def test_python_code_gets_the_same_remembered_answers():
    """remembered_reverse (the hand drawn in Python names its match's move address with it)
    answers as reverse does, under the script prefix and the URLconf of the moment."""
    assert remembered_reverse("match_move", 7) == reverse("match_move", args=[7])
    assert remembered_reverse("match_move", 8) == "/matches/8/move/"
    assert remembered_reverse("home") == "/"
    try:
        set_script_prefix("/club/")
        assert remembered_reverse("match_move", 7) == "/club/matches/7/move/"
    finally:
        set_script_prefix("/")
    with override_settings(ROOT_URLCONF="tests.web.prefixed_urls"):
        assert remembered_reverse("match_move", 7) == "/club/matches/7/move/"
    assert remembered_reverse("match_move", 7) == "/matches/7/move/"
