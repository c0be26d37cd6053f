"""6 nimmt!: the form of the check page (a round: four rows and the revealed cards)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from companion.games.check_forms import cards_field
from companion.games.rows import RoundForm
from companion.games.sechs_nimmt.check import SechsRoundAnswer, check_sechs_nimmt_round
from scoring import GAMES, ScoringError
from scoring.sechs_nimmt import CARDS, ROW_LIMIT, ROWS


class SechsRoundForm(RoundForm):
    """The four rows and the revealed cards (with owners) of one round."""

    info = GAMES["sechs-nimmt"]
    last_card = CARDS[-1]
    example_players = ("Anna", "Ben", "Cem", "Dora")

    answer: SechsRoundAnswer | None = None

    def row_names(self) -> list[str]:
        return [f"row_{number}" for number in range(1, ROWS + 1)]

    def own_row_fields(self) -> dict[str, forms.Field]:
        fields: dict[str, forms.Field] = {}
        for number in range(1, ROWS + 1):
            field = cards_field(
                _("Row %(number)s") % {"number": number}, maximum=self.last_card,
                max_count=ROW_LIMIT, required=True,
                help_text=_("Cards left to right, e.g. 12 20") if number == 1 else "",
            )
            # The engine's words (a row is never empty), not "This field is required.".
            field.error_messages["required"] = gettext(
                "Row {row} is empty: every row always holds a card.").format(row=number)
            fields[f"row_{number}"] = field
        return fields

    def resolve(self, rows: list[Any], plays: dict[str, int],
                choices: dict[str, dict[int, int]]) -> SechsRoundAnswer:
        return check_sechs_nimmt_round(rows, plays, choices["row"])

    def used_choices(self, answer: SechsRoundAnswer) -> dict[str, Mapping[int, int]]:
        return {"row": answer.choices}

    def field_of(self, err: ScoringError, rows: list[Any]) -> str | None:
        row = err.params.get("row")
        if err.code.startswith("row_") and isinstance(row, int) and 1 <= row <= ROWS:
            return f"row_{row}"
        card = err.params.get("card")
        if not isinstance(card, int):
            return None
        return self.revealed_field(card) or self.row_field(card, rows)
