"""A sheet cell: the score with its breakdown behind it, and the running total."""

from __future__ import annotations

from django.utils import translation

from companion.breakdown import WhyLine
from companion.selectors.sheet import Cell
from companion.templatetags.sheet_cells import score_cell


def test_a_cell_shows_the_score_its_parts_with_their_cards_and_the_total() -> None:
    cell = Cell(score=30, total=34, data={}, name="Emil & Co", why=(
        WhyLine("14 Hornochsen in hand", "14", "55 (7), 100 (3)"),
        WhyLine("2 × 8 Hornochsen in the X-stack", "16"),
    ))
    with translation.override("en"):
        html = score_cell(cell, 3)
    assert html == (
        '<details class="why">'
        '<summary>30<span class="visually-hidden"> (why?)</span></summary>'
        '<div class="why-body" role="note">'
        '<ul>'
        '<li><span>14 Hornochsen in hand'
        '<small>cards (Hornochsen): 55 (7), 100 (3)</small></span><b>14</b></li>'
        '<li>2 × 8 Hornochsen in the X-stack<b>16</b></li>'
        '</ul>'
        '<div>Emil &amp; Co · Deal 3<b>= 30</b></div>'
        '</div></details><small>Σ 34</small>'
    )


def test_a_cell_without_a_breakdown_shows_the_score_and_the_total_in_german_too() -> None:
    with translation.override("de"):
        html = score_cell(Cell(score=-3, total=12, data={}), 2)
    assert html == "<div>-3</div><small>Σ 12</small>"


def test_the_breakdown_speaks_german() -> None:
    cell = Cell(score=5, total=5, data={}, name="<Anna>", why=(WhyLine("x", "5", "3 (1)"),))
    with translation.override("de"):
        html = score_cell(cell, 1)
    assert "(warum?)" in html
    assert "Karten (Hornochsen): 3 (1)" in html
    assert "<div>&lt;Anna&gt; · Durchgang 1<b>= 5</b></div>" in html
