"""13: the form of the check page and of the target totals."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Self
from urllib.parse import urlencode

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from companion.games.check_forms import CheckForm, PlayersField, cards_field
from companion.games.checks import Refusal
from companion.games.dreizehn import check as dreizehn_checks
from companion.parsing import WholeNumberField, parse_card_numbers
from scoring import dreizehn

DREIZEHN_COLOUR_NAMES = dreizehn_checks.COLOUR_NAMES
DREIZEHN_SWATCHES = dreizehn_checks.SWATCHES
NO_COLOUR = "none"
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

    @classmethod
    def on_page(cls, data: Mapping[str, Any] | None, *, prefix: str, players: Sequence[str],
                query: Mapping[str, str]) -> Self:
        if query.get("variant") == dreizehn.Variant.COLOUR_BY_FIRST_CARD.value:
            # Opened from a 13 sheet played in the variant: a target starts without a colour.
            return cls(data, prefix=prefix, initial={"variant": True, "target": NO_COLOUR})
        return cls(data, prefix=prefix)

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
            if len(value) == 2 and value[0] in _COLOUR_OF_INITIAL and value[1].isascii() and (
                    value[1].isdigit() and int(value[1]) in dreizehn.COLOURED_VALUES):
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
