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

A view may keep its whole page the same way (`kept_page`): drawn once for what it shows, handed
out again to the same member at the same address, in the same language, with their own token.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django import template
from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from cribsite.compression import Spliced

register = template.Library()

CSRF_SLOT = "csrf0slot0for0this0request0token0"
_MISSING = object()


class Kept:
    """At most `size` values by key, the least recently used let go first, for every thread of
    the process: the one way the site keeps what it drew or built, to hand it out again."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Any, tuple[float, Any]] = OrderedDict()  # key -> (put at, value)
        self._lock = threading.Lock()

    def get(self, key: Any, default: Any = None, *, seconds: float | None = None) -> Any:
        """The value kept under `key` (with `seconds`: only if put no longer ago than that)."""
        with self._lock:
            found = self._values.get(key, _MISSING)
            if found is _MISSING:
                return default
            if seconds is not None and time.monotonic() - found[0] >= seconds:
                return default
            self._values.move_to_end(key)
            return found[1]

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._values[key] = (time.monotonic(), value)
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


KEPT_SIZE = 4096  # pieces kept, the least recently used dropped first
_kept = Kept(KEPT_SIZE)
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
        html = _kept.get(key)
        if html is None:
            with context.push(csrf_token=CSRF_SLOT):
                html = self.nodelist.render(context)
            _keep(_kept, self.name, key, html)
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


PAGES_KEPT = 512  # whole pages (about 11 KB each), the least recently used dropped first
_pages = Kept(PAGES_KEPT)


def kept_page(
    request: HttpRequest,
    template_name: str,
    context: dict[str, Any] | Callable[[], dict[str, Any]],
    key: tuple | None,
    *,
    seconds: float | None = None,
) -> HttpResponse:
    """`render(request, template_name, context)`, the page drawn once for `key` and handed out
    again (`seconds`: for at most that long), each request's CSRF token put into its forms.
    `context` may be a function that makes it, called only when the page is drawn.

    `key` names everything the page shows from `context` (None: the page is drawn every time);
    the member's part of the page (the header and the body's settings, as the site's base
    template shows them), the address and the language are added here. A page with messages
    waiting for the member is drawn afresh, and shows them (showing a message uses it up), as is
    one without a key. Either way, `context` may hold CSRF_SLOT where the token goes."""
    if key is not None and len(get_messages(request)) == 0:
        user = request.user
        member = (user.pk, user.get_username(), str(user), user.is_staff)
        member += (getattr(user, "motion", None), getattr(user, "sounds", None))
        key = (template_name, get_language(), request.get_full_path(), member, *key)
        page = _pages.get(key, seconds=seconds)
        if page is None:
            page = _Page(_draw(request, template_name, context))
            _keep(_pages, "page " + template_name, key, page)
        return page.answer(get_token(request))
    html = _draw(request, template_name, context)
    return HttpResponse(html.replace(CSRF_SLOT, get_token(request)))


class _Page:
    """A page kept whole: its bytes around each place the CSRF token goes, and from its second
    gzipped answer on, those pieces gzipped once (cribsite.compression.Spliced; a page asked for
    once is not worth it)."""

    def __init__(self, html: str) -> None:
        self.parts = tuple(part.encode(settings.DEFAULT_CHARSET) for part in html.split(CSRF_SLOT))
        self.spliced: Spliced | None = None
        self.gzipped = 0  # answers gzipped the usual way
        self.spliceable = True
        self.lock = threading.Lock()

    def answer(self, token: str) -> HttpResponse:
        token_bytes = token.encode()
        body = token_bytes.join(self.parts)
        response = HttpResponse(body)
        response.gzip_kept = functools.partial(self.gzip, token_bytes, body)  # compression's hook
        return response

    def gzip(
        self, token: bytes, body: bytes, content: bytes, *, max_random_bytes: int
    ) -> bytes | None:
        """`content` gzipped from the kept pieces, when it is still `body`, this page with
        `token`; None where the usual way must do (the answer changed on its way out, the page's
        first gzipped answer, or a page that cannot be spliced)."""
        if content != body:
            return None
        with self.lock:
            spliced = self.spliced
            if spliced is None or spliced.gap != len(token):
                self.gzipped += 1
                if self.gzipped < 2 or not self.spliceable:
                    return None
                try:
                    spliced = self.spliced = Spliced(self.parts, len(token))
                except ValueError:  # a NUL in the page
                    self.spliceable = False
                    return None
        return spliced.gzip(token, content, max_random_bytes=max_random_bytes)


def _keep(kept: Kept, name: str, key: tuple, value: Any) -> None:
    """Keep `value` under `key` in `kept`, and count a drawing of `name`."""
    drawn[name] = drawn.get(name, 0) + 1
    kept.put(key, value)


def _draw(request: HttpRequest, template_name: str, context) -> str:
    made = context() if callable(context) else context
    return render_to_string(template_name, {**made, "csrf_token": CSRF_SLOT}, request)


def forget_kept() -> None:
    """Drop every kept piece and page and the counts (for tests: their keys hold ids a new
    database gives out again, and settings a test may change)."""
    _kept.clear()
    _pages.clear()
    drawn.clear()
