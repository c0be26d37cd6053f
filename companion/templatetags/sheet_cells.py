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

import functools
import html
from typing import Any

from django import template
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator
from django.utils.translation import get_language, gettext

from companion.breakdown import WhyLine
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
    return _row(
        number, context.get("saved") == number, sheet.deal_url if sheet.is_open else None,
        row.dealer.player.name if row.dealer else None,
        tuple((cell.score, cell.total, cell.why, cell.name) for cell in row.cells),
        get_language(),
    )


@functools.lru_cache(maxsize=1024)
def _row(
    number: int, marked: bool, deal_url: str | None, dealer: str | None,
    cells: tuple[tuple[int, int, tuple[WhyLine, ...], str], ...], language: str | None,
) -> SafeString:
    """A row of :func:`deal_row` from everything it shows (``deal_url``: ``None`` for a
    match not running; ``language``: the texts' language, the active one), kept for the
    rows written most recently: a sheet loaded after a change writes again only the rows
    that changed (a row of 7 cells with their breakdowns is 3-7 KB: a few MB at most)."""
    # Texts to translate outside f-strings: makemessages (xgettext) does not see into them.
    if deal_url is not None:
        link = _escape(f"{deal_url}{number}/")
        correct = _escape(gettext("Correct this deal"))
        head = (f'<a class="btn btn-sm btn-outline-secondary deal-edit" href="{link}" '
                f'hx-get="{link}" title="{correct}">{number} ✎</a>')
    else:
        head = str(number)
    if dealer is not None:
        name = _escape(Truncator(dealer).chars(6))
        title = _escape(gettext("dealer"))
        head += f'<div class="tiny text-body-secondary" title="{title}">{name}</div>'
    row = "".join(
        f"<td>{score_cell(Cell(score=score, total=total, data={}, why=why, name=name), number)}"
        "</td>" for score, total, why, name in cells
    )
    marking = ' class="table-success saved-row"' if marked else ""
    return mark_safe(  # every text is escaped above and in score_cell
        f'<tr id="deal-{number}"{marking}><th scope="row">{head}</th>{row}</tr>'
    )
