"""``{% client_key %}``: the hidden idempotency key of a write form, fresh per rendered
form (``companion.idempotency``): the same form sent twice is stored once. In a text
rendered for several phones (``companion.shared_renders``) it is a marker that each
phone's answer replaces with a key of its own."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from companion.idempotency import FIELD, new_key

register = template.Library()


@register.simple_tag(takes_context=True)
def client_key(context: template.Context) -> SafeString:
    key = context.get("form_key_marker") or new_key()
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, key)
