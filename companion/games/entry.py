"""How a game's deal is entered on the score sheet: :class:`EntryFormat` (the fields per
player, how they become the engine's entry dict and back) and the fields the games share.

Each game's folder has its format (``companion/games/<game>/entry.py``), registered as
``GameApp.entry``; :class:`companion.forms.sheet.DealForm` asks it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from companion.models import Seat
from companion.parsing import CardNumbersField, WholeNumberField, parse_card_numbers
from scoring import ScoringError

NUMERIC = {
    "inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off",
    "class": "form-control text-center", "placeholder": "0",
}
CARDS = {
    "inputmode": "decimal", "autocomplete": "off", "class": "form-control",
    "placeholder": _("e.g. 55, 3, 17"),
}


def _blank(value: object) -> bool:
    return value in (0, "0", "", None)


def _shown(value: object) -> str:
    return "0" if _blank(value) else str(value)


def parse_cards(value: object, cards: range) -> list[int]:
    """The card numbers of a card field: its cleaned list, or its raw text read leniently.

    ``cards``: the game's number cards (``EntryFormat.cards``). The raw text (shown again
    while switching modes, or ticked on the grid) gives ``[]`` when it cannot be read; the
    field itself refuses it with a message (:class:`companion.parsing.CardNumbersField`).

    >>> parse_cards("55, 3 17.9", range(1, 101))
    [55, 3, 17, 9]
    >>> parse_cards("55 ²", range(1, 101))
    []
    """
    if isinstance(value, list | tuple):
        return [int(card) for card in value]
    try:
        return parse_card_numbers(str(value or ""), minimum=cards.start, maximum=cards.stop - 1,
                                  max_count=len(cards), allow_duplicates=True)
    except ValidationError:
        return []


def count_field(label: Any, **kwargs: Any) -> WholeNumberField:
    return WholeNumberField(
        label=label, required=False, minimum=0, maximum=999,
        widget=forms.NumberInput(attrs=dict(NUMERIC)), **kwargs,
    )


def cards_field(label: Any, cards: range) -> CardNumbersField:
    """Typed card numbers of the game's number cards ``cards``."""
    return CardNumbersField(
        label=label, minimum=cards.start, maximum=cards.stop - 1, max_count=len(cards),
        max_length=400, widget=forms.TextInput(attrs=dict(CARDS)),
    )


def joined(data: Mapping[str, Any], name: str) -> str:
    """A field's value from form data; the ticked cards of a card grid as one text."""
    values = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
    return ", ".join(str(value) for value in values if value)


class CardGridInput(forms.Widget):
    """The card grid: one checkbox per card, all named like the typed-numbers field.

    The ticked cards arrive as the same text the card-numbers field gets
    ("3, 17, 55"), so the server reads and validates both alike. The template
    draws the grid (``card-grid`` partial); rendered on its own the widget is
    the hidden text.
    """

    template_name = "django/forms/widgets/hidden.html"
    input_type = "hidden"

    def value_from_datadict(self, data: Any, files: Any, name: str) -> str | None:
        return joined(data, name) or None

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data


def grid_field(label: Any, cards: range) -> forms.Field:
    """A card-numbers field entered on the card grid (same field, other widget)."""
    grid = cards_field(label, cards)
    grid.widget = CardGridInput()
    return grid


CARD_MODES = frozenset({"cards", "grid"})
"""Entry modes that record card numbers (typed, or ticked on the grid)."""


@dataclass(frozen=True)
class Mode:
    key: str
    label: Any


class EntryFormat(ABC):
    """What one game asks per player and deal."""

    modes: tuple[Mode, ...] = (Mode("counts", _("Counts")),)
    steppers: frozenset[str] = frozenset()
    """Fields shown with − and + buttons."""
    quick_adds: tuple[int, ...] = ()
    """Buttons that add a number to the first field (Freaky: +N per collected row)."""
    colours: Mapping[str, str] = {}
    """A CSS colour per field, for the swatch beside it."""
    layout: str = "blocks"
    """How the template lays out the fields: ``blocks`` per player, or ``colours``
    (a row per field, a column per player: a compact count form)."""
    count_hint: Any = ""
    """What exactly to count, said above the fields."""
    chips: Mapping[str, int] = {}
    """In the ``chips`` layout (a panel per player, a row of number buttons per field: one
    tap per count), the highest count each field offers: what the deck holds of it at
    most. The chips of a field across all players are shown struck through above what the
    others leave of it (a hint; the engine checks)."""
    cards: range = range(0)
    """The game's number cards, for the entry modes that record card numbers (typed or
    ticked on the card grid); empty: the game has no such mode."""
    auto_bonus: str = ""
    """A field the chips layout fills in when the counts make it certain (3 sind einer
    zuviel!: the interim bonus card of a player who ends with every colour open); empty:
    none."""
    auto_bonus_note: Any = ""
    """What the chips layout says under a field it filled in (``auto_bonus``): why the
    counts make it certain, and that a tap changes it."""
    grid_hint: Any = ""
    """What the card grid says above the cards: what to tap and what a card's small
    number (``card_value``) is."""

    def card_value(self, card: int) -> int:
        """What the card grid shows on a number card (its Hornochsen); 0: nothing."""
        return 0

    cards_label: Any = ""
    """What heads the cards of a score part with their values in brackets, on the sheet's
    breakdown ("cards (Hornochsen):" before "3 (1), 55 (7)")."""

    def card_value_text(self, value: int) -> str:
        """A ``card_value`` in words, read out with each card of the grid that has it."""
        return str(value)

    def hint_for(self, mode: str) -> Any:
        """What exactly to count in entry ``mode``, said above the fields."""
        return self.count_hint

    def opens(self, name: str) -> bool:
        """For ``auto_bonus``: whether the field's count mod 3 says if a colour is open (the
        chips layout's ``data-opens`` rows)."""
        return False

    def layout_for(self, mode: str) -> str:
        """The layout of entry ``mode`` (``blocks``, ``colours``, ``chips``; the card grid's
        is ``grid``)."""
        return self.layout

    @abstractmethod
    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        """The fields one player fills in, by name."""

    def deal_fields(self, seats: Sequence[Seat], mode: str) -> dict[str, forms.Field]:
        return {}

    @abstractmethod
    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        """The engine's entry dict of ``seat`` from the player's and the deal's fields."""

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        return dict(data)

    def deal_initial(self, datas: Mapping[Seat, Mapping[str, Any]], mode: str) -> dict[str, Any]:
        return {}

    def mode_for(self, datas: Sequence[Mapping[str, Any]]) -> str:
        return self.modes[0].key

    def convert(self, values: Mapping[str, str], mode: str) -> dict[str, str]:
        """One player's typed values (by field name) carried into entry ``mode``.

        What can be worked out is filled in (Hornochsen from typed card numbers);
        nothing typed is dropped: the values of the other mode stay in the form.
        """
        return dict(values)

    def unlikely(self, entries: Mapping[int, Mapping[str, Any]]) -> str:
        """Why a deal the engine accepts looks unlikely for the game (a hint shown with the
        preview, never a refusal), or "" when nothing does. ``entries``: the engine's
        entry dicts per player id."""
        return ""

    def describe(self, data: Mapping[str, Any]) -> str:
        """One player's stored entry in words, for the match's log: every field that is
        not 0 or empty with its label ("Hornochsen in hand 5, Hornochsen in the X-stack
        2"), "0" when nothing was recorded."""
        mode = self.mode_for([data])
        labels = {name: field.label for name, field in self.player_fields(mode).items()}
        parts = [
            f"{labels[name]} {value}" for name, value in self.initial(data, mode).items()
            if name in labels and not _blank(value)
        ]
        return ", ".join(parts) or "0"

    def describe_change(
        self, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
    ) -> str:
        """What a change did to one player's entry, in words: the fields that changed,
        each before → after ("Hornochsen in the X-stack 2 → 5"); a whole entry where the
        deal came or went ("— → Hornochsen in hand 3"); "" where nothing changed."""
        if before is None or after is None:
            return (f"{self.describe(before) if before is not None else '—'} → "
                    f"{self.describe(after) if after is not None else '—'}")
        mode = self.mode_for([before, after])
        labels = {name: field.label for name, field in self.player_fields(mode).items()}
        old, new = self.initial(before, mode), self.initial(after, mode)
        return ", ".join(
            f"{label} {_shown(old.get(name))} → {_shown(new.get(name))}"
            for name, label in labels.items() if _shown(old.get(name)) != _shown(new.get(name))
        ) + self.describe_deal_change(before, after)

    def describe_deal_change(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
        """What :meth:`describe_change` adds for a change of the deal's own fields."""
        return ""

    def field_for_error(self, err: ScoringError, mode: str) -> str | None:
        colour = err.params.get("colour")
        if isinstance(colour, str) and colour in self.player_fields(mode):
            return colour
        return None
