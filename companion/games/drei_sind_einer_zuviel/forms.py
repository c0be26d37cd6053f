"""3 sind einer zuviel!: the form of the check page."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.games.check_forms import CheckForm, cards_field, number_field
from companion.games.drei_sind_einer_zuviel.check import DreiAnswer, check_drei_place
from scoring import ScoringError, drei_sind_einer_zuviel

DREI_CARDS = drei_sind_einer_zuviel.NUMBER_CARDS


class DreiCheckForm(CheckForm):
    row_1 = cards_field(_("Row 1 (after the 0)"), minimum=0, maximum=max(DREI_CARDS),
                        max_count=drei_sind_einer_zuviel.ROW_LIMIT,
                        help_text=_("e.g. 10 19 24"))
    row_2 = cards_field(_("Row 2 (after the 30)"), minimum=0, maximum=max(DREI_CARDS),
                        max_count=drei_sind_einer_zuviel.ROW_LIMIT)
    row_3 = cards_field(_("Row 3 (after the 60)"), minimum=0, maximum=max(DREI_CARDS),
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


