"""Export: a group's whole history as a JSON document, and as CSV for spreadsheets.

Both are written as they are read, :data:`EXPORT_BATCH` matches per round of queries,
so that a download's memory stays flat and its first bytes leave at once, however long
the history is (``companion.views.history``: a streaming response).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db.models import Model, Q, QuerySet

from companion.models import (
    Deal,
    DealScore,
    GameNight,
    Group,
    Match,
    MatchChange,
    Player,
    Seat,
)
from companion.services.transfer import FORMAT, VERSION, map_options

CSV_HEADERS = (
    "date", "place", "match", "game", "status", "deal", "player", "seat", "score",
    "running_total", "entry",
)

T = TypeVar("T")
M = TypeVar("M", bound=Model)


def _stamp(value: dt.datetime | None) -> str | None:
    return None if value is None else value.astimezone(dt.UTC).isoformat()


EXPORT_BATCH = 25
"""Matches read per round of five queries while an export is written: the export's
memory does not grow with the group. 25 of the largest matches (11 nimmt! with the cards,
the log of every deal) take about 20 MB while they are written, 100 took 54 MB, at the
same speed (``bench/exports.py``)."""


@dataclass(frozen=True, slots=True)
class _History:
    """The rows of a batch of matches, children grouped by parent, as plain dicts."""

    seats: dict[int, list[dict[str, Any]]]
    deals: dict[int, list[dict[str, Any]]]
    scores: dict[int, list[dict[str, Any]]]
    changes: dict[int, list[MatchChange]]


def _group_by(items: Iterable[T], key: Callable[[T], int]) -> dict[int, list[T]]:
    grouped: dict[int, list[T]] = defaultdict(list)
    for item in items:
        grouped[key(item)].append(item)
    return grouped


def _load(ids: list[int]) -> _History:
    """The seats, deals, entries and log of the matches ``ids`` (four queries)."""
    seats = list(
        Seat.objects.filter(match__in=ids)
        .order_by("match_id", "number")
        .values("match_id", "player_id", "number", "total", "place", "is_winner")
    )
    seat_number = {(seat["match_id"], seat["player_id"]): seat["number"] for seat in seats}
    deals = list(
        Deal.objects.filter(match__in=ids)
        .order_by("match_id", "number")
        .values("id", "match_id", "number", "version", "created_at", "updated_at")
    )
    match_of_deal = {deal["id"]: deal["match_id"] for deal in deals}
    scores = sorted(
        DealScore.objects.filter(deal__match__in=ids).values(
            "deal_id", "player_id", "data", "score"
        ),
        key=lambda s: (
            s["deal_id"], seat_number.get((match_of_deal[s["deal_id"]], s["player_id"]), -1),
            s["player_id"],
        ),
    )
    return _History(
        seats=_group_by(seats, lambda s: s["match_id"]),
        deals=_group_by(deals, lambda d: d["match_id"]),
        scores=_group_by(scores, lambda s: s["deal_id"]),
        changes=_group_by(
            MatchChange.objects.filter(match__in=ids).order_by("id"), lambda c: c.match_id
        ),
    )


def _in_batches(query: QuerySet[M], first: str) -> Iterator[list[M]]:
    """The rows of ``query`` in the order (``first``, id), :data:`EXPORT_BATCH` at a
    time, each batch one query that starts after the last row of the one before."""
    after: tuple[Any, int] | None = None
    while True:
        page = query
        if after is not None:
            page = page.filter(Q(**{f"{first}__gt": after[0]})
                               | Q(**{first: after[0], "id__gt": after[1]}))
        rows = list(page.order_by(first, "id")[:EXPORT_BATCH])
        if not rows:
            return
        yield rows
        after = (getattr(rows[-1], first), rows[-1].pk)


@dataclass(frozen=True, slots=True)
class Export:
    """A group's history as the parts of its document, the long ones read as they are
    taken: ``head`` (format, version, group, players: everything before the game
    nights) and ``nights``, each night's fields with an iterator of its matches'
    documents. Memory and queries per :data:`EXPORT_BATCH` matches, however long the
    history is."""

    head: dict[str, Any]
    nights: Iterator[tuple[dict[str, Any], Iterator[dict[str, Any]]]]


def group_export_parts(group: Group, *, source: str | None = None) -> Export:
    """The group's whole history as :class:`Export`; with ``source``, only the matches of
    that source (``Match.Source``)."""
    players = list(Player.objects.filter(group=group).order_by("id"))
    keys = {player.pk: f"p{index}" for index, player in enumerate(players, start=1)}
    head = {
        "format": FORMAT,
        "version": VERSION,
        "group": {"name": group.name, "created_at": _stamp(group.created_at)},
        "players": [
            {"key": keys[player.pk], "name": player.name, "created_at": _stamp(player.created_at)}
            for player in players
        ],
    }
    matches = Match.objects.filter(group=group)
    if source is not None:
        matches = matches.filter(source=source)
    return Export(head, _nights(group, _matches(matches, keys)))


def _matches(matches: QuerySet[Match], keys: dict[int, str]
             ) -> Iterator[tuple[int, dict[str, Any]]]:
    """The documents of ``matches`` with their night's id, in the document's order (by
    night, then as they were created)."""

    def by_key(value: Any) -> Any:
        """A log entry's ``{player_id: entry}`` with the document's player keys."""
        if not isinstance(value, dict):
            return value
        return {keys.get(int(pid), pid) if str(pid).isdigit() else pid: data
                for pid, data in value.items()}

    for batch in _in_batches(matches, "game_night_id"):
        history = _load([match.pk for match in batch])
        for match in batch:
            yield match.game_night_id, {
                "game": match.game,
                "options": map_options(match.options, lambda pid: keys.get(pid, pid)),
                "first_dealer": match.first_dealer,
                "status": match.status,
                "created_at": _stamp(match.created_at),
                "finished_at": _stamp(match.finished_at),
                "source": match.source,
                "external_id": match.external_id,
                "seats": [
                    {"player": keys[seat["player_id"]], "number": seat["number"],
                     "total": seat["total"], "place": seat["place"],
                     "is_winner": seat["is_winner"]}
                    for seat in history.seats.get(match.pk, [])
                ],
                "deals": [
                    {
                        "number": deal["number"],
                        "version": deal["version"],
                        "created_at": _stamp(deal["created_at"]),
                        "updated_at": _stamp(deal["updated_at"]),
                        "scores": [
                            {"player": keys[score["player_id"]], "data": score["data"],
                             "score": score["score"]}
                            for score in history.scores.get(deal["id"], [])
                        ],
                    }
                    for deal in history.deals.get(match.pk, [])
                ],
                "changes": [
                    {"kind": change.kind, "deal_number": change.deal_number,
                     "before": by_key(change.before), "after": by_key(change.after),
                     "created_at": _stamp(change.created_at),
                     "undone_at": _stamp(change.undone_at), "client_key": change.client_key}
                    for change in history.changes.get(match.pk, [])
                ],
            }


def _nights(group: Group, matches: Iterator[tuple[int, dict[str, Any]]]
            ) -> Iterator[tuple[dict[str, Any], Iterator[dict[str, Any]]]]:
    """The group's game nights in the order created, each with its matches' documents
    (taken from ``matches``, which come in the same order)."""
    upcoming: list[tuple[int, dict[str, Any]] | None] = [next(matches, None)]

    def of(night: int) -> Iterator[dict[str, Any]]:
        while upcoming[0] is not None and upcoming[0][0] <= night:
            night_id, document = upcoming[0]
            upcoming[0] = next(matches, None)
            if night_id == night:
                yield document

    for batch in _in_batches(GameNight.objects.filter(group=group), "id"):
        for night in batch:
            documents = of(night.pk)
            yield {
                "date": night.date.isoformat(),
                "place": night.place,
                "notes": night.notes,
                "created_at": _stamp(night.created_at),
            }, documents
            for _document in documents:  # what the caller left
                pass


def group_export(group: Group, *, source: str | None = None) -> dict[str, Any]:
    """The group's whole history as one JSON-compatible document (in memory: for a
    download, :func:`group_export_json_chunks`); with ``source``, only the matches of
    that source (``Match.Source``)."""
    export = group_export_parts(group, source=source)
    return {**export.head, "game_nights": [
        {**night, "matches": list(matches)} for night, matches in export.nights]}


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


CHUNK = 64 * 1024
"""Characters of text gathered before a part of a download is sent."""


def group_export_json_chunks(group: Group) -> Iterator[str]:
    """:func:`group_export_json`, a part of about :data:`CHUNK` characters at a time."""
    export = group_export_parts(group)
    yield _dumps(export.head)[:-1] + ',"game_nights":['  # the first bytes, at once
    parts: list[str] = []
    size = 0
    for index, (night, matches) in enumerate(export.nights):
        parts.append(("," if index else "") + _dumps(night)[:-1] + ',"matches":[')
        for number, match in enumerate(matches):
            text = ("," if number else "") + _dumps(match)
            parts.append(text)
            size += len(text)
            if size >= CHUNK:
                yield "".join(parts)
                parts, size = [], 0
        parts.append("]}")
    parts.append("]}\n")
    yield "".join(parts)


def group_export_json(group: Group) -> str:
    """:func:`group_export` as compact JSON text (UTF-8, keys in a fixed order)."""
    return "".join(group_export_json_chunks(group))


def _cell(text: str) -> str:
    """A text cell that a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def group_export_csv_chunks(group: Group) -> Iterator[str]:
    """:func:`group_export_csv`, the rows of :data:`EXPORT_BATCH` matches at a time."""
    export = group_export_parts(group)
    names = {player["key"]: player["name"] for player in export.head["players"]}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADERS)
    yield out.getvalue()  # the first bytes, at once
    out.seek(0)
    out.truncate()
    number = 0
    for night, matches in export.nights:
        for match in matches:
            number += 1
            seat_of = {seat["player"]: seat["number"] for seat in match["seats"]}
            running: dict[str, int] = defaultdict(int)
            for deal in match["deals"]:
                for score in deal["scores"]:
                    running[score["player"]] += score["score"]
                    writer.writerow([
                        night["date"], _cell(night["place"]), number, match["game"],
                        match["status"], deal["number"], _cell(names[score["player"]]),
                        seat_of[score["player"]] + 1, score["score"], running[score["player"]],
                        json.dumps(score["data"], sort_keys=True, separators=(",", ":")),
                    ])
            if out.tell() >= CHUNK:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
    yield out.getvalue()


def group_export_csv(group: Group) -> str:
    """One row per player per deal, oldest match first, with English headers."""
    return "".join(group_export_csv_chunks(group))
