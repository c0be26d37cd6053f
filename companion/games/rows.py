"""Row games on the check page: cards revealed at once and placed on rows, lowest first
(X nimmt!, 6 nimmt!). What their round resolvers share; each game's folder keeps what is
its own (its rows, the rule anchors, the choices its engine asks for, and X nimmt!'s
X-Reihe).

- :class:`ResolvedRound`: what an answer says of the engine's resolution (pending,
  complete, waiting);
- :func:`revealed_only`: choices for cards nobody revealed are dropped;
- :func:`closing_rule`: the rule the answer links to;
- :class:`RoundForm`: the round form (rows, players with their revealed cards, the hidden
  choices made so far), with hooks for the game's rows, engine call and error fields.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.games.check_forms import MAX_NAME, CheckForm, number_field
from scoring import GameInfo, ScoringError

T = TypeVar("T")
_CHOICE = re.compile(r"^\s*(\d{1,3})\s*:\s*(\d{1,3})\s*$")


class Resolution(Protocol):
    """What an engine's ``resolve_round`` answers (``scoring.x_nimmt.RoundResolution``…)."""

    @property
    def pending(self) -> Any: ...

    @property
    def waiting(self) -> tuple[int, ...]: ...

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]: ...


class ResolvedRound:
    """The part of a round's answer (a dataclass with a ``resolution`` field) that reads the
    engine's resolution."""

    __slots__ = ()
    resolution: Resolution

    @property
    def pending(self) -> Any:
        """The choice the round waits for (the engine's ``PendingChoice``), or None."""
        return self.resolution.pending

    @property
    def complete(self) -> bool:
        return self.resolution.pending is None

    @property
    def waiting(self) -> tuple[int, ...]:
        """The revealed cards not placed yet, the pending one first."""
        return self.resolution.waiting


def revealed_only(choices: Mapping[int, T], cards: Mapping[str, int]) -> dict[int, T]:
    """The choices of cards that were revealed (revealed card → choice).

    >>> revealed_only({5: 1, 18: 0}, {"Anna": 18, "Ben": 22})
    {18: 0}
    """
    revealed = set(cards.values())
    return {card: choice for card, choice in choices.items() if card in revealed}


def closing_rule(steps: Sequence[Any], *, pending: str | None) -> str:
    """The rules page's anchor the answer ends with: the pending choice's rule, else the
    rule of the last step (``steps`` have a ``rule``), else the lowest difference.

    >>> closing_rule([], pending=None), closing_rule([], pending="rule-low-card")
    ('rule-lowest-difference', 'rule-low-card')
    """
    if pending is not None:
        return pending
    return str(steps[-1].rule) if steps else "rule-lowest-difference"


def cards_text(cards: Sequence[int]) -> str:
    """Cards as a row field shows them.

    >>> cards_text((12, 20))
    '12 20'
    """
    return " ".join(str(card) for card in cards)


def choices_text(choices: Mapping[int, int]) -> str:
    """Choices as the hidden field carries them (read back by :func:`parse_choices`).

    >>> choices_text({59: 40, 43: 1})
    '43:1,59:40'
    """
    return ",".join(f"{card}:{choice}" for card, choice in sorted(choices.items()))


def parse_choices(text: str) -> dict[int, int]:
    """"43:1,59:40" → {43: 1, 59: 40}; anything malformed is dropped (hidden fields and
    button values the page wrote itself; the engine checks what is kept).

    >>> parse_choices("43:1, 59 : 40,x:1,7")
    {43: 1, 59: 40}
    """
    choices: dict[int, int] = {}
    for item in text[:2000].split(","):
        match = _CHOICE.match(item)
        if match:
            choices[int(match.group(1))] = int(match.group(2))
    return choices


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One player's line of the round form: the name, then card and the game's fields."""

    number: int
    name: forms.BoundField
    name_column: str
    fields: tuple[tuple[str, forms.BoundField], ...]
    """(grid column, field) after the name."""


class RoundForm(CheckForm):
    """The rows and the revealed cards (with owners) of one round of a row game.

    A player's fields are ``name_<n>`` and ``card_<n>`` (and the game's own,
    :meth:`seat_fields`); each kind of choice the engine may ask for (``choice_kinds``)
    is kept in a hidden ``<kind>_choices`` and chosen by a button ``choose_<kind>``,
    as long as the table (``basis``) stays the same.
    """

    info: ClassVar[GameInfo]
    """The game (its players: as many rows of fields as its most players)."""
    last_card: ClassVar[int]
    example_players: ClassVar[tuple[str, ...]]
    """The names a round starts with when the page was not opened with players."""
    choice_kinds: ClassVar[tuple[str, ...]] = ("row",)
    seat_columns: ClassVar[tuple[str, ...]] = ("col", "col-5")
    """The grid columns of a player's name, card and own fields (:meth:`seat_fields`)."""

    basis = forms.CharField(required=False, widget=forms.HiddenInput)

    answer: Any = None
    current_basis = ""

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in self.choice_kinds:
            self.fields[f"{kind}_choices"] = forms.CharField(required=False,
                                                             widget=forms.HiddenInput)
            self.fields[f"choose_{kind}"] = forms.CharField(required=False,
                                                            widget=forms.HiddenInput)
        self.merged_choices = dict.fromkeys(self.choice_kinds, "")
        """Each kind's choices the answer used, as the hidden field carries them."""
        self.fields.update(self.own_row_fields())
        self.seat_field_names: dict[int, tuple[str, ...]] = {}
        for index in self.seats():
            name = players[index - 1] if index <= len(players) else ""
            self.fields[f"name_{index}"] = forms.CharField(
                label=_("Player"), required=False, max_length=MAX_NAME, initial=name,
            )
            self.fields[f"card_{index}"] = number_field(
                _("Card"), minimum=1, maximum=self.last_card, required=False)
            own = self.seat_fields(index)
            self.fields.update(own)
            self.seat_field_names[index] = tuple(own)

    # ------------------------------------------------------------ the game's part

    def row_names(self) -> list[str]:
        """The rows' field names, top to bottom."""
        raise NotImplementedError

    def own_row_fields(self) -> dict[str, forms.Field]:
        """The rows' fields, if the game makes them per form (else declared on the form)."""
        return {}

    def seat_fields(self, index: int) -> dict[str, forms.Field]:
        """A player's fields beside name and card (X nimmt!: the X-Reihe)."""
        return {}

    def seat_basis(self, index: int) -> str:
        """What else of a player makes the table (X nimmt!: ``/`` and the X-Reihe)."""
        return ""

    def resolve(self, rows: list[Any], plays: dict[str, int],
                choices: dict[str, dict[int, int]]) -> Any:
        """The game's answer (its check function) for this round."""
        raise NotImplementedError

    def used_choices(self, answer: Any) -> dict[str, Mapping[int, int]]:
        """Each kind's choices the answer used."""
        return {"row": answer.choices}

    def field_of(self, err: ScoringError, rows: list[Any]) -> str | None:
        """The row or revealed card an engine refusal is about (built from
        :meth:`revealed_field` and :meth:`row_field`)."""
        raise NotImplementedError

    def next_initial(self) -> dict[str, str]:
        """The next round's table: the rows the resolved round left (and the game's own)."""
        return {name: cards_text(row)
                for name, row in zip(self.row_names(), self.answer.resolution.rows,
                                     strict=True)}

    # ------------------------------------------------------------ shared

    def seats(self) -> range:
        return range(1, self.info.max_players + 1)

    @classmethod
    def on_page(cls, data: Mapping[str, Any] | None, *, prefix: str, players: Sequence[str],
                query: Mapping[str, str]) -> Self:
        return cls(data, prefix=prefix, players=players or cls.example_players)

    def next_form(self) -> Self | None:
        """"Next round" under a resolved round: a blank round on the table it left."""
        if self.answer is not None and self.answer.complete and self.data.get(
                self.add_prefix("next")):
            names = [(self.cleaned_data.get(f"name_{index}") or "").strip()
                     for index in self.seats()]
            return type(self)(prefix=self.prefix, players=names, initial=self.next_initial())
        return None

    @property
    def merged_row_choices(self) -> str:
        return self.merged_choices["row"]

    def row_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.row_names()]

    def player_rows(self) -> list[SeatRow]:
        """Per player: name, card and the game's own fields, each with its column
        (``templates/rules/_round_seats.html``)."""
        name_column, *columns = self.seat_columns
        return [
            SeatRow(index, self[f"name_{index}"], name_column, tuple(zip(
                columns, (self[f"card_{index}"],
                          *(self[name] for name in self.seat_field_names[index])),
                strict=True)))
            for index in self.seats()
        ]

    def player_name(self, index: int) -> str:
        """The name of the player in row ``index``, "Player <n>" if left empty."""
        name = (self.cleaned_data.get(f"name_{index}") or "").strip()
        return name or gettext("Player %(number)s") % {"number": index}

    def revealed_field(self, card: int) -> str | None:
        """The first player's field that revealed ``card``, if any."""
        return next((f"card_{index}" for index in self.seats()
                     if self.cleaned_data.get(f"card_{index}") == card), None)

    def row_field(self, card: int, rows: list[Any]) -> str | None:
        """The field of the row that holds ``card``, if any."""
        return next((name for name, row in zip(self.row_names(), rows, strict=True)
                     if card in row), None)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        rows = [data[name] for name in self.row_names()]
        plays: dict[str, int] = {}
        for index in self.seats():
            card = data.get(f"card_{index}")
            if card is None:
                continue
            name = self.player_name(index)
            if name.casefold() in (known.casefold() for known in plays):
                self.add_error(f"name_{index}", gettext("%(name)s is listed twice.") % {
                    "name": name})
                return data
            plays[name] = card
        least = self.info.min_players
        if len(plays) < least:
            self.add_error("card_1" if not plays else "card_2", ngettext(
                "A round needs the revealed cards of at least %(count)d player.",
                "A round needs the revealed cards of at least %(count)d players.",
                least) % {"count": least})
            return data
        basis = "|".join([*(cards_text(row) for row in rows),
                          *(f"{self.player_name(index)}={data[f'card_{index}']}"
                            f"{self.seat_basis(index)}"
                            for index in self.seats() if data.get(f"card_{index}") is not None)])
        self.current_basis = basis
        choices: dict[str, dict[int, int]] = {kind: {} for kind in self.choice_kinds}
        if data.get("basis") == basis:
            for kind in self.choice_kinds:
                choices[kind] = parse_choices(data.get(f"{kind}_choices") or "")
                choices[kind].update(parse_choices(data.get(f"choose_{kind}") or ""))
        # else the table changed since the choices were made: the round starts afresh.
        self.answer = self.ask(lambda: self.resolve(rows, plays, choices),
                               field_of=lambda err: self.field_of(err, rows))
        if self.answer is not None:
            for kind, used in self.used_choices(self.answer).items():
                self.merged_choices[kind] = choices_text(used)
        return data
