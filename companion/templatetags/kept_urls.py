"""``{% url %}`` with its addresses worked out once per process: load it after Django's
built-in tags (``{% load … kept_urls %}``) and a page's ``{% url %}`` tags use it.

The score sheet writes some twenty addresses of its match (undo, redo, finish, the
log, the live board, …); each ``reverse()`` walks the URL patterns again, about a
tenth of rendering a sheet after a change. An address is a pure function of the view's
name, its arguments, the current application, the script prefix, the URL
configuration and the language, so it is kept under all of them (the last
:data:`MAX_KEPT` ones); anything else (an argument that cannot be a key, an address
that does not exist) goes the built-in way. The tag is Django's, with the same
arguments, ``as`` form and escaping.

>>> from django.template import Context, Template
>>> Template("{% load kept_urls %}{% url 'rules_game' 'x-nimmt' %}").render(Context())
'/rules/x-nimmt/'
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import defaulttags
from django.template.base import Parser, Token
from django.template.context import Context
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.translation import get_language

register = template.Library()

MAX_KEPT = 4096
"""Addresses kept per process (a few hundred bytes each)."""


@functools.lru_cache(maxsize=MAX_KEPT)
def _reverse(
    view_name: str, args: tuple[Hashable, ...], kwargs: tuple[tuple[str, Hashable], ...],
    current_app: str | None, prefix: str, urlconf: Any, language: str | None,
) -> str:
    # prefix, urlconf and language are part of the key: reverse() reads them itself.
    return reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app)


@receiver(setting_changed)
def _forget_addresses(**kwargs: Any) -> None:
    _reverse.cache_clear()


class KeptURLNode(defaulttags.URLNode):
    def render(self, context: Context) -> str:
        args = tuple(arg.resolve(context) for arg in self.args)
        kwargs = tuple((key, value.resolve(context)) for key, value in self.kwargs.items())
        view_name = self.view_name.resolve(context)
        try:
            current_app = context.request.current_app  # type: ignore[attr-defined]
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace  # type: ignore[attr-defined]
            except AttributeError:
                current_app = None
        url = ""
        try:
            try:
                url = _reverse(view_name, args, kwargs, current_app, get_script_prefix(),
                               get_urlconf(), get_language())
            except TypeError:  # an argument that cannot be a key
                url = reverse(view_name, args=args, kwargs=dict(kwargs),
                              current_app=current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser: Parser, token: Token) -> KeptURLNode:
    """Django's ``{% url %}`` (same arguments), its addresses kept (module doc)."""
    node = defaulttags.url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)
