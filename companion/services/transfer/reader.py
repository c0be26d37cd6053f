"""Typed access to the parts of an uploaded document, each failure naming its place."""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from companion.parsing import clean_name, parse_whole_number
from companion.services.transfer import TransferError

EARLIEST = dt.date(1900, 1, 1)
LATEST = dt.date(2999, 12, 31)
"""Dates and times outside these are refused: every database and Python can store them,
converted to any time zone."""

class Streamed:
    """A list of the document that is read one item at a time, as it is checked and
    written (the game nights, a night's matches): an iterator of its items. It is never
    kept whole; :func:`.values.check_values` leaves it out (its items are checked as
    they come)."""

    __slots__ = ("_items",)

    def __init__(self, items: Iterator[Any]) -> None:
        self._items = items

    def __iter__(self) -> Iterator[Any]:
        return self._items


class Reader:
    """Typed access to a part of the document; every failure names where it happened."""

    def __init__(self, value: Any, where: str | Callable[[], str]) -> None:
        self.value = value
        self._where = where

    @property
    def where(self) -> str:
        """Where this part is, for messages (worked out only when needed: it is translated)."""
        return self._where if isinstance(self._where, str) else self._where()

    def fail(self, problem: str) -> TransferError:
        return TransferError(
            _("%(where)s: %(problem)s") % {"where": self.where, "problem": problem}
        )

    def _get(self, key: str) -> Any:
        if key not in self.value:
            raise self.fail(_("“%(key)s” is missing.") % {"key": key})
        return self.value[key]

    def has(self, key: str) -> bool:
        """Whether the part has ``key`` (fields added in later releases may be missing)."""
        return key in self.value

    def obj(self, key: str, where: str) -> Reader:
        value = self._get(key)
        if not isinstance(value, dict):
            raise Reader(value, where).fail(_("expected an object."))
        return Reader(value, where)

    def stream(self, key: str, where: Callable[[int], str]) -> Iterator[Reader]:
        """:meth:`items` of a list read one item at a time (:class:`Streamed`: the game
        nights, a night's matches), or of a list as it is."""
        value = self._get(key)
        if not isinstance(value, Streamed):
            yield from self.items(key, where)
            return
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                raise Reader(item, where(index)).fail(_("expected an object."))
            yield Reader(item, functools.partial(where, index))

    def items(self, key: str, where: Callable[[int], str]) -> list[Reader]:
        value = self._get(key)
        if not isinstance(value, list):
            raise self.fail(_("“%(key)s” must be a list.") % {"key": key})
        readers = []
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                raise Reader(item, where(index)).fail(_("expected an object."))
            readers.append(Reader(item, functools.partial(where, index)))
        return readers

    def text(self, key: str, *, max_length: int | None = None, blank: bool = True) -> str:
        value = self._get(key)
        if not isinstance(value, str):
            raise self.fail(_("“%(key)s” must be text.") % {"key": key})
        if not blank and not value.strip():
            raise self.fail(_("“%(key)s” must not be empty.") % {"key": key})
        if max_length is not None and len(value) > max_length:
            raise self.fail(_("“%(key)s” is longer than %(max)d characters.")
                            % {"key": key, "max": max_length})
        return value

    def name(self, key: str, *, max_length: int) -> str:
        """A name, cleaned the way the app cleans typed names (:func:`clean_name`)."""
        value = self.text(key)
        try:
            return clean_name(value, max_length=max_length)
        except ValidationError as err:
            raise self.fail(
                _("“%(key)s”: %(problem)s") % {"key": key, "problem": " ".join(err.messages)}
            ) from err

    def integer(
        self, key: str, *, minimum: int, maximum: int, null: bool = False
    ) -> Any:
        value = self._get(key)
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(_("“%(key)s” must be a whole number.") % {"key": key})
        try:
            return parse_whole_number(value, minimum=minimum, maximum=maximum)
        except ValidationError as err:
            raise self.fail(
                _("“%(key)s” must be between %(min)d and %(max)d.")
                % {"key": key, "min": minimum, "max": maximum}
            ) from err

    def boolean(self, key: str) -> bool:
        value = self._get(key)
        if not isinstance(value, bool):
            raise self.fail(_("“%(key)s” must be true or false.") % {"key": key})
        return value

    def stamp(self, key: str, *, null: bool = False) -> dt.datetime | None:
        value = self._get(key)
        if value is None and null:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None or parsed.tzinfo is None:
            raise self.fail(_("“%(key)s” must be a date and time with time zone.") % {"key": key})
        if not EARLIEST <= parsed.date() <= LATEST:
            raise self.fail(self._out_of_years(key))
        return parsed

    def date(self, key: str) -> dt.date:
        value = self._get(key)
        try:
            parsed = parse_date(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise self.fail(_("“%(key)s” must be a date (YYYY-MM-DD).") % {"key": key})
        if not EARLIEST <= parsed <= LATEST:
            raise self.fail(self._out_of_years(key))
        return parsed

    @staticmethod
    def _out_of_years(key: str) -> str:
        return _("“%(key)s” must lie between the years %(first)d and %(last)d.") % {
            "key": key, "first": EARLIEST.year, "last": LATEST.year}

    def choice(self, key: str, choices: Sequence[str]) -> str:
        value = self._get(key)
        if not isinstance(value, str) or value not in choices:
            raise self.fail(_("“%(key)s” has an unknown value: %(value)s.")
                            % {"key": key, "value": json.dumps(value)[:40]})
        return str(value)

    def mapping(self, key: str, *, null: bool = False) -> Any:
        value = self._get(key)
        if value is None and null:
            return None
        if not isinstance(value, dict):
            raise self.fail(_("“%(key)s” must be an object.") % {"key": key})
        return value
