"""One way to read a number: whole numbers in a range and lists of card numbers.

Every number that reaches the app from outside (a form field, a GET or POST
value a view reads, a value in an imported file) goes through
:func:`parse_whole_number` or :func:`parse_card_numbers`. Both raise
:class:`django.core.exceptions.ValidationError` with a message in the user's
language and one of these codes:

``required``
    nothing was typed (only from :func:`parse_whole_number`; an empty card list
    is an empty list);
``not_a_number``
    anything but the digits 0–9 (with a leading ``-`` where negative numbers
    are allowed);
``too_small`` / ``too_large``
    outside the range;
``too_long``
    more cards than the list can hold;
``duplicate``
    the same card twice in one list.

What counts as a digit, decided here once:

- the ASCII digits 0–9, and the fullwidth digits ０–９ that some phone
  keyboards (Japanese and Chinese input methods) type; those are read as 0–9.
  Nothing else: ``str.isdigit()`` accepts "²", "①" or Arabic-Indic digits, and
  ``int()`` then either fails or reads a number nobody meant. They are refused
  with the same message as letters;
- invisible formatting characters (zero-width spaces, bidi marks, which
  copy-and-paste brings along) are ignored, as is white space around a number;
- the length is checked before ``int()`` (Python refuses to read more than
  4,300 digits, and a long number is out of range anyway);
- a NUL character is never accepted (PostgreSQL refuses it in text).

>>> parse_whole_number(" 7 ", minimum=1, maximum=10)
7
>>> parse_card_numbers("55, 3 17", minimum=1, maximum=104, max_count=10)
[55, 3, 17]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, overload

from django import forms
from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

MAX_ID = 2**63 - 1
"""The largest primary key the database can hold (a 64-bit integer)."""

MAX_SMALL = 32767
"""The largest value of a ``PositiveSmallIntegerField`` on every database."""

MAX_POSITIVE = 2147483647
"""The largest value of a ``PositiveIntegerField`` / ``IntegerField``."""

_FULLWIDTH = str.maketrans({chr(0xFF10 + d): str(d) for d in range(10)} | {"\uff0d": "-",
                                                                            "\u2212": "-"})
_SEPARATORS = re.compile(r"[\s,;.]+")
_TOKEN_SHOWN = 12
"""How many characters of a refused token the message repeats."""

MESSAGES: dict[str, Any] = {
    "required": _("Enter a number."),
    "not_a_number": _("Enter a whole number with the digits 0–9."),
    "too_small": _("Enter a number of at least %(minimum)s."),
    "too_large": _("Enter a number of at most %(maximum)s."),
    "card_not_a_number": _("“%(token)s” is not a card number."),
    "card_out_of_range": _("There is no card %(token)s: the cards go from %(minimum)s to "
                           "%(maximum)s."),
    "duplicate": _("Card %(card)s is in the list twice."),
    "too_long": ngettext_lazy("Enter at most %(max_count)d card.",
                              "Enter at most %(max_count)d cards.", "max_count"),
}


def _visible(text: str) -> str:
    """``text`` without invisible formatting characters (zero-width, bidi marks)."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def _shown(token: str) -> str:
    return token if len(token) <= _TOKEN_SHOWN else token[: _TOKEN_SHOWN - 1] + "…"


def _read(text: str, *, minimum: int, maximum: int) -> tuple[int | None, str]:
    """The number in ``text`` and ``""``, or ``None`` and the refusal's code."""
    digits = text.translate(_FULLWIDTH)
    negative = digits.startswith("-")
    if negative:
        digits = digits[1:]
    if not digits or not digits.isascii() or not digits.isdigit():
        return None, "not_a_number"
    if negative and minimum >= 0:
        return None, "too_small"
    significant = digits.lstrip("0")
    limit = len(str(max(abs(minimum), abs(maximum))))
    if len(significant) > limit:
        return None, "too_small" if negative else "too_large"
    number = -int(significant or "0") if negative else int(significant or "0")
    if number < minimum:
        return None, "too_small"
    if number > maximum:
        return None, "too_large"
    return number, ""


def parse_whole_number(value: object, *, minimum: int, maximum: int) -> int:
    """The whole number ``value`` stands for, between ``minimum`` and ``maximum``.

    ``value`` is what arrived: a string (from a form, the URL, a file) or an
    int (from a JSON file; ``True``/``False`` and floats are not numbers here).

    >>> parse_whole_number("０１２", minimum=0, maximum=99)
    12
    >>> parse_whole_number("-3", minimum=-10, maximum=10)
    -3
    >>> parse_whole_number("²", minimum=0, maximum=9)
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['Enter a whole number with the digits 0–9.']
    >>> parse_whole_number("9" * 5000, minimum=0, maximum=999)
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['Enter a number of at most 999.']
    """
    params = {"minimum": minimum, "maximum": maximum}
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValidationError(MESSAGES["not_a_number"], code="not_a_number", params=params)
    text = str(value) if isinstance(value, int) else _visible(value).strip()
    if not text:
        raise ValidationError(MESSAGES["required"], code="required", params=params)
    number, code = _read(text, minimum=minimum, maximum=maximum)
    if number is None:
        raise ValidationError(MESSAGES[code], code=code, params=params)
    return number


def parse_card_numbers(
    value: str, *, minimum: int, maximum: int, max_count: int, allow_duplicates: bool = False
) -> list[int]:
    """The card numbers typed in one field, in the order typed.

    Separated by spaces, commas, semicolons or dots ("10 19, 24; 7."). An
    empty field is an empty list. Each card must lie between ``minimum`` and
    ``maximum``; at most ``max_count`` cards; no card twice unless
    ``allow_duplicates``.

    >>> parse_card_numbers(" 10 19,24; 7. ", minimum=1, maximum=104, max_count=10)
    [10, 19, 24, 7]
    >>> parse_card_numbers("", minimum=1, maximum=104, max_count=10)
    []
    >>> parse_card_numbers("12 ①", minimum=1, maximum=104, max_count=10)
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['“①” is not a card number.']
    >>> parse_card_numbers("5 5", minimum=1, maximum=104, max_count=10)
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['Card 5 is in the list twice.']
    """
    if not isinstance(value, str):
        raise ValidationError(MESSAGES["not_a_number"], code="not_a_number")
    tokens = [token for token in _SEPARATORS.split(_visible(value).strip()) if token]
    if len(tokens) > max_count:
        raise ValidationError(
            MESSAGES["too_long"], code="too_long", params={"max_count": max_count}
        )
    cards: list[int] = []
    seen: set[int] = set()
    for token in tokens:
        params = {"token": _shown(token), "minimum": minimum, "maximum": maximum}
        card, code = _read(token, minimum=minimum, maximum=maximum)
        if card is None:
            if code == "not_a_number":
                raise ValidationError(
                    MESSAGES["card_not_a_number"], code="not_a_number", params=params
                )
            raise ValidationError(MESSAGES["card_out_of_range"], code=code, params=params)
        if card in seen and not allow_duplicates:
            raise ValidationError(MESSAGES["duplicate"], code="duplicate", params={"card": card})
        seen.add(card)
        cards.append(card)
    return cards


# ------------------------------------------------------------------------- form fields


class WholeNumberField(forms.Field):
    """A whole number between ``minimum`` and ``maximum``, read by :func:`parse_whole_number`.

    Empty is ``None`` (or a refusal when ``required``). The widget is a number
    input with the numeric keyboard and the range as ``min``/``max``.
    """

    widget = forms.NumberInput

    def __init__(self, *, minimum: int, maximum: int, **kwargs: Any) -> None:
        self.minimum = minimum
        self.maximum = maximum
        super().__init__(**kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        if isinstance(widget, forms.NumberInput):
            attrs.setdefault("min", self.minimum)
            attrs.setdefault("max", self.maximum)
            attrs.setdefault("inputmode", "numeric")
        return attrs

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values or (isinstance(value, str) and not _visible(value).strip()):
            return None
        return parse_whole_number(value, minimum=self.minimum, maximum=self.maximum)


class CardNumbersField(forms.Field):
    """Card numbers typed in one text field, read by :func:`parse_card_numbers`.

    The cleaned value is a list (empty when nothing was typed).
    """

    widget = forms.TextInput

    def __init__(
        self, *, minimum: int, maximum: int, max_count: int, allow_duplicates: bool = False,
        max_length: int = 400, **kwargs: Any,
    ) -> None:
        self.minimum = minimum
        self.maximum = maximum
        self.max_count = max_count
        self.allow_duplicates = allow_duplicates
        self.max_length = max_length
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        attrs.setdefault("maxlength", str(self.max_length))
        return attrs

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(card) for card in value)
        return value

    def to_python(self, value: Any) -> list[int]:
        if value in self.empty_values:
            return []
        if not isinstance(value, str):
            raise ValidationError(MESSAGES["not_a_number"], code="not_a_number")
        if len(value) > self.max_length:
            raise ValidationError(
                MESSAGES["too_long"], code="too_long", params={"max_count": self.max_count}
            )
        return parse_card_numbers(
            value, minimum=self.minimum, maximum=self.maximum, max_count=self.max_count,
            allow_duplicates=self.allow_duplicates,
        )

    def validate(self, value: Any) -> None:
        if self.required and not value:
            raise ValidationError(self.error_messages["required"], code="required")


# ------------------------------------------------------------------------------ views


@overload
def number_from(
    data: Mapping[str, Any], key: str, *, minimum: int, maximum: int, default: int
) -> int: ...


@overload
def number_from(
    data: Mapping[str, Any], key: str, *, minimum: int, maximum: int, default: None = None
) -> int | None: ...


def number_from(
    data: Mapping[str, Any], key: str, *, minimum: int, maximum: int,
    default: int | None = None,
) -> int | None:
    """The number under ``key`` of a request's GET or POST data.

    Missing or empty: ``default``. Anything else that is not a number in the
    range: a :class:`ValidationError` with the parser's message, which the view
    shows like any other refused input (422 with the message).

    >>> number_from({"revision": "4"}, "revision", minimum=0, maximum=9)
    4
    >>> number_from({}, "revision", minimum=0, maximum=9, default=0)
    0
    """
    raw = data.get(key)
    if raw is None or (isinstance(raw, str) and not _visible(raw).strip()):
        return default
    return parse_whole_number(raw, minimum=minimum, maximum=maximum)


def id_from(data: Mapping[str, Any], key: str) -> int | None:
    """The database id under ``key`` of a request's GET or POST data, or ``None``.

    An id that is not a positive whole number cannot name anything: 404, the
    same answer as for an id of another group.

    >>> id_from({"night": "12"}, "night")
    12
    >>> id_from({"night": ""}, "night") is None
    True
    """
    try:
        return number_from(data, key, minimum=1, maximum=MAX_ID)
    except ValidationError as err:
        raise Http404(f"{key} is not an id") from err


# ------------------------------------------------------------------------------ names

_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co"})
"""Control, formatting (zero-width, bidi), surrogate and private-use characters."""

_SELECTORS = frozenset(
    [0x034F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
)
"""Variation selectors and the combining grapheme joiner: marks that change nothing a
reader can tell apart ("Anna\ufe0f" looks like "Anna")."""


def _name_text(text: str) -> str:
    """``text`` NFKC-normalised, without invisible characters (white space kept)."""
    return "".join(
        ch for ch in unicodedata.normalize("NFKC", text)
        if ch.isspace()
        or (unicodedata.category(ch) not in _INVISIBLE and ord(ch) not in _SELECTORS)
    )


def clean_name(value: str, *, max_length: int) -> str:
    """A name as the app keeps it: one way to write it, nothing invisible, trimmed.

    NFKC-normalised (fullwidth "Ａｎｎａ" is "Anna", the ligature "ﬁ" is "fi"),
    without control characters, zero-width characters and bidi controls
    (which could make a name look like another one, or reverse the text around
    it), white space runs as one space, trimmed. Empty after that, or longer
    than ``max_length``: a :class:`ValidationError` (codes ``required`` and
    ``max_length``).

    >>> clean_name("  Ａｎｎａ\u200b ", max_length=40)
    'Anna'
    >>> clean_name("Ben\u202e  Cem", max_length=40)
    'Ben Cem'
    >>> clean_name("Anna\ufe0f", max_length=40)
    'Anna'
    """
    text = " ".join(_name_text(value).split())
    if not text:
        raise ValidationError(_("Please enter a name."), code="required")
    if len(text) > max_length:
        raise ValidationError(
            ngettext_lazy("A name has at most %(max)d character.",
                          "A name has at most %(max)d characters.", "max"),
            code="max_length", params={"max": max_length},
        )
    return text


def name_key(value: str) -> str:
    """What two names must not share in one group: their cleaned, case-folded form.

    >>> name_key("ＡＮＮＡ") == name_key("anna")
    True
    """
    return " ".join(_name_text(value).split()).casefold()


def shown_count(value: object) -> int | None:
    """A form field's value as the count it shows: "" or None is 0, what is not a whole
    number None (a count buttons or a conversion cannot show).

    >>> shown_count(""), shown_count(" 7 "), shown_count("7a")
    (0, 7, None)
    """
    if value in (None, ""):
        return 0
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def contains_nul(values: Iterable[str]) -> bool:
    """Whether any of ``values`` holds a NUL character."""
    return any("\x00" in value for value in values)


__all__ = [
    "MAX_ID",
    "MAX_POSITIVE",
    "MAX_SMALL",
    "CardNumbersField",
    "WholeNumberField",
    "clean_name",
    "contains_nul",
    "id_from",
    "name_key",
    "number_from",
    "parse_card_numbers",
    "parse_whole_number",
    "shown_count",
]
