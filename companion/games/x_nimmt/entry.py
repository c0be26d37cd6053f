"""X nimmt!: how a deal is entered on the score sheet."""

from __future__ import annotations

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
from scoring import ScoringError, x_nimmt


class XNimmtFormat(HornochsenCards, EntryFormat):
    """X nimmt!: Hornochsen in hand and in the X-stack, as counts or card numbers."""

    modes = (Mode("counts", _("Hornochsen count")), Mode("cards", _("Card numbers")),
             Mode("grid", _("Card grid")))

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        if mode == "grid":
            return {"hand_cards": grid_field(_("Cards in hand"), self.cards),
                    "x_stack_cards": grid_field(_("Cards in the X-stack"), self.cards)}
        if mode == "cards":
            return {"hand_cards": cards_field(_("Cards in hand"), self.cards),
                    "x_stack_cards": cards_field(_("Cards in the X-stack"), self.cards)}
        return {"hand": count_field(_("Hornochsen in hand")),
                "x_stack": count_field(_("Hornochsen in the X-stack"))}

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        if mode in CARD_MODES:
            return {"hand_cards": parse_cards(values.get("hand_cards") or "", self.cards),
                    "x_stack_cards": parse_cards(values.get("x_stack_cards") or "", self.cards)}
        return {"hand": values.get("hand") or 0, "x_stack": values.get("x_stack") or 0}

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        if mode in CARD_MODES:
            return {key: ", ".join(str(c) for c in data.get(key) or ())
                    for key in ("hand_cards", "x_stack_cards")}
        # The engine's Hornochsen: counted from the cards where cards were recorded.
        counted = x_nimmt.entry_from_dict(data).hornochsen() if data else None
        return {"hand": counted.hand if counted else 0,
                "x_stack": counted.x_stack if counted else 0}

    def convert(self, values: Mapping[str, str], mode: str) -> dict[str, str]:
        """Into counts: the Hornochsen of the typed cards (when they are valid cards)."""
        converted = dict(values)
        if mode != "counts":
            return converted
        for count, cards in (("hand", "hand_cards"), ("x_stack", "x_stack_cards")):
            numbers = parse_cards(values.get(cards) or "", self.cards)
            if not numbers:
                continue
            try:
                counted = x_nimmt.entry_from_dict({cards: numbers}).hornochsen()
            except ScoringError:
                continue
            converted[count] = str(counted.hand if count == "hand" else counted.x_stack)
        return converted

    def mode_for(self, datas: Sequence[Mapping[str, Any]]) -> str:
        """Card numbers when they were recorded and no count stands without its cards."""
        pairs = (("hand", "hand_cards"), ("x_stack", "x_stack_cards"))
        some_cards = any(d.get(cards) is not None for d in datas for _, cards in pairs)
        counts_only = any(
            d.get(cards) is None and d.get(count) for d in datas for count, cards in pairs
        )
        return "cards" if some_cards and not counts_only else "counts"


FORMAT = XNimmtFormat()
