"""The evening's tally to share: as plain text (the Web Share API, the clipboard) and as
an image card (PNG: what chat apps show inline; most do not show SVG).

Both are pure functions of a :class:`~companion.selectors.nights.NightSummary`, in the
active language. The card is drawn with Pillow in DejaVu Sans (Debian's
``fonts-dejavu-core``: umlauts, dashes and the × sign), found where Linux distributions
put it, else Pillow's own default font; 1080 pixels wide, as tall as the night needs,
large type so that it reads on a phone.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from django.contrib.humanize.templatetags.humanize import ordinal
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext
from PIL import Image, ImageDraw, ImageFont

from companion.colours import contrast
from companion.selectors.nights import DealFeat, NightPlayer, NightSummary
from scoring import GAMES

# --- Text -----------------------------------------------------------------------------------


def _title(summary: NightSummary) -> str:
    date = formats.date_format(summary.date, "DATE_FORMAT")
    if summary.place:
        return _("Game night on %(date)s, %(place)s") % {"date": date, "place": summary.place}
    return _("Game night on %(date)s") % {"date": date}


def _matches_line(summary: NightSummary) -> str:
    counts = ", ".join(f"{game.matches}× {game.title}" for game in summary.games)
    line = ngettext("%(count)d match", "%(count)d matches", summary.matches) % {
        "count": summary.matches}
    return f"{line}: {counts}" if counts else line


def _places(places: Sequence[int]) -> str:
    """Ordinals of the active language: "1., 3." in German, "1st, 3rd" in English."""
    return ", ".join(ordinal(place) for place in places)


def _player_line(player_wins: int, places: Sequence[int], hornochsen: int | None) -> str:
    parts = [
        npgettext("evening tally", "%(count)d win", "%(count)d wins", player_wins)
        % {"count": player_wins},
        ngettext("place %(places)s", "places %(places)s", len(places))
        % {"places": _places(places)},
    ]
    if hornochsen is not None:
        parts.append(_("%(count)d Hornochsen") % {"count": hornochsen})
    return " · ".join(parts)


def _deal(feat: DealFeat) -> str:
    return _("%(name)s with %(score)d in deal %(deal)d") % {
        "name": feat.name, "score": feat.score, "deal": feat.deal}


def _highlights(summary: NightSummary) -> list[str]:
    lines = []
    for game in summary.games:
        if game.best_deal is None or game.worst_deal is None:
            continue
        lines.append(_("%(game)s: best deal %(best)s, worst deal %(worst)s") % {
            "game": game.title, "best": _deal(game.best_deal), "worst": _deal(game.worst_deal)})
    if summary.comeback is not None:
        come = summary.comeback
        lines.append(
            _("Biggest comeback: %(name)s trailed by %(points)d points after deal %(deal)d "
              "of %(game)s and won.")
            % {"name": come.name, "points": come.deficit, "deal": come.deal, "game": come.title}
        )
    if summary.without_deals:
        lines.append(ngettext(
            "%(count)d match was imported with final scores only; the deals leave it out.",
            "%(count)d matches were imported with final scores only; the deals leave them out.",
            summary.without_deals) % {"count": summary.without_deals})
    return lines


def night_text(summary: NightSummary) -> str:
    """The tally as plain text, a line per player and per highlight, e.g.::

        Game night on March 5, 2026, at Anna's
        3 matches: 2× X nimmt!, 1× 13

        Anna: 2 wins · places 1., 1., 3. · 12 Hornochsen
        ...
    """
    lines = [_title(summary), _matches_line(summary)]
    if summary.players:
        lines.append("")
        lines.extend(
            f"{player.name}: {_player_line(player.wins, player.places, player.hornochsen)}"
            for player in summary.players
        )
    highlights = _highlights(summary)
    if highlights:
        lines.append("")
        lines.extend(highlights)
    return "\n".join(lines) + "\n"


# --- Image ----------------------------------------------------------------------------------

WIDTH = 1080
MARGIN = 60
INK = "#212529"
MUTED = "#495057"
PAPER = "#ffffff"
ACCENT = "#0072b2"
BAND = 12
NO_BREAK = "\u00a0"
"""The accent band along the top, in pixels."""

FONT_FOLDERS = (
    "/usr/share/fonts/truetype/dejavu",  # Debian, Ubuntu (fonts-dejavu-core)
    "/usr/share/fonts/dejavu",  # Fedora, Arch
    "/usr/share/fonts/TTF",
    "/usr/local/share/fonts",
    "/usr/share/fonts",
)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font_file(name: str) -> str | None:
    """Where ``name`` is installed: the usual folders first, then anywhere under them."""
    for folder in FONT_FOLDERS:
        path = Path(folder) / name
        if path.is_file():
            return str(path)
    for folder in FONT_FOLDERS:
        if Path(folder).is_dir():
            found = next(Path(folder).rglob(name), None)
            if found is not None:
                return str(found)
    return None


@lru_cache(maxsize=16)
def font(size: int, *, bold: bool = False) -> Font:
    """DejaVu Sans (Bold) at ``size`` pixels, else Pillow's default font at that size."""
    path = _font_file("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    if path is not None:
        try:
            return ImageFont.truetype(path, size)
        except OSError:  # a damaged or unreadable file: the default font will do
            pass
    return ImageFont.load_default(size)


def _fit(draw: ImageDraw.ImageDraw, text: str, face: Font, width: float) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _wrap(draw: ImageDraw.ImageDraw, text: str, face: Font, width: float) -> list[str]:
    """``text`` in lines of at most ``width`` pixels, never breaking inside a game's title."""
    for info in GAMES.values():
        text = text.replace(info.title, info.title.replace(" ", NO_BREAK))
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}".strip()
        if line and draw.textlength(candidate, font=face) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return [_fit(draw, line, face, width) for line in lines]


def _faces() -> dict[str, Font]:
    """The card's type, in pixels: large enough to read in a chat on a phone."""
    return {"title": font(50, bold=True), "subtitle": font(34), "note": font(30),
            "name": font(40, bold=True)}


INKS = {"title": INK, "subtitle": MUTED, "note": MUTED}


@dataclass(frozen=True, slots=True)
class _Row:
    """A row of the card: its kind, height in pixels, and what it shows."""

    kind: Literal["title", "subtitle", "player", "note", "gap"]
    height: int
    text: str = ""
    player: NightPlayer | None = None


def _rows(draw: ImageDraw.ImageDraw, summary: NightSummary) -> list[_Row]:
    """The card's rows, top to bottom."""
    width = WIDTH - 2 * MARGIN
    faces = _faces()
    rows = [_Row("title", 66, line) for line in _wrap(draw, _title(summary), faces["title"],
                                                      width)]
    rows += [_Row("subtitle", 48, line)
             for line in _wrap(draw, _matches_line(summary), faces["subtitle"], width)]
    rows.append(_Row("gap", 24))
    rows += [_Row("player", 112, player=player) for player in summary.players]
    highlights = _highlights(summary)
    if highlights:
        rows.append(_Row("gap", 16))
    for highlight in highlights:
        rows += [_Row("note", 42, line) for line in _wrap(draw, highlight, faces["note"], width)]
        rows.append(_Row("gap", 10))
    return rows


def _draw_player(draw: ImageDraw.ImageDraw, player: NightPlayer, y: int) -> None:
    faces = _faces()
    swatch = 44
    # A light colour (the palette's yellow) gets an outline, so that it shows on white.
    outline = INK if contrast(player.colour, PAPER) < 1.5 else player.colour
    draw.ellipse((MARGIN, y + 6, MARGIN + swatch, y + 6 + swatch), fill=player.colour,
                 outline=outline, width=2)
    left = MARGIN + swatch + 24
    width = WIDTH - MARGIN - left
    draw.text((left, y), _fit(draw, player.name, faces["name"], width), font=faces["name"],
              fill=INK)
    line = _player_line(player.wins, player.places, player.hornochsen)
    draw.text((left, y + 52), _fit(draw, line, faces["note"], width), font=faces["note"],
              fill=MUTED)


def night_png(summary: NightSummary) -> bytes:
    """The tally as a PNG card, 1080 pixels wide."""
    rows = _rows(ImageDraw.Draw(Image.new("RGB", (1, 1))), summary)
    image = Image.new("RGB", (WIDTH, 2 * MARGIN + BAND + sum(row.height for row in rows)),
                      PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, BAND), fill=ACCENT)
    faces = _faces()
    y = MARGIN + BAND
    for row in rows:
        if row.player is not None:
            _draw_player(draw, row.player, y)
        elif row.kind in INKS:
            draw.text((MARGIN, y), row.text, font=faces[row.kind], fill=INKS[row.kind])
        y += row.height
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


__all__ = ["font", "night_png", "night_text"]
