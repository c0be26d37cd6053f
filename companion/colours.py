"""Player colours: the default palette, the one check for a typed colour, readable ink.

The default palette is Okabe and Ito's set of eight colours that people with the
common forms of colour blindness can still tell apart. A player without a chosen
colour gets the palette colour of their place in the roster's creation order
(the first player added gets orange, the second sky blue, ...), so adding or
renaming players never changes anybody's colour. Colour is never the only
sign: the sheet and table mode show the name beside it, the charts a dash
pattern and marker shape.

>>> parse_colour(" #0072B2 ")
'#0072b2'
>>> default_colour(1)
'#56b4e9'
>>> ink_for("#f0e442"), ink_for("#0072b2")
('#000000', '#ffffff')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True, slots=True)
class PaletteColour:
    """One colour of the default palette with a name to show beside its swatch."""

    value: str
    name: str | Promise


PALETTE: tuple[PaletteColour, ...] = (
    PaletteColour("#e69f00", _("orange")),
    PaletteColour("#56b4e9", _("sky blue")),
    PaletteColour("#009e73", _("bluish green")),
    PaletteColour("#f0e442", _("yellow")),
    PaletteColour("#0072b2", _("blue")),
    PaletteColour("#d55e00", _("vermilion")),
    PaletteColour("#cc79a7", _("reddish purple")),
    PaletteColour("#000000", _("black")),
)
"""Okabe–Ito: distinguishable with protanopia, deuteranopia and tritanopia."""

COLOUR_RE = re.compile(r"#[0-9a-f]{6}")


def parse_colour(raw: str) -> str:
    """A colour typed or picked as ``#rrggbb`` (any case), lower-cased; "" for "default".

    >>> parse_colour("")
    ''
    >>> try:
    ...     parse_colour("#fff")
    ... except ValidationError as error:
    ...     error.code
    'colour'
    """
    value = raw.strip().lower()
    if not value:
        return ""
    if not COLOUR_RE.fullmatch(value):
        raise ValidationError(
            _("Give the colour as # and six hex digits, e.g. #0072b2."), code="colour"
        )
    return value


def default_colour(index: int) -> str:
    """The palette colour of the ``index``-th player (0-based) in the roster's creation order."""
    return PALETTE[index % len(PALETTE)].value


def colour_name(value: str) -> str:
    """The palette name of ``value`` (e.g. "sky blue"), or the ``#rrggbb`` code itself.

    >>> colour_name("#123456")
    '#123456'
    """
    for colour in PALETTE:
        if colour.value == value:
            return str(colour.name)
    return value


def player_colours(players: Iterable[tuple[int, str]]) -> dict[int, str]:
    """Each player's colour from ``(id, chosen colour)`` pairs of a whole roster.

    A chosen colour wins; the others get the palette colours in the roster's
    creation order (by id), skipping palette colours somebody has chosen, so a
    chosen colour is not given to a second player by default (until the palette
    runs out and starts again).

    >>> player_colours([(7, ""), (3, "#e69f00"), (9, "")])
    {3: '#e69f00', 7: '#56b4e9', 9: '#009e73'}
    """
    ordered = sorted(players)
    chosen = {colour for _id, colour in ordered if colour}
    free = [c.value for c in PALETTE if c.value not in chosen] or [c.value for c in PALETTE]
    colours: dict[int, str] = {}
    defaults = 0
    for player_id, colour in ordered:
        if colour:
            colours[player_id] = colour
        else:
            colours[player_id] = free[defaults % len(free)]
            defaults += 1
    return colours


def _luminance(value: str) -> float:
    def channel(hex_pair: str) -> float:
        c = int(hex_pair, 16) / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(value[i:i + 2]) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21).

    >>> round(contrast("#6c757d", "#212529"), 1)
    3.3
    """
    a, b = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def ink_for(background: str) -> str:
    """Black or white text, whichever reads better on ``background``."""
    black, white = contrast(background, "#000000"), contrast(background, "#ffffff")
    return "#000000" if black >= white else "#ffffff"
