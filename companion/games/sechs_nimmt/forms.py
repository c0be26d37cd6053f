"""6 nimmt!: the form of the check page (a round: four rows and the revealed cards)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Self

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.games.check_forms import MAX_NAME, CheckForm, cards_field, number_field
from companion.games.sechs_nimmt.check import SechsRoundAnswer, check_sechs_nimmt_round
from scoring import GAMES, ScoringError
from scoring.sechs_nimmt import CARDS, ROW_LIMIT, ROWS

INFO = GAMES["sechs-nimmt"]
LAST_CARD = CARDS[-1]
EXAMPLE_PLAYERS = ("Anna", "Ben", "Cem", "Dora")
"""The names a round starts with when the page was not opened with players."""
_CHOICE = re.compile(r"^\s*(\d{1,3})\s*:\s*(\d{1,3})\s*$")


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(str(card) for card in cards)


def _choices_text(choices: Mapping[int, int]) -> str:
    return ",".join(f"{card}:{choice}" for card, choice in sorted(choices.items()))


def _parse_choices(text: str) -> dict[int, int]:
    """"43:1,59:0" → {43: 1, 59: 0}; anything malformed is dropped (hidden fields and
    button values the page wrote itself; the engine checks what is kept)."""
    choices: dict[int, int] = {}
    for item in text[:2000].split(","):
        match = _CHOICE.match(item)
        if match:
            choices[int(match.group(1))] = int(match.group(2))
    return choices


class SechsRoundForm(CheckForm):
    """The four rows and the revealed cards (with owners) of one round."""

    row_choices = forms.CharField(required=False, widget=forms.HiddenInput)
    basis = forms.CharField(required=False, widget=forms.HiddenInput)
    choose_row = forms.CharField(required=False, widget=forms.HiddenInput)

    answer: SechsRoundAnswer | None = None
    merged_row_choices = ""
    current_basis = ""

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for number in range(1, ROWS + 1):
            self.fields[f"row_{number}"] = cards_field(
                _("Row %(number)s") % {"number": number}, maximum=LAST_CARD,
                max_count=ROW_LIMIT, required=True,
                help_text=_("Cards left to right, e.g. 12 20") if number == 1 else "",
            )
        for index in range(1, INFO.max_players + 1):
            name = players[index - 1] if index <= len(players) else ""
            self.fields[f"name_{index}"] = forms.CharField(
                label=_("Player"), required=False, max_length=MAX_NAME, initial=name,
            )
            self.fields[f"card_{index}"] = number_field(
                _("Card"), minimum=1, maximum=LAST_CARD, required=False)

    @classmethod
    def on_page(cls, data: Mapping[str, Any] | None, *, prefix: str, players: Sequence[str],
                query: Mapping[str, str]) -> Self:
        return cls(data, prefix=prefix, players=players or EXAMPLE_PLAYERS)

    def next_form(self) -> SechsRoundForm | None:
        """"Next round" under a resolved round: a blank round on the table it left."""
        if self.answer is not None and self.answer.complete and self.data.get(
                self.add_prefix("next")):
            initial = {f"row_{number}": _cards_text(row)
                       for number, row in self.answer.rows_after}
            names = [(self.cleaned_data.get(f"name_{index}") or "").strip()
                     for index in range(1, INFO.max_players + 1)]
            return SechsRoundForm(prefix=self.prefix, players=names, initial=initial)
        return None

    def row_fields(self) -> list[forms.BoundField]:
        return [self[f"row_{number}"] for number in range(1, ROWS + 1)]

    def player_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"name_{i}"], self[f"card_{i}"]) for i in range(1, INFO.max_players + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        rows = [data[f"row_{number}"] for number in range(1, ROWS + 1)]
        plays: dict[str, int] = {}
        field_of_card: dict[int, str] = {}
        for index in range(1, INFO.max_players + 1):
            card = data.get(f"card_{index}")
            if card is None:
                continue
            name = (data.get(f"name_{index}") or "").strip()
            name = name or gettext("Player %(number)s") % {"number": index}
            if name.casefold() in (known.casefold() for known in plays):
                self.add_error(f"name_{index}", gettext("%(name)s is listed twice.") % {
                    "name": name})
                return data
            plays[name] = card
            field_of_card.setdefault(card, f"card_{index}")
        if len(plays) < INFO.min_players:
            self.add_error("card_1" if not plays else "card_2", ngettext(
                "A round needs the revealed cards of at least %(count)d player.",
                "A round needs the revealed cards of at least %(count)d players.",
                INFO.min_players) % {"count": INFO.min_players})
            return data
        basis = "|".join([*(_cards_text(row) for row in rows),
                          *(f"{name}={card}" for name, card in plays.items())])
        self.current_basis = basis
        if data.get("basis") == basis:
            choices = _parse_choices(data.get("row_choices") or "")
            choices.update(_parse_choices(data.get("choose_row") or ""))
        else:
            # The table changed since the choices were made: start the round afresh.
            choices = {}

        def field_of(err: ScoringError) -> str | None:
            """The row or revealed card the engine's refusal is about."""
            row = err.params.get("row")
            if err.code.startswith("row_") and isinstance(row, int) and 1 <= row <= ROWS:
                return f"row_{row}"
            card = err.params.get("card")
            if not isinstance(card, int):
                return None
            if card in field_of_card:
                return field_of_card[card]
            return next((f"row_{number}" for number, row_cards in enumerate(rows, start=1)
                         if card in row_cards), None)

        self.answer = self.ask(lambda: check_sechs_nimmt_round(rows, plays, choices),
                               field_of=field_of)
        if self.answer is not None:
            self.merged_row_choices = _choices_text(self.answer.choices)
        return data
