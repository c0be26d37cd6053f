"""X nimmt!: the forms of the check page (a round, a card joining an X-Reihe)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.games.check_forms import CheckForm, cards_field, number_field
from companion.games.rows import RoundForm, cards_text
from companion.games.x_nimmt.check import (
    X_ROW_CARDS,
    RoundChoices,
    XRoundAnswer,
    XRowAnswer,
    check_x_nimmt_round,
    check_x_row,
)
from scoring import GAMES, ScoringError


class XRoundForm(RoundForm):
    """The three rows and the revealed cards (with owners, and each player's X-Reihe) of
    one round."""

    info = GAMES["x-nimmt"]
    last_card = 100
    example_players = ("Anna", "Ben", "Cem")
    choice_kinds = ("row", "x")
    seat_columns = ("col-5", "col-3", "col-4")

    row_3 = cards_field(_("3-row"), maximum=100, max_count=2,
                        help_text=_("Cards left to right, e.g. 12 20"))
    row_4 = cards_field(_("4-row"), maximum=100, max_count=3)
    row_5 = cards_field(_("5-row"), maximum=100, max_count=4)

    answer: XRoundAnswer | None = None

    @property
    def merged_x_choices(self) -> str:
        return self.merged_choices["x"]

    def row_names(self) -> list[str]:
        return [f"row_{size}" for size in X_ROW_CARDS]

    def seat_fields(self, index: int) -> dict[str, forms.Field]:
        return {f"xrow_{index}": cards_field(_("X-Reihe"), maximum=100, max_count=100)}

    def seat_basis(self, index: int) -> str:
        return "/" + cards_text(self.cleaned_data[f"xrow_{index}"])

    def x_rows(self) -> dict[str, tuple[int, ...]]:
        """Each revealing player's X-Reihe by name."""
        return {self.player_name(index): tuple(self.cleaned_data[f"xrow_{index}"])
                for index in self.seats() if self.cleaned_data.get(f"card_{index}") is not None}

    def resolve(self, rows: list[Any], plays: dict[str, int],
                choices: dict[str, dict[int, int]]) -> XRoundAnswer:
        return check_x_nimmt_round(rows, plays, RoundChoices(choices["row"], choices["x"]),
                                   x_rows=self.x_rows())

    def used_choices(self, answer: XRoundAnswer) -> dict[str, Mapping[int, int]]:
        return {"row": answer.choices.rows, "x": answer.choices.x_cards}

    def field_of(self, err: ScoringError, rows: list[Any]) -> str | None:
        """The row, revealed card or X-Reihe the engine's refusal is about."""
        size = err.params.get("size")
        if err.code.startswith("row_") and size in X_ROW_CARDS:
            return f"row_{size}"
        card = err.params.get("card", err.params.get("right"))
        if not isinstance(card, int):
            return None
        revealed = self.revealed_field(card)
        if err.code != "x_row_not_ascending" and revealed:
            return revealed
        xrow_field = {self.player_name(index): f"xrow_{index}" for index in self.seats()
                      if self.cleaned_data.get(f"card_{index}") is not None}
        for name, x_row in self.x_rows().items():
            if card in x_row:
                return xrow_field[name]
        return self.row_field(card, rows)

    def next_initial(self) -> dict[str, str]:
        """The rows and X-rows the resolved round left, no cards."""
        initial = super().next_initial()
        x_rows = self.answer.resolution.x_rows or {}
        for index in self.seats():
            name = (self.cleaned_data.get(f"name_{index}") or "").strip()
            initial[f"xrow_{index}"] = cards_text(x_rows.get(name, ()))
        return initial


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


