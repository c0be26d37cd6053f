"""The generic CSV: every match and player score of a group, for spreadsheets."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

from companion.models import Group, Seat

MATCHES_CSV_HEADERS = (
    "date", "place", "match", "game", "status", "source", "player", "seat", "score",
    "rank", "winner", "start_player",
)

_FORMULA = re.compile(r"^[=+\-@\t\r]")


def _cell(text: str) -> str:
    """A text cell that a spreadsheet will not run as a formula."""
    return "'" + text if _FORMULA.match(text) else text


CSV_ROWS = 500
"""Rows written per part of the download (:func:`matches_csv_chunks`)."""


def matches_csv_chunks(group: Group) -> Iterator[str]:
    """Every match of the group (running and abandoned ones too, with their status) and
    every player's score in it: one row per match and player, oldest first (one query,
    read in chunks), written :data:`CSV_ROWS` rows at a time."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(MATCHES_CSV_HEADERS)
    numbers: dict[int, int] = {}
    for rows, (date, place, match_id, game, status, source, name, number, total, rank,
               winner, first) in enumerate((
        Seat.objects.filter(match__group=group)
        .order_by("match__game_night__date", "match__created_at", "match_id", "number")
        .values_list("match__game_night__date", "match__game_night__place", "match_id",
                     "match__game", "match__status", "match__source", "player__name",
                     "number", "total", "place", "is_winner", "match__first_dealer")
        .iterator(chunk_size=2000)
    ), start=1):
        numbers.setdefault(match_id, len(numbers) + 1)
        writer.writerow([date.isoformat(), _cell(place), numbers[match_id], game, status,
                         source, _cell(name), number + 1, total, rank or "", int(winner),
                         int(number == first)])
        rows += 1
        if rows % CSV_ROWS == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def matches_csv(group: Group) -> str:
    """:func:`matches_csv_chunks` as one text."""
    return "".join(matches_csv_chunks(group))
