"""Forms of the rules area: one legality check per game and the two live helpers.

Every check form parses what players type at the table, asks the engine in
``clean()`` and keeps the engine's answer in ``form.answer``. Engine errors
become form errors here, in one place, translated by
:func:`companion.engine_messages.message_for`. No rule is decided here: the
forms only translate between the table's words and the engine's arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from companion.engine_messages import message_for
from scoring import ScoringError, drei_sind_einer_zuviel, dreizehn, elf_nimmt, freaky, x_nimmt

T = TypeVar("T")

_SEPARATORS = re.compile(r"[\s,;.]+")
LIST_ATTRS = {"inputmode": "decimal", "autocomplete": "off", "autocapitalize": "off"}
NUMBER_ATTRS = {"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]*"}


def engine(call: Callable[[], T]) -> T:
    """Run an engine call; a :class:`ScoringError` becomes a translated form error."""
    try:
        return call()
    except ScoringError as err:
        raise forms.ValidationError(message_for(err), code=err.code) from err


def parse_numbers(text: str) -> tuple[int, ...]:
    """Whole numbers separated by spaces, commas, dots or semicolons.

    >>> parse_numbers(" 10 19,24; 7. ")
    (10, 19, 24, 7)
    """
    numbers: list[int] = []
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        if not token.isdigit():
            raise forms.ValidationError(
                gettext("“%(token)s” is not a card number."), code="not_a_number",
                params={"token": token},
            )
        numbers.append(int(token))
    return tuple(numbers)


class NumberListField(forms.CharField):
    """Card numbers typed in one field: "10 19 24" or "10, 19, 24"."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 400)
        kwargs.setdefault("widget", forms.TextInput(attrs=LIST_ATTRS))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> tuple[int, ...]:  # type: ignore[override]
        text = super().to_python(value)
        return parse_numbers(text) if text else ()


def card_field(label: Any, *, required: bool = True, **kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=required, min_value=0, max_value=999,
        widget=forms.NumberInput(attrs=NUMBER_ATTRS), **kwargs,
    )


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(str(card) for card in cards)


# ---------------------------------------------------------------- 3 sind einer zuviel!

START_CARDS = (0, 30, 60)


@dataclass(frozen=True, slots=True)
class DreiAnswer:
    card: int
    row: int
    """Index 0–2."""
    position: int
    """1 = right next to the start card."""
    before: tuple[tuple[int, ...], ...]
    after: tuple[tuple[int, ...], ...]
    taken: tuple[int, ...]
    highest: bool
    """The fifth card was the highest in its row (case a)."""

    @property
    def fifth(self) -> bool:
        return bool(self.taken)

    @property
    def start_card(self) -> int:
        return START_CARDS[self.row]


class DreiCheckForm(forms.Form):
    row_1 = NumberListField(label=_("Row 1 (after the 0)"), help_text=_("e.g. 10 19 24"))
    row_2 = NumberListField(label=_("Row 2 (after the 30)"))
    row_3 = NumberListField(label=_("Row 3 (after the 60)"))
    card = card_field(_("Card played"))

    answer: DreiAnswer | None = None

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        rows = [data["row_1"], data["row_2"], data["row_3"]]
        card: int = data["card"]
        placed = engine(lambda: drei_sind_einer_zuviel.place(rows, card))
        new_row = placed.rows[placed.row]
        self.answer = DreiAnswer(
            card=card, row=placed.row, position=new_row.index(card) + 1,
            before=tuple(tuple(r) for r in rows), after=placed.rows, taken=placed.taken,
            highest=bool(placed.taken) and all(c < card for c in rows[placed.row]),
        )
        return data


# ------------------------------------------------------------------------- X nimmt!

X_ROW_CARDS = (3, 4, 5)
MAX_X_PLAYERS = 4


def _choices_text(choices: Mapping[int, int]) -> str:
    return ",".join(f"{card}:{choice}" for card, choice in sorted(choices.items()))


def _parse_choices(text: str) -> dict[int, int]:
    """"43:1,59:40" → {43: 1, 59: 40}; anything malformed is dropped (hidden fields)."""
    choices: dict[int, int] = {}
    for item in text.split(","):
        card, sep, choice = item.partition(":")
        if sep and card.strip().isdigit() and choice.strip().isdigit():
            choices[int(card)] = int(choice)
    return choices


class XRoundForm(forms.Form):
    """The three rows and the revealed cards (with owners) of one round."""

    row_3 = NumberListField(label=_("3-row"), help_text=_("Cards left to right, e.g. 12 20"))
    row_4 = NumberListField(label=_("4-row"))
    row_5 = NumberListField(label=_("5-row"))
    row_choices = forms.CharField(required=False, widget=forms.HiddenInput)
    x_choices = forms.CharField(required=False, widget=forms.HiddenInput)
    basis = forms.CharField(required=False, widget=forms.HiddenInput)
    choose_row = forms.CharField(required=False, widget=forms.HiddenInput)
    choose_x = forms.CharField(required=False, widget=forms.HiddenInput)

    answer: x_nimmt.RoundResolution | None = None
    merged_row_choices = ""
    merged_x_choices = ""
    current_basis = ""

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for index in range(1, MAX_X_PLAYERS + 1):
            name = players[index - 1] if index <= len(players) else ""
            self.fields[f"name_{index}"] = forms.CharField(
                label=_("Player"), required=False, max_length=40, initial=name,
            )
            self.fields[f"card_{index}"] = card_field(_("Card"), required=False)
            self.fields[f"xrow_{index}"] = NumberListField(label=_("X-Reihe"))

    def player_rows(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (self[f"name_{i}"], self[f"card_{i}"], self[f"xrow_{i}"])
            for i in range(1, MAX_X_PLAYERS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        rows = [data["row_3"], data["row_4"], data["row_5"]]
        plays: dict[str, int] = {}
        x_rows: dict[str, tuple[int, ...]] = {}
        for index in range(1, MAX_X_PLAYERS + 1):
            card = data.get(f"card_{index}")
            name = (data.get(f"name_{index}") or "").strip()
            if card is None:
                continue
            name = name or gettext("Player %(number)s") % {"number": index}
            if name in plays:
                raise forms.ValidationError(
                    gettext("%(name)s is listed twice."), params={"name": name}
                )
            plays[name] = card
            x_rows[name] = data[f"xrow_{index}"]
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
        revealed = set(plays.values())
        row_choices = {c: r for c, r in row_choices.items() if c in revealed}
        x_choices = {c: x for c, x in x_choices.items() if c in revealed}
        self.answer = engine(
            lambda: x_nimmt.resolve_round(
                rows, plays, row_choices=row_choices, x_choices=x_choices, x_rows=x_rows
            )
        )
        self.merged_row_choices = _choices_text(row_choices)
        self.merged_x_choices = _choices_text(x_choices)
        return data


def next_round_form(form: XRoundForm) -> XRoundForm:
    """A blank round on the table a resolved round left: its rows and X-rows, no cards."""
    assert form.answer is not None and form.answer.complete
    answer = form.answer
    initial: dict[str, str] = {
        f"row_{size}": _cards_text(row) for size, row in zip(X_ROW_CARDS, answer.rows, strict=True)
    }
    x_rows = answer.x_rows or {}
    names = []
    for index in range(1, MAX_X_PLAYERS + 1):
        name = (form.cleaned_data.get(f"name_{index}") or "").strip()
        names.append(name)
        initial[f"xrow_{index}"] = _cards_text(x_rows.get(name, ()))
    return XRoundForm(prefix=form.prefix, players=names, initial=initial)


@dataclass(frozen=True, slots=True)
class XRowAnswer:
    before: tuple[int, ...]
    card: int
    after: tuple[int, ...]
    to_x_stack: tuple[int, ...]
    stack_minus_points: int
    """What the cards moved to the X-stack cost at the end of the deal (engine-counted)."""


class XRowForm(forms.Form):
    """A player's X-row and the card that joins it."""

    x_row = NumberListField(label=_("Your X-Reihe"), help_text=_("Cards left to right"))
    card = card_field(_("New X-Reihe card"))

    answer: XRowAnswer | None = None

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        before, card = data["x_row"], data["card"]
        after, moved = engine(lambda: x_nimmt.add_to_x_row(before, card))
        cost = engine(lambda: x_nimmt.deal_penalty(hand=(), x_stack=moved))
        self.answer = XRowAnswer(before, card, after, moved, cost)
        return data


# --------------------------------------------------------------------------- Freaky

FREAKY_COLOUR_NAMES = {
    "red": pgettext_lazy("freaky colour", "red"),
    "orange": pgettext_lazy("freaky colour", "orange"),
    "yellow": pgettext_lazy("freaky colour", "yellow"),
    "green": pgettext_lazy("freaky colour", "green"),
    "blue": pgettext_lazy("freaky colour", "blue"),
    "violet": pgettext_lazy("freaky colour", "violet"),
}
FEATURE_NAMES = {
    "background": _("background colour"),
    "circle": _("circle colour"),
    "number": _("number"),
}


@dataclass(frozen=True, slots=True)
class Swatch:
    value: str
    label: str
    css: str
    checked: bool


@dataclass(frozen=True, slots=True)
class CardSlot:
    """One card picker on the page: three sets of swatches."""

    prefix: str
    label: str
    backgrounds: tuple[Swatch, ...]
    circles: tuple[Swatch, ...]
    numbers: tuple[Swatch, ...]
    errors: tuple[str, ...]


class FreakyCardsForm(forms.Form):
    """Base: card pickers named ``<slot>_bg``, ``<slot>_circle``, ``<slot>_number``."""

    slot_names: tuple[str, ...] = ()
    required_slots: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
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

    def slot_label(self, slot: str) -> str:
        raise NotImplementedError

    def _value(self, name: str) -> str:
        if self.is_bound:
            return str(self.data.get(self.add_prefix(name), ""))
        return str(self.initial.get(name, ""))

    def slots(self) -> list[CardSlot]:
        result = []
        for slot in self.slot_names:
            bg, circle, number = (
                self._value(f"{slot}_bg"), self._value(f"{slot}_circle"),
                self._value(f"{slot}_number"),
            )
            errors = tuple(str(e) for e in self.errors.get(f"{slot}_bg", []))
            result.append(CardSlot(
                prefix=self.add_prefix(slot),
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
            ))
        return result

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
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
                self.cards[slot] = engine(
                    partial(freaky.Card, str(bg), str(circle), int(str(number))))
            except forms.ValidationError as err:
                self.add_error(f"{slot}_bg", err)
        return data


ROW_END_SLOTS = ("end_1", "end_2", "end_3", "end_4", "end_5")


@dataclass(frozen=True, slots=True)
class FreakyJoin:
    row: int
    """Row number as shown (1-based slot number)."""
    shared: tuple[str, ...]
    """Names of the features the card shares with the row's last card."""


@dataclass(frozen=True, slots=True)
class FreakyPlaceAnswer:
    card: freaky.Card
    joins: tuple[FreakyJoin, ...]
    rows: int
    must_open: bool


class FreakyPlaceForm(FreakyCardsForm):
    slot_names = (*ROW_END_SLOTS, "card")
    required_slots = ("card",)

    answer: FreakyPlaceAnswer | None = None

    def slot_label(self, slot: str) -> str:
        if slot == "card":
            return gettext("Your card")
        return gettext("Last card of row %(number)s") % {"number": slot.split("_")[1]}

    def row_slots(self) -> list[CardSlot]:
        return [slot for slot in self.slots() if not slot.prefix.endswith("card")]

    def card_slot(self) -> CardSlot:
        return self.slots()[-1]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        card = self.cards["card"]
        numbered = [(int(slot.split("_")[1]), self.cards[slot])
                    for slot in ROW_END_SLOTS if slot in self.cards]
        ends = [end for _number, end in numbered]
        options = engine(lambda: freaky.placement_options(card, ends))
        joins = []
        for index in options:
            number, end = numbered[index]
            joins.append(FreakyJoin(number, tuple(
                str(FEATURE_NAMES[f]) for f in freaky.FEATURES
                if card.feature(f) == end.feature(f))))
        must_open = engine(lambda: freaky.may_open_row(card, ends))
        self.answer = FreakyPlaceAnswer(card, tuple(joins), len(ends), must_open)
        return data


ROW_CARD_SLOTS = tuple(f"c_{n}" for n in range(1, 11))


@dataclass(frozen=True, slots=True)
class FreakyMatch:
    feature: str
    value: str
    count: int
    css: str


@dataclass(frozen=True, slots=True)
class FreakyCollectAnswer:
    cards: int
    matches: tuple[FreakyMatch, ...]

    @property
    def collectable(self) -> bool:
        return bool(self.matches)


class FreakyCollectForm(FreakyCardsForm):
    slot_names = ROW_CARD_SLOTS
    required_slots = ("c_1",)

    answer: FreakyCollectAnswer | None = None

    def slot_label(self, slot: str) -> str:
        return gettext("Card %(number)s of the row") % {"number": slot.split("_")[1]}

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        row = [self.cards[slot] for slot in ROW_CARD_SLOTS if slot in self.cards]
        matches = engine(lambda: freaky.collectable_features(row))
        self.answer = FreakyCollectAnswer(len(row), tuple(
            FreakyMatch(
                str(FEATURE_NAMES[m.feature]),
                str(FREAKY_COLOUR_NAMES[str(m.value)]) if m.feature != "number" else str(m.value),
                m.count,
                freaky.COLOUR_SWATCHES[str(m.value)] if m.feature != "number" else "",
            ) for m in matches))
        return data


# ------------------------------------------------------------------------ 11 nimmt!

@dataclass(frozen=True, slots=True)
class ElfCard:
    card: int
    distances: tuple[int, ...]
    legal: tuple[int, ...]
    """0-based pile indices the card may go on."""


@dataclass(frozen=True, slots=True)
class ElfAnswer:
    tops: tuple[int, ...]
    cards: tuple[ElfCard, ...]
    must_take: bool | None
    """None when no hand was given."""
    play: elf_nimmt.PlayCheck | None
    play_message: str
    bulls: int


def play_check_message(check: elf_nimmt.PlayCheck) -> str:
    """The engine's verdict on a play in the reader's language."""
    err = ScoringError(check.message, template=check.template)
    err.params = dict(check.params)
    return message_for(err)


class ElfPlayForm(forms.Form):
    tops = NumberListField(label=_("Top cards of the piles"), required=True,
                           help_text=_("In table order, e.g. 5 19 78"))
    hand = NumberListField(label=_("Your hand cards"))
    bulls = forms.IntegerField(
        label=_("Bull cards you hold"), min_value=0, max_value=elf_nimmt.BULL_CARDS,
        initial=0, required=False, widget=forms.NumberInput(attrs=NUMBER_ATTRS))

    answer: ElfAnswer | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pile_count = 0
        if self.is_bound:
            try:
                self.pile_count = len(parse_numbers(str(self.data.get(self.add_prefix("tops"),
                                                                          ""))))
            except forms.ValidationError:
                self.pile_count = 0
        for index in range(self.pile_count):
            self.fields[f"play_{index}"] = NumberListField(label=_("Put on this pile"))

    def play_fields(self) -> list[forms.BoundField]:
        return [self[f"play_{index}"] for index in range(self.pile_count)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        tops: tuple[int, ...] = data["tops"]
        hand: tuple[int, ...] = data["hand"]
        bulls: int = data.get("bulls") or 0
        plays = {index: data.get(f"play_{index}") or () for index in range(len(tops))}
        plays = {index: cards_ for index, cards_ in plays.items() if cards_}
        if not hand and not plays:
            raise forms.ValidationError(gettext("Enter your hand cards."), code="no_hand")
        must = engine(lambda: elf_nimmt.must_take(tops, hand)) if hand else None
        cards = tuple(
            ElfCard(card, engine(partial(elf_nimmt.pile_distances, tops, card)),
                    engine(partial(elf_nimmt.legal_piles, tops, card)))
            for card in hand
        )
        check = None
        message = ""
        if plays:
            check = engine(lambda: elf_nimmt.check_play(
                tops, plays, bulls, hand=hand if hand else None))
            message = play_check_message(check)
        self.answer = ElfAnswer(tops, cards, must, check, message, bulls)
        return data


@dataclass(frozen=True, slots=True)
class ElfTakeAnswer:
    size: int
    earns: bool
    from_supply: bool
    candidates: tuple[str, ...]
    after: elf_nimmt.BullCards | None
    you: str


class ElfTakeForm(forms.Form):
    size = forms.IntegerField(label=_("Cards in the pile you took"), min_value=1, max_value=100,
                              widget=forms.NumberInput(attrs=NUMBER_ATTRS))
    mine = forms.IntegerField(label=_("Bull cards you hold"), min_value=0, initial=0,
                              max_value=elf_nimmt.BULL_CARDS, required=False,
                              widget=forms.NumberInput(attrs=NUMBER_ATTRS))
    others = NumberListField(label=_("Bull cards of the other players"),
                             help_text=_("One number per player, e.g. 4 4 2"))

    answer: ElfTakeAnswer | None = None

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        you = gettext("You")
        holders = {you: data.get("mine") or 0}
        for index, count in enumerate(data["others"], start=2):
            holders[gettext("Player %(number)s") % {"number": index}] = count
        held = sum(holders.values())
        if held > elf_nimmt.BULL_CARDS:
            raise forms.ValidationError(
                gettext("There are only 10 bull cards, but %(count)s are held."),
                params={"count": held})
        state = engine(lambda: elf_nimmt.BullCards(elf_nimmt.BULL_CARDS - held, holders))
        size: int = data["size"]
        candidates = engine(lambda: elf_nimmt.steal_candidates(state, you))
        earns = size >= elf_nimmt.PILE_FOR_BULL_CARD
        after = None
        if len(candidates) <= 1:
            after = engine(lambda: elf_nimmt.take_pile(state, you, size))
        self.answer = ElfTakeAnswer(
            size=size, earns=earns and (bool(state.supply) or bool(candidates)),
            from_supply=bool(state.supply), candidates=candidates if earns else (),
            after=after, you=you)
        return data


# ------------------------------------------------------------------------------- 13

DREIZEHN_COLOUR_NAMES = {
    "yellow": pgettext_lazy("13 colour", "yellow"),
    "green": pgettext_lazy("13 colour", "green"),
    "blue": pgettext_lazy("13 colour", "blue"),
    "red": pgettext_lazy("13 colour", "red"),
}
DREIZEHN_SWATCHES = {"yellow": "#f2c200", "green": "#2e9e44", "blue": "#1f6fd1", "red": "#d62828"}
NO_COLOUR = "none"


def target_cards(values: Sequence[int], colour: str | None) -> tuple[dreizehn.Card, ...]:
    """The cards on a target from their values: a 4 is a red 4, the rest the target's colour."""
    cards = []
    for value in values:
        if value == dreizehn.RED_VALUE:
            cards.append(engine(lambda: dreizehn.Card(dreizehn.RED, dreizehn.RED_VALUE)))
        elif colour is None:
            raise forms.ValidationError(
                gettext("A target without a colour holds only red 4s, not %(value)s."),
                params={"value": value})
        else:
            cards.append(engine(partial(dreizehn.Card, colour, value)))
    return tuple(cards)


class DreizehnCheckForm(forms.Form):
    variant = forms.BooleanField(
        label=_("Variant: the first coloured card gives a target its colour"), required=False)
    target = forms.ChoiceField(
        label=_("Target"), widget=forms.RadioSelect, initial="yellow",
        choices=[("yellow", pgettext_lazy("13 colour", "yellow")),
                 ("green", pgettext_lazy("13 colour", "green")),
                 ("blue", pgettext_lazy("13 colour", "blue")),
                 (NO_COLOUR, _("no colour yet (variant)"))])
    elsewhere = forms.MultipleChoiceField(
        label=_("Colours already on the other targets (variant)"), required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[("yellow", pgettext_lazy("13 colour", "yellow")),
                 ("green", pgettext_lazy("13 colour", "green")),
                 ("blue", pgettext_lazy("13 colour", "blue"))])
    cards = NumberListField(label=_("Cards on the target"),
                            help_text=_("Their values, e.g. 5 4 1 2 (a 4 is a red 4)"))
    colour = forms.ChoiceField(
        label=_("Colour of your card"), widget=forms.RadioSelect, initial="yellow",
        choices=[(key, name) for key, name in DREIZEHN_COLOUR_NAMES.items()])
    value = forms.TypedChoiceField(
        label=_("Value of your card"), widget=forms.RadioSelect, coerce=int, initial="2",
        choices=[("1", "1"), ("2", "2"), ("4", "4"), ("5", "5"), ("7", "7")])

    answer: dreizehn.Play | None = None

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        variant = (dreizehn.Variant.COLOUR_BY_FIRST_CARD if data["variant"]
                   else dreizehn.Variant.FIXED_COLOURS)
        colour = None if data["target"] == NO_COLOUR else data["target"]
        if colour is None and variant is dreizehn.Variant.FIXED_COLOURS:
            raise forms.ValidationError(gettext(
                "Only in the variant can a target be without a colour."))
        on_target = target_cards(data["cards"], colour)
        card = engine(lambda: dreizehn.Card(data["colour"], data["value"]))
        elsewhere = data["elsewhere"] if data["variant"] else []
        self.answer = engine(lambda: dreizehn.check_play(
            colour, on_target, card, variant=variant, colours_elsewhere=elsewhere))
        return data


# ---------------------------------------------------------------------- live helpers
#
# Both helpers keep their whole state in the query string. An action (a GET
# with ``take=…`` or ``target=…&card=…``) leads to a new state URL that also
# names what just happened (``ev=…``), so reloading it repeats nothing and
# still shows the note.


def _names(players: Sequence[str]) -> str:
    return ",".join(players)


def _index(value: str, players: Sequence[str]) -> int | None:
    return int(value) if value.isdigit() and int(value) < len(players) else None


class BullsForm(forms.Form):
    """11 nimmt! bull card tracker.

    State: ``players`` (seat order, read by the view) and ``held`` (bull cards
    per player, same order, dot-separated); the supply is what is left of the
    10. Actions: ``take`` (index of the player who took a pile of 3 or more
    cards; ``steal`` names whom they take from when the supply is empty and
    several players hold the most) or ``reset`` (a new deal). ``ev`` describes
    the last action: ``supply.<taker>``, ``steal.<taker>.<from>``,
    ``none.<taker>`` or ``new``."""

    held = forms.CharField(required=False, widget=forms.HiddenInput)
    take = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    steal = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    reset = forms.CharField(required=False, widget=forms.HiddenInput)
    ev = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = tuple(players)
        self.state: elf_nimmt.BullCards | None = None
        self.acted = False
        self.last_event = ""
        self.choose_from: tuple[str, ...] = ()
        self.taker: int | None = None

    def _load(self, held_text: str) -> elf_nimmt.BullCards:
        if not held_text:
            return engine(lambda: elf_nimmt.BullCards.start(self.players))
        held = parse_numbers(held_text)
        if len(held) != len(self.players):
            raise forms.ValidationError(gettext(
                "The bull card counts do not match the players; the tracker starts afresh."))
        total = sum(held)
        if total > elf_nimmt.BULL_CARDS:
            raise forms.ValidationError(
                gettext("There are only 10 bull cards, but %(count)s are held."),
                params={"count": total})
        return engine(lambda: elf_nimmt.BullCards(
            elf_nimmt.BULL_CARDS - total, dict(zip(self.players, held, strict=True))))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.players:
            return data
        try:
            self.state = self._load(data.get("held") or "")
        except forms.ValidationError:
            self.state = engine(lambda: elf_nimmt.BullCards.start(self.players))
            raise
        self.last_event = data.get("ev") or ""
        if data.get("reset"):
            self.state = self.state.reset()
            self._acted("new")
            return data
        take = data.get("take")
        if take is None or self.errors:
            return data
        if take >= len(self.players):
            raise forms.ValidationError(gettext("There is no such player."))
        self.taker = take
        taker = self.players[take]
        state = self.state
        candidates = engine(lambda: elf_nimmt.steal_candidates(state, taker))
        steal = data.get("steal")
        steal_from = None
        if not state.supply:
            if not candidates:
                self._acted(f"none.{take}")
                return data
            if steal is None and len(candidates) > 1:
                self.choose_from = candidates
                return data
            steal_from = self.players[steal] if steal is not None and steal < len(
                self.players) else None
        after = engine(lambda: elf_nimmt.take_pile(
            state, taker, elf_nimmt.PILE_FOR_BULL_CARD, steal_from=steal_from))
        if state.supply:
            self._acted(f"supply.{take}")
        else:
            loser = next(i for i, p in enumerate(self.players)
                         if after.holders[p] < state.holders[p])
            self._acted(f"steal.{take}.{loser}")
        self.state = after
        return data

    @property
    def taker_name(self) -> str:
        return self.players[self.taker] if self.taker is not None else ""

    def _acted(self, ev: str) -> None:
        self.acted = True
        self.last_event = ev

    @property
    def event(self) -> str:
        """The last action in words (from ``ev``)."""
        kind, *rest = self.last_event.split(".")
        names = [self.players[i] for i in (_index(r, self.players) for r in rest) if i is not None]
        if kind == "new":
            return gettext("New deal: all 10 bull cards are back in the supply.")
        if kind == "supply" and len(names) == 1 and self.state is not None:
            return gettext("%(player)s gets a bull card from the supply (%(left)s left).") % {
                "player": names[0], "left": self.state.supply}
        if kind == "steal" and len(names) == 2:
            return gettext("%(player)s takes a bull card from %(other)s.") % {
                "player": names[0], "other": names[1]}
        if kind == "none" and len(names) == 1:
            return gettext("The supply is empty and nobody else holds a bull card: "
                           "%(player)s gets none.") % {"player": names[0]}
        return ""

    def state_query(self) -> dict[str, str]:
        if self.state is None:
            return {}
        query = {"players": _names(self.players),
                 "held": ".".join(str(self.state.holders[p]) for p in self.players)}
        if self.acted:
            query["ev"] = self.last_event
        return query

    def rows(self) -> list[dict[str, Any]]:
        """Per player: name, seat index, bull cards held."""
        if self.state is None:
            return []
        return [{"index": i, "name": p, "held": self.state.holders[p]}
                for i, p in enumerate(self.players)]

    def steal_rule_candidates(self) -> tuple[str, ...]:
        """With the supply empty: the players holding the most (whom a bull card comes from
        unless the taker is one of them)."""
        if self.state is None or self.state.supply:
            return ()
        most = max(self.state.holders.values(), default=0)
        return tuple(p for p in self.players if most and self.state.holders[p] == most)


TARGET_KEYS = {"yellow": "y", "green": "g", "blue": "b"}
TALLY_COLOURS = ("yellow", "green", "blue", "red")
CARD_CHOICES = [("1", "1"), ("2", "2"), ("5", "5"), ("7", "7"), ("r4", "4")]


def target_total(colour: str, cards: Sequence[dreizehn.Card]) -> int:
    """A target's total, asked from the engine (replaying the last card onto the rest)."""
    if not cards:
        return 0
    play = engine(lambda: dreizehn.check_play(colour, cards[:-1], cards[-1]))
    return play.total


def card_label(card: dreizehn.Card) -> str:
    """"yellow 5" / "gelbe 5" style label of a 13 card."""
    return gettext("%(colour)s %(value)s") % {
        "colour": DREIZEHN_COLOUR_NAMES[card.colour], "value": card.value}


class TargetsForm(forms.Form):
    """13 running totals.

    State: ``y``, ``g``, ``b`` (values on each target; a 4 is a red 4),
    ``players`` and ``taken`` (per player, the cards taken this deal as
    yellow.green.blue.red, players separated by "_"). Actions: ``target`` +
    ``card`` (+ ``who``), or ``reset``. ``ev`` describes the last action:
    ``<target>.<card>.<who>`` and ``took`` the values taken."""

    y = NumberListField()
    g = NumberListField()
    b = NumberListField()
    taken = forms.CharField(required=False, max_length=200)
    target = forms.ChoiceField(
        required=False, widget=forms.RadioSelect,
        choices=[(key, name) for key, name in DREIZEHN_COLOUR_NAMES.items() if key != "red"])
    card = forms.ChoiceField(required=False, widget=forms.RadioSelect, choices=CARD_CHOICES)
    who = forms.IntegerField(required=False, min_value=0)
    reset = forms.CharField(required=False)
    ev = forms.CharField(required=False, max_length=40)
    took = NumberListField()

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = tuple(players)
        self.targets: dict[str, tuple[dreizehn.Card, ...]] = {c: () for c in TARGET_KEYS}
        self.tally: list[list[int]] = [[0, 0, 0, 0] for _ in self.players]
        self.acted = False
        self.last_event = ""
        self.took_values: tuple[int, ...] = ()

    def _load(self, data: Mapping[str, Any]) -> None:
        for colour, key in TARGET_KEYS.items():
            cards = target_cards(data.get(key) or (), colour)
            target_total(colour, cards)  # the engine refuses a target that cannot exist
            self.targets[colour] = cards
        raw = (data.get("taken") or "").split("_") if data.get("taken") else []
        if raw and len(raw) == len(self.players):
            tally = [list(parse_numbers(item)) for item in raw]
            if all(len(row) == len(TALLY_COLOURS) for row in tally):
                self.tally = tally
        self.last_event = data.get("ev") or ""
        self.took_values = data.get("took") or ()

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        self._load(data)
        if data.get("reset"):
            self.targets = {c: () for c in TARGET_KEYS}
            self.tally = [[0, 0, 0, 0] for _ in self.players]
            self.acted, self.last_event, self.took_values = True, "new", ()
            return data
        colour, value = data.get("target"), data.get("card")
        if not colour and not value:
            return data
        if not colour or not value:
            raise forms.ValidationError(gettext("Pick a target and a card."))
        card = engine(lambda: dreizehn.Card("red", 4) if value == "r4"
                      else dreizehn.Card(colour, int(value)))
        who = data.get("who")
        if self.players and (who is None or who >= len(self.players)):
            raise forms.ValidationError(gettext("Who plays the card?"))
        play = engine(lambda: dreizehn.check_play(colour, self.targets[colour], card))
        if not play.allowed:
            raise forms.ValidationError(
                gettext("A %(card)s card cannot go on the %(target)s target.") % {
                    "card": DREIZEHN_COLOUR_NAMES[card.colour],
                    "target": DREIZEHN_COLOUR_NAMES[colour]})
        self.targets[colour] = play.cards
        if play.taken and self.players and who is not None:
            for taken in play.taken:
                self.tally[who][TALLY_COLOURS.index(taken.colour)] += 1
        self.acted = True
        self.last_event = f"{colour}.{value}.{'' if who is None else who}"
        self.took_values = tuple(c.value for c in play.taken)
        return data

    @property
    def event(self) -> str:
        """The last action in words (from ``ev`` and ``took``)."""
        if self.last_event == "new":
            return gettext("New deal: the targets are empty.")
        parts = self.last_event.split(".")
        if len(parts) != 3 or parts[0] not in TARGET_KEYS or parts[1] not in dict(CARD_CHOICES):
            return ""
        colour, value, who_text = parts
        who = _index(who_text, self.players)
        name = self.players[who] if who is not None else gettext("The player")
        card = dreizehn.Card("red", 4) if value == "r4" else dreizehn.Card(colour, int(value))
        total = target_total(colour, self.targets[colour])
        if self.took_values:
            try:
                taken = target_cards(self.took_values, colour)
            except forms.ValidationError:
                return ""
            return gettext(
                "Over 13: %(player)s takes %(cards)s; the %(card)s stays (total %(total)s)."
            ) % {"player": name, "cards": ", ".join(card_label(c) for c in taken),
                 "card": card_label(card), "total": total}
        return gettext("%(player)s: %(card)s on %(target)s, total %(total)s.") % {
            "player": name, "card": card_label(card),
            "target": DREIZEHN_COLOUR_NAMES[colour], "total": total}

    @property
    def next_who(self) -> int | None:
        """The seat after the last player (play goes clockwise), preselected on the page."""
        parts = self.last_event.split(".")
        who = _index(parts[2], self.players) if len(parts) == 3 else None
        return None if who is None else (who + 1) % len(self.players)

    def state_query(self) -> dict[str, str]:
        query = {"players": _names(self.players)} if self.players else {}
        for colour, key in TARGET_KEYS.items():
            query[key] = ".".join(str(card.value) for card in self.targets[colour])
        if self.players:
            query["taken"] = "_".join(".".join(map(str, row)) for row in self.tally)
        return query

    def event_query(self) -> dict[str, str]:
        query = {"ev": self.last_event} if self.last_event else {}
        if self.took_values:
            query["took"] = ".".join(map(str, self.took_values))
        return query

    def target_views(self) -> list[dict[str, Any]]:
        views = []
        for colour in TARGET_KEYS:
            cards = self.targets[colour]
            views.append({
                "colour": colour, "name": DREIZEHN_COLOUR_NAMES[colour],
                "css": DREIZEHN_SWATCHES[colour],
                "cards": [{"label": card_label(c), "css": DREIZEHN_SWATCHES[c.colour],
                           "value": c.value} for c in cards],
                "total": target_total(colour, cards),
            })
        return views

    def target_choices(self) -> list[dict[str, str]]:
        """The three targets as buttons: value, name and swatch colour."""
        return [{"value": colour, "name": str(DREIZEHN_COLOUR_NAMES[colour]),
                 "css": DREIZEHN_SWATCHES[colour]} for colour in TARGET_KEYS]

    def tally_rows(self) -> list[dict[str, Any]]:
        return [{"index": i, "name": p, "counts": self.tally[i]}
                for i, p in enumerate(self.players)]
