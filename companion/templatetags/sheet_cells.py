"""The score sheet's cells, written in Python: a 10-deal sheet has 40 of them, each with
its breakdown behind the score (a ``<details>`` with a line per part of the score), and
through the template engine they were most of the sheet's rendering time.

``{{ cell|score_cell:row.deal.number }}`` writes what the sheet's ``deal-row`` partial
shows in a cell: the score (with its breakdown where the engine gave one) and the
running total. Every text is escaped here.
"""

from __future__ import annotations

import html

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from companion.selectors.sheet import Cell

register = template.Library()


def _escape(text: str) -> str:
    """Django's ``escape`` (which is ``html.escape``) without its lazy-string wrapper."""
    return text if hasattr(text, "__html__") else html.escape(text)


@register.filter
def score_cell(cell: Cell, number: int) -> SafeString:
    """One cell of the sheet: deal ``number``'s score of a player and the total after it."""
    # The look of every part comes from the sheet's styles (.why, .why-body, .sheet-table
    # td > small), not from classes per element: the htmx save answer carries a row of these.
    total = f"<small>Σ {cell.total}</small>"
    if not cell.why:
        return mark_safe(f"<div>{cell.score}</div>{total}")
    cards = _escape(gettext("cards (Hornochsen):"))
    lines = "".join(
        "<li>"
        + (f"<span>{_escape(line.text)}<small>{cards} {_escape(line.cards)}</small></span>"
           if line.cards else _escape(line.text))
        + f"<b>{_escape(line.points)}</b></li>"
        for line in cell.why
    )
    deal = gettext("Deal %(number)s") % {"number": number}
    return mark_safe(  # every text above and below is escaped
        '<details class="why">'
        f'<summary>{cell.score}<span class="visually-hidden"> '
        f'({_escape(gettext("why?"))})</span></summary>'
        '<div class="why-body" role="note">'
        f"<ul>{lines}</ul>"
        f"<div>{_escape(cell.name)} · {deal}<b>= {cell.score}</b></div>"
        f"</div></details>{total}"
    )
