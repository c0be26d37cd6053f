"""Import, reading the text: an uploaded file as a document whose long lists come one
item at a time.

The text is read with the standard library's JSON scanner (its C speed, its rules), but
not as one value: the top of the document, each game night and each match are read on
their own, and the game nights and a night's matches come as :class:`~.reader.Streamed`
lists, read as they are checked and written. So a file within the limits never stands
in memory as Python objects; only the text (at most ``limits.IMPORT_BYTES``) and the
match being checked do (``bench/imports.py``).

An export writes a night's matches after the night's fields and the game nights after
the file's header: those are read as they come. A file in another order is read too,
with the list walked past once to reach what follows it, item by item (the same memory,
twice the reading time).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from json.decoder import scanstring
from typing import Any

from django.utils.translation import gettext as _

from companion.services.transfer import TransferError
from companion.services.transfer.reader import Streamed
from companion.services.transfer.scan import scan
from companion.services.transfer.values import check_values

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
"""Byte order marks of the Unicode encodings an editor may save JSON in (UTF-32 first:
its little-endian mark begins with UTF-16's)."""

HEADER = frozenset({"format", "version", "group", "players"})
"""The members of the document read before its game nights."""

NIGHT = frozenset({"date", "place", "notes", "created_at"})
"""The members of a game night read before its matches."""

_SPACE = re.compile(r"[ \t\n\r]*")


def _refuse_constant(name: str) -> Any:
    raise TransferError(
        _("This file holds “%(value)s”, which is not a number Kartenrunde can store.")
        % {"value": name}
    )


def twice(key: str) -> TransferError:
    """The refusal of an object that gives ``key`` twice (which one counts is unclear)."""
    shown = key[:80].encode("utf-8", "backslashreplace").decode("utf-8")
    return TransferError(
        _("This file gives “%(key)s” twice in one place, so it is unclear which "
          "one counts: it was changed by hand or is damaged.") % {"key": shown}
    )


def _refuse_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object as a dict; a key given twice makes the file ambiguous, so it is refused."""
    document = dict(pairs)
    if len(document) == len(pairs):
        return document
    document = {}
    for key, value in pairs:
        if key in document:
            raise twice(key)
        document[key] = value
    return document


_DECODER = json.JSONDecoder(object_pairs_hook=_refuse_twice, parse_constant=_refuse_constant)


def decode(content: bytes | str) -> str:
    """The text of an upload (UTF-8, or UTF-16/32 with a byte order mark), scanned
    (:func:`.scan.scan`: over a limit, it is refused before anything is built)."""
    if isinstance(content, bytes):
        encoding = next((name for bom, name in _BOMS if content.startswith(bom)), "utf-8-sig")
        try:
            content = content.decode(encoding)
        except UnicodeDecodeError as exc:
            raise TransferError(
                _("This file is not a Kartenrunde export: it is not text.")
            ) from exc
    scan(content)  # over a limit: refused before it is loaded (as a stream, memory flat)
    return content


def _damaged(text: str, pos: int) -> TransferError:
    place = json.JSONDecodeError("", text, pos)
    return TransferError(
        _("This file is damaged or not JSON (line %(line)d, column %(column)d).")
        % {"line": place.lineno, "column": place.colno}
    )


class _Cursor:
    """A place in the text, moved on as its parts are read."""

    __slots__ = ("pos", "text")

    def __init__(self, text: str, pos: int = 0) -> None:
        self.text = text
        self.pos = pos

    def peek(self) -> str:
        """The next character that is not white space ("" at the end)."""
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
        return self.text[self.pos:self.pos + 1]

    def value(self) -> Any:
        """The value that starts here, read whole."""
        self.peek()
        try:
            value, self.pos = _DECODER.scan_once(self.text, self.pos)
        except StopIteration as stop:
            raise _damaged(self.text, stop.value) from None
        except json.JSONDecodeError as exc:
            raise _damaged(self.text, exc.pos) from exc
        except RecursionError as exc:
            raise TransferError(_("This file is damaged or not JSON.")) from exc
        except TransferError:
            raise
        except ValueError as exc:
            # Python refuses to read integers of more than 4,300 digits.
            raise TransferError(
                _("This file holds a number too long to be read: it is damaged.")
            ) from exc
        return value

    def members(self) -> Iterator[str]:
        """The keys of the object that starts here; the caller reads each one's value
        before asking for the next key. A key given twice is refused."""
        self.pos += 1
        keys: set[str] = set()
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            if self.peek() != '"':
                raise _damaged(self.text, self.pos)
            try:
                key, self.pos = scanstring(self.text, self.pos + 1)
            except json.JSONDecodeError as exc:
                raise _damaged(self.text, exc.pos) from exc
            if key in keys:
                raise twice(key)
            keys.add(key)
            if self.peek() != ":":
                raise _damaged(self.text, self.pos)
            self.pos += 1
            yield key
            following = self.peek()
            self.pos += 1
            if following == "}":
                return
            if following != ",":
                raise _damaged(self.text, self.pos - 1)

    def items(self) -> Iterator[int]:
        """The indices of the list that starts here; the caller reads each item."""
        self.pos += 1
        if self.peek() == "]":
            self.pos += 1
            return
        index = 0
        while True:
            yield index
            index += 1
            following = self.peek()
            self.pos += 1
            if following == "]":
                return
            if following != ",":
                raise _damaged(self.text, self.pos - 1)


Parts = Callable[[_Cursor, tuple[str | int, ...]], Iterator[Any]]
"""The items of a long list, read one at a time from the cursor at its ``[``."""


def _object(cursor: _Cursor, path: tuple[str | int, ...], first: frozenset[str], long: str,
            parts: Parts) -> dict[str, Any]:
    """The object at the cursor, its list ``long`` as a :class:`Streamed` of ``parts``.

    When the members in ``first`` come before that list (as an export writes them), the
    list is read from here when it is iterated, then the rest of the object (each value
    checked at once, a key given twice refused). Otherwise the list is walked past item
    by item, and read again from its place when it is iterated.
    """
    document: dict[str, Any] = {}
    members = cursor.members()
    for key in members:
        if key != long or cursor.peek() != "[":
            document[key] = cursor.value()
            continue
        if first <= document.keys():
            document[key] = Streamed(_then(parts(cursor, (*path, key)),
                                           _rest(cursor, members, path, document)))
            return document
        start = cursor.pos
        for _item in parts(cursor, (*path, key)):
            pass
        document[key] = Streamed(parts(_Cursor(cursor.text, start), (*path, key)))
    return document


def _then(items: Iterator[Any], rest: Iterator[None]) -> Iterator[Any]:
    yield from items
    for _nothing in rest:
        pass


def _rest(cursor: _Cursor, members: Iterator[str], path: tuple[str | int, ...],
          document: dict[str, Any]) -> Iterator[None]:
    """The members after a list read as it came: checked at once (the document's checks
    have read those before it)."""
    for key in members:
        if key in document:
            raise twice(key)
        check_values(cursor.value(), (*path, key))
    yield from ()


def _matches(cursor: _Cursor, path: tuple[str | int, ...]) -> Iterator[Any]:
    for _index in cursor.items():
        yield cursor.value()


def _nights(cursor: _Cursor, path: tuple[str | int, ...]) -> Iterator[Any]:
    for index in cursor.items():
        if cursor.peek() != "{":
            yield cursor.value()
            continue
        night = _object(cursor, (*path, index), NIGHT, "matches", _matches)
        yield night
        matches = night.get("matches")
        if isinstance(matches, Streamed):
            for _match in matches:  # what the reader left (it stopped at a refusal)
                pass


def read_document(content: bytes | str) -> Any:
    """The uploaded ``content`` as a document: a dict whose ``game_nights`` (if a list)
    is :class:`Streamed`, each night's ``matches`` too, the rest read whole; a file that
    is not an object, read whole (the scan has refused any such file but damaged ones).

    Raises :class:`~companion.services.transfer.TransferError` for a file over a limit,
    damaged (naming the line and column), or with a key given twice in one object.
    """
    text = decode(content)
    cursor = _Cursor(text)
    if cursor.peek() != "{":
        document = cursor.value()
        _end(cursor)
        return document
    document = _object(cursor, (), HEADER, "game_nights", _nights)
    nights = document.get("game_nights")
    if isinstance(nights, Streamed):
        document["game_nights"] = Streamed(_then(iter(nights), _ended(cursor)))
    else:
        _end(cursor)
    return document


def _ended(cursor: _Cursor) -> Iterator[None]:
    _end(cursor)
    yield from ()


def _end(cursor: _Cursor) -> None:
    if cursor.peek():
        raise _damaged(cursor.text, cursor.pos)
