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
    total = f'<span class="tiny text-body-secondary">Σ {cell.total}</span>'
    if not cell.why:
        return mark_safe(f'<span class="d-block">{cell.score}</span>{total}')
    # The look of a line (text, then its points, in a row) and of the sum comes from
    # .why-body in static/css/app.css: the htmx save answer carries a row of these.
    cards = _escape(gettext("cards (Hornochsen):"))
    lines = "".join(
        "<li><span>"
        + _escape(line.text)
        + (f'<span class="d-block tiny text-body-secondary">{cards} '
           f"{_escape(line.cards)}</span>" if line.cards else "")
        + f"</span><span>{_escape(line.points)}</span></li>"
        for line in cell.why
    )
    deal = gettext("Deal %(number)s") % {"number": number}
    return mark_safe(  # every text above and below is escaped
        '<details class="why">'
        f'<summary class="why-score">{cell.score}<span class="visually-hidden"> '
        f'({_escape(gettext("why?"))})</span></summary>'
        '<div class="why-body shadow" role="note">'
        f"<ul>{lines}</ul>"
        f'<div class="why-sum"><span>{_escape(cell.name)} · {deal}</span>'
        f"<span>= {cell.score}</span></div>"
        f"</div></details>{total}"
    )
