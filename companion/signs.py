"""A number as the app shows it, with one minus sign everywhere (``{{ number|minus }}``
in templates, :mod:`companion.templatetags.signs`; the charts call it directly).

Typeset text writes a negative number with the minus sign U+2212 (−), not the hyphen-minus
of the keyboard: the ratings did (``companion.selectors.ratings``), the sheet did not. Every
template that shows a number that can be negative (scores, totals, the progression, the
logs, the nights) passes it through this filter. Numbers typed into forms stay as they are:
the forms read both (``companion.parsing``).
"""

from __future__ import annotations

from typing import Any

from django.utils import formats

MINUS = "\u2212"


def minus(value: Any) -> str:
    """``-2`` → ``"−2"``; anything else as it is (``None`` stays empty, text keeps its dashes
    inside: only a leading sign is a sign).

    >>> [minus(-2), minus(3), minus(0), minus("-7"), minus(None), minus("a-b")]
    ['−2', '3', '0', '−7', '', 'a-b']
    """
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value) if isinstance(value, int) \
        else str(formats.localize(value))
    return MINUS + text[1:] if text.startswith("-") else text
