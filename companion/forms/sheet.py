"""The score sheet's deal form: entering one deal (the new-match form:
:mod:`companion.forms.match_start`; what the template draws: :mod:`companion.forms.deal_parts`).

What a player records differs per game; each game's folder has its
:class:`~companion.games.entry.EntryFormat` (``GameApp.entry``: the fields per player,
how they become the engine's entry dict and back).
The engine validates everything: :class:`DealForm` turns every
:class:`scoring.ScoringError` into a message at the player's field, at the
player, or at the top of the form (errors across players), in the user's
language (``companion.games.messages.message_for``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.forms import BoundField
from django.utils.translation import gettext_lazy as _

from companion.forms.deal_parts import (
    Chip,
    ChipPanel,
    ChipRow,
    ColourCell,
    ColourRow,
    EntryField,
    GridCard,
    GridPanel,
    PlayerBlock,
    named,
)
from companion.games import game_app
from companion.games.entry import Mode, joined, parse_cards
from companion.games.messages import message_for
from companion.models import Seat
from companion.parsing import (
    MAX_POSITIVE,
    MAX_SMALL,
    WholeNumberField,
    shown_count,
)
from scoring import ScoringError
from scoring.common import rules_for

CLIENT_KEY = re.compile(r"^[A-Za-z0-9-]{8,64}$")
"""A phone's key for one send of a deal (a UUID, or random hex where UUIDs are missing)."""
SEAT_FIELD = re.compile(r"^s\d+-\w+$")
"""The name of a player's field in the deal form (``s<seat>-<field>``)."""

# ---------------------------------------------------------------------- one deal


class DealForm(forms.Form):
    """All players' entries of one deal; validated by the engine across the deal.

    Field names are ``s<seat>-<field>`` (seat numbers from 0). After
    ``is_valid()``, :attr:`entries` maps each player id to the engine's entry dict.
    """

    mode = forms.CharField(widget=forms.HiddenInput, required=False)
    number = WholeNumberField(widget=forms.HiddenInput, required=False, minimum=0,
                              maximum=MAX_SMALL)
    version = WholeNumberField(widget=forms.HiddenInput, required=False, minimum=0,
                               maximum=MAX_POSITIVE)
    confirm_empty = forms.BooleanField(required=False, widget=forms.HiddenInput)
    """Set by the "save it anyway" button of the question about an all-zero deal."""
    client_key = forms.CharField(widget=forms.HiddenInput, required=False)
    """The phone's key for this send of the deal (repeats are recorded once)."""

    def __init__(
        self, *args: Any, game: str, seats: Sequence[Seat], mode: str | None = None,
        options: Mapping[str, object] | None = None, **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.options = options
        """The match's options: the engine validates the deal by the rules they set (e.g.
        6 nimmt!'s Profi variant plays fewer cards)."""
        self.format = game_app(game).entry
        self.seats = list(seats)
        keys = [m.key for m in self.format.modes]
        wanted = mode or (self.data.get("mode") if self.is_bound else None) or keys[0]
        self.mode_key = wanted if wanted in keys else keys[0]
        self.initial["mode"] = self.mode_key
        deal_fields = self.format.deal_fields(self.seats, self.mode_key)
        self.deal_field_names = list(deal_fields)
        self.fields.update(deal_fields)
        # The first seat's fields as the entry format makes them, every other seat's a
        # deep copy (what a form does with its declared fields; making them again cost
        # a third more, and the form is made for every sheet with a deal to enter).
        player_fields = self.format.player_fields(self.mode_key)
        self.player_field_names = list(player_fields)
        self.player_field_labels = {name: field.label for name, field in player_fields.items()}
        """The label of each player field, by name."""
        for index, seat in enumerate(self.seats):
            for name, player_field in player_fields.items():
                self.fields[self.name_for(seat, name)] = (
                    player_field if index == 0 else copy.deepcopy(player_field)
                )
        self.seat_errors: dict[int, list[str]] = {}
        self.entries: dict[int, dict[str, object]] = {}
        self.empty_question = ""
        """Set by the view: the question to ask before an all-zero deal is saved."""
        self.live_cards = 0
        """Set with it: the cards on the live board (whose result may belong there)."""
        self.preview: tuple[Any, ...] = ()
        """Set by the preview view: each player's score and new total if saved as typed."""
        self.preview_hint = ""
        """Set by the preview view: why there is no preview yet (the first problem)."""
        self.unlikely = ""
        """After validation: why the deal looks unlikely for the game (a hint, not an
        error: ``EntryFormat.unlikely``)."""
        self.prefilled = False
        """Values were handed over in the URL (a table helper's result)."""
        self.kept: list[tuple[str, str]] = (
            self._kept_values(self.data) if self.is_bound else []
        )
        """Player values of the other entry mode, carried along as hidden fields."""

    def _kept_values(self, data: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [
            (name, joined(data, name))
            for name in data
            if SEAT_FIELD.match(name) and name not in self.fields and data.get(name)
        ]

    @classmethod
    def switched(
        cls, data: Mapping[str, Any], *, game: str, seats: Sequence[Seat], mode: str
    ) -> DealForm:
        """The form in entry ``mode`` showing what was typed in the other mode (converted
        where the rules allow; everything else kept as hidden fields)."""
        fmt = game_app(game).entry
        values = {
            name: joined(data, name)
            for name in data
            if SEAT_FIELD.match(name) or name in ("number", "version") or name in
            fmt.deal_fields(seats, mode)
        }
        for seat in seats:
            prefix = f"s{seat.number}-"
            own = {
                name[len(prefix):]: value for name, value in values.items()
                if name.startswith(prefix)
            }
            for name, value in fmt.convert(own, mode).items():
                values[prefix + name] = value
        form = cls(game=game, seats=seats, mode=mode, initial=values)
        form.kept = form._kept_values(values)
        return form

    @property
    def is_empty(self) -> bool:
        """Every number of every player's entry is 0 (and no card listed): nothing recorded."""
        def blank(value: object) -> bool:
            if isinstance(value, bool):
                return True
            if isinstance(value, int):
                return value == 0
            if isinstance(value, Mapping):
                return all(blank(item) for item in value.values())
            if isinstance(value, list | tuple):
                return not value
            return value is None
        return bool(self.entries) and all(blank(entry) for entry in self.entries.values())

    @staticmethod
    def name_for(seat: Seat, name: str) -> str:
        return f"s{seat.number}-{name}"

    @classmethod
    def initial_from(
        cls, *, game: str, seats: Sequence[Seat], datas: Mapping[int, Mapping[str, Any]],
        mode: str | None = None,
    ) -> tuple[dict[str, Any], str]:
        """Initial values (and the entry mode) that show stored entries per player id."""
        fmt = game_app(game).entry
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
        return [self.player_field_labels[name] for name in self.player_field_names]

    @property
    def deal_bound_fields(self) -> list[BoundField]:
        return [self[name] for name in self.deal_field_names]

    @property
    def count_hint(self) -> Any:
        """What exactly to count in this entry mode, said above the fields."""
        return self.format.hint_for(self.mode_key)

    @property
    def layout(self) -> str:
        """``grid`` (the card grid), ``colours`` (a row per colour), ``chips`` (a panel per
        player with a number button per count) or ``blocks``."""
        return "grid" if self.mode_key == "grid" else self.format.layout_for(self.mode_key)

    def chip_panels(self) -> list[ChipPanel]:
        """The chips layout: per player a row per field, a button per count it can have.

        A count the buttons do not offer (typed in another mode) gets a button of its own,
        so that nothing typed is lost; the engine says what is wrong with it."""
        panels = []
        for seat in self.seats:
            rows = []
            for name in self.player_field_names:
                bound = self[self.name_for(seat, name)]
                current = shown_count(bound.value())
                highest = self.format.chips.get(name)
                if highest is not None:
                    options = [(n, str(n)) for n in range(highest + 1)]
                else:
                    options = [(int(value), str(label))
                               for value, label in getattr(bound.field, "choices", ())]
                if current is not None and current not in {value for value, _ in options}:
                    options.append((current, str(current)))
                rows.append(ChipRow(
                    name=name, label=self.player_field_labels[name],
                    swatch=self.format.colours.get(name, ""), field=bound, deck=highest,
                    chips=tuple(Chip(value, label, value == current) for value, label in options),
                    auto=name == self.format.auto_bonus, opens=self.format.opens(name),
                ))
            panels.append(ChipPanel(seat=seat, rows=rows,
                                    errors=self.seat_errors.get(seat.number, [])))
        return panels

    def colour_rows(self) -> list[ColourRow]:
        """The count form by colour: each colour's field for every player."""
        return [
            ColourRow(
                name=name, label=self.player_field_labels[name],
                swatch=self.format.colours.get(name, ""),
                cells=tuple(ColourCell(seat, self[self.name_for(seat, name)])
                            for seat in self.seats),
            )
            for name in self.player_field_names
        ]

    def card_grids(self) -> list[GridPanel]:
        """The card grid of every player's piles, with the ticked cards of the others."""
        ticked: dict[tuple[int, str], set[int]] = {}
        for seat in self.seats:
            for name in self.player_field_names:
                value = self[self.name_for(seat, name)].value()
                ticked[seat.number, name] = set(parse_cards(str(value or ""), self.format.cards))
        panels = []
        for seat in self.seats:
            for name in self.player_field_names:
                own = ticked[seat.number, name]
                others = set().union(*(cards for key, cards in ticked.items()
                                       if key != (seat.number, name)))
                panels.append(GridPanel(
                    seat=seat, field=self[self.name_for(seat, name)], pile=name,
                    cards=tuple(
                        GridCard(card, self.format.card_value(card), card in own,
                                 card in others and card not in own)
                        for card in self.format.cards
                    ),
                ))
        return panels

    @property
    def card_values(self) -> list[tuple[int, str]]:
        """The values a number card can carry, each with its words (the grid's shared
        descriptions, one per value)."""
        return [(value, self.format.card_value_text(value))
                for value in sorted({self.format.card_value(card) for card in self.format.cards})]

    def grid_piles(self) -> list[tuple[str, Any]]:
        """The piles a player ticks cards for (field name, label)."""
        return [(name, self.player_field_labels[name]) for name in self.player_field_names]

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

    def clean_client_key(self) -> str:
        value = str(self.cleaned_data.get("client_key") or "")
        if value and not CLIENT_KEY.match(value):
            self.add_error(None, _("The form was damaged on its way (its key is unreadable). "
                                   "Reload the page and enter the deal again."))
            return ""
        return value

    def non_player_errors(self) -> list[str]:
        shown = {m for messages in self.seat_errors.values() for m in messages}
        return [str(m) for m in self.non_field_errors() if str(m) not in shown]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if any(name in self.errors for name in ("number", "version", "confirm_empty")):
            # Hidden fields have no place to show their error: say it above the form.
            self.add_error(None, _("The form was damaged on its way (a hidden value is "
                                   "unreadable). Reload the page and enter the deal again."))
            if "number" in self.errors:
                # Not shown again (the sheet would read it as a deal number): sent without
                # it, the entries count as the next deal.
                data = self.data.copy()
                data.pop("number", None)
                self.data = data
        if self.errors:
            return cleaned
        rules = rules_for(self.game, self.options)
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
            else:
                self.unlikely = self.format.unlikely(entries)
        self.entries = entries
        return cleaned


__all__ = ["CLIENT_KEY", "SEAT_FIELD", "DealForm", "named"]
