"""Forms of the rules area: one legality check per game and the two live helpers.

The forms only parse: card numbers and counts through :mod:`companion.parsing`,
players, card pickers and the helpers' URL state here. The answer comes from
one pure function per game in :mod:`companion.checks` (``form.answer``);
engine errors and the checks' refusals become form errors in one place,
:meth:`CheckForm.ask`, at the field they are about.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.checks import Refusal, check_player_count
from companion.checks import dreizehn as dreizehn_checks
from companion.checks import elf_nimmt as elf_checks
from companion.checks import freaky as freaky_checks
from companion.checks.drei_sind_einer_zuviel import DreiAnswer, check_drei_place
from companion.checks.x_nimmt import (
    X_ROW_CARDS,
    RoundChoices,
    XRoundAnswer,
    XRowAnswer,
    check_x_nimmt_round,
    check_x_row,
)
from companion.colours import ink_for
from companion.engine_messages import message_for
from companion.parsing import CardNumbersField, WholeNumberField, parse_card_numbers
from scoring import GAMES, ScoringError, drei_sind_einer_zuviel, dreizehn, elf_nimmt, freaky

T = TypeVar("T")

LIST_ATTRS = {"inputmode": "decimal", "autocomplete": "off", "autocapitalize": "off"}
NUMBER_ATTRS = {"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]*"}
MAX_NAME = 40
"""The longest player name (as on the score sheet)."""


def cards_field(label: Any = "", *, maximum: int, max_count: int, minimum: int = 1,
                required: bool = False, help_text: Any = "",
                allow_duplicates: bool = False) -> CardNumbersField:
    """Card numbers typed in one field: "10 19 24" or "10, 19, 24"."""
    return CardNumbersField(
        label=label, minimum=minimum, maximum=maximum, max_count=max_count, required=required,
        help_text=help_text, allow_duplicates=allow_duplicates,
        widget=forms.TextInput(attrs=LIST_ATTRS),
    )


def number_field(label: Any, *, minimum: int, maximum: int, required: bool = True,
                 **kwargs: Any) -> WholeNumberField:
    return WholeNumberField(
        label=label, minimum=minimum, maximum=maximum, required=required,
        widget=forms.NumberInput(attrs=NUMBER_ATTRS), **kwargs,
    )


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(str(card) for card in cards)


def parse_players(raw: str, slug: str) -> list[str]:
    """``Anna, Ben, Cem`` as names in seat order, refused with a clear message when a name
    is too long or twice, or the game is not played by that many.

    >>> parse_players(" Anna, Ben ,Cem", "elf-nimmt")
    ['Anna', 'Ben', 'Cem']
    """
    names = [name.strip() for name in raw.split(",") if name.strip()]
    if "\x00" in raw:
        raise ValidationError(gettext("A name cannot contain a NUL character."), code="nul")
    for name in names:
        if len(name) > MAX_NAME:
            raise ValidationError(
                gettext("A name has at most %(most)s characters: “%(name)s…” has %(count)s.")
                % {"most": MAX_NAME, "name": name[:20], "count": len(name)}, code="too_long")
    folded = [name.casefold() for name in names]
    for index, name in enumerate(folded):
        if name in folded[:index]:
            raise ValidationError(gettext("%(name)s is listed twice.") % {
                "name": names[index]}, code="twice")
    try:
        check_player_count(slug, len(names))
    except Refusal as refusal:
        raise ValidationError(refusal.message, code=refusal.code) from refusal
    return names


class CheckForm(forms.Form):
    """A check: parses its fields, then :meth:`ask` puts the answer or the refusal in place."""

    answer: Any = None

    def ask(self, call: Callable[[], T], *, field_of: Callable[[ScoringError], str | None]
            = lambda err: None) -> T | None:
        """``call()``'s answer; a :class:`Refusal` or engine error becomes an error at its
        field (``field_of`` finds the field of an engine error), else at the form."""
        try:
            return call()
        except Refusal as refusal:
            field = refusal.field if refusal.field in self.fields else None
            self.add_error(field, ValidationError(refusal.message, code=refusal.code))
        except ScoringError as err:
            field = field_of(err)
            self.add_error(field if field in self.fields else None,
                           ValidationError(message_for(err), code=err.code))
        return None


# ---------------------------------------------------------------- 3 sind einer zuviel!

DREI_CARDS = drei_sind_einer_zuviel.NUMBER_CARDS


class DreiCheckForm(CheckForm):
    row_1 = cards_field(_("Row 1 (after the 0)"), maximum=max(DREI_CARDS),
                        max_count=drei_sind_einer_zuviel.ROW_LIMIT,
                        help_text=_("e.g. 10 19 24"))
    row_2 = cards_field(_("Row 2 (after the 30)"), maximum=max(DREI_CARDS),
                        max_count=drei_sind_einer_zuviel.ROW_LIMIT)
    row_3 = cards_field(_("Row 3 (after the 60)"), maximum=max(DREI_CARDS),
                        max_count=drei_sind_einer_zuviel.ROW_LIMIT)
    card = number_field(_("Card played"), minimum=0, maximum=999)

    answer: DreiAnswer | None = None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        rows = [data["row_1"], data["row_2"], data["row_3"]]
        card: int = data["card"]

        def field_of(err: ScoringError) -> str | None:
            if err.params.get("card") == card:
                return "card"
            row = err.params.get("row")
            return f"row_{row}" if row in (1, 2, 3) else None

        self.answer = self.ask(lambda: check_drei_place(rows, card), field_of=field_of)
        return data


# ------------------------------------------------------------------------- X nimmt!

MAX_X_PLAYERS = GAMES["x-nimmt"].max_players
_CHOICE = re.compile(r"^\s*(\d{1,3})\s*:\s*(\d{1,3})\s*$")


def _choices_text(choices: Mapping[int, int]) -> str:
    return ",".join(f"{card}:{choice}" for card, choice in sorted(choices.items()))


def _parse_choices(text: str) -> dict[int, int]:
    """"43:1,59:40" → {43: 1, 59: 40}; anything malformed is dropped (hidden fields
    and button values the page wrote itself; the engine checks what is kept)."""
    choices: dict[int, int] = {}
    for item in text[:2000].split(","):
        match = _CHOICE.match(item)
        if match:
            choices[int(match.group(1))] = int(match.group(2))
    return choices


class XRoundForm(CheckForm):
    """The three rows and the revealed cards (with owners) of one round."""

    row_3 = cards_field(_("3-row"), maximum=100, max_count=2,
                        help_text=_("Cards left to right, e.g. 12 20"))
    row_4 = cards_field(_("4-row"), maximum=100, max_count=3)
    row_5 = cards_field(_("5-row"), maximum=100, max_count=4)
    row_choices = forms.CharField(required=False, widget=forms.HiddenInput)
    x_choices = forms.CharField(required=False, widget=forms.HiddenInput)
    basis = forms.CharField(required=False, widget=forms.HiddenInput)
    choose_row = forms.CharField(required=False, widget=forms.HiddenInput)
    choose_x = forms.CharField(required=False, widget=forms.HiddenInput)

    answer: XRoundAnswer | None = None
    merged_row_choices = ""
    merged_x_choices = ""
    current_basis = ""

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for index in range(1, MAX_X_PLAYERS + 1):
            name = players[index - 1] if index <= len(players) else ""
            self.fields[f"name_{index}"] = forms.CharField(
                label=_("Player"), required=False, max_length=MAX_NAME, initial=name,
            )
            self.fields[f"card_{index}"] = number_field(
                _("Card"), minimum=1, maximum=100, required=False)
            self.fields[f"xrow_{index}"] = cards_field(_("X-Reihe"), maximum=100, max_count=100)

    def player_rows(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (self[f"name_{i}"], self[f"card_{i}"], self[f"xrow_{i}"])
            for i in range(1, MAX_X_PLAYERS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        rows = [data["row_3"], data["row_4"], data["row_5"]]
        plays: dict[str, int] = {}
        x_rows: dict[str, tuple[int, ...]] = {}
        field_of_card: dict[int, str] = {}
        for index in range(1, MAX_X_PLAYERS + 1):
            card = data.get(f"card_{index}")
            name = (data.get(f"name_{index}") or "").strip()
            if card is None:
                continue
            name = name or gettext("Player %(number)s") % {"number": index}
            if name.casefold() in (known.casefold() for known in plays):
                self.add_error(f"name_{index}", gettext("%(name)s is listed twice.") % {
                    "name": name})
                return data
            plays[name] = card
            x_rows[name] = tuple(data[f"xrow_{index}"])
            field_of_card.setdefault(card, f"card_{index}")
        basis = "|".join(
            [*(_cards_text(row) for row in rows),
             *(f"{name}={card}/{_cards_text(x_rows[name])}" for name, card in plays.items())]
        )
        self.current_basis = basis
        if data.get("basis") == basis:
            row_choices = _parse_choices(data.get("row_choices") or "")
            x_choices = _parse_choices(data.get("x_choices") or "")
            row_choices.update(_parse_choices(data.get("choose_row") or ""))
            x_choices.update(_parse_choices(data.get("choose_x") or ""))
        else:
            # The table changed since the choices were made: start the round afresh.
            row_choices, x_choices = {}, {}
        if len(plays) < GAMES["x-nimmt"].min_players:
            self.add_error("card_1" if not plays else "card_2", ngettext(
                "A round needs the revealed cards of at least %(count)d player.",
                "A round needs the revealed cards of at least %(count)d players.",
                GAMES["x-nimmt"].min_players) % {"count": GAMES["x-nimmt"].min_players})
            return data

        xrow_field = {name: f"xrow_{index}" for index in range(1, MAX_X_PLAYERS + 1)
                      if (name := (data.get(f"name_{index}") or "").strip()
                          or gettext("Player %(number)s") % {"number": index}) in x_rows}

        def field_of(err: ScoringError) -> str | None:
            """The row, revealed card or X-Reihe the engine's refusal is about."""
            size = err.params.get("size")
            if err.code.startswith("row_") and size in X_ROW_CARDS:
                return f"row_{size}"
            card = err.params.get("card", err.params.get("right"))
            if not isinstance(card, int):
                return None
            if err.code != "x_row_not_ascending" and card in field_of_card:
                return field_of_card[card]
            for name, x_row in x_rows.items():
                if card in x_row:
                    return xrow_field.get(name)
            return next((f"row_{size}" for size, row in zip(X_ROW_CARDS, rows, strict=True)
                         if card in row), None)

        self.answer = self.ask(lambda: check_x_nimmt_round(
            rows, plays, RoundChoices(row_choices, x_choices), x_rows=x_rows),
            field_of=field_of)
        if self.answer is not None:
            self.merged_row_choices = _choices_text(self.answer.choices.rows)
            self.merged_x_choices = _choices_text(self.answer.choices.x_cards)
        return data


def next_round_form(form: XRoundForm) -> XRoundForm:
    """A blank round on the table a resolved round left: its rows and X-rows, no cards."""
    assert form.answer is not None and form.answer.complete
    resolution = form.answer.resolution
    initial: dict[str, str] = {
        f"row_{size}": _cards_text(row)
        for size, row in zip(X_ROW_CARDS, resolution.rows, strict=True)
    }
    x_rows = resolution.x_rows or {}
    names = []
    for index in range(1, MAX_X_PLAYERS + 1):
        name = (form.cleaned_data.get(f"name_{index}") or "").strip()
        names.append(name)
        initial[f"xrow_{index}"] = _cards_text(x_rows.get(name, ()))
    return XRoundForm(prefix=form.prefix, players=names, initial=initial)


class XRowForm(CheckForm):
    """A player's X-row and the card that joins it."""

    x_row = cards_field(_("Your X-Reihe"), maximum=100, max_count=100,
                        help_text=_("Cards left to right"))
    card = number_field(_("New X-Reihe card"), minimum=1, maximum=100)

    answer: XRowAnswer | None = None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        before, card = data["x_row"], data["card"]
        self.answer = self.ask(
            lambda: check_x_row(before, card),
            field_of=lambda err: "card" if err.params.get("card") == card else "x_row")
        return data


# --------------------------------------------------------------------------- Freaky

FEATURE_NAMES = freaky_checks.FEATURE_NAMES
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


# ------------------------------------------------------------------------ 11 nimmt!

MAX_PILES = 100
"""A table of 11 nimmt! never has more piles than cards."""


IMPOSSIBLE_PLAYS = (elf_nimmt.PlayProblem.CARD_TWICE, elf_nimmt.PlayProblem.CARD_ON_TABLE,
                    elf_nimmt.PlayProblem.NOT_IN_HAND)
"""Plays that describe no real move (a card twice, from the table, not in the hand)."""


class ElfPlayForm(CheckForm):
    tops = cards_field(_("Top cards of the piles"), maximum=100, max_count=MAX_PILES,
                       required=True, help_text=_("In table order, e.g. 5 19 78"))
    hand = cards_field(_("Your hand cards"), maximum=100, max_count=100)
    bulls = number_field(_("Bull cards you hold"), minimum=0, maximum=elf_nimmt.BULL_CARDS,
                         required=False, initial=0)

    answer: elf_checks.ElfPlayAnswer | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pile_count = 0
        if self.is_bound:
            try:
                self.pile_count = len(parse_card_numbers(
                    str(self.data.get(self.add_prefix("tops"), ""))[:400],
                    minimum=1, maximum=100, max_count=MAX_PILES))
            except ValidationError:
                self.pile_count = 0
        for index in range(self.pile_count):
            self.fields[f"play_{index}"] = cards_field(_("Put on this pile"), maximum=100,
                                                       max_count=100)

    def play_fields(self) -> list[forms.BoundField]:
        return [self[f"play_{index}"] for index in range(self.pile_count)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        tops: tuple[int, ...] = tuple(data["tops"])
        hand: tuple[int, ...] = tuple(data["hand"])
        bulls: int = data.get("bulls") or 0
        plays = {index: tuple(data.get(f"play_{index}") or ()) for index in range(len(tops))}
        plays = {index: cards_ for index, cards_ in plays.items() if cards_}

        def field_of(err: ScoringError) -> str | None:
            card = err.params.get("card")
            if card in tops:
                return "tops"
            return "hand" if card in hand else None

        self.answer = self.ask(lambda: elf_checks.check_elf_play(tops, hand, plays, bulls),
                               field_of=field_of)
        play = self.answer.play if self.answer is not None else None
        if play is not None and play.problem in IMPOSSIBLE_PLAYS:
            # Not a verdict of the rules but a play that cannot be made: shown at its pile.
            card = play.params.get("card")
            piles = [index for index, cards_ in plays.items() if card in cards_]
            pile = piles[-1] if piles else None  # a card put down twice: its second place
            self.add_error(None if pile is None else f"play_{pile}", ValidationError(
                elf_checks.play_message(play), code=play.problem.value))
            self.answer = None
        return data


class ElfTakeForm(CheckForm):
    size = number_field(_("Cards in the pile you took"), minimum=1, maximum=100)
    mine = number_field(_("Bull cards you hold"), minimum=0, maximum=elf_nimmt.BULL_CARDS,
                        required=False, initial=0)
    others = cards_field(
        _("Bull cards of the other players"), minimum=0, maximum=elf_nimmt.BULL_CARDS,
        # Room for a few too many, so that a ninth player hears the player range, not a
        # limit on "cards" (check_elf_take refuses more than 7 players).
        max_count=3 * GAMES["elf-nimmt"].max_players, allow_duplicates=True,
        help_text=_("One number per player, e.g. 4 4 2"))

    answer: elf_checks.ElfTakeAnswer | None = None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        size: int = data["size"]
        mine: int = data.get("mine") or 0
        others = tuple(data["others"])
        self.answer = self.ask(lambda: elf_checks.check_elf_take(size, mine, others))
        return data


# ------------------------------------------------------------------------------- 13

DREIZEHN_COLOUR_NAMES = dreizehn_checks.COLOUR_NAMES
DREIZEHN_SWATCHES = dreizehn_checks.SWATCHES
TALLY_COLOURS = dreizehn_checks.TALLY_COLOURS
NO_COLOUR = "none"
TARGET_CARD_VALUES = (*dreizehn.COLOURED_VALUES, dreizehn.RED_VALUE)
MAX_ON_TARGET = 13
"""Cards a target can hold: 13 cards of value 1 total 13 (the 14th goes over)."""


class DreizehnCheckForm(CheckForm):
    variant = forms.BooleanField(
        label=_("Variant: the first coloured card gives a target its colour"), required=False)
    target = forms.ChoiceField(
        label=_("Target"), widget=forms.RadioSelect, initial="yellow",
        choices=[("yellow", DREIZEHN_COLOUR_NAMES["yellow"]),
                 ("green", DREIZEHN_COLOUR_NAMES["green"]),
                 ("blue", DREIZEHN_COLOUR_NAMES["blue"]),
                 (NO_COLOUR, _("no colour yet (variant)"))])
    elsewhere = forms.MultipleChoiceField(
        label=_("Colours already on the other targets (variant)"), required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[("yellow", DREIZEHN_COLOUR_NAMES["yellow"]),
                 ("green", DREIZEHN_COLOUR_NAMES["green"]),
                 ("blue", DREIZEHN_COLOUR_NAMES["blue"])])
    cards = cards_field(_("Cards on the target"), maximum=7, max_count=MAX_ON_TARGET,
                        allow_duplicates=True,
                        help_text=_("Their values, e.g. 5 4 1 2 (a 4 is a red 4)"))
    colour = forms.ChoiceField(
        label=_("Colour of your card"), widget=forms.RadioSelect, initial="yellow",
        choices=[(key, name) for key, name in DREIZEHN_COLOUR_NAMES.items()])
    value = forms.TypedChoiceField(
        label=_("Value of your card"), widget=forms.RadioSelect, coerce=int, initial="2",
        choices=[("1", "1"), ("2", "2"), ("4", "4"), ("5", "5"), ("7", "7")])

    answer: dreizehn_checks.DreizehnAnswer | None = None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        target = None if data["target"] == NO_COLOUR else data["target"]
        values = tuple(data["cards"])
        elsewhere = tuple(data["elsewhere"]) if data["variant"] else ()
        colour, value = data["colour"], data["value"]

        def answer() -> dreizehn_checks.DreizehnAnswer:
            card = dreizehn.Card(colour, value)
            return dreizehn_checks.check_dreizehn_play(
                target, values, card, variant=data["variant"], elsewhere=elsewhere)

        self.answer = self.ask(answer, field_of=lambda err: (
            "value" if err.code in ("red_value", "colour_value") else "elsewhere" if err.code in (
                "colour_twice", "targets_count") else None))
        return data


# ---------------------------------------------------------------------- live helpers
#
# Both helpers keep their whole state in the query string. An action (a GET
# with ``take=…`` or ``target=…&card=…``) leads to a new state URL that also
# names what just happened (``ev=…``), so reloading it repeats nothing and
# still shows the note.


class PlayersField(forms.CharField):
    """``Anna, Ben, Cem``: the players in seat order for ``slug`` (see :func:`parse_players`)."""

    def __init__(self, slug: str, **kwargs: Any) -> None:
        self.slug = slug
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 7 * (MAX_NAME + 2))
        super().__init__(**kwargs)

    def clean(self, value: Any) -> list[str]:  # type: ignore[override]
        text = super().clean(value)
        return parse_players(text, self.slug) if text else []


class BullsForm(forms.Form):
    """11 nimmt! bull card tracker.

    State: ``players`` (seat order) and ``held`` (bull cards per player, same
    order, dot-separated); the supply is what is left of the 10. Actions:
    ``take`` (seat of the player who took a pile of 3 or more cards; ``steal``
    names whom they take from when several others tie for the most, ``keep=1``
    declines: stealing is optional) or ``reset`` (a new deal). ``ev``
    describes the last action (see :func:`companion.checks.elf_nimmt.tracker_event`).
    """

    players = PlayersField("elf-nimmt", label=_("Who plays? (seat order, separated by commas)"))
    held = forms.CharField(required=False, max_length=100, widget=forms.HiddenInput)
    take = WholeNumberField(required=False, minimum=0, maximum=6, widget=forms.HiddenInput)
    steal = WholeNumberField(required=False, minimum=0, maximum=6, widget=forms.HiddenInput)
    keep = forms.CharField(required=False, max_length=5, widget=forms.HiddenInput)
    reset = forms.CharField(required=False, max_length=5, widget=forms.HiddenInput)
    ev = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names: tuple[str, ...] = ()
        self.state: elf_nimmt.BullCards | None = None
        self.acted = False
        self.last_event = ""
        self.choose_from: tuple[str, ...] = ()
        self.choose_reason = ""
        self.taker: int | None = None

    def _load(self, held_text: str) -> elf_nimmt.BullCards:
        if not held_text:
            return elf_nimmt.BullCards.start(self.names)
        held = parse_card_numbers(held_text, minimum=0, maximum=elf_nimmt.BULL_CARDS,
                                  max_count=len(self.names), allow_duplicates=True)
        if len(held) != len(self.names):
            raise ValidationError(gettext(
                "The bull card counts do not match the players; the tracker starts afresh."))
        total = sum(held)
        if total > elf_nimmt.BULL_CARDS:
            raise ValidationError(
                gettext("There are only 10 bull cards, but %(count)s are held."),
                params={"count": total})
        return elf_nimmt.BullCards(elf_nimmt.BULL_CARDS - total,
                                   dict(zip(self.names, held, strict=True)))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "players" in self.errors or not data.get("players"):
            return data
        self.names = tuple(data["players"])
        try:
            self.state = self._load(data.get("held") or "")
        except ValidationError as err:
            self.state = elf_nimmt.BullCards.start(self.names)
            self.add_error("held", err)
            return data
        self.last_event = data.get("ev") or ""
        if data.get("reset"):
            self.state = self.state.reset()
            self._acted("new")
            return data
        take = data.get("take")
        if take is None or self.errors:
            return data
        if take >= len(self.names):
            self.add_error("take", gettext("There is no such player."))
            return data
        self.taker = take
        try:
            step = elf_checks.tracker_take(self.state, take, steal=data.get("steal"),
                                           keep=bool(data.get("keep")))
        except Refusal as refusal:
            self.add_error(None, refusal.message)
            return data
        except ScoringError as err:
            self.add_error(None, message_for(err))
            return data
        if not step.event:
            self.choose_from, self.choose_reason = step.choose_from, step.reason
            return data
        self.state = step.state
        self._acted(step.event)
        return data

    @property
    def taker_name(self) -> str:
        return self.names[self.taker] if self.taker is not None else ""

    def _acted(self, ev: str) -> None:
        self.acted = True
        self.last_event = ev

    @property
    def event(self) -> str:
        """The last action in words, with its reason (from ``ev``)."""
        if self.state is None or not self.last_event:
            return ""
        return elf_checks.tracker_event(self.last_event, self.state)

    def _query(self, holders: Mapping[str, int]) -> dict[str, str]:
        return {"players": ",".join(self.names),
                "held": ".".join(str(holders[p]) for p in self.names)}

    def state_query(self) -> dict[str, str]:
        if self.state is None:
            return {}
        query = self._query(self.state.holders)
        if self.acted:
            query["ev"] = self.last_event
        return query

    def undo_query(self) -> dict[str, str] | None:
        """After a steal: the state before it, marked as declined ("nicht wegnehmen")."""
        if self.state is None:
            return None
        before = elf_checks.tracker_undo(self.last_event, self.state)
        if before is None:
            return None
        return {**self._query(before), "ev": f"kept.{self.last_event.split('.')[1]}"}

    def rows(self) -> list[dict[str, Any]]:
        """Per player: name, seat index, bull cards held."""
        if self.state is None:
            return []
        return [{"index": i, "name": p, "held": self.state.holders[p]}
                for i, p in enumerate(self.names)]

    def leaders(self) -> tuple[str, ...]:
        """With the supply empty: the players holding the most bull cards."""
        if self.state is None or self.state.supply:
            return ()
        most = max(self.state.holders.values(), default=0)
        return tuple(p for p in self.names if most and self.state.holders[p] == most)


CARD_CHOICES = [("1", "1"), ("2", "2"), ("5", "5"), ("7", "7"), ("r4", "4")]
"""The card picker with fixed colours: the value (colour of the target), or a red 4."""
VARIANT_CARD_CHOICES = [
    (f"{colour[0]}{value}", f"{colour} {value}")
    for colour in dreizehn.COLOURS for value in dreizehn.COLOURED_VALUES
] + [("r4", "red 4")]
"""The card picker in the variant: colour initial and value (``y5``), or ``r4``."""
_COLOUR_OF_INITIAL = {colour[0]: colour for colour in dreizehn.COLOURS}
VARIANT_VALUES = (dreizehn.Variant.COLOUR_BY_FIRST_CARD.value, "1")
"""``variant=first-card`` (as the score sheet links it) switches the helper to the variant."""
_TALLY = re.compile(r"^\d{1,2}(\.\d{1,2}){3}$")


def _variant_target(text: str, key: str) -> tuple[str | None, list[int]]:
    """``yellow:5.4`` / ``:4`` / ``""`` → the target's colour and values."""
    colour, sep, values = text.partition(":")
    if not sep:
        colour, values = "", text
    if colour and colour not in dreizehn.COLOURS:
        raise Refusal(gettext("A target is yellow, green or blue, not “%(colour)s”.") % {
            "colour": colour[:12]}, field=key, code="no_colour")
    try:
        numbers = parse_card_numbers(values, minimum=1, maximum=7, max_count=MAX_ON_TARGET,
                                     allow_duplicates=True)
    except ValidationError as err:
        raise Refusal(" ".join(err.messages), field=key, code="not_a_card") from err
    return (colour or None), numbers


class TargetsForm(forms.Form):
    """13 running totals.

    State: the targets — ``y``, ``g``, ``b`` (values on each target; a 4 is a
    red 4) with fixed colours, or with ``variant=first-card`` ``t1``–``t3`` as
    ``colour:values`` (``yellow:5.4``, ``:4`` while a target has no colour) —
    ``players`` and ``taken`` (per player, the cards taken this deal as
    yellow.green.blue.red, players separated by "_"). Actions: ``target`` +
    ``card`` (+ ``who``), or ``reset``. ``ev`` describes the last action:
    ``<target>.<card>.<who>`` and ``took`` the values taken."""

    players = PlayersField("dreizehn")
    variant = forms.CharField(required=False, max_length=20)
    y = forms.CharField(required=False, max_length=100)
    g = forms.CharField(required=False, max_length=100)
    b = forms.CharField(required=False, max_length=100)
    t1 = forms.CharField(required=False, max_length=100)
    t2 = forms.CharField(required=False, max_length=100)
    t3 = forms.CharField(required=False, max_length=100)
    taken = forms.CharField(required=False, max_length=200)
    target = forms.CharField(required=False, max_length=10)
    card = forms.CharField(required=False, max_length=5)
    who = WholeNumberField(required=False, minimum=0, maximum=5)
    reset = forms.CharField(required=False, max_length=5)
    ev = forms.CharField(required=False, max_length=40)
    took = cards_field(minimum=1, maximum=7, max_count=MAX_ON_TARGET, allow_duplicates=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names: tuple[str, ...] = ()
        self.is_variant = bool(self.is_bound and self.data.get("variant") in VARIANT_VALUES)
        keys = dreizehn_checks.VARIANT_KEYS if self.is_variant else tuple(
            dreizehn_checks.FIXED_KEYS)
        self.targets: list[dreizehn_checks.Target] = [
            dreizehn_checks.Target(key, None if self.is_variant else
                                   dreizehn_checks.FIXED_KEYS[key], (), 0) for key in keys]
        self.tally: list[list[int]] = []
        self.acted = False
        self.last_event = ""
        self.took_values: tuple[int, ...] = ()

    def _refuse(self, refusal: Refusal) -> None:
        field = refusal.field if refusal.field in self.fields else None
        self.add_error(field, ValidationError(refusal.message, code=refusal.code))

    def _load(self, data: Mapping[str, Any]) -> None:
        targets = []
        for target in self.targets:
            raw = data.get(target.key) or ""
            if self.is_variant:
                colour, values = _variant_target(raw, target.key)
            else:
                colour = target.colour
                try:
                    values = parse_card_numbers(raw, minimum=1, maximum=7,
                                                max_count=MAX_ON_TARGET, allow_duplicates=True)
                except ValidationError as err:
                    raise Refusal(" ".join(err.messages), field=target.key) from err
            targets.append(dreizehn_checks.load_target(target.key, colour, values,
                                                       variant=self.is_variant))
        dreizehn_checks.check_colours_once(targets)
        tally: list[list[int]] = [[0, 0, 0, 0] for _ in self.names]
        raw_tally = data.get("taken") or ""
        if self.names and raw_tally:
            rows = raw_tally.split("_")
            if len(rows) != len(self.names) or not all(_TALLY.match(row) for row in rows):
                raise Refusal(gettext(
                    "The counts of taken cards do not match the players: four numbers per "
                    "player (yellow.green.blue.red), players separated by “_”."),
                    field="taken", code="tally_shape")
            tally = [[int(n) for n in row.split(".")] for row in rows]
        dreizehn_checks.check_tally(tally, targets)
        self.targets, self.tally = targets, tally
        self.last_event = data.get("ev") or ""
        self.took_values = tuple(data.get("took") or ())

    def _card(self, value: str) -> dreizehn.Card | None:
        if value == "r4":
            return dreizehn.Card(dreizehn.RED, dreizehn.RED_VALUE)
        if self.is_variant:
            if len(value) == 2 and value[0] in _COLOUR_OF_INITIAL and value[1].isdigit() and (
                    int(value[1]) in dreizehn.COLOURED_VALUES):
                return dreizehn.Card(_COLOUR_OF_INITIAL[value[0]], int(value[1]))
            return None
        return None

    def _target_index(self, value: str) -> int | None:
        for index, target in enumerate(self.targets):
            if value in (target.key, target.colour) and (self.is_variant or target.colour):
                return index
        return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "players" in self.errors:
            return data
        self.names = tuple(data.get("players") or ())
        if self.errors:
            return data
        try:
            self._load(data)
        except Refusal as refusal:
            self._refuse(refusal)
            return data
        if data.get("reset"):
            self.targets = [dreizehn_checks.Target(t.key, None if self.is_variant else t.colour,
                                                   (), 0) for t in self.targets]
            self.tally = [[0, 0, 0, 0] for _ in self.names]
            self.acted, self.last_event, self.took_values = True, "new", ()
            return data
        target_value, card_value = data.get("target") or "", data.get("card") or ""
        if not target_value and not card_value:
            return data
        if not target_value or not card_value:
            self.add_error(None, gettext("Pick a target and a card."))
            return data
        index = self._target_index(target_value)
        if index is None:
            self.add_error("target", gettext("There is no such target."))
            return data
        colour = self.targets[index].colour
        if self.is_variant or card_value == "r4":
            card = self._card(card_value)
        elif card_value in dict(CARD_CHOICES) and colour is not None:
            card = dreizehn.Card(colour, int(card_value))
        else:
            card = None
        if card is None:
            self.add_error("card", gettext("There is no such card."))
            return data
        who = data.get("who")
        if self.names and (who is None or who >= len(self.names)):
            self.add_error("who", gettext("Who plays the card?"))
            return data
        try:
            played = dreizehn_checks.play_on_target(self.targets, index, card,
                                                    variant=self.is_variant)
            tally = [row[:] for row in self.tally]
            if played.play.taken and self.names and who is not None:
                for taken in played.play.taken:
                    tally[who][dreizehn_checks.TALLY_COLOURS.index(taken.colour)] += 1
            dreizehn_checks.check_tally(tally, played.targets)
        except Refusal as refusal:
            self._refuse(refusal)
            return data
        self.targets, self.tally = list(played.targets), tally
        self.acted = True
        name = self.targets[index].key if self.is_variant else str(colour)
        self.last_event = f"{name}.{card_value}.{'' if who is None else who}"
        self.took_values = tuple(c.value for c in played.play.taken)
        return data

    @property
    def event(self) -> str:
        """The last action in words (from ``ev`` and ``took``)."""
        if self.last_event == "new":
            return gettext("New deal: the targets are empty.")
        parts = self.last_event.split(".")
        if len(parts) != 3:
            return ""
        key, value, who_text = parts
        index = next((i for i, t in enumerate(self.targets)
                      if key == (t.key if self.is_variant else t.colour)), None)
        if index is None:
            return ""
        target = self.targets[index]
        card = self._card(value) if (self.is_variant or value == "r4") else (
            dreizehn.Card(target.colour, int(value)) if target.colour and value in dict(
                CARD_CHOICES) else None)
        if card is None:
            return ""
        who = int(who_text) if who_text.isascii() and who_text.isdigit() and len(
            who_text) < 2 and int(who_text) < len(self.names) else None
        name = self.names[who] if who is not None else gettext("The player")
        if self.took_values:
            try:
                taken = dreizehn_checks.target_cards(self.took_values, target.colour)
            except Refusal:
                return ""
            return gettext(
                "Over 13: %(player)s takes %(cards)s; the %(card)s stays (total %(total)s)."
            ) % {"player": name, "cards": ", ".join(dreizehn_checks.card_label(c) for c in taken),
                 "card": dreizehn_checks.card_label(card), "total": target.total}
        return gettext("%(player)s: %(card)s on %(target)s, total %(total)s.") % {
            "player": name, "card": dreizehn_checks.card_label(card),
            "target": self.target_name(target), "total": target.total}

    def target_name(self, target: dreizehn_checks.Target) -> str:
        if target.colour is not None:
            return str(DREIZEHN_COLOUR_NAMES[target.colour])
        return gettext("target %(number)s") % {"number": target.key[1:]}

    @property
    def next_who(self) -> int | None:
        """The seat after the last player (play goes clockwise), preselected on the page."""
        parts = self.last_event.split(".")
        if len(parts) != 3 or not self.names:
            return None
        who = parts[2]
        if not (who.isascii() and who.isdigit() and len(who) < 2 and int(who) < len(self.names)):
            return None
        return (int(who) + 1) % len(self.names)

    def state_query(self) -> dict[str, str]:
        query = {"players": ",".join(self.names)} if self.names else {}
        if self.is_variant:
            query["variant"] = dreizehn.Variant.COLOUR_BY_FIRST_CARD.value
        for target in self.targets:
            values = ".".join(str(card.value) for card in target.cards)
            query[target.key] = f"{target.colour or ''}:{values}" if self.is_variant else values
        if self.names:
            query["taken"] = "_".join(".".join(map(str, row)) for row in self.tally)
        return query

    @property
    def state_errors(self) -> list[str]:
        """Errors not shown at a target or a picker: the players, the tallies, the event."""
        shown = {"target", "card", "who", *(target.key for target in self.targets)}
        return [str(message) for name, messages in self.errors.items() if name not in shown
                for message in messages]

    def _base(self) -> dict[str, str]:
        return {"players": ",".join(self.names)} if self.names else {}

    def reset_query(self) -> str:
        query = {**self._base(), "reset": "1"}
        if self.is_variant:
            query["variant"] = dreizehn.Variant.COLOUR_BY_FIRST_CARD.value
        return urlencode(query)

    def variant_query(self) -> str:
        return urlencode({**self._base(), "variant": dreizehn.Variant.COLOUR_BY_FIRST_CARD.value})

    def fixed_query(self) -> str:
        return urlencode(self._base())

    def event_query(self) -> dict[str, str]:
        query = {"ev": self.last_event} if self.last_event else {}
        if self.took_values:
            query["took"] = ".".join(map(str, self.took_values))
        return query

    def target_views(self) -> list[dict[str, Any]]:
        return [{
            "key": target.key, "colour": target.colour or "",
            "name": self.target_name(target),
            "css": DREIZEHN_SWATCHES[target.colour] if target.colour else "var(--bs-secondary)",
            "cards": [{"label": dreizehn_checks.card_label(c), "css": DREIZEHN_SWATCHES[c.colour],
                       "value": c.value} for c in target.cards],
            "total": target.total,
            "errors": [str(e) for e in self.errors.get(target.key, [])],
        } for target in self.targets]

    def target_choices(self) -> list[dict[str, str]]:
        """The three targets as buttons: value, name and swatch colour."""
        return [{"value": target.key if self.is_variant else str(target.colour),
                 "name": self.target_name(target),
                 "css": DREIZEHN_SWATCHES[target.colour] if target.colour else
                 "var(--bs-secondary)"} for target in self.targets]

    def card_choices(self) -> list[dict[str, str]]:
        """The card picker: values with fixed colours, colour and value in the variant."""
        if not self.is_variant:
            return [{"value": value, "label": gettext("red 4") if value == "r4" else label,
                     "css": DREIZEHN_SWATCHES["red"] if value == "r4" else ""}
                    for value, label in CARD_CHOICES]
        return [{"value": value,
                 "label": gettext("red 4") if value == "r4" else dreizehn_checks.card_label(
                     dreizehn.Card(_COLOUR_OF_INITIAL[value[0]], int(value[1]))),
                 "css": DREIZEHN_SWATCHES["red" if value == "r4" else
                                          _COLOUR_OF_INITIAL[value[0]]]}
                for value, _label in VARIANT_CARD_CHOICES]

    def tally_rows(self) -> list[dict[str, Any]]:
        return [{"index": i, "name": p, "counts": self.tally[i] if i < len(self.tally) else
                 [0, 0, 0, 0]} for i, p in enumerate(self.names)]
