"""The score sheet's cells, written in Python: a 10-deal sheet has 40 of them, each with
its breakdown behind the score (a ``<details>`` with a line per part of the score), and
through the template engine they were most of the sheet's rendering time.

``{{ cell|score_cell:row.deal.number }}`` writes what the sheet's ``deal-row`` partial
shows in a cell: the score (with its breakdown where the engine gave one) and the
running total; ``{% deal_row row %}`` writes the whole row (its number with the edit
link, the dealer, a cell per seat): a first load of an 11 nimmt! sheet at 7 players
took 2 ms to render its rows through the template engine. Every text is escaped here.
"""

from __future__ import annotations

import html
from typing import Any

from django import template
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext

from companion.selectors.sheet import Cell, Row

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
    # Texts to translate outside f-strings: makemessages (xgettext) does not see into them.
    why = _escape(gettext("why?"))
    return mark_safe(  # every text above and below is escaped
        '<details class="why">'
        f'<summary>{cell.score}<span class="visually-hidden"> '
        f'({why})</span></summary>'
        '<div class="why-body" role="note">'
        f"<ul>{lines}</ul>"
        f"<div>{_escape(cell.name)} · {deal}<b>= {cell.score}</b></div>"
        f"</div></details>{total}"
    )


@register.simple_tag(takes_context=True)
def deal_row(context: Context, row: Row) -> SafeString:
    """One row of the sheet's deals table (the ``deal-row`` partial): the deal's number
    (marked if it was just ``saved``; with the edit link while the match runs), who
    dealt it, and a cell per seat."""
    sheet: Any = context.get("sheet")
    number = row.deal.number
    marked = ' class="table-success saved-row"' if context.get("saved") == number else ""
    # Texts to translate outside f-strings: makemessages (xgettext) does not see into them.
    if sheet.is_open:
        link = _escape(f"{sheet.deal_url}{number}/")
        correct = _escape(gettext("Correct this deal"))
        head = (f'<a class="btn btn-sm btn-outline-secondary deal-edit" href="{link}" '
                f'hx-get="{link}" title="{correct}">{number} ✎</a>')
    else:
        head = str(number)
    if row.dealer:
        name = _escape(Truncator(row.dealer.player.name).chars(6))
        dealer = _escape(gettext("dealer"))
        head += f'<div class="tiny text-body-secondary" title="{dealer}">{name}</div>'
    cells = "".join(f"<td>{score_cell(cell, number)}</td>" for cell in row.cells)
    return mark_safe(  # every text is escaped above and in score_cell
        f'<tr id="deal-{number}"{marked}><th scope="row">{head}</th>{cells}</tr>'
    )
