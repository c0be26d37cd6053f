"""The hidden fields of a write form.

``{% client_key %}``: its idempotency key, fresh per rendered form
(``companion.idempotency``): the same form sent twice is stored once.
``{% form_keys %}``: the CSRF field and that key, as every write form of the sheet has
them. In a text rendered for several phones (``shared_render``: the sheet a poll gets,
companion/shared_renders.py) both are left empty: the page fills them in with its own
token and a key made in the browser (static/js/net.js), so nothing of one phone is in
what another is sent."""

from __future__ import annotations

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from companion.idempotency import FIELD, new_key

register = template.Library()

EMPTY_TOKEN = mark_safe('<input type="hidden" name="csrfmiddlewaretoken" value="">')
"""The CSRF field of a text rendered for several phones: the page puts its token in."""


@register.simple_tag(takes_context=True)
def client_key(context: template.Context) -> SafeString:
    key = "" if context.get("shared_render") else new_key()
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, key)


@register.simple_tag(takes_context=True)
def form_keys(context: template.Context) -> SafeString:
    if context.get("shared_render"):
        token = EMPTY_TOKEN
    else:
        token = CsrfTokenNode().render(context)  # what {% csrf_token %} writes
    return format_html("{}{}", token, client_key(context))
