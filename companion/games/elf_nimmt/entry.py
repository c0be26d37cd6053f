"""11 nimmt!: how a deal is entered on the score sheet."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.games.entry import (
    CARD_MODES,
    EntryFormat,
    Mode,
    cards_field,
    count_field,
    grid_field,
    parse_cards,
)
from companion.games.number_cards import HornochsenCards
from companion.models import Seat
from scoring import ScoringError, elf_nimmt


class ElfNimmtFormat(HornochsenCards, EntryFormat):
    """11 nimmt!: Hornochsen in hand, as a count or card numbers, and who went out."""

    modes = (Mode("counts", _("Hornochsen count")), Mode("cards", _("Card numbers")),
             Mode("grid", _("Card grid")))

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        if mode == "grid":
            return {"hand_cards": grid_field(_("Cards in hand"), self.cards)}
        if mode == "cards":
            return {"hand_cards": cards_field(_("Cards in hand"), self.cards)}
        return {"hand": count_field(_("Hornochsen in hand"))}

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
        if mode in CARD_MODES:
            cards = parse_cards(values.get("hand_cards") or "", self.cards)
            if cards or not out:
                data["hand_cards"] = cards
        else:
            data["hand"] = values.get("hand") or 0
        return data

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        if mode in CARD_MODES:
            return {"hand_cards": ", ".join(str(c) for c in data.get("hand_cards") or ())}
        # The engine's Hornochsen: counted from the cards where cards were recorded.
        return {"hand": elf_nimmt.entry_from_dict(data).hornochsen() if data else 0}

    def deal_initial(
        self, datas: Mapping[Seat, Mapping[str, Any]], mode: str
    ) -> dict[str, Any]:
        out = [seat.number for seat, data in datas.items() if data.get("went_out")]
        return {"went_out": out[0]} if out else {}

    def convert(self, values: Mapping[str, str], mode: str) -> dict[str, str]:
        """Into counts: the Hornochsen of the typed cards (when they are valid cards)."""
        converted = dict(values)
        numbers = parse_cards(values.get("hand_cards") or "", self.cards)
        if mode != "counts" or not numbers:
            return converted
        # Not valid cards: the count stays as typed, the cards stay in the form.
        with contextlib.suppress(ScoringError):
            converted["hand"] = str(elf_nimmt.entry_from_dict({"hand_cards": numbers}).hornochsen())
        return converted

    def describe(self, data: Mapping[str, Any]) -> str:
        text = super().describe(data)
        went_out = _("went out")  # not inside the f-string: makemessages would miss it
        return f"{text} ({went_out})" if data.get("went_out") else text

    def describe_deal_change(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
        if bool(before.get("went_out")) == bool(after.get("went_out")):
            return ""
        went_out = _("went out")
        marks = ["✓" if data.get("went_out") else "–" for data in (before, after)]
        return f" ({went_out} {marks[0]} → {marks[1]})"

    def mode_for(self, datas: Sequence[Mapping[str, Any]]) -> str:
        """Card numbers when they were recorded and no count stands without its cards."""
        some_cards = any(d.get("hand_cards") is not None for d in datas)
        counts_only = any(d.get("hand_cards") is None and d.get("hand") for d in datas)
        return "cards" if some_cards and not counts_only else "counts"


FORMAT = ElfNimmtFormat()
