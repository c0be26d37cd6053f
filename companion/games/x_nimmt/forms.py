"""X nimmt!: the forms of the check page (a round, a card joining an X-Reihe)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Self

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.games.check_forms import MAX_NAME, CheckForm, cards_field, number_field
from companion.games.x_nimmt.check import (
    X_ROW_CARDS,
    RoundChoices,
    XRoundAnswer,
    XRowAnswer,
    check_x_nimmt_round,
    check_x_row,
)
from scoring import GAMES, ScoringError


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(str(card) for card in cards)


MAX_X_PLAYERS = GAMES["x-nimmt"].max_players
EXAMPLE_PLAYERS = ("Anna", "Ben", "Cem")
"""The names a round starts with when the page was not opened with players."""
_CHOICE = re.compile(r"^\s*(\d{1,3})\s*:\s*(\d{1,3})\s*$")


def _choices_text(choices: Mapping[int, int]) -> str:
    return ",".join(f"{card}:{choice}" for card, choice in sorted(choices.items()))


def _parse_choices(text: str) -> dict[int, int]:
    """"43:1,59:40" → {43: 1, 59: 40}; anything malformed is dropped (hidden fields
    and button values the page wrote itself; the engine checks what is kept)."""
    choices: dict[int, int] = {}
    for item in text[:2000].split(","):
        match = _CHOICE.match(item)
        if match:
            choices[int(match.group(1))] = int(match.group(2))
    return choices


class XRoundForm(CheckForm):
    """The three rows and the revealed cards (with owners) of one round."""

    row_3 = cards_field(_("3-row"), maximum=100, max_count=2,
                        help_text=_("Cards left to right, e.g. 12 20"))
    row_4 = cards_field(_("4-row"), maximum=100, max_count=3)
    row_5 = cards_field(_("5-row"), maximum=100, max_count=4)
    row_choices = forms.CharField(required=False, widget=forms.HiddenInput)
    x_choices = forms.CharField(required=False, widget=forms.HiddenInput)
    basis = forms.CharField(required=False, widget=forms.HiddenInput)
    choose_row = forms.CharField(required=False, widget=forms.HiddenInput)
    choose_x = forms.CharField(required=False, widget=forms.HiddenInput)

    answer: XRoundAnswer | None = None
    merged_row_choices = ""
    merged_x_choices = ""
    current_basis = ""

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for index in range(1, MAX_X_PLAYERS + 1):
            name = players[index - 1] if index <= len(players) else ""
            self.fields[f"name_{index}"] = forms.CharField(
                label=_("Player"), required=False, max_length=MAX_NAME, initial=name,
            )
            self.fields[f"card_{index}"] = number_field(
                _("Card"), minimum=1, maximum=100, required=False)
            self.fields[f"xrow_{index}"] = cards_field(_("X-Reihe"), maximum=100, max_count=100)

    @classmethod
    def on_page(cls, data: Mapping[str, Any] | None, *, prefix: str, players: Sequence[str],
                query: Mapping[str, str]) -> Self:
        return cls(data, prefix=prefix, players=players or EXAMPLE_PLAYERS)

    def next_form(self) -> XRoundForm | None:
        """"Next round" under a resolved round: a blank round on the table it left."""
        if self.answer is not None and self.answer.complete and self.data.get(
                self.add_prefix("next")):
            return next_round_form(self)
        return None

    def player_rows(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (self[f"name_{i}"], self[f"card_{i}"], self[f"xrow_{i}"])
            for i in range(1, MAX_X_PLAYERS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        rows = [data["row_3"], data["row_4"], data["row_5"]]
        plays: dict[str, int] = {}
        x_rows: dict[str, tuple[int, ...]] = {}
        field_of_card: dict[int, str] = {}
        for index in range(1, MAX_X_PLAYERS + 1):
            card = data.get(f"card_{index}")
            name = (data.get(f"name_{index}") or "").strip()
            if card is None:
                continue
            name = name or gettext("Player %(number)s") % {"number": index}
            if name.casefold() in (known.casefold() for known in plays):
                self.add_error(f"name_{index}", gettext("%(name)s is listed twice.") % {
                    "name": name})
                return data
            plays[name] = card
            x_rows[name] = tuple(data[f"xrow_{index}"])
            field_of_card.setdefault(card, f"card_{index}")
        basis = "|".join(
            [*(_cards_text(row) for row in rows),
             *(f"{name}={card}/{_cards_text(x_rows[name])}" for name, card in plays.items())]
        )
        self.current_basis = basis
        if data.get("basis") == basis:
            row_choices = _parse_choices(data.get("row_choices") or "")
            x_choices = _parse_choices(data.get("x_choices") or "")
            row_choices.update(_parse_choices(data.get("choose_row") or ""))
            x_choices.update(_parse_choices(data.get("choose_x") or ""))
        else:
            # The table changed since the choices were made: start the round afresh.
            row_choices, x_choices = {}, {}
        if len(plays) < GAMES["x-nimmt"].min_players:
            self.add_error("card_1" if not plays else "card_2", ngettext(
                "A round needs the revealed cards of at least %(count)d player.",
                "A round needs the revealed cards of at least %(count)d players.",
                GAMES["x-nimmt"].min_players) % {"count": GAMES["x-nimmt"].min_players})
            return data

        xrow_field = {name: f"xrow_{index}" for index in range(1, MAX_X_PLAYERS + 1)
                      if (name := (data.get(f"name_{index}") or "").strip()
                          or gettext("Player %(number)s") % {"number": index}) in x_rows}

        def field_of(err: ScoringError) -> str | None:
            """The row, revealed card or X-Reihe the engine's refusal is about."""
            size = err.params.get("size")
            if err.code.startswith("row_") and size in X_ROW_CARDS:
                return f"row_{size}"
            card = err.params.get("card", err.params.get("right"))
            if not isinstance(card, int):
                return None
            if err.code != "x_row_not_ascending" and card in field_of_card:
                return field_of_card[card]
            for name, x_row in x_rows.items():
                if card in x_row:
                    return xrow_field.get(name)
            return next((f"row_{size}" for size, row in zip(X_ROW_CARDS, rows, strict=True)
                         if card in row), None)

        self.answer = self.ask(lambda: check_x_nimmt_round(
            rows, plays, RoundChoices(row_choices, x_choices), x_rows=x_rows),
            field_of=field_of)
        if self.answer is not None:
            self.merged_row_choices = _choices_text(self.answer.choices.rows)
            self.merged_x_choices = _choices_text(self.answer.choices.x_cards)
        return data


def next_round_form(form: XRoundForm) -> XRoundForm:
    """A blank round on the table a resolved round left: its rows and X-rows, no cards."""
    assert form.answer is not None and form.answer.complete
    resolution = form.answer.resolution
    initial: dict[str, str] = {
        f"row_{size}": _cards_text(row)
        for size, row in zip(X_ROW_CARDS, resolution.rows, strict=True)
    }
    x_rows = resolution.x_rows or {}
    names = []
    for index in range(1, MAX_X_PLAYERS + 1):
        name = (form.cleaned_data.get(f"name_{index}") or "").strip()
        names.append(name)
        initial[f"xrow_{index}"] = _cards_text(x_rows.get(name, ()))
    return XRoundForm(prefix=form.prefix, players=names, initial=initial)


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


