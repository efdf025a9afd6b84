"""`{% kept name var... %}…{% endkept %}`: a piece of a page drawn once for what it shows, then
kept in this process and handed out again, with each request's own CSRF token put into its forms.

The site's header is the same on every page a member opens at one address in one language (their
name, the navigation, the log-out and language forms), yet drawing it took about 0.35 ms of each
page's 2 ms. Django's `{% cache %}` would keep the first request's CSRF token in the forms for
every later one; here the piece is drawn with a slot where the token goes, and each request fills
in its own (the same way games.fragments shares a match's regions).

The key is the piece's name, the active language and the values of the variables named in the
tag, compared as text: name every value the piece reads that can differ between requests. A
request without a CSRF token in its context (a template drawn outside a request) gets the piece
drawn afresh, never a kept one.

    {% load kept %}
    {% kept header user.pk user.name request.get_full_path %}…{% endkept %}
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()

CSRF_SLOT = "csrf0slot0for0this0request0token0"
KEPT_SIZE = 4096  # pieces kept, the least recently used dropped first
_kept: OrderedDict[tuple, str] = OrderedDict()
_lock = threading.Lock()
drawn: dict[str, int] = {}  # name -> times drawn (not handed out again), for tests


class KeptNode(template.Node):
    # The piece's own nodes are hidden from Django's walks of a template's nodes
    # (get_nodes_by_type): `{% extends %}` walks the whole parent at every render to find its
    # blocks, and the site's header alone held some 150 nodes, about a tenth of a match page's
    # function calls. So no `{% block %}` goes inside a kept piece (it is drawn whole anyway).
    child_nodelists = ()

    def __init__(self, nodelist: template.NodeList, name: str, vary_on: list) -> None:
        self.nodelist, self.name, self.vary_on = nodelist, name, vary_on

    def render(self, context: template.Context) -> str:
        token = context.get("csrf_token")
        if not token or token == "NOTPROVIDED":  # noqa: S105 (Django's word for "no token")
            return self.nodelist.render(context)
        key = (self.name, get_language(), *(str(var.resolve(context)) for var in self.vary_on))
        with _lock:
            html = _kept.get(key)
            if html is not None:
                _kept.move_to_end(key)
        if html is None:
            with context.push(csrf_token=CSRF_SLOT):
                html = self.nodelist.render(context)
            drawn[self.name] = drawn.get(self.name, 0) + 1
            with _lock:
                _kept[key] = html
                while len(_kept) > KEPT_SIZE:
                    _kept.popitem(last=False)
        if CSRF_SLOT in html:  # asked for only where a form needs it (that sets the cookie)
            html = html.replace(CSRF_SLOT, str(token))
        return mark_safe(html)  # noqa: S308 (drawn escaped)


@register.tag
def kept(parser, token) -> KeptNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError(f"'{bits[0]}' needs a name")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(nodelist, bits[1], [parser.compile_filter(bit) for bit in bits[2:]])


def forget_kept() -> None:
    """Drop every kept piece and the counts (for tests: their keys hold ids a new database
    gives out again, and settings a test may change)."""
    with _lock:
        _kept.clear()
    drawn.clear()
