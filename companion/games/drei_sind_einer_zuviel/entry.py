"""3 sind einer zuviel!: how a deal is entered on the score sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from companion.games.drei_sind_einer_zuviel.colours import SWATCHES
from companion.games.drei_sind_einer_zuviel.colours import WORDS as COLOUR_WORDS
from companion.games.entry import EntryFormat, Mode, count_field
from companion.models import Seat
from companion.parsing import shown_count
from scoring import ScoringError
from scoring.drei_sind_einer_zuviel import (
    CARDS_PER_COLOUR,
    COLOURS,
    INTERIM_BONUSES,
    fewest_coloured_taken,
)

OPEN, FACE_DOWN = "_open", "_down"
"""The suffixes of a colour's two fields in the open/face-down mode."""
OPEN_COUNTS = (0, 1, 2)
FACE_DOWN_COUNTS = tuple(range(0, CARDS_PER_COLOUR + 1, 3))


def _split(total: int) -> tuple[int, int]:
    """A colour's cards taken as the table shows them: (open, face down), n mod 3 open."""
    return total % 3, total - total % 3


def _choice_field(label: Any, choices: Sequence[tuple[int, str]]) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=label, coerce=int, required=False, empty_value=0, choices=choices,
        widget=forms.Select(attrs={"class": "form-select"}),
    )


def _counts(counts: Sequence[int]) -> list[tuple[int, str]]:
    return [(count, str(count)) for count in counts]


class DreiFormat(EntryFormat):
    """3 sind einer zuviel!: cards taken per colour and the interim bonus card, one player
    at a time with a number button per count (one tap each), or as a table of all players.

    The interim bonus card of a player whose counts leave every colour open is filled in:
    a player who ends with all seven colours open had them open after their own last turn,
    so they took an interim card (the four cards suffice for four players). Its value is
    the next of 10/7/5/3 in the order such players are entered, shown and correctable.
    """

    modes = (Mode("players", _("Per player")), Mode("counts", _("Table")),
             Mode("split", _("Open/face-down")))
    steppers = frozenset({"orange", "flieder", "hellblau", "rot", "tuerkis", "magenta",
                          "olivgruen"})
    colours = MappingProxyType({
        **SWATCHES,
        **{f"{colour}{part}": SWATCHES[colour] for colour in COLOURS
           for part in (OPEN, FACE_DOWN)},
    })
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

    split_hint = _(
        "Each player counts, per colour, the cards lying open (0 to 2) and the face-down "
        "ones (flipped triples: 3, 6, 9 or 12). Grey cards do not count."
    )

    def hint_for(self, mode: str) -> Any:
        return self.split_hint if mode == "split" else self.count_hint

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        if mode == "split":
            fields = {}
            for colour in COLOURS:
                fields[colour + OPEN] = _choice_field(
                    format_lazy(_("{colour} open"), colour=COLOUR_WORDS[colour]),
                    _counts(OPEN_COUNTS))
                fields[colour + FACE_DOWN] = _choice_field(
                    format_lazy(_("{colour} face-down"), colour=COLOUR_WORDS[colour]),
                    _counts(FACE_DOWN_COUNTS))
        else:
            fields = {colour: count_field(COLOUR_WORDS[colour]) for colour in COLOURS}
        fields["interim_bonus"] = _choice_field(
            _("Interim scoring card (Zwischenwertung)"),
            [(0, "–"), *_counts(INTERIM_BONUSES)])
        return fields

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        if mode == "split":  # the choices offer only what can lie open or face down
            taken = {colour: (values.get(colour + OPEN) or 0)
                     + (values.get(colour + FACE_DOWN) or 0) for colour in COLOURS}
        else:
            taken = {colour: values.get(colour) or 0 for colour in COLOURS}
        return {"taken": taken, "interim_bonus": values.get("interim_bonus") or 0}

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        taken = dict(data.get("taken", {}))
        if mode == "split":
            shown: dict[str, Any] = {}
            for colour in COLOURS:
                shown[colour + OPEN], shown[colour + FACE_DOWN] = _split(
                    int(taken.get(colour) or 0))
            return {**shown, "interim_bonus": data.get("interim_bonus", 0)}
        return {**taken, "interim_bonus": data.get("interim_bonus", 0)}

    def convert(self, values: Mapping[str, str], mode: str) -> dict[str, str]:
        """Totals per colour into open and face-down counts and back (the rules' n mod 3
        open, the rest face down); a value that is not a count stays as typed."""
        converted = dict(values)
        for colour in COLOURS:
            if mode == "split" and colour in values:
                total = shown_count(values[colour])
                if total is not None:
                    converted[colour + OPEN], converted[colour + FACE_DOWN] = map(
                        str, _split(total))
            elif mode != "split" and (colour + OPEN in values or colour + FACE_DOWN in values):
                parts = [shown_count(values.get(colour + part)) for part in (OPEN, FACE_DOWN)]
                if None not in parts:
                    converted[colour] = str(sum(part or 0 for part in parts))
        return converted

    def opens(self, name: str) -> bool:
        """A colour's total (n mod 3 lie open) and its open cards (0 to 2) say whether the
        colour is open: deal-entry.js fills in the interim card when all seven are."""
        return name in COLOURS or (name.endswith(OPEN) and name[: -len(OPEN)] in COLOURS)

    def layout_for(self, mode: str) -> str:
        return "colours" if mode == "counts" else "chips"

    def field_for_error(self, err: ScoringError, mode: str) -> str | None:
        """In the open/face-down mode a colour's refusal (too many cards of it) is shown at
        its face-down count, the one that holds most of them."""
        colour = err.params.get("colour")
        if mode == "split" and isinstance(colour, str) and colour in COLOURS:
            return colour + FACE_DOWN
        return super().field_for_error(err, mode)

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
