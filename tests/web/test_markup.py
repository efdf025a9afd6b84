"""games.markup.text writes a value exactly as Django's template engine does."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy, override

from games.markup import text

VALUES = [
    "plain",
    "<b>Ann & \"Bo\" 'Cy'</b>",
    "",
    mark_safe("<em>safe</em>"),
    gettext_lazy("Starter"),
    0,
    -12,
    3.5,
    Decimal("1.50"),
    None,
    True,
    ["<a>", 1],
]


# The template engine also writes floats and decimals in the reader's number format ("1,50" in
# Spanish), which text() leaves alone, as conditional_escape does: no drawing writes either.
UNLOCALIZED = [value for value in VALUES if not isinstance(value, float | Decimal)]


@pytest.mark.parametrize("value", UNLOCALIZED, ids=repr)
def test_it_writes_a_value_as_the_template_engine_does(value):
    with override("es"):
        assert text(value) == Template("{{ value }}").render(Context({"value": value}))


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_it_agrees_with_conditional_escape(value):
    with override("es"):
        assert text(value) == str(conditional_escape(value))
