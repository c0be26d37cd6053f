"""Freaky: the forms of the check page (placing a card, collecting a row)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext

from companion.colours import ink_for
from companion.games.check_forms import CheckForm
from companion.games.checks import Refusal
from companion.games.freaky import check as freaky_checks
from companion.games.messages import message_for
from scoring import ScoringError, freaky

FREAKY_COLOUR_NAMES = freaky_checks.COLOUR_NAMES


@dataclass(frozen=True, slots=True)
class Swatch:
    value: str
    label: str
    css: str
    checked: bool

    @property
    def short(self) -> str:
        """The colour's first two letters, shown on the swatch: never colour alone."""
        return self.label[:2]

    @property
    def ink(self) -> str:
        """Black or white text on the swatch, whichever reads better."""
        return ink_for(self.css) if self.css.startswith("#") and len(self.css) == 7 else ""


@dataclass(frozen=True, slots=True)
class CardSlot:
    """One card picker on the page: three sets of swatches."""

    prefix: str
    name: str
    """The slot's name in the form (``end_4``, ``c_7``, ``card``)."""
    label: str
    backgrounds: tuple[Swatch, ...]
    circles: tuple[Swatch, ...]
    numbers: tuple[Swatch, ...]
    errors: tuple[str, ...]


class FreakyCardsForm(CheckForm):
    """Base: card pickers named ``<slot>_bg``, ``<slot>_circle``, ``<slot>_number``.

    Numbered slots (``<stem>_1``, ``<stem>_2``, …) grow with the table: the
    page shows every slot that was filled, one empty slot more, and one more
    for each "add" (``<prefix>-add``), up to ``max_slots``; nothing limits a
    check below what a real table can hold.
    """

    stem = ""
    """Name stem of the numbered slots."""
    min_slots = 3
    max_slots = 3
    extra_slots: tuple[str, ...] = ()
    """Slots after the numbered ones (the card to place)."""
    required_slots: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.adding = bool(self.is_bound and self.data.get(self.add_prefix("add")))
        count = self.min_slots
        if self.is_bound:
            pattern = re.compile(
                rf"^{re.escape(self.add_prefix(self.stem))}_(\d{{1,4}})_(bg|circle|number)$")
            filled = [int(match.group(1)) for key in list(self.data.keys())[:2000]
                      if (match := pattern.match(key)) and self.data.get(key)]
            count = max(count, max(filled, default=0) + 1) + (1 if self.adding else 0)
        self.slot_count = min(count, self.max_slots)
        self.slot_names = (*(f"{self.stem}_{n}" for n in range(1, self.slot_count + 1)),
                           *self.extra_slots)
        colours = [(key, str(name)) for key, name in FREAKY_COLOUR_NAMES.items()]
        numbers = [(str(n), str(n)) for n in freaky.NUMBERS]
        for slot in self.slot_names:
            self.fields[f"{slot}_bg"] = forms.ChoiceField(
                choices=colours, required=False, widget=forms.RadioSelect)
            self.fields[f"{slot}_circle"] = forms.ChoiceField(
                choices=colours, required=False, widget=forms.RadioSelect)
            self.fields[f"{slot}_number"] = forms.ChoiceField(
                choices=numbers, required=False, widget=forms.RadioSelect)
        self.cards: dict[str, freaky.Card] = {}

    @property
    def can_add(self) -> bool:
        return self.slot_count < self.max_slots

    def slot_label(self, slot: str) -> str:
        raise NotImplementedError

    def _value(self, name: str) -> str:
        if self.is_bound:
            return str(self.data.get(self.add_prefix(name), ""))
        return str(self.initial.get(name, ""))

    def _slot(self, slot: str) -> CardSlot:
        bg, circle, number = (
            self._value(f"{slot}_bg"), self._value(f"{slot}_circle"),
            self._value(f"{slot}_number"),
        )
        errors = tuple(
            str(e) for name in ("bg", "circle", "number")
            for e in self.errors.get(f"{slot}_{name}", []))
        return CardSlot(
            prefix=self.add_prefix(slot),
            name=slot,
            label=self.slot_label(slot),
            backgrounds=tuple(
                Swatch(key, str(name), freaky.COLOUR_SWATCHES[key], key == bg)
                for key, name in FREAKY_COLOUR_NAMES.items()),
            circles=tuple(
                Swatch(key, str(name), freaky.COLOUR_SWATCHES[key], key == circle)
                for key, name in FREAKY_COLOUR_NAMES.items()),
            numbers=tuple(
                Swatch(str(n), str(n), "", str(n) == number) for n in freaky.NUMBERS),
            errors=errors,
        )

    def slots(self) -> list[CardSlot]:
        return [self._slot(slot) for slot in self.slot_names]

    def numbered_slots(self) -> list[CardSlot]:
        return [self._slot(slot) for slot in self.slot_names if slot not in self.extra_slots]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.adding:
            return data
        for slot in self.slot_names:
            values = [data.get(f"{slot}_bg"), data.get(f"{slot}_circle"),
                      data.get(f"{slot}_number")]
            if not any(values):
                if slot in self.required_slots:
                    self.add_error(f"{slot}_bg", gettext(
                        "Pick the background colour, the circle colour and the number."))
                continue
            if not all(values):
                # A value that is not on the picker was refused at its own field already:
                # "Pick all three" would be untrue when all three were picked.
                if not any(f"{slot}_{part}" in self.errors for part in ("bg", "circle", "number")):
                    self.add_error(f"{slot}_bg", gettext(
                        "Pick all three: background colour, circle colour and number."))
                continue
            bg, circle, number = values
            try:
                self.cards[slot] = freaky.Card(str(bg), str(circle), int(str(number)))
            except ScoringError as err:
                self.add_error(f"{slot}_bg", message_for(err))
        return data


class FreakyPlaceForm(FreakyCardsForm):
    stem = "end"
    min_slots = 3
    max_slots = freaky_checks.MAX_ROWS
    extra_slots = ("card",)
    required_slots = ("card",)

    answer: freaky_checks.FreakyPlaceAnswer | None = None

    def slot_label(self, slot: str) -> str:
        if slot == "card":
            return gettext("Your card")
        return gettext("Last card of row %(number)s") % {"number": slot.split("_")[1]}

    def row_slots(self) -> list[CardSlot]:
        return self.numbered_slots()

    def card_slot(self) -> CardSlot:
        return self._slot("card")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors or self.adding:
            return data
        card = self.cards["card"]
        numbered = [(int(slot.split("_")[1]), self.cards[slot])
                    for slot in self.slot_names if slot != "card" and slot in self.cards]
        self.answer = self.ask(lambda: freaky_checks.check_freaky_place(numbered, card))
        return data


class FreakyCollectForm(FreakyCardsForm):
    stem = "c"
    min_slots = 4
    max_slots = freaky_checks.MAX_ROW_CARDS
    required_slots = ("c_1",)

    answer: freaky_checks.FreakyCollectAnswer | None = None

    def slot_label(self, slot: str) -> str:
        return gettext("Card %(number)s of the row") % {"number": slot.split("_")[1]}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors or self.adding:
            return data
        slots = [slot for slot in self.slot_names if slot in self.cards]
        numbers = [int(slot.split("_")[1]) for slot in slots]
        if numbers != list(range(1, len(numbers) + 1)):
            gap = next(n for n in range(1, len(numbers) + 2) if n not in numbers)
            self.add_error(f"c_{gap}_bg", gettext(
                "Card %(number)s is missing: pick the cards of the row one after the other.")
                % {"number": gap})
            return data
        row = [self.cards[slot] for slot in slots]
        try:
            self.answer = freaky_checks.check_freaky_collect(row)
        except Refusal as refusal:
            field = f"{refusal.field}_bg" if refusal.field else None
            self.add_error(field if field in self.fields else None, refusal.message)
        return data


