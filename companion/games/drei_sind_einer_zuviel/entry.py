"""3 sind einer zuviel!: how a deal is entered on the score sheet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.engine_messages import COLOUR_WORDS
from companion.games.drei_sind_einer_zuviel.colours import SWATCHES
from companion.games.entry import EntryFormat, count_field
from companion.models import Seat
from scoring.drei_sind_einer_zuviel import COLOURS, INTERIM_BONUSES


class DreiFormat(EntryFormat):
    """3 sind einer zuviel!: cards taken per colour (+/−) and the interim bonus card."""

    steppers = frozenset({"orange", "flieder", "hellblau", "rot", "tuerkis", "magenta",
                          "olivgruen"})
    colours = SWATCHES
    layout = "colours"
    count_hint = _(
        "Each player counts the cards they took, per colour: all cards of the colour, "
        "the open ones and the face-down ones (flipped triples) together. "
        "Grey cards do not count."
    )

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        fields: dict[str, forms.Field] = {
            colour: count_field(COLOUR_WORDS[colour]) for colour in COLOURS
        }
        fields["interim_bonus"] = forms.TypedChoiceField(
            label=_("Interim scoring card (Zwischenwertung)"), coerce=int, required=False,
            empty_value=0,
            choices=[(0, "–"), *((b, str(b)) for b in INTERIM_BONUSES)],
            widget=forms.Select(attrs={"class": "form-select"}),
        )
        return fields

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        return {
            "taken": {colour: values.get(colour) or 0 for colour in COLOURS},
            "interim_bonus": values.get("interim_bonus") or 0,
        }

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        return {**dict(data.get("taken", {})), "interim_bonus": data.get("interim_bonus", 0)}


FORMAT = DreiFormat()
