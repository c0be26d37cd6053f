"""6 nimmt!: how a deal is entered on the score sheet (Hornochsen in a pile, or its cards)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from companion.games.entry import CARDS, EntryFormat, Mode, count_field
from companion.models import Seat
from companion.parsing import CardNumbersField, parse_card_numbers
from scoring import ScoringError, sechs_nimmt

LAST_CARD = sechs_nimmt.CARDS[-1]
"""104: the number cards of 6 nimmt! go further than X nimmt!'s and 11 nimmt!'s."""


def parse_cards(value: object) -> list[int]:
    """The card numbers of the pile field, read leniently ([] when they cannot be read;
    the field itself refuses such text with a message).

    >>> parse_cards("104, 55 3"), parse_cards("abc")
    ([104, 55, 3], [])
    """
    if isinstance(value, list | tuple):
        return [int(card) for card in value]
    try:
        return parse_card_numbers(str(value or ""), minimum=1, maximum=LAST_CARD,
                                  max_count=LAST_CARD, allow_duplicates=True)
    except ValidationError:
        return []


class SechsNimmtFormat(EntryFormat):
    """6 nimmt!: the Hornochsen in each player's pile, as a count or as card numbers."""

    modes = (Mode("counts", _("Hornochsen count")), Mode("cards", _("Card numbers")))
    cards_label = _("cards (Hornochsen):")
    count_hint = _("Count the Hornochsen on the cards in your pile.")

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        if mode == "cards":
            return {"cards": CardNumbersField(
                label=_("Cards in the pile"), minimum=1, maximum=LAST_CARD,
                max_count=LAST_CARD, max_length=400, widget=forms.TextInput(attrs=dict(CARDS)),
            )}
        return {"hornochsen": count_field(_("Hornochsen in the pile"))}

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        if mode == "cards":
            return {"cards": parse_cards(values.get("cards") or "")}
        return {"hornochsen": values.get("hornochsen") or 0}

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        if mode == "cards":
            return {"cards": ", ".join(str(card) for card in data.get("cards") or ())}
        # The engine's count: from the cards where cards were recorded.
        return {"hornochsen": sechs_nimmt.entry_from_dict(data).count() if data else 0}

    def convert(self, values: Mapping[str, str], mode: str) -> dict[str, str]:
        """Into counts: the Hornochsen of the typed cards (when they are valid cards)."""
        converted = dict(values)
        numbers = parse_cards(values.get("cards") or "")
        if mode != "counts" or not numbers:
            return converted
        with contextlib.suppress(ScoringError):
            converted["hornochsen"] = str(sechs_nimmt.Entry(cards=tuple(numbers)).count())
        return converted

    def mode_for(self, datas: Sequence[Mapping[str, Any]]) -> str:
        """Card numbers when they were recorded and no count stands without its cards."""
        some_cards = any(d.get("cards") is not None for d in datas)
        counts_only = any(d.get("cards") is None and d.get("hornochsen") for d in datas)
        return "cards" if some_cards and not counts_only else "counts"


FORMAT = SechsNimmtFormat()
