"""``{{ number|minus }}``: :func:`companion.signs.minus` for the templates."""

from __future__ import annotations

from django import template

from companion.signs import minus

register = template.Library()
register.filter("minus", minus, is_safe=True)
