"""What every value of an uploaded file must be, whatever its place: text the database
can store, whole numbers of at most 64 bits, nesting at most :data:`MAX_DEPTH` deep."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from companion.parsing import MAX_ID
from companion.services.transfer import TransferError

MAX_DEPTH = 16
"""How deeply lists and objects may nest (a real export nests about 12 levels)."""

def pointer(path: Sequence[str | int]) -> str:
    """A place in the file as a JSON Pointer (RFC 6901), e.g. ``/game_nights/0/place``."""
    return "/" + "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in path)


def check_values(document: Any, path: tuple[str | int, ...] = ()) -> None:
    """Every value of the document (or of its part at ``path``) is one the database and
    the engine can take: text without NUL and without lone surrogates, no fractional
    numbers, integers within 64 bits, at most :data:`MAX_DEPTH` levels of nesting.
    Raises :class:`~companion.services.transfer.TransferError` naming the place.

    A list read one item at a time (:class:`~.reader.Streamed`) is left out: its items
    are checked as they come.
    """
    if _values_fit(document, len(path)):
        return
    _locate_value(document, path)


def _values_fit(document: Any, depth: int = 0) -> bool:
    """:func:`check_values` without finding the place: one level of the document at a
    time, no path kept per value (a long file has millions of values)."""
    level = [document]
    while level:
        if depth > MAX_DEPTH:
            return False
        below: list[Any] = []
        for value in level:
            kind = type(value)
            if kind is dict:
                if not all(map(_text_fits, value)):
                    return False
                below.extend(value.values())
            elif kind is list:
                below.extend(value)
            elif kind is str:
                if not _text_fits(value):
                    return False
            elif kind is float or (kind is int and not -MAX_ID <= value <= MAX_ID):
                return False
        level, depth = below, depth + 1
    return True


def _text_fits(text: str) -> bool:
    return "\x00" not in text and (text.isascii() or _encodable(text))


def _locate_value(document: Any, path: tuple[str | int, ...] = ()) -> None:
    """Raise the :class:`TransferError` that names the first value :func:`_values_fit`
    refused, with its place in the file."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, path)]
    while stack:
        value, path = stack.pop()
        problem = ""
        if len(path) > MAX_DEPTH:
            problem = _("the file nests more than %(depth)d levels deep here.") % {
                "depth": MAX_DEPTH}
        elif isinstance(value, str) or (isinstance(value, dict) and value):
            texts = [value] if isinstance(value, str) else list(value)
            for text in texts:
                if "\x00" in text:
                    problem = _("text with a NUL character.")
                elif not _encodable(text):
                    problem = _("text that is not valid Unicode (a lone surrogate).")
                if problem:
                    break
        elif isinstance(value, float):
            problem = _("a fractional number (%(value)s); only whole numbers are allowed.") % {
                "value": repr(value)[:20]}
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ID:
            problem = _("a number too large to store.")
        if problem:
            raise TransferError(
                _("At %(place)s in the file: %(problem)s")
                % {"place": pointer(path) if path else "/", "problem": problem}
            )
        if isinstance(value, dict):
            stack.extend((item, (*path, key)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, (*path, index)) for index, item in enumerate(value))


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
