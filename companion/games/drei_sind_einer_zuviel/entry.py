"""3 sind einer zuviel!: how a deal is entered on the score sheet."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.games.drei_sind_einer_zuviel.colours import SWATCHES
from companion.games.drei_sind_einer_zuviel.colours import WORDS as COLOUR_WORDS
from companion.games.entry import EntryFormat, Mode, count_field
from companion.models import Seat
from scoring.drei_sind_einer_zuviel import (
    CARDS_PER_COLOUR,
    COLOURS,
    INTERIM_BONUSES,
    fewest_coloured_taken,
)


class DreiFormat(EntryFormat):
    """3 sind einer zuviel!: cards taken per colour and the interim bonus card, one player
    at a time with a number button per count (one tap each), or as a table of all players.

    The interim bonus card of a player whose counts leave every colour open is filled in:
    a player who ends with all seven colours open had them open after their own last turn,
    so they took an interim card (the four cards suffice for four players). Its value is
    the next of 10/7/5/3 in the order such players are entered, shown and correctable.
    """

    modes = (Mode("players", _("Per player")), Mode("counts", _("Table")))
    steppers = frozenset({"orange", "flieder", "hellblau", "rot", "tuerkis", "magenta",
                          "olivgruen"})
    colours = SWATCHES
    layout = "colours"
    chips = MappingProxyType(dict.fromkeys(COLOURS, CARDS_PER_COLOUR))
    auto_bonus = "interim_bonus"
    auto_bonus_note = _("Filled in: all seven colours are open, so this player took an "
                        "interim scoring card. Tap to change.")
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

    def layout_for(self, mode: str) -> str:
        return "chips" if mode == "players" else "colours"

    def unlikely(self, entries: Mapping[int, Mapping[str, Any]]) -> str:
        players = len(entries)
        taken = sum(sum(dict(data.get("taken") or {}).values()) for data in entries.values())
        fewest = fewest_coloured_taken(players)
        if not 0 < taken < fewest:  # nothing at all: the form asks before saving zeros
            return ""
        return _(
            "Only %(taken)s coloured cards taken in all, but in a complete game of "
            "%(players)s players at least %(fewest)s are: every player plays 18 cards, and "
            "at the end the rows hold at most 9. Is every colour of every player counted?"
        ) % {"taken": taken, "players": players, "fewest": fewest}


FORMAT = DreiFormat()
