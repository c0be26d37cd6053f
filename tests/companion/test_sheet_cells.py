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


def test_a_row_shows_its_number_edit_link_dealer_and_cells_in_german() -> None:
    from types import SimpleNamespace

    from django.template import Context

    from companion.models import Deal, Player, Seat
    from companion.selectors.sheet import Row
    from companion.templatetags.sheet_cells import deal_row

    dealer = Seat(number=0, player=Player(name="<Hannelore>"))
    row = Row(deal=Deal(number=2), cells=(Cell(score=-3, total=12, data={}),), dealer=dealer)
    sheet = SimpleNamespace(is_open=True, deal_url="/g/1/matches/2/deals/")
    with translation.override("de"):
        html = deal_row(Context({"sheet": sheet, "saved": 2}), row)
    assert html == (
        '<tr id="deal-2" class="table-success saved-row"><th scope="row">'
        '<a class="btn btn-sm btn-outline-secondary deal-edit" href="/g/1/matches/2/deals/2/" '
        'hx-get="/g/1/matches/2/deals/2/" title="Diesen Durchgang korrigieren">2 ✎</a>'
        '<div class="tiny text-body-secondary" title="Geber">&lt;Hann…</div></th>'
        "<td><div>-3</div><small>Σ 12</small></td></tr>"
    )
    finished = SimpleNamespace(is_open=False, deal_url="")
    assert deal_row(Context({"sheet": finished}), Row(deal=Deal(number=3), cells=())) == (
        '<tr id="deal-3"><th scope="row">3</th></tr>'
    )


def test_a_row_written_before_is_written_anew_when_anything_it_shows_differs() -> None:
    from types import SimpleNamespace

    from django.template import Context

    from companion.models import Deal
    from companion.selectors.sheet import Row
    from companion.templatetags.sheet_cells import deal_row

    sheet = SimpleNamespace(is_open=True, deal_url="/g/1/matches/2/deals/")
    why = (WhyLine("x", "5", "3 (1)"),)

    def row(total: int, language: str, saved: int | None = None) -> str:
        cells = (Cell(score=5, total=total, data={}, name="Anna", why=why),)
        with translation.override(language):
            return deal_row(Context({"sheet": sheet, "saved": saved}),
                            Row(deal=Deal(number=2), cells=cells))

    german = row(9, "de")
    assert row(9, "de") == german
    assert "<small>Σ 9</small>" in german
    assert "<small>Σ 11</small>" in row(11, "de")
    assert 'title="Correct this deal"' in row(9, "en")
    assert 'title="Diesen Durchgang korrigieren"' in german
    assert 'class="table-success saved-row"' in row(9, "de", saved=2)
    assert 'class="table-success saved-row"' not in row(9, "de", saved=3)
