"""``{% kept_form %} … {% endkept_form %}``: a fresh deal form rendered once per shape.

The deal form is the dearest part of an open sheet to render (up to 40 inputs, a
colour table or a card grid of 100 cards per pile): more than the rest of the sheet
together. A fresh form (nothing typed, nothing handed over, no question, no preview,
not a correction) is the same markup from one deal to the next but for its number
(in the heading and the hidden ``number`` input), its key and the CSRF token: the
"shape" a save compares with (``templatetags/form_shape.py``). So the first load of a
sheet after a change, whichever change it was, takes the form from memory.

A fresh form is kept under everything its markup depends on (:func:`form_key`: the
game, the entry mode, the seats with their players' names, the addresses it posts
to, the live link, the language, whether it is an out-of-band swap or inside a kept
sheet part); the rest are holes rendered with each page's context: ``{% form_hole %}``
(the number: filled here), and ``{% dynamic %}`` (the CSRF token, the key: filled
here, or handed on to the kept sheet part around the form, which fills them per
request, ``templatetags/revision_parts.py``). A hole must not sit inside a
``{% for %}`` or ``{% with %}`` of the form (it sees the page's context only). Any
other form (bound, prefilled, a correction, …) is rendered as usual.

>>> from django.template import Context, Template
>>> from django.utils import translation
>>> form = Template("{% load layout kept_form %}{% kept_form %}{{ n }}/"
...                 "{% form_hole %}{{ number }}{% endform_hole %}{% endkept_form %}")
>>> class Fresh:  # what form_key reads of a form, for this example
...     game, mode_key, seats, data, initial, kept = "freaky", "counts", [], {}, {}, []
...     is_bound = prefilled = False
...     empty_question = preview_hint = ""
...     preview = ()
>>> with translation.override("de"):
...     [form.render(Context({"form": Fresh(), "n": n, "number": number}))
...      for n, number in [(1, 1), (2, 2)]]
['1/1', '1/2']
"""

from __future__ import annotations

from collections.abc import Hashable

from django import template
from django.template.base import Parser, Token
from django.template.context import Context
from django.urls import get_script_prefix
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from companion.templatetags import revision_parts
from companion.templatetags.layout import (
    _HOLE,
    _HOLES,
    DynamicNode,
    block_tag,
    split_at_holes,
)

register = template.Library()

_FORM_HOLES = "kept_form.holes"
"""Context key: the list a kept form's holes add themselves to while it is rendered."""
FRESH_INITIAL = frozenset({"mode", "number", "client_key"})
"""The initial values of a fresh form (``companion.views.sheet._new_deal_form``)."""


def form_key(context: Context) -> Hashable | None:
    """What a fresh deal form's markup depends on besides its holes; ``None`` for a form
    that is not fresh (rendered as usual)."""
    form = context.get("form")
    if (
        form is None or context.get("editing") or form.is_bound or form.prefilled
        or form.empty_question or form.preview or form.preview_hint or form.kept
        or not FRESH_INITIAL.issuperset(form.initial)
    ):
        return None
    match, group = context.get("match"), context.get("group")
    return (
        form.game, form.mode_key,
        tuple((seat.number, seat.player_id, seat.player.name) for seat in form.seats),
        getattr(group, "pk", None), getattr(match, "pk", None),
        bool(context.get("live_available")), bool(context.get("oob")),
        context.get(revision_parts.KEY) is not None, context.use_l10n,
        get_language(), get_script_prefix(),
    )


class FormHoleNode(DynamicNode):
    """A hole of a kept form, filled by the form (not handed on to a kept part around it)."""

    def render(self, context: Context) -> str:
        holes = context.get(_FORM_HOLES)
        if holes is None:  # a form not kept, or none being rendered for keeping
            return self.nodelist.render(context)
        holes.append(self)
        return _HOLE


class KeptFormNode(revision_parts.RevisionPartNode):
    max_kept = 64
    """A form is 10-200 KB (the card grid of 7 players the most): at most a dozen MB."""

    def render(self, context: Context) -> SafeString:
        key = form_key(context)
        if key is None:
            return mark_safe(self.nodelist.render(context))
        rendered = self._kept(key)
        if rendered is None:
            holes: list[DynamicNode] = []
            with context.push({_HOLES: holes, _FORM_HOLES: holes}):
                text = self.nodelist.render(context)
            rendered = split_at_holes(text, holes, "kept_form")
            self._keep(key, rendered)
        chunks, kept_holes = rendered
        parts = [chunks[0]]
        for hole, chunk in zip(kept_holes, chunks[1:], strict=True):
            # A form hole is filled now; a {% dynamic %} hole renders itself, or, inside
            # a kept part being rendered, becomes a hole of that part.
            filled = (hole.nodelist.render(context) if isinstance(hole, FormHoleNode)
                      else hole.render(context))
            parts += (filled, chunk)
        return mark_safe("".join(parts))


@register.tag
def kept_form(parser: Parser, token: Token) -> KeptFormNode:
    """``{% kept_form %}…{% endkept_form %}``: a fresh form kept per shape (module doc)."""
    return KeptFormNode(block_tag(parser, token))


@register.tag
def form_hole(parser: Parser, token: Token) -> FormHoleNode:
    """``{% form_hole %}…{% endform_hole %}``: rendered for every page, inside a kept form."""
    return FormHoleNode(block_tag(parser, token))


__all__ = ["FormHoleNode", "KeptFormNode", "form_key"]
