"""A sheet row: its number with the edit link, the dealer, and per seat the score with its
breakdown behind it and the running total (the ``deal-row`` partial of the sheet's deals table)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from companion.breakdown import WhyLine
from companion.games import game_app
from companion.models import Deal, Player, Seat
from companion.selectors.sheet import Cell, Row


def _row(row: Row, *, is_open: bool = True, saved: int | None = None, language: str = "en") -> str:
    context: dict[str, Any] = {
        "row": row, "saved": saved, "sheet": SimpleNamespace(is_open=is_open),
        "group": SimpleNamespace(pk=1), "match": SimpleNamespace(pk=2),
    }
    with translation.override(language):
        return render_to_string("companion/sheet/_deal_table.html#deal-row", context).strip()


def test_a_cell_shows_the_score_its_parts_with_their_cards_and_the_total() -> None:
    cell = Cell(score=30, total=34, data={}, name="Emil & Co", why=(
        WhyLine("14 Hornochsen in hand", "14", "55 (7), 100 (3)", "cards (Hornochsen):"),
        WhyLine("2 × 8 Hornochsen in the X-stack", "16"),
    ))
    html = _row(Row(deal=Deal(number=3), cells=(cell,)), is_open=False)
    assert html == (
        '<tr id="deal-3"><th scope="row">3</th><td>'
        '<details class="why">'
        '<summary>30<span class="visually-hidden"> (why?)</span></summary>'
        '<div class="why-body" role="note">'
        '<ul>'
        '<li><span>14 Hornochsen in hand'
        '<small>cards (Hornochsen): 55 (7), 100 (3)</small></span><b>14</b></li>'
        '<li>2 × 8 Hornochsen in the X-stack<b>16</b></li>'
        '</ul>'
        '<div>Emil &amp; Co · Deal 3<b>= 30</b></div>'
        '</div></details><small>Σ 34</small></td></tr>'
    )


def test_a_cell_without_a_breakdown_shows_the_score_and_the_total_in_german_too() -> None:
    html = _row(Row(deal=Deal(number=2), cells=(Cell(score=-3, total=12, data={}),)),
                is_open=False, language="de")
    assert "<td><div>\u22123</div><small>Σ 12</small></td>" in html  # the minus sign


def test_the_breakdown_speaks_german() -> None:
    with translation.override("de"):  # the game's words, as the sheet's view reads them
        label = str(game_app("x-nimmt").entry.cards_label)
    cell = Cell(score=5, total=5, data={}, name="<Anna>", why=(WhyLine("x", "5", "3 (1)", label),))
    html = _row(Row(deal=Deal(number=1), cells=(cell,)), language="de")
    assert "(warum?)" in html
    assert "Karten (Hornochsen): 3 (1)" in html
    assert "<div>&lt;Anna&gt; · Durchgang 1<b>= 5</b></div>" in html


def test_a_row_shows_its_number_edit_link_dealer_and_cells_in_german() -> None:
    dealer = Seat(number=0, player=Player(name="<Hannelore>"))
    row = Row(deal=Deal(number=2), cells=(Cell(score=-3, total=12, data={}),), dealer=dealer)
    assert _row(row, saved=2, language="de") == (
        '<tr id="deal-2" class="table-success saved-row"><th scope="row">'
        '<a class="btn btn-sm btn-outline-secondary deal-edit" href="/g/1/matches/2/deals/2/" '
        'hx-get="/g/1/matches/2/deals/2/" title="Diesen Durchgang korrigieren">2 ✎</a>'
        '<div class="tiny text-body-secondary" title="Geber">&lt;Hann…</div></th>'
        "<td><div>\u22123</div><small>Σ 12</small></td></tr>"
    )
    assert _row(Row(deal=Deal(number=3), cells=()), is_open=False, saved=2) == (
        '<tr id="deal-3"><th scope="row">3</th></tr>'
    )


def test_a_part_without_cards_has_no_cards_label_and_a_game_without_one_shows_the_cards() -> None:
    from companion.breakdown import lines_for
    from scoring.common import CardValue, ScorePart

    with translation.override("de"):
        hand, stack = lines_for("x-nimmt", (
            ScorePart("hand", count=7, points=7, cards=(CardValue(55, 7),)),
            ScorePart("x_stack", count=0, points=0)), signed=False)
    assert (hand.cards_label, hand.cards) == ("Karten (Hornochsen):", "55 (7)")
    assert (stack.cards_label, stack.cards) == ("", "")
    cell = Cell(score=7, total=7, data={}, name="Anna", why=(WhyLine("x", "7", "55 (7)"),))
    assert "<small>55 (7)</small>" in _row(Row(deal=Deal(number=1), cells=(cell,)))
