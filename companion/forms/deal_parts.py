"""What the deal form's template draws (:class:`companion.forms.sheet.DealForm` builds them):
a player's block of fields, the count form by colour, the chips and the card grid."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.forms import BoundField

from companion.models import Seat


@dataclass(frozen=True)
class EntryField:
    """One field of a player's entry, with how the template shows it."""

    field: BoundField
    stepper: bool = False
    swatch: str = ""
    quick_adds: tuple[int, ...] = ()


@dataclass(frozen=True)
class GridCard:
    """One card of the card grid: its number, its value (``EntryFormat.card_value``) and
    whether it is ticked."""

    number: int
    value: int
    ticked: bool
    elsewhere: bool
    """Ticked for another player or pile: shown greyed out."""


@dataclass(frozen=True)
class GridPanel:
    """The card grid of one player's pile (hand or X-stack)."""

    seat: Seat
    field: BoundField
    pile: str
    cards: tuple[GridCard, ...]

    @property
    def ticked(self) -> int:
        return sum(1 for card in self.cards if card.ticked)


@dataclass(frozen=True)
class ColourCell:
    """One player's field in a row of the count form."""

    seat: Seat
    field: BoundField


@dataclass(frozen=True)
class ColourRow:
    """One field (a colour) of the count form across the players."""

    name: str
    label: Any
    swatch: str
    cells: tuple[ColourCell, ...]


@dataclass(frozen=True)
class Chip:
    """One number button of a field in the chips layout."""

    value: int
    label: str
    checked: bool


@dataclass(frozen=True)
class ChipRow:
    """One field of a player in the chips layout: a button per count it can have."""

    name: str
    label: Any
    swatch: str
    field: BoundField
    chips: tuple[Chip, ...]
    deck: int | None
    """What the deck holds of it at most (across players), or None (no such limit)."""
    auto: bool = False
    """The field the chips layout fills in when the counts make it certain."""
    opens: bool = False
    """Its count mod 3 says whether its colour is open (``EntryFormat.opens``)."""


@dataclass
class ChipPanel:
    """One player's part of the chips layout."""

    seat: Seat
    rows: list[ChipRow]
    errors: list[str] = field(default_factory=list)

    @property
    def named_errors(self) -> list[str]:
        name = self.seat.player.name
        return [named(error, name) for error in self.errors]


def named(message: object, name: str | None) -> str:
    """``message`` starting with the player's ``name`` once (engine messages often name them)."""
    text = str(message)
    if name is None or text.startswith((f"{name}:", f"{name} ")):
        return text
    return f"{name}: {text}"


@dataclass
class PlayerBlock:
    """One player's part of the deal form, for the template."""

    seat: Seat
    fields: list[EntryField]
    errors: list[str] = field(default_factory=list)

    @property
    def named_errors(self) -> list[str]:
        """The errors for a place away from the player's name: each starting with the name
        once (the engine's messages mostly name the player already)."""
        name = self.seat.player.name
        return [named(error, name) for error in self.errors]
