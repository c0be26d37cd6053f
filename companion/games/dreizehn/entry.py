"""13: how a deal is entered on the score sheet."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.games.dreizehn.colours import WORDS as COLOUR_WORDS
from companion.games.entry import EntryFormat, Mode, count_field
from companion.models import Seat
from scoring.dreizehn import COLOURS, PER_COLOUR, RED, RED_COUNT


class DreizehnFormat(EntryFormat):
    """13: yellow, green and blue cards and red 4s taken in the deal, one player at a time
    with a number button per count (one tap each), or with − / + steppers."""

    modes = (Mode("players", _("Per player")), Mode("counts", _("Counts")))
    steppers = frozenset({"yellow", "green", "blue", "red"})
    colours = {"yellow": "#fdd835", "green": "#43a047", "blue": "#1e88e5", "red": "#e53935"}
    chips = MappingProxyType({**dict.fromkeys(COLOURS, PER_COLOUR), RED: RED_COUNT})

    def layout_for(self, mode: str) -> str:
        return "chips" if mode == "players" else "blocks"

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        return {
            "yellow": count_field(COLOUR_WORDS["yellow"]),
            "green": count_field(COLOUR_WORDS["green"]),
            "blue": count_field(COLOUR_WORDS["blue"]),
            "red": count_field(_("red 4s")),
        }

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        return {colour: values.get(colour) or 0 for colour in ("yellow", "green", "blue", "red")}


FORMAT = DreizehnFormat()
