"""``{% client_key %}``: the hidden idempotency key of a write form, fresh per rendered
form (``companion.idempotency``): the same form sent twice is stored once."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from companion.idempotency import FIELD, new_key

register = template.Library()


@register.simple_tag
def client_key() -> SafeString:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key())
