"""``{% revision_part %} … {% endrevision_part %}``: a part of the score sheet rendered
once per match revision and served from memory afterwards.

Several phones load the same sheet after every change; most of such a page is the
same for all of them. The view puts a key into the context (``revision_key``: the
match, its ``revision`` read fresh from the database on this request, the language
and every input of the markup that is not covered by the revision, such as the
roster's names and colours, the viewer's right to delete, the query string's table
view and entry mode; ``companion.views.sheet._part_key``). A part rendered with a key
is kept under it (per process, the last :data:`MAX_KEPT` keys per part) and reused
for the next request with the same key. Without a key (``None``), a part is rendered
as usual: the edit form, bound forms, previews, answers to a change.

What differs per request is a ``{% dynamic %}`` hole (``templatetags/layout.py``),
rendered for every request with the page's context: the CSRF token, the deal form's
key, the ETag, the notice. A hole must not sit inside a ``{% for %}`` or ``{% with %}``
of the part (it sees the page's context only). A part inside another part (the sheet
partial inside the page) is rendered as part of the outer one.

>>> from django.template import Context, Template
>>> page = Template("{% load layout revision_parts %}{% revision_part %}{{ n }}/"
...                 "{% dynamic %}{{ who }}{% enddynamic %}{% endrevision_part %}")
>>> [page.render(Context({"revision_key": 1, "n": n, "who": who})) for n, who in
...  [(1, "Anna"), (2, "Ben"), (2, "Cem")]]
['1/Anna', '1/Ben', '1/Cem']
>>> page.render(Context({"revision_key": None, "n": 2, "who": "Dora"}))
'2/Dora'
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from django import template
from django.template.base import Node, NodeList, Parser, Token
from django.template.context import Context
from django.utils.functional import LazyObject, empty
from django.utils.safestring import SafeString, mark_safe

from companion.templatetags import layout
from companion.templatetags.layout import (
    _HOLES,
    DynamicNode,
    Rendered,
    block_tag,
    fill_holes,
    split_at_holes,
)

register = template.Library()

KEY = "revision_key"
"""Context key: the key the parts are kept under (``None``: render as usual)."""
MAX_KEPT = 128
"""Keys kept per part and process; the least recently used one goes first (a sheet
page is 30-70 KB: a few MB per part at most)."""

class RevisionPartNode(Node):
    max_kept = MAX_KEPT
    """Keys kept by this kind of part (:data:`MAX_KEPT`)."""

    def __init__(self, nodelist: NodeList) -> None:
        self.nodelist = nodelist
        self.generation = layout.generation()
        self.kept: OrderedDict[Hashable, Rendered] = OrderedDict()
        self.lock = threading.Lock()

    def _kept(self, key: Hashable) -> Rendered | None:
        with self.lock:
            if self.generation != layout.generation():
                # A settings change (tests): parts rendered before are rendered again.
                self.kept, self.generation = OrderedDict(), layout.generation()
            rendered = self.kept.get(key)
            if rendered is not None:
                self.kept.move_to_end(key)
            return rendered

    def _keep(self, key: Hashable, rendered: Rendered) -> None:
        with self.lock:
            self.kept[key] = rendered
            while len(self.kept) > self.max_kept:
                self.kept.popitem(last=False)

    def render(self, context: Context) -> SafeString:
        key = context.get(KEY)
        if key is None or context.get(_HOLES) is not None:
            # No key, or inside a part being rendered for keeping: its holes are that part's.
            return mark_safe(self.nodelist.render(context))
        rendered = self._kept(key)
        if rendered is None:
            holes: list[DynamicNode] = []
            # The view hands over what the page shows as lazy objects (computed only for a
            # part not kept yet): the part is rendered with what they stand for, not through
            # their proxies (a few thousand lookups of a sheet took a fifth longer).
            with context.push({**_evaluated(context), _HOLES: holes}):
                text = self.nodelist.render(context)
            rendered = split_at_holes(text, holes, "revision_part")
            self._keep(key, rendered)
        return fill_holes(rendered, context)


def _evaluated(context: Context) -> dict[str, Any]:
    values = {}
    for name, value in context.flatten().items():
        if isinstance(value, LazyObject):
            if value._wrapped is empty:
                value._setup()
            values[name] = value._wrapped
    return values


@register.tag
def revision_part(parser: Parser, token: Token) -> RevisionPartNode:
    """``{% revision_part %}…{% endrevision_part %}``: kept per ``revision_key`` (module doc)."""
    return RevisionPartNode(block_tag(parser, token))
