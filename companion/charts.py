"""Charts drawn on the server as inline SVG: no JavaScript, readable in light and dark mode.

Each function returns SVG markup (safe to put into a template) with a
``<title>`` and a ``<desc>`` for screen readers; the pages show the same
numbers as a data table beside the chart. Text and axes use ``currentColor``
so they follow the page's text colour. The chart's font, the grid lines, the
look of lines, outlines and markers and the series colours live in
static/css/app.css (``.kr-chart``): a series'
group carries a palette class ``c0``…``c7`` whose ``--k`` colour has a light and
a dark value (following Bootstrap's ``data-bs-theme`` and, without it, the
system setting), so a chart carries no styles of its own. A series may bring
its own colour (a player's colour from the roster: ``--k`` set on its group,
class ``pc``): its line then gets a thin outline in the text colour (``hl``) so
that light colours read on a light page and dark ones on a dark page. Series
also differ by dash pattern (by palette class, in the CSS too) and marker shape,
so they can be told apart without colour.

A line chart with a legend is two ``<svg>``: the plot (``kr-plot``, with the
title and description) and below it the legend (``kr-legend``, hidden from
screen readers, which read the description), so that a deal saved on the score
sheet sends the plot anew and leaves the legend as it is. A series' marker
shape is an SVG ``<marker>`` defined once, in the legend (in the plot where a
chart has no legend), and drawn at every point of the line, not a shape per point.

Python lays a chart out as plain data (:class:`LinePlot`, :class:`Legend`,
:class:`BarChart`: coordinates already written as text, paths, labels), and the
templates in ``templates/companion/charts/`` write the SVG from it, escaping every text.

>>> svg = line_chart([Series("Anna", (3, 8, 12))], x_labels=("1", "2", "3"),
...                  title="Totals", desc="Running totals after each deal.")
>>> svg.startswith("<svg") and "<title id=" in svg and "Totals" in svg
True
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from companion.signs import minus

if TYPE_CHECKING:
    from companion.selectors.stats import GameStats, PlayerStats
    from scoring import GameInfo

LIGHT = ("#0b5ed7", "#c2410c", "#198754", "#b02a37", "#6f42c1", "#087990", "#a61e6c", "#7a5c00")
DARK = ("#6ea8fe", "#feb272", "#75b798", "#ea868f", "#c29ffa", "#6edff6", "#e685b5", "#ffda6a")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3")
MARKERS = ("circle", "square", "triangle", "diamond", "square", "circle", "diamond", "triangle")

FONT = 12
LEGEND_ROW = 18
MARKED_POINTS = 40
"""A line chart with more x positions draws no markers."""
NO_ATTRS = SafeString()
MARKER_RADIUS = 3.2


@dataclass(frozen=True, slots=True)
class Series:
    """One line of a line chart: a label and a value per x position (None: no point)."""

    label: str
    values: Sequence[float | None]
    colour: str = ""
    """A ``#rrggbb`` colour for this line (a player's); empty: the chart palette's."""


def _ours(text: str) -> SafeString:
    """``text`` the layout wrote itself (a number, a path, an id, a class name): nothing in
    it to escape, so the template writes it as it is, and sooner (a bar chart of 12 bars
    draws in 15 % less time). A user's or a translation's text is never passed here: the
    templates escape those."""
    return SafeString(text)


def _n(value: float) -> SafeString:
    """A coordinate with one decimal at most, without a trailing ".0".

    >>> _n(22.94), _n(350.0), _n(-4.5)
    ('22.9', '350', '-4.5')
    """
    text = f"{value:.1f}"
    return _ours(text[:-2] if text.endswith(".0") else text)


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a bar chart."""

    label: str
    value: float
    text: str = ""
    """What to write beside the bar (defaults to the value)."""


# --- The charts as data: what the templates draw ---------------------------------------------
# Dictionaries (typed): a template looks a dictionary's keys up first, and fastest.


class Label(TypedDict):
    """A text at a point (its coordinates as written)."""

    x: str
    y: str
    text: str


class Mark(TypedDict):
    """A series' marker shape at a point (``_marker.svg``): a circle (centre ``x``, ``y``,
    radius ``size``), a square (corner ``x``, ``y``, side ``size``) or a polygon (``points``)."""

    shape: Literal["circle", "square", "polygon"]
    x: str
    y: str
    size: str
    points: str


class MarkerDef(TypedDict):
    """A series' marker shape as an SVG ``<marker>``, drawn at every point of a line that
    names it (``marker:url(#…)``); its colour comes from the group it is defined in."""

    id: str
    mark: Mark


class LegendEntry(TypedDict):
    css: str
    """The series' palette class (``c0``…``c7``)."""
    colour: str
    """A player's colour (``#rrggbb``, class ``pc``), or empty."""
    marker_def: MarkerDef | None
    x1: str
    x2: str
    y: str
    """The sample line's ends."""
    mark: Mark
    label: Label


class Legend(TypedDict):
    """The legend of a line chart: an ``<svg>`` of its own (``legend.svg``)."""

    width: int
    height: int
    max_width: int
    """The ``max-width`` it gets on the page, 0 for app.css' own."""
    entries: list[LegendEntry]


class Segment(TypedDict):
    """A run of a line's points without a gap: a polyline (``points``), or a point alone
    (``mark``: its marker, if the chart has markers)."""

    points: str
    mark: Mark | None


class PlotLine(TypedDict):
    css: str
    colour: str
    marker_def: MarkerDef | None
    """The series' marker, defined in the plot (a chart without a legend)."""
    marker_id: str
    """The marker its polylines name ("": none)."""
    segments: list[Segment]


class Chart(TypedDict):
    """What every chart's ``<svg>`` has (``chart.svg``): its id, classes, size, title and
    description."""

    id: str
    css: str
    attrs: SafeString
    """Attributes of ours for its tag (e.g. ``hx-swap-oob``)."""
    width: int
    height: int
    max_width: int
    """The ``max-width`` it gets on the page, 0 for app.css' own."""
    title: str
    desc: str


class LinePlot(Chart):
    """The plot of a line chart (``line.svg``): grid, axis labels and lines."""

    grid: list[tuple[str, str]]
    """(class, path) of the grid lines and of the zero line."""
    y_labels: list[Label]
    x_labels: list[Label]
    x_title: Label | None
    lines: list[PlotLine]


class BarShape(TypedDict):
    label: Label
    css: str
    x: str
    y: str
    width: str
    height: str
    value: Label


class BarChart(Chart):
    """A bar chart (``bar.svg``)."""

    bars: list[BarShape]


def _render(template: str, chart: object) -> SafeString:
    """``chart`` drawn by ``templates/companion/charts/<template>`` (which escapes every
    text in it)."""
    return mark_safe(render_to_string(f"companion/charts/{template}", {"chart": chart}).strip())


# --- Laying charts out ------------------------------------------------------------------------


def _css(index: int) -> str:
    return _ours(f"c{index % len(LIGHT)}")


def _chart_id(kind: str, title: str, extra: str) -> str:
    digest = hashlib.blake2s(f"{kind}|{title}|{extra}".encode(), digest_size=5).hexdigest()
    return _ours(f"chart-{kind}-{digest}")


def _markers_id(labels: Sequence[str], colours: Sequence[str]) -> str:
    """The start of the ids of a legend's markers (the series number follows): short, since
    every line of the plot names its marker (``kr-m`` and eight hex digits)."""
    extra = repr(list(labels)) + repr(list(colours))
    return _ours("kr-m" + hashlib.blake2s(extra.encode(), digest_size=4).hexdigest() + "-")


def _max_width(width: int) -> int:
    """At most twice its width on the page (.kr-chart in app.css: 720 px, for 360)."""
    return 0 if width == 360 else width * 2


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``low``…``high`` (steps of 1, 2 or 5 times a power of ten).

    >>> nice_ticks(0, 23)
    [0.0, 5.0, 10.0, 15.0, 20.0, 25.0]
    >>> nice_ticks(-7, 12)
    [-10.0, -5.0, 0.0, 5.0, 10.0, 15.0]
    >>> nice_ticks(4, 4)
    [3.0, 4.0, 5.0]
    """
    if high == low:
        return [low - 1.0, float(low), high + 1.0]
    raw = (high - low) / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.5:
        ticks.append(float(round(value, 10)))
        value += step
    if ticks[-1] < high:
        ticks.append(float(round(value, 10)))
    return ticks


def _number(value: float) -> str:
    """A label's number, with the minus sign the pages use (U+2212).

    >>> _number(-4.0), _number(12.0)
    ('\u22124', '12')
    """
    return minus(f"{value:g}" if abs(value) < 1e6 else f"{value:.2e}")


def _mark(shape: str, x: float, y: float) -> Mark:
    """A marker shape at (``x``, ``y``).

    >>> _mark("square", 10, 20)
    {'shape': 'square', 'x': '6.8', 'y': '16.8', 'size': '6.4', 'points': ''}
    """
    r = MARKER_RADIUS
    if shape == "circle":
        return Mark(shape="circle", x=_n(x), y=_n(y), size=_ours(f"{r}"), points="")
    if shape == "square":
        return Mark(shape="square", x=_n(x - r), y=_n(y - r), size=_n(2 * r), points="")
    if shape == "triangle":
        return Mark(shape="polygon", x="", y="", size="", points=_ours(
            f"{_n(x)},{_n(y - r - 0.8)} {_n(x - r - 0.5)},{_n(y + r)} "
            f"{_n(x + r + 0.5)},{_n(y + r)}"
        ))
    return Mark(shape="polygon", x="", y="", size="", points=_ours(
        f"{_n(x)},{_n(y - r - 1)} {_n(x + r + 1)},{_n(y)} "
        f"{_n(x)},{_n(y + r + 1)} {_n(x - r - 1)},{_n(y)}"
    ))


_MARKS_AT_ZERO = {shape: _mark(shape, 0, 0) for shape in set(MARKERS)}


def _marker_def(marker_id: str, index: int) -> MarkerDef:
    return MarkerDef(id=marker_id, mark=_MARKS_AT_ZERO[MARKERS[index % len(MARKERS)]])


def line_chart(series: Sequence[Series], **options: Any) -> SafeString:
    """A line chart: one line per series over the x positions named by ``x_labels``
    (``options`` are :func:`line_chart_parts`'s).

    ``y_min``/``y_max`` fix the axis (e.g. 0 and 1 for rates); otherwise it
    covers the data. The legend sits below the plot, in an ``<svg>`` of its own
    (see :func:`line_chart_parts`).

    >>> svg = line_chart([Series("A", (1, 2, None, 3, 4))], x_labels=("a", "b", "c", "d", "e"),
    ...                  title="t", desc="d")
    >>> svg.count("<polyline"), svg.count('style="marker:url(#')
    (2, 2)
    """
    plot, legend = line_chart_parts(series, **options)
    return mark_safe(plot + legend)  # every text in both is escaped


def line_chart_parts(
    series: Sequence[Series],
    *,
    plot_attrs: str = "",
    **options: Any,
) -> tuple[SafeString, SafeString]:
    """:func:`line_chart` as its plot and its legend (empty for a single series), laid
    out by :func:`line_plot` (``options`` are its).

    The legend's ``<svg>`` depends on the series' labels and colours only, so a chart
    redrawn with more points can replace its plot and keep its legend, which defines
    the markers the plot's lines name. ``plot_attrs`` (markup of ours, not a user's text)
    go on the plot's ``<svg>`` tag (e.g. ``hx-swap-oob``).

    >>> plot, legend = line_chart_parts([Series("A", (1, 2)), Series("B", (2, 1))],
    ...                                 x_labels=("1", "2"), title="t", desc="d")
    >>> 'class="kr-chart kr-plot" ' in plot, 'class="kr-chart kr-legend" ' in legend
    (True, True)
    >>> plot.count("marker:url(#kr-m"), legend.count("<marker id=")
    (2, 2)
    """
    plot = _render("line.svg", line_plot(series, plot_attrs=mark_safe(plot_attrs), **options))
    if len(series) < 2:
        return plot, mark_safe("")
    return plot, legend_svg([s.label for s in series], [s.colour for s in series],
                            width=options.get("width", 360),
                            with_markers=len(options["x_labels"]) <= MARKED_POINTS)


def line_plot(
    series: Sequence[Series],
    *,
    x_labels: Sequence[str],
    title: str,
    desc: str,
    x_title: str = "",
    y_format: Callable[[float], str] = _number,
    y_min: float | None = None,
    y_max: float | None = None,
    width: int = 360,
    plot_height: int = 180,
    plot_attrs: SafeString = NO_ATTRS,
) -> LinePlot:
    """A line chart's plot laid out (its legend: :func:`legend_layout`).

    >>> plot = line_plot([Series("A", (0, 10))], x_labels=("1", "2"), title="t", desc="d",
    ...                  plot_height=100)
    >>> [segment["points"] for segment in plot["lines"][0]["segments"]]
    ['23,110 350,10']
    """
    values = [v for s in series for v in s.values if v is not None]
    low = min([*values, 0.0] if y_min is None else [y_min])
    high = max([*values, 0.0] if y_max is None else [y_max])
    ticks = nice_ticks(low, high) if y_min is None or y_max is None else _fixed_ticks(low, high)
    low, high = ticks[0], ticks[-1]
    left = 8 + FONT * 0.62 * max(len(y_format(t)) for t in ticks)
    right, top = 10, 10
    plot_bottom = top + plot_height
    axis_space = 22 + (16 if x_title else 0)
    columns = 2 if width < 480 else 3
    legend_rows = math.ceil(len(series) / columns) if len(series) > 1 else 0
    height = int(plot_bottom + axis_space + (0 if legend_rows else 6))
    labels = [s.label for s in series]
    chart_id = _chart_id("line", title, repr(labels) + repr(tuple(x_labels)))
    n = len(x_labels)
    plot_width = width - left - right
    with_markers = n <= MARKED_POINTS
    # Markers live in the legend (which a redrawn plot keeps) or, without one, in the plot.
    markers = ""
    if with_markers:
        markers = (
            _markers_id(labels, [s.colour for s in series]) if legend_rows
            else _ours(f"{chart_id}-m")
        )  # the legend's: legend_layout

    def x_at(index: int) -> float:
        return left + (plot_width * index / (n - 1) if n > 1 else plot_width / 2)

    def y_at(value: float) -> float:
        return plot_bottom - (value - low) / (high - low) * plot_height

    # The grid: one path for the lines, one for the zero line (stronger).
    grid = {True: "", False: ""}
    for tick in ticks:
        grid[tick == 0] += f"M{_n(left)} {_n(y_at(tick))}H{width - right}"
    label_width = FONT * 0.62 * max([len(label) for label in x_labels] or [1]) + 8
    step = max(1, math.ceil(n / max(2, int(plot_width // label_width))))
    lines = []
    for index, line in enumerate(series):
        segment: list[tuple[float, float]] = []
        runs: list[list[tuple[float, float]]] = []
        for position, value in enumerate(line.values):
            if value is None:
                if segment:
                    runs.append(segment)
                segment = []
                continue
            segment.append((x_at(position), y_at(value)))
        if segment:
            runs.append(segment)
        shape = MARKERS[index % len(MARKERS)]
        segments = [
            # Whole units: at most half a unit (about a pixel on a phone) off, and a line of
            # seven players over seven deals is 600 bytes shorter than with one decimal.
            Segment(points=_ours(" ".join(f"{round(x)},{round(y)}" for x, y in points)),
                    mark=None)
            if len(points) > 1 else
            Segment(points="", mark=_mark(shape, *points[0]) if with_markers else None)
            for points in runs
        ]
        lines.append(PlotLine(
            css=_css(index), colour=line.colour,
            marker_def=_marker_def(_ours(f"{markers}{index}"), index)
            if markers and not legend_rows and any(len(points) > 1 for points in runs) else None,
            marker_id=_ours(f"{markers}{index}") if markers else "", segments=segments,
        ))
    plot = LinePlot(
        id=chart_id,
        # With a legend the plot is laid out as a block (.kr-plot), so the legend follows it
        # without a gap.
        css=_ours("kr-chart kr-plot" if legend_rows else "kr-chart"), attrs=plot_attrs,
        width=width, height=height, max_width=_max_width(width), title=title, desc=desc,
        grid=[(_ours("gl z" if zero else "gl"), _ours(d)) for zero, d in sorted(grid.items())
              if d],
        y_labels=[Label(x=_n(left - 5), y=_n(y_at(tick) + 4), text=y_format(tick))
                  for tick in ticks],
        x_labels=[Label(x=_n(x_at(index)), y=_ours(f"{plot_bottom + 16}"), text=label)
                  for index, label in enumerate(x_labels) if not index % step],
        x_title=Label(x=_n(left + plot_width / 2), y=_ours(f"{plot_bottom + 34}"), text=x_title)
        if x_title else None,
        lines=lines,
    )
    return plot


def legend_layout(
    labels: Sequence[str], colours: Sequence[str], *, width: int = 360,
    with_markers: bool = True,
) -> Legend:
    """The legend of a line chart with these series laid out: each entry with its series'
    marker defined in it (when the chart has markers)."""
    columns = 2 if width < 480 else 3
    markers = _markers_id(labels, colours) if with_markers else ""
    column_width = (width - 16) / columns
    # Characters that fit between the entry's marker and the next column (FONT * 0.6 a
    # character, as bar_chart counts); a longer name is cut with "…", the data table under
    # the chart has it whole.
    room = int((column_width - 34) / (FONT * 0.6))
    entries = []
    for index, label in enumerate(labels):
        x = 8 + (index % columns) * column_width
        y = (index // columns) * LEGEND_ROW + 9
        entries.append(LegendEntry(
            css=_css(index), colour=colours[index] if index < len(colours) else "",
            marker_def=_marker_def(_ours(f"{markers}{index}"), index) if markers else None,
            x1=_n(x), x2=_n(x + 22), y=_n(y), mark=_mark(MARKERS[index % len(MARKERS)], x + 11, y),
            label=Label(x=_n(x + 28), y=_n(y + 4),
                        text=label if len(label) <= room else label[:room - 1] + "…"),
        ))
    height = math.ceil(len(labels) / columns) * LEGEND_ROW + 6
    return Legend(width=width, height=height, max_width=_max_width(width), entries=entries)


def legend_svg(
    labels: Sequence[str], colours: Sequence[str], *, width: int = 360,
    with_markers: bool = True,
) -> SafeString:
    """The legend of a line chart with these series (:func:`line_chart_parts`): it depends on
    the labels and colours only, so it can be on a page before the plot's first point.

    >>> legend_svg(["A", "B"], ["", ""]) == line_chart_parts(
    ...     [Series("A", (1, 2)), Series("B", (2, 1))], x_labels=("1", "2"), title="t",
    ...     desc="d")[1]
    True
    """
    return _legend_svg(tuple(labels), tuple(colours), width, with_markers)


@functools.lru_cache(maxsize=512)
def _legend_svg(labels: tuple[str, ...], colours: tuple[str, ...], width: int,
                with_markers: bool) -> SafeString:
    # Kept per process: a match's legend is the same after every deal, and the sheet draws
    # its chart anew after each one.
    return _render("legend.svg", legend_layout(labels, colours, width=width,
                                               with_markers=with_markers))


def _fixed_ticks(low: float, high: float) -> list[float]:
    step = (high - low) / 4
    return [low + step * index for index in range(5)]


def percent(value: float) -> str:
    """A share as a whole percentage.

    >>> percent(0.456)
    '46 %'
    """
    return f"{round(value * 100):d} %"


def bar_chart(
    bars: Sequence[Bar],
    *,
    title: str,
    desc: str,
    width: int = 360,
    bar_height: int = 22,
) -> SafeString:
    """Horizontal bars, longest = largest value, label on the left, text on the right.

    >>> svg = bar_chart([Bar("Anna", 3), Bar("Ben", 1)], title="Wins", desc="Wins per player")
    >>> svg.count('<rect class="c')
    2
    """
    chart_id = _chart_id("bar", title, repr([(b.label, b.value) for b in bars]))
    gap = 8
    height = max(len(bars), 1) * (bar_height + gap) + gap
    label_width = min(130, 12 + FONT * 0.6 * max([len(b.label) for b in bars] or [4]))
    text_width = 12 + FONT * 0.6 * max([len(b.text or _number(b.value)) for b in bars] or [2])
    span = width - label_width - text_width - 8
    largest = max([b.value for b in bars] or [0]) or 1
    shapes = []
    for index, bar in enumerate(bars):
        y = gap + index * (bar_height + gap)
        length = max(span * bar.value / largest, 1.5 if bar.value else 0)
        middle = _n(y + bar_height / 2 + 4)
        shapes.append(BarShape(
            label=Label(x=_n(label_width - 6), y=middle,
                        text=bar.label if len(bar.label) <= 18 else bar.label[:17] + "…"),
            css=_css(index), x=_n(label_width), y=_ours(f"{y}"), width=_n(length),
            height=_ours(f"{bar_height}"),
            value=Label(x=_n(label_width + length + 5), y=middle,
                        text=bar.text or _number(bar.value)),
        ))
    return _render("bar.svg", BarChart(
        id=chart_id, css=_ours("kr-chart"), attrs=NO_ATTRS, width=width, height=height,
        max_width=_max_width(width), title=title, desc=desc, bars=shapes))


# --- The charts of the history pages --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Progression:
    """Running totals of a match after each deal, one line per seated player.

    The score sheet builds it (``selectors.sheet``); it lives beside its chart, which
    its template asks for (``progression.chart``), so no selector imports the charts.
    """

    game: GameInfo
    deals: tuple[int, ...]
    lines: tuple[tuple[str, tuple[int, ...]], ...]
    """(player name, running total after each deal), in seat order."""
    colours: tuple[str, ...] = ()
    """Each line's player colour (``#rrggbb``), in seat order; empty: the chart's own."""

    @property
    def names(self) -> list[str]:
        return [name for name, _totals in self.lines]

    @property
    def chart(self) -> SafeString:
        """The chart as inline SVG (see :func:`progression_chart`)."""
        return progression_chart(self)

    @property
    def rows(self) -> list[tuple[int, list[int]]]:
        """The data table: per deal, every player's running total."""
        return [
            (deal, [totals[index] for _name, totals in self.lines])
            for index, deal in enumerate(self.deals)
        ]


def progression_chart(progression: Progression) -> SafeString:
    """Running totals of a match after each deal, one line per player."""
    plot, legend = progression_chart_parts(progression)
    return mark_safe(plot + legend)  # both escaped by line_chart_parts


def progression_chart_parts(
    progression: Progression, *, plot_attrs: str = ""
) -> tuple[SafeString, SafeString]:
    """:func:`progression_chart`'s plot and legend (:func:`line_chart_parts`): a deal saved
    on the score sheet sends the plot anew (``plot_attrs``: its out-of-band swap). Before
    the first deal the plot is an empty ``<svg>`` for the first save to replace, beside
    the legend the chart will have."""
    if not progression.deals:
        colours = progression.colours or ("",) * len(progression.lines)
        return (_render("empty.svg", None),
                legend_svg([name for name, _totals in progression.lines], colours))
    names = ", ".join(
        f"{name} {minus(totals[-1])}" for name, totals in progression.lines if totals
    )
    colours = progression.colours or ("",) * len(progression.lines)
    return line_chart_parts(
        [
            Series(name, totals, colour)
            for (name, totals), colour in zip(progression.lines, colours, strict=True)
        ],
        x_labels=[str(deal) for deal in progression.deals],
        title=gettext("Score progression: %(game)s") % {"game": progression.game.title},
        desc=ngettext("Running totals after %(deals)d deal. Final: %(totals)s.",
                      "Running totals after each of %(deals)d deals. Final: %(totals)s.",
                      len(progression.deals))
        % {"deals": len(progression.deals), "totals": names},
        x_title=gettext("Deal"),
        plot_attrs=plot_attrs,
    )


def months_chart(stats: PlayerStats) -> SafeString:
    """A player's win rate per month."""
    return line_chart(
        [Series(gettext("Win rate"), [line.win_rate for line in stats.months])],
        x_labels=[line.axis_label for line in stats.months],
        title=gettext("%(player)s: win rate per month") % {"player": stats.player.name},
        desc=ngettext("Share of finished matches won, per month, over the last %(months)d month"
                      " with matches.",
                      "Share of finished matches won, per month, over the last %(months)d months"
                      " with matches.", len(stats.months)) % {"months": len(stats.months)},
        y_format=percent,
        y_min=0.0,
        y_max=1.0,
    )


def win_shares_chart(stats: GameStats) -> SafeString:
    """Who won how many of a game's matches (a tie counts for every winner)."""
    total = stats.wins
    return bar_chart(
        [
            Bar(name, wins, f"{wins} · {percent(wins / total)}")
            for name, wins in stats.win_shares
        ],
        title=gettext("Win shares: %(game)s") % {"game": stats.game.title},
        desc=gettext("Wins per player out of %(wins)s in %(matches)s.") % {
            "wins": ngettext("%(count)d win", "%(count)d wins", total) % {"count": total},
            "matches": ngettext("%(count)d finished match", "%(count)d finished matches",
                                stats.matches) % {"count": stats.matches},
        },
    )
