"""A drawn card is one small span: its name read in the reader's language, its rank and suit
drawn by table.css from data-card, and its markup drawn once and kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template, TemplateSyntaxError
from django.utils import translation

from games.engine.pieces.cards import RANKS, SUITS, parse_card
from games.templatetags import cards

ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS]
CARD_BYTES = 112  # the longest: a small card named in Spanish ("cuatro de tréboles"), 109
CSS = (Path(settings.BASE_DIR) / "static" / "css" / "table.css").read_text()
CARD = re.compile(
    r'<span class="card playing-card(?P<extra>[^"]*)" role="img" aria-label="(?P<name>[^"]+)"'
    r' data-card="(?P<code>\w\w)"></span>'
)


def render(source: str, **context) -> str:
    return Template("{% load cards %}" + source).render(Context(context))


@pytest.mark.parametrize("code", ALL_CARDS)
@pytest.mark.parametrize("size", [None, "small", "large"])
def test_every_card_is_one_small_named_span(code, size):
    with translation.override("en"):
        html = cards.card(code, size=size)
    assert len(html.encode()) <= CARD_BYTES, html
    found = CARD.fullmatch(html)
    assert found, html
    assert found["code"] == code
    assert found["name"] == parse_card(code).name
    assert found["extra"] == {None: "", "small": " card-small", "large": " card-large"}[size]


@pytest.mark.parametrize(
    ("code", "english", "spanish"),
    [
        ("5H", "five of hearts", "cinco de corazones"),
        ("AS", "ace of spades", "as de picas"),
        ("TD", "ten of diamonds", "diez de diamantes"),
        ("KC", "king of clubs", "rey de tréboles"),
    ],
)
def test_the_name_is_read_in_the_readers_language(code, english, spanish):
    with translation.override("en"):
        assert f'aria-label="{english}"' in render("{% card c %}", c=code)
    with translation.override("es"):
        assert f'aria-label="{spanish}"' in render("{% card c %}", c=code)
        assert 'aria-label="carta boca abajo"' in render("{% card_back %}")
    with translation.override("en"):  # the Spanish markup kept is not handed to English readers
        assert f'aria-label="{english}"' in render("{% card c %}", c=code)
        assert 'aria-label="face-down card"' in render("{% card_back %}")


def test_every_rank_and_suit_is_drawn_by_the_styles():
    for rank, label in zip(RANKS, ["A", *"23456789", "10", "J", "Q", "K"], strict=True):
        assert f'.playing-card[data-card^="{rank}"] {{ --card-rank: "{label}"; }}' in CSS
    for suit in SUITS:
        rule = re.search(rf'\[data-card\$="{suit}"\] \{{(.*?)\}}', CSS, re.S)
        assert rule, suit
        assert '--card-pip: url("data:image/svg+xml,' in rule[1]
        red = suit in "DH"
        assert ("--card-ink: #c0161d" in rule[1]) is red
        assert ("fill='%23c0161d'" in rule[1]) is red
        assert ("fill='%231d1d1b'" in rule[1]) is not red


def test_the_markup_is_drawn_once_and_kept():
    cards._drawn.clear()
    first = render('{% card "QS" size="small" classes="is-selected" %}')
    kept = cards.card("QS", size="small", classes="is-selected")
    assert cards.card("QS", size="small", classes="is-selected") is kept
    assert first == kept
    cards._drawn.clear()
    assert cards.card("QS", size="small", classes="is-selected") == kept  # drawn afresh: the same
    assert cards.card_back(label="the crib") is cards.card_back(label="the crib")
    assert cards.card("QS") != kept


def test_what_is_kept_is_bounded(monkeypatch):
    monkeypatch.setattr(cards, "DRAWN_LIMIT", 0)
    cards._drawn.clear()
    assert 'data-card="9C"' in cards.card("9C")
    assert not cards._drawn


def test_bad_cards_and_sizes_are_still_refused_once_good_ones_are_kept():
    cards.card("5H")
    with pytest.raises(TemplateSyntaxError, match="'5X' is not a card"):
        render("{% card c %}", c="5X")
    with pytest.raises(TemplateSyntaxError, match="'huge'"):
        render('{% card "5H" size="huge" %}')


def test_a_label_is_escaped():
    html = cards.card_back(label='<b>"crib"</b> & co')
    assert 'aria-label="&lt;b&gt;&quot;crib&quot;&lt;/b&gt; &amp; co"' in html
