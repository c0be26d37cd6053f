"""What the check pages' forms of every game share: fields, the players, the base form.

Each game's forms live in its folder (``companion/games/<game>/forms.py``). They only
parse: card numbers and counts through :mod:`companion.parsing`, players and the
helpers' URL state here. The answer comes from one pure function per game in the
game's ``check`` module (``form.answer``); engine errors and the checks' refusals
become form errors in one place, :meth:`CheckForm.ask`, at the field they are about.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from companion.games.checks import Refusal, check_player_count
from companion.games.messages import message_for
from companion.parsing import CardNumbersField, WholeNumberField
from scoring import ScoringError

T = TypeVar("T")

LIST_ATTRS = {"inputmode": "decimal", "autocomplete": "off", "autocapitalize": "off"}
NUMBER_ATTRS = {"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]*"}
MAX_NAME = 40
"""The longest player name (as on the score sheet)."""


def cards_field(label: Any = "", *, maximum: int, max_count: int, minimum: int = 1,
                required: bool = False, help_text: Any = "",
                allow_duplicates: bool = False) -> CardNumbersField:
    """Card numbers typed in one field: "10 19 24" or "10, 19, 24"."""
    return CardNumbersField(
        label=label, minimum=minimum, maximum=maximum, max_count=max_count, required=required,
        help_text=help_text, allow_duplicates=allow_duplicates,
        widget=forms.TextInput(attrs=LIST_ATTRS),
    )


def number_field(label: Any, *, minimum: int, maximum: int, required: bool = True,
                 **kwargs: Any) -> WholeNumberField:
    return WholeNumberField(
        label=label, minimum=minimum, maximum=maximum, required=required,
        widget=forms.NumberInput(attrs=NUMBER_ATTRS), **kwargs,
    )


def parse_players(raw: str, slug: str) -> list[str]:
    """``Anna, Ben, Cem`` as names in seat order, refused with a clear message when a name
    is too long or twice, or the game is not played by that many.

    >>> parse_players(" Anna, Ben ,Cem", "elf-nimmt")
    ['Anna', 'Ben', 'Cem']
    """
    names = [name.strip() for name in raw.split(",") if name.strip()]
    if "\x00" in raw:
        raise ValidationError(gettext("A name cannot contain a NUL character."), code="nul")
    for name in names:
        if len(name) > MAX_NAME:
            raise ValidationError(
                gettext("A name has at most %(most)s characters: “%(name)s…” has %(count)s.")
                % {"most": MAX_NAME, "name": name[:20], "count": len(name)}, code="too_long")
    folded = [name.casefold() for name in names]
    for index, name in enumerate(folded):
        if name in folded[:index]:
            raise ValidationError(gettext("%(name)s is listed twice.") % {
                "name": names[index]}, code="twice")
    try:
        check_player_count(slug, len(names))
    except Refusal as refusal:
        raise ValidationError(refusal.message, code=refusal.code) from refusal
    return names


class CheckForm(forms.Form):
    """A check: parses its fields, then :meth:`ask` puts the answer or the refusal in place."""

    answer: Any = None

    @classmethod
    def on_page(cls, data: Mapping[str, Any] | None, *, prefix: str, players: Sequence[str],
                query: Mapping[str, str]) -> Self:
        """The form as its game's check page shows it: bound to ``data`` (this check was
        posted) or blank. ``players`` (``?players=``, checked) and ``query`` (the page's
        query) let a game's form start from the table that opened the page."""
        return cls(data, prefix=prefix)

    def next_form(self) -> CheckForm | None:
        """The form the page shows after this one was answered; None: this one."""
        return None

    def ask(self, call: Callable[[], T], *, field_of: Callable[[ScoringError], str | None]
            = lambda err: None) -> T | None:
        """``call()``'s answer; a :class:`Refusal` or engine error becomes an error at its
        field (``field_of`` finds the field of an engine error), else at the form."""
        try:
            return call()
        except Refusal as refusal:
            field = refusal.field if refusal.field in self.fields else None
            self.add_error(field, ValidationError(refusal.message, code=refusal.code))
        except ScoringError as err:
            field = field_of(err)
            self.add_error(field if field in self.fields else None,
                           ValidationError(message_for(err), code=err.code))
        return None


# ---------------------------------------------------------------------- live helpers
#
# Both helpers keep their whole state in the query string. An action (a GET
# with ``take=…`` or ``target=…&card=…``) leads to a new state URL that also
# names what just happened (``ev=…``), so reloading it repeats nothing and
# still shows the note.


class PlayersField(forms.CharField):
    """``Anna, Ben, Cem``: the players in seat order for ``slug`` (see :func:`parse_players`)."""

    def __init__(self, slug: str, **kwargs: Any) -> None:
        self.slug = slug
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 7 * (MAX_NAME + 2))
        super().__init__(**kwargs)

    def clean(self, value: Any) -> list[str]:  # type: ignore[override]
        text = super().clean(value)
        return parse_players(text, self.slug) if text else []


