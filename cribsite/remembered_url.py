"""`{% url %}` for every template: Django's tag, with its answers remembered.

Reversing a route walks the URL patterns in Python, about 60 µs on the club's machines, and a
page names a dozen or more (the navigation, its forms, the rules of each game), the same ones on
every request. The answer depends only on the route and its arguments, the application
namespace, the URLconf, the script prefix and the language, so it is kept under those (the 4,096
most recent). The tag is a template builtin (settings.TEMPLATES), so it stands in for Django's
`url` in every template; it reads its arguments exactly as Django's does.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.conf import settings
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.translation import get_language

register = template.Library()


@lru_cache(maxsize=4096)
def _reverse(view_name, args, kwargs, current_app, urlconf, prefix, language) -> str:
    """One reversal; the last three arguments only key the cache (reverse reads them itself)."""
    return reverse(
        view_name,
        args=[value for _, value in args],
        kwargs={name: value for name, (_, value) in kwargs},
        current_app=current_app,
    )


def remembered_reverse(view_name: str, *args) -> str:
    """`reverse(view_name, args=args)` for Python code, remembered as the tag's answers are (the
    hand drawn in Python names its match's move address for every seat at every move)."""
    return _reverse(
        view_name,
        tuple(_key(arg) for arg in args),
        (),
        None,
        get_urlconf() or settings.ROOT_URLCONF,
        get_script_prefix(),
        get_language(),
    )


def _key(value):
    """A value with its type, so that 1, 1.0 and True are remembered apart."""
    return (type(value), value)


class RememberedURLNode(URLNode):
    def render(self, context):
        view_name = self.view_name.resolve(context)
        args = tuple(_key(arg.resolve(context)) for arg in self.args)
        kwargs = tuple(sorted((name, _key(v.resolve(context))) for name, v in self.kwargs.items()))
        request = getattr(context, "request", None)
        try:
            current_app = request.current_app
        except AttributeError:
            current_app = getattr(getattr(request, "resolver_match", None), "namespace", None)
        try:
            url = _reverse(
                view_name,
                args,
                kwargs,
                current_app,
                get_urlconf() or settings.ROOT_URLCONF,
                get_script_prefix(),
                get_language(),
            )
        except TypeError:  # an argument that cannot key a cache (a list, say): not remembered
            url = _reverse.__wrapped__(view_name, args, kwargs, current_app, None, None, None)
        except NoReverseMatch:
            if self.asvar is None:
                raise
            url = ""
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser, token):
    """As Django's `{% url name arg ... [as var] %}`."""
    node = django_url(parser, token)
    return RememberedURLNode(node.view_name, node.args, node.kwargs, node.asvar)
