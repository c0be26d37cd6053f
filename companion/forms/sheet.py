"""Forms of the score sheet: starting a match and entering one deal.

What a player records differs per game; each game has an :class:`EntryFormat`
here (the fields per player, how they become the engine's entry dict and back).
The engine validates everything: :class:`DealForm` turns every
:class:`scoring.ScoringError` into a message at the player's field, at the
player, or at the top of the form (errors across players), in the user's
language (``companion.engine_messages.message_for``).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.forms import BoundField
from django.utils.translation import gettext_lazy as _

from companion.engine_messages import COLOUR_WORDS, message_for
from companion.models import Game, Player, Seat
from companion.selectors.sheet import SWATCHES
from scoring import GAMES, ScoringError
from scoring.common import rules_for

MAX_SEATS = max(info.max_players for info in GAMES.values())

NUMERIC = {
    "inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off",
    "class": "form-control text-center", "placeholder": "0",
}
CARDS = {
    "inputmode": "decimal", "autocomplete": "off", "class": "form-control",
    "placeholder": _("e.g. 55, 3, 17"),
}


# --------------------------------------------------------------------- start a match


class MatchStartForm(forms.Form):
    """Game, players in seat order, first dealer / start player, the game's options."""

    game = forms.ChoiceField(
        label=_("Game"), choices=Game.choices, widget=forms.RadioSelect, initial=Game.X_NIMMT
    )
    first_dealer = forms.TypedChoiceField(
        label=_("Deals / starts first"), coerce=int, initial=0,
        choices=[(i, _("Seat %(seat)s") % {"seat": i + 1}) for i in range(MAX_SEATS)],
    )
    colour_by_first_card = forms.BooleanField(
        label=_("13 only: the first card on an empty target fixes its colour (variant)"),
        required=False,
    )

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_names = [f"seat_{i}" for i in range(MAX_SEATS)]
        for i, name in enumerate(self.seat_names):
            self.fields[name] = forms.ModelChoiceField(
                label=_("Seat %(seat)s") % {"seat": i + 1},
                queryset=Player.objects.filter(pk__in=[p.pk for p in players]),
                required=False, empty_label="—",
            )
            self.fields[name].choices = [("", "—"), *((p.pk, p.name) for p in players)]
        self.order_fields(["game", *self.seat_names, "first_dealer", "colour_by_first_card"])

    @property
    def seat_fields(self) -> list[BoundField]:
        return [self[name] for name in self.seat_names]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        chosen = [cleaned.get(name) for name in self.seat_names]
        last = max((i for i, player in enumerate(chosen) if player), default=-1)
        players = chosen[: last + 1]
        if any(player is None for player in players):
            raise forms.ValidationError(
                _("Fill the seats from seat 1 on without gaps."), code="gap"
            )
        seen: set[int] = set()
        for name, player in zip(self.seat_names, players, strict=False):
            if player.pk in seen:
                self.add_error(name, _("%(name)s already has a seat.") % {"name": player.name})
            seen.add(player.pk)
        game = cleaned.get("game")
        if game:
            try:
                GAMES[game].check_players(len(players))
            except ScoringError as err:
                raise forms.ValidationError(message_for(err), code=err.code) from err
        dealer = cleaned.get("first_dealer")
        if dealer is not None and players and dealer >= len(players):
            self.add_error(
                "first_dealer", _("Seat %(seat)s is empty.") % {"seat": dealer + 1}
            )
        cleaned["players"] = players
        return cleaned

    def options(self) -> dict[str, object]:
        """The match options the chosen game knows."""
        if self.cleaned_data["game"] == Game.DREIZEHN:
            from scoring.dreizehn import Variant

            variant = (
                Variant.COLOUR_BY_FIRST_CARD
                if self.cleaned_data.get("colour_by_first_card") else Variant.FIXED_COLOURS
            )
            return {"variant": variant.value}
        return {}


# ------------------------------------------------------------- entries per game


def parse_cards(text: str) -> list[int]:
    """Card numbers typed in one field, separated by anything but digits.

    >>> parse_cards("55, 3 17.9")
    [55, 3, 17, 9]
    """
    return [int(part) for part in re.findall(r"\d+", text or "")]


def _count_field(label: Any, **kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, min_value=0, max_value=999,
        widget=forms.NumberInput(attrs=dict(NUMERIC)), **kwargs,
    )


def _cards_field(label: Any) -> forms.CharField:
    return forms.CharField(
        label=label, required=False, max_length=400,
        widget=forms.TextInput(attrs=dict(CARDS)),
    )


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

    def field_for_error(self, err: ScoringError, mode: str) -> str | None:
        colour = err.params.get("colour")
        if isinstance(colour, str) and colour in self.player_fields(mode):
            return colour
        return None


class DreiFormat(EntryFormat):
    """3 sind einer zuviel!: cards taken per colour (+/−) and the interim bonus card."""

    steppers = frozenset({"orange", "flieder", "hellblau", "rot", "tuerkis", "magenta",
                          "olivgruen"})
    colours = SWATCHES

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        from scoring.drei_sind_einer_zuviel import COLOURS, INTERIM_BONUSES

        fields: dict[str, forms.Field] = {
            colour: _count_field(COLOUR_WORDS[colour]) for colour in COLOURS
        }
        fields["interim_bonus"] = forms.TypedChoiceField(
            label=_("Zwischenwertung card"), coerce=int, required=False, empty_value=0,
            choices=[(0, _("none")), *((b, str(b)) for b in INTERIM_BONUSES)],
        )
        return fields

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        from scoring.drei_sind_einer_zuviel import COLOURS

        return {
            "taken": {colour: values.get(colour) or 0 for colour in COLOURS},
            "interim_bonus": values.get("interim_bonus") or 0,
        }

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        return {**dict(data.get("taken", {})), "interim_bonus": data.get("interim_bonus", 0)}


class XNimmtFormat(EntryFormat):
    """X nimmt!: Hornochsen in hand and in the X-stack, as counts or card numbers."""

    modes = (Mode("counts", _("Hornochsen")), Mode("cards", _("Card numbers")))

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        if mode == "cards":
            return {"hand_cards": _cards_field(_("Cards in hand")),
                    "x_stack_cards": _cards_field(_("Cards in the X-stack"))}
        return {"hand": _count_field(_("Hornochsen in hand")),
                "x_stack": _count_field(_("Hornochsen in the X-stack"))}

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        if mode == "cards":
            return {"hand_cards": parse_cards(values.get("hand_cards") or ""),
                    "x_stack_cards": parse_cards(values.get("x_stack_cards") or "")}
        return {"hand": values.get("hand") or 0, "x_stack": values.get("x_stack") or 0}

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        if mode == "cards":
            return {key: ", ".join(str(c) for c in data.get(key) or ())
                    for key in ("hand_cards", "x_stack_cards")}
        from scoring import x_nimmt

        # The engine's Hornochsen: counted from the cards where cards were recorded.
        counted = x_nimmt.entry_from_dict(data).hornochsen() if data else None
        return {"hand": counted.hand if counted else 0,
                "x_stack": counted.x_stack if counted else 0}

    def mode_for(self, datas: Sequence[Mapping[str, Any]]) -> str:
        """Card numbers when they were recorded and no count stands without its cards."""
        pairs = (("hand", "hand_cards"), ("x_stack", "x_stack_cards"))
        some_cards = any(d.get(cards) is not None for d in datas for _, cards in pairs)
        counts_only = any(
            d.get(cards) is None and d.get(count) for d in datas for count, cards in pairs
        )
        return "cards" if some_cards and not counts_only else "counts"


class ElfNimmtFormat(EntryFormat):
    """11 nimmt!: Hornochsen in hand, as a count or card numbers, and who went out."""

    modes = (Mode("counts", _("Hornochsen")), Mode("cards", _("Card numbers")))

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        if mode == "cards":
            return {"hand_cards": _cards_field(_("Cards in hand"))}
        return {"hand": _count_field(_("Hornochsen in hand"))}

    def deal_fields(self, seats: Sequence[Seat], mode: str) -> dict[str, forms.Field]:
        # Not required: the engine explains why a deal needs someone who went out.
        return {"went_out": forms.TypedChoiceField(
            label=_("Went out"), coerce=int, widget=forms.RadioSelect, required=False,
            empty_value=None, choices=[(seat.number, seat.player.name) for seat in seats],
        )}

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        out = deal.get("went_out") == seat.number
        data: dict[str, object] = {"went_out": out}
        if mode == "cards":
            cards = parse_cards(values.get("hand_cards") or "")
            if cards or not out:
                data["hand_cards"] = cards
        else:
            data["hand"] = values.get("hand") or 0
        return data

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        if mode == "cards":
            return {"hand_cards": ", ".join(str(c) for c in data.get("hand_cards") or ())}
        from scoring import elf_nimmt

        # The engine's Hornochsen: counted from the cards where cards were recorded.
        return {"hand": elf_nimmt.entry_from_dict(data).hornochsen() if data else 0}

    def deal_initial(
        self, datas: Mapping[Seat, Mapping[str, Any]], mode: str
    ) -> dict[str, Any]:
        out = [seat.number for seat, data in datas.items() if data.get("went_out")]
        return {"went_out": out[0]} if out else {}

    def mode_for(self, datas: Sequence[Mapping[str, Any]]) -> str:
        """Card numbers when they were recorded and no count stands without its cards."""
        some_cards = any(d.get("hand_cards") is not None for d in datas)
        counts_only = any(d.get("hand_cards") is None and d.get("hand") for d in datas)
        return "cards" if some_cards and not counts_only else "counts"


class FreakyFormat(EntryFormat):
    """Freaky: the number of cards collected (+N per collected row)."""

    quick_adds = (4, 5, 6, 7, 8)
    steppers = frozenset({"collected"})

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        return {"collected": _count_field(_("Cards collected"))}

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        return {"collected": values.get("collected") or 0}


class DreizehnFormat(EntryFormat):
    """13: yellow, green and blue cards and red 4s taken in the deal."""

    steppers = frozenset({"yellow", "green", "blue", "red"})
    colours = {"yellow": "#fdd835", "green": "#43a047", "blue": "#1e88e5", "red": "#e53935"}

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        return {
            "yellow": _count_field(COLOUR_WORDS["yellow"]),
            "green": _count_field(COLOUR_WORDS["green"]),
            "blue": _count_field(COLOUR_WORDS["blue"]),
            "red": _count_field(_("red 4s")),
        }

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        return {colour: values.get(colour) or 0 for colour in ("yellow", "green", "blue", "red")}


FORMATS: dict[str, EntryFormat] = {
    "drei-sind-einer-zuviel": DreiFormat(),
    "x-nimmt": XNimmtFormat(),
    "freaky": FreakyFormat(),
    "elf-nimmt": ElfNimmtFormat(),
    "dreizehn": DreizehnFormat(),
}


# ---------------------------------------------------------------------- one deal


@dataclass(frozen=True)
class EntryField:
    """One field of a player's entry, with how the template shows it."""

    field: BoundField
    stepper: bool = False
    swatch: str = ""
    quick_adds: tuple[int, ...] = ()


@dataclass
class PlayerBlock:
    """One player's part of the deal form, for the template."""

    seat: Seat
    fields: list[EntryField]
    errors: list[str] = field(default_factory=list)


class DealForm(forms.Form):
    """All players' entries of one deal; validated by the engine across the deal.

    Field names are ``s<seat>-<field>`` (seat numbers from 0). After
    ``is_valid()``, :attr:`entries` maps each player id to the engine's entry dict.
    """

    mode = forms.CharField(widget=forms.HiddenInput, required=False)
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(
        self, *args: Any, game: str, seats: Sequence[Seat], mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.format = FORMATS[game]
        self.seats = list(seats)
        keys = [m.key for m in self.format.modes]
        wanted = mode or (self.data.get("mode") if self.is_bound else None) or keys[0]
        self.mode_key = wanted if wanted in keys else keys[0]
        self.initial["mode"] = self.mode_key
        self.deal_field_names = list(self.format.deal_fields(self.seats, self.mode_key))
        for name, deal_field in self.format.deal_fields(self.seats, self.mode_key).items():
            self.fields[name] = deal_field
        self.player_field_names = list(self.format.player_fields(self.mode_key))
        for seat in self.seats:
            for name, player_field in self.format.player_fields(self.mode_key).items():
                self.fields[self.name_for(seat, name)] = player_field
        self.seat_errors: dict[int, list[str]] = {}
        self.entries: dict[int, dict[str, object]] = {}

    @staticmethod
    def name_for(seat: Seat, name: str) -> str:
        return f"s{seat.number}-{name}"

    @classmethod
    def initial_from(
        cls, *, game: str, seats: Sequence[Seat], datas: Mapping[int, Mapping[str, Any]],
        mode: str | None = None,
    ) -> tuple[dict[str, Any], str]:
        """Initial values (and the entry mode) that show stored entries per player id."""
        fmt = FORMATS[game]
        mode = mode or fmt.mode_for([datas.get(seat.player_id, {}) for seat in seats])
        initial: dict[str, Any] = {"mode": mode}
        initial.update(fmt.deal_initial(
            {seat: datas.get(seat.player_id, {}) for seat in seats}, mode
        ))
        for seat in seats:
            for name, value in fmt.initial(datas.get(seat.player_id, {}), mode).items():
                initial[cls.name_for(seat, name)] = value
        return initial, mode

    # ------------------------------------------------------------------ display

    @property
    def modes(self) -> tuple[Mode, ...]:
        return self.format.modes

    @property
    def compact(self) -> bool:
        """One row per player (name, then the fields) when no field needs − / + buttons."""
        return not self.format.steppers and len(self.player_field_names) <= 2

    @property
    def field_labels(self) -> list[Any]:
        fields = self.format.player_fields(self.mode_key)
        return [fields[name].label for name in self.player_field_names]

    @property
    def deal_bound_fields(self) -> list[BoundField]:
        return [self[name] for name in self.deal_field_names]

    def blocks(self) -> list[PlayerBlock]:
        return [
            PlayerBlock(
                seat=seat,
                fields=[
                    EntryField(
                        field=self[self.name_for(seat, name)],
                        stepper=name in self.format.steppers,
                        swatch=self.format.colours.get(name, ""),
                        quick_adds=self.format.quick_adds if index == 0 else (),
                    )
                    for index, name in enumerate(self.player_field_names)
                ],
                errors=self.seat_errors.get(seat.number, []),
            )
            for seat in self.seats
        ]

    # --------------------------------------------------------------- validation

    def _seat_named(self, name: object) -> Seat | None:
        return next((seat for seat in self.seats if seat.player.name == name), None)

    def _engine_error(self, err: ScoringError, seat: Seat | None = None) -> None:
        message = message_for(err)
        seat = seat or self._seat_named(err.params.get("player"))
        if seat is None:
            self.add_error(None, message)
            return
        name = self.format.field_for_error(err, self.mode_key)
        if name is not None:
            self.add_error(self.name_for(seat, name), message)
        else:
            self.seat_errors.setdefault(seat.number, []).append(message)
            # The message is shown at the player; the form must not count as valid.
            self.add_error(None, forms.ValidationError(message, code="player"))

    def non_player_errors(self) -> list[str]:
        shown = {m for messages in self.seat_errors.values() for m in messages}
        return [str(m) for m in self.non_field_errors() if str(m) not in shown]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        rules = rules_for(self.game)
        deal_values = {name: cleaned.get(name) for name in self.deal_field_names}
        parsed: dict[str, Any] = {}
        entries: dict[int, dict[str, object]] = {}
        for seat in self.seats:
            values = {
                name: cleaned.get(self.name_for(seat, name)) for name in self.player_field_names
            }
            data = self.format.entry_data(values, deal_values, seat, self.mode_key)
            try:
                parsed[seat.player.name] = rules.entry_from_dict(data)
            except ScoringError as err:
                self._engine_error(err, seat)
                continue
            entries[seat.player_id] = data
        if len(parsed) == len(self.seats):
            try:
                rules.validate_deal(parsed)
            except ScoringError as err:
                self._engine_error(err)
        self.entries = entries
        return cleaned


__all__ = [
    "FORMATS",
    "DealForm",
    "EntryFormat",
    "MatchStartForm",
    "parse_cards",
]
