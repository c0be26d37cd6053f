"""Server-side SVG charts: text alternatives, escaping, colours for light and dark mode."""

from __future__ import annotations

import doctest
import re
import xml.etree.ElementTree as ET

import pytest
from django.conf import settings

from companion import charts
from companion.charts import Bar, Series, bar_chart, line_chart, line_chart_parts, nice_ticks
from companion.models import Group
from companion.selectors.history import game_stats, player_stats
from companion.selectors.sheet import sheet_for
from tests.companion.test_history_helpers import freaky, x_nimmt

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    """The chart as XML (inline in HTML it needs no namespace declaration)."""
    assert svg.startswith("<svg ") and "xmlns" not in svg
    return ET.fromstring(svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def test_the_chart_doctests_pass() -> None:
    assert doctest.testmod(charts).failed == 0


def test_a_line_chart_is_valid_svg_with_title_and_description() -> None:
    plot, legend = line_chart_parts(
        [Series("Anna", (23, 24)), Series("Ben", (2, 7))],
        x_labels=("1", "2"), title="Score progression", desc="Running totals.",
    )
    root = _parse(plot)
    assert root.get("role") == "img"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and title.text == "Score progression"
    assert desc is not None and desc.text == "Running totals."
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert len(root.findall(f".//{SVG}polyline")) == 2
    # The legend below, hidden from screen readers (the description says it all).
    legend_root = _parse(legend)
    assert legend_root.get("aria-hidden") == "true"
    assert [t.text for t in legend_root.iter(f"{SVG}text")] == ["Anna", "Ben"]
    assert line_chart([Series("Anna", (23, 24)), Series("Ben", (2, 7))], x_labels=("1", "2"),
                      title="Score progression", desc="Running totals.") == plot + legend


def test_a_line_is_marked_at_every_point_by_its_series_marker_from_the_legend() -> None:
    plot, legend = line_chart_parts(
        [Series("Anna", (23, 24, 30)), Series("Ben", (2, 7, 9), "#56b4e9")],
        x_labels=("1", "2", "3"), title="t", desc="d",
    )
    markers = _parse(legend).findall(f".//{SVG}marker")
    ids = [marker.get("id") for marker in markers]
    assert [marker[0].tag for marker in markers] == [f"{SVG}circle", f"{SVG}rect"]
    lines = _parse(plot).findall(f".//{SVG}polyline[@class='ln']")
    assert [line.get("style") for line in lines] == [f"marker:url(#{id})" for id in ids]
    # No shape per point in the plot: a point is marked by its line's marker.
    assert "<circle" not in plot and "<rect" not in plot
    # A line of one point has no line to carry markers: its marker is drawn as a shape.
    single, _legend = line_chart_parts([Series("Anna", (3,)), Series("Ben", (5,))],
                                       x_labels=("1",), title="t", desc="d")
    assert "<polyline" not in single and single.count("<circle") == single.count("<rect") == 1


def test_the_legend_stays_the_same_when_the_plot_grows() -> None:
    def parts(values: tuple[int, ...]) -> tuple[str, str]:
        return line_chart_parts(
            [Series("Anna", values), Series("Ben", values[::-1], "#56b4e9")],
            x_labels=[str(i) for i in range(1, len(values) + 1)], title="t", desc="d")

    (plot2, legend2), (plot5, legend5) = parts((1, 9)), parts((1, 9, 4, 30, 2))
    assert legend2 == legend5 and plot2 != plot5


@pytest.mark.parametrize("width", [360, 720])
def test_a_long_name_in_the_legend_is_cut_before_the_next_column(width: int) -> None:
    names = ["Maximiliane-Josephine Hohenzollern", "Ben", "Wolfgangwolfgangwolfgangwolfgang"]
    legend = charts.legend_layout(names, ["", "", ""], width=width)
    texts = [entry["label"]["text"] for entry in legend["entries"]]
    assert texts[1] == "Ben"
    starts = sorted({float(entry["x1"]) for entry in legend["entries"]})
    column = starts[1] - starts[0]
    for entry in legend["entries"]:
        # From the label's start, at FONT * 0.6 a character, to the next column's marker.
        end = float(entry["label"]["x"]) + len(entry["label"]["text"]) * charts.FONT * 0.6
        assert end <= float(entry["x1"]) + column - 6, entry["label"]["text"]
    assert texts[0].startswith("Maximiliane-Jos") and texts[0].endswith("…")


def test_lines_are_placed_by_value() -> None:
    svg = line_chart([Series("A", (0, 10))], x_labels=("1", "2"), title="t", desc="d",
                     width=200, plot_height=100)
    points = _parse(svg).find(f".//{SVG}polyline").get("points").split()  # type: ignore[union-attr]
    (x0, y0), (x1, y1) = (tuple(map(float, p.split(","))) for p in points)
    assert x0 < x1 and y0 == 110.0 and y1 == 10.0  # 0 at the bottom, 10 at the top


def test_text_is_escaped() -> None:
    svg = line_chart([Series("<script>", (1, 2))], x_labels=("&", "<b>"), title='"x" & <y>',
                     desc="</desc>")
    assert "<script>" not in svg and "<b>" not in svg and "</desc></desc>" not in svg
    _parse(svg)


def test_a_chart_is_laid_out_as_data_and_its_template_escapes_the_texts() -> None:
    plot = charts.line_plot([Series("Anna", (1, 2))], x_labels=("1", "<b>"), title="T & U",
                            desc="d")
    assert [label["text"] for label in plot["x_labels"]] == ["1", "<b>"]
    assert plot["title"] == "T & U" and plot["lines"][0]["segments"][0]["points"]
    svg = charts._render("line.svg", plot)
    assert ">&lt;b&gt;</text>" in svg and "<b>" not in svg and ">T &amp; U</title>" in svg
    bars = bar_chart([Bar("<i>", 1, "1 & 2")], title="t", desc="d")
    assert ">&lt;i&gt;</text>" in bars and ">1 &amp; 2</text>" in bars


def test_colours_come_in_a_light_and_a_dark_set_and_text_follows_the_page() -> None:
    plot, legend = line_chart_parts([Series("A", (1, 2)), Series("B", (2, 1))],
                                    x_labels=("1", "2"), title="t", desc="d")
    groups = [g.get("class") for g in _parse(plot).iter(f"{SVG}g")]
    # the chart, its axis labels (left, below), two lines; the legend's two entries
    assert groups == [None, None, None, "c0", "c1"]
    assert [g.get("class") for g in _parse(legend).iter(f"{SVG}g")] == [None, "c0", "c1"]
    svg = plot + legend
    assert "<style" not in svg
    assert re.findall(r'style="([^"]*)"', svg.split("</desc>")[1]) == [
        f"marker:url(#{id})" for id in re.findall(r'<marker id="([^"]+)"', legend)
    ]
    css = (settings.BASE_DIR / "static/css/app.css").read_text()
    # At most twice its width on the page: in the CSS for the usual width.
    assert 'class="kr-chart kr-legend" viewBox="0 0 360 24" width="100%" aria-hidden="true">' \
        in legend
    assert ".kr-chart { max-width: 720px;" in css
    wide = line_chart([Series("A", (1, 2))], x_labels=("1", "2"), title="t", desc="d", width=500)
    assert 'style="max-width:1000px"' in wide
    light = dict(re.findall(r"^\.kr-chart \.c(\d) \{ --k: (#\w+); \}", css.replace("} .", "}\n."),
                            re.MULTILINE))
    assert light == {str(i): colour for i, colour in enumerate(charts.LIGHT)}
    for prefix in ('[data-bs-theme="dark"] ', "html:not([data-bs-theme]) "):
        dark = re.findall(re.escape(prefix) + r"\.kr-chart \.c(\d) \{ --k: (#\w+); \}", css)
        assert dark == [(str(i), colour) for i, colour in enumerate(charts.DARK)]
    assert css.index("html:not([data-bs-theme]) .kr-chart .c0") > css.index(
        "@media (prefers-color-scheme: dark)")
    assert 'fill="currentColor"' in svg and "#000" not in svg and "#fff" not in svg
    # Lines differ by dash pattern too, not only by colour: by palette class, in the CSS.
    for index, dash in enumerate(charts.DASHES):
        rule = f".kr-chart .c{index} .ln, .kr-chart .c{index} .lg"
        assert (rule in css) == bool(dash), index
        if dash:
            assert re.search(re.escape(rule) + rf"[^{{]*\{{ stroke-dasharray: {dash}; \}}", css)


def test_gaps_break_a_line() -> None:
    svg = line_chart([Series("A", (1, 4, None, 2, 3))], x_labels=("a", "b", "c", "d", "e"),
                     title="t", desc="d")
    assert len(_parse(svg).findall(f".//{SVG}polyline")) == 2


def test_nice_ticks_cover_the_data() -> None:
    assert nice_ticks(0, 167) == [0.0, 50.0, 100.0, 150.0, 200.0]
    assert nice_ticks(-3, 3) == [-4.0, -2.0, 0.0, 2.0, 4.0]


def test_a_bar_chart_scales_bars_to_the_largest_value() -> None:
    svg = bar_chart([Bar("Anna", 4, "4 · 67 %"), Bar("Ben", 2, "2 · 33 %")], title="Wins",
                    desc="Wins per player")
    rects = _parse(svg).findall(f".//{SVG}rect")
    widths = [float(r.get("width")) for r in rects]  # type: ignore[arg-type]
    assert widths[0] == pytest.approx(2 * widths[1])
    assert "4 · 67 %" in svg


@pytest.mark.django_db
def test_the_history_charts_describe_their_data(group: Group) -> None:
    freaky(group, "2026-01-10", Anna=30, Ben=20)
    freaky(group, "2026-02-10", Anna=10, Ben=20)
    match = x_nimmt(group, "2026-02-11", {"Anna": (5, 9), "Ben": (0, 1)},
                    {"Anna": (0, 1), "Ben": (3, 1)})
    progression = charts.progression_chart(sheet_for(match).progression)
    assert re.search(r"<desc id=\"[^\"]+\">.*Anna 25, Ben 7", progression)
    assert str(sheet_for(match).progression.chart) == str(progression)
    months = charts.months_chart(player_stats(group.players.get(name="Anna")))
    # its one series without a legend: the marker defined in the plot, at each of two points
    assert months.count("<marker id=") == 1 and "kr-legend" not in months
    assert months.count('style="marker:url(#') == 1 and months.count("<polyline") == 1
    assert "100 %" in months and "0 %" in months
    shares = charts.win_shares_chart(game_stats(group, "freaky"))
    assert "1 · 50 %" in shares


@pytest.mark.django_db
def test_the_progression_partial_shows_the_chart_and_its_data_table(group: Group) -> None:
    from django.template.loader import render_to_string

    match = x_nimmt(group, "2026-02-11", {"Anna": (5, 9), "Ben": (0, 1)},
                    {"Anna": (0, 1), "Ben": (3, 1)})
    html = render_to_string("companion/history/_progression.html",
                            {"progression": sheet_for(match).progression})
    assert "<svg" in html and "<table" in html
    rows = re.findall(r"<tr><th scope=\"row\">(\d+)</th>((?:<td[^>]*>\d+</td>)+)</tr>", html)
    assert [(deal, re.findall(r">(\d+)<", cells)) for deal, cells in rows] == [
        ("1", ["23", "2"]), ("2", ["25", "7"]),
    ]


@pytest.mark.django_db
def test_the_progression_partial_is_there_empty_before_the_first_deal(group: Group) -> None:
    from django.template.loader import render_to_string

    from tests.companion.test_history_helpers import play

    match = play(group, "freaky", [], on="2026-02-11", finished=False, players=["Anna", "Ben"])
    progression = sheet_for(match).progression
    html = render_to_string("companion/history/_progression.html", {"progression": progression})
    # For the first save to fill (the sheet hides it while its data table is empty): an empty
    # plot to replace, the legend the chart will have, the data table's head and empty body.
    assert '<figure class="mb-2"><svg class="kr-chart kr-plot" aria-hidden="true"></svg>' \
           '<svg class="kr-chart kr-legend"' in html
    assert "<tbody></tbody>" in html
    x_nimmt(group, "2026-02-11", {"Anna": (5, 9), "Ben": (0, 1)})
    played = sheet_for(group.matches.latest("pk")).progression
    assert played.names == progression.names == ["Anna", "Ben"]
    legend = re.search(r'<svg class="kr-chart kr-legend".*?</svg>', html)[0]  # type: ignore[index]
    assert legend == charts.progression_chart_parts(played)[1]
