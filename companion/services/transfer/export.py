"""Export: a group's whole history as a JSON document, and as CSV for spreadsheets."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

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


def _stamp(value: dt.datetime | None) -> str | None:
    return None if value is None else value.astimezone(dt.UTC).isoformat()


@dataclass(frozen=True, slots=True)
class _History:
    """A group's history loaded in a fixed number of queries, children grouped by parent.

    Seats, deals and deal scores (the bulk of a long history) come as plain dicts.
    """

    players: list[Player]
    nights: list[GameNight]
    matches: dict[int, list[Match]]
    seats: dict[int, list[dict[str, Any]]]
    deals: dict[int, list[dict[str, Any]]]
    scores: dict[int, list[dict[str, Any]]]
    changes: dict[int, list[MatchChange]]


def _group_by(items: Iterable[T], key: Callable[[T], int]) -> dict[int, list[T]]:
    grouped: dict[int, list[T]] = defaultdict(list)
    for item in items:
        grouped[key(item)].append(item)
    return grouped


def _load(group: Group, source: str | None = None) -> _History:
    matches = Match.objects.filter(group=group)
    if source is not None:
        matches = matches.filter(source=source)
    seats = list(
        Seat.objects.filter(match__in=matches)
        .order_by("match_id", "number")
        .values("match_id", "player_id", "number", "total", "place", "is_winner")
    )
    seat_number = {(seat["match_id"], seat["player_id"]): seat["number"] for seat in seats}
    deals = list(
        Deal.objects.filter(match__in=matches)
        .order_by("match_id", "number")
        .values("id", "match_id", "number", "version", "created_at", "updated_at")
    )
    match_of_deal = {deal["id"]: deal["match_id"] for deal in deals}
    scores = sorted(
        DealScore.objects.filter(deal__match__in=matches).values(
            "deal_id", "player_id", "data", "score"
        ),
        key=lambda s: (
            s["deal_id"], seat_number.get((match_of_deal[s["deal_id"]], s["player_id"]), -1),
            s["player_id"],
        ),
    )
    return _History(
        players=list(Player.objects.filter(group=group).order_by("id")),
        nights=list(GameNight.objects.filter(group=group).order_by("id")),
        matches=_group_by(matches.order_by("id"), lambda m: m.game_night_id),
        seats=_group_by(seats, lambda s: s["match_id"]),
        deals=_group_by(deals, lambda d: d["match_id"]),
        scores=_group_by(scores, lambda s: s["deal_id"]),
        changes=_group_by(
            MatchChange.objects.filter(match__in=matches).order_by("id"), lambda c: c.match_id
        ),
    )


def group_export(group: Group, *, source: str | None = None) -> dict[str, Any]:
    """The group's whole history as a JSON-compatible document (seven queries); with
    ``source``, only the matches of that source (``Match.Source``)."""
    history = _load(group, source)
    keys = {player.pk: f"p{index}" for index, player in enumerate(history.players, start=1)}

    def by_key(value: Any) -> Any:
        """A log entry's ``{player_id: entry}`` with the document's player keys."""
        if not isinstance(value, dict):
            return value
        return {keys.get(int(pid), pid) if str(pid).isdigit() else pid: data
                for pid, data in value.items()}

    def match_doc(match: Match) -> dict[str, Any]:
        return {
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
                 "total": seat["total"], "place": seat["place"], "is_winner": seat["is_winner"]}
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

    return {
        "format": FORMAT,
        "version": VERSION,
        "group": {"name": group.name, "created_at": _stamp(group.created_at)},
        "players": [
            {"key": keys[player.pk], "name": player.name, "created_at": _stamp(player.created_at)}
            for player in history.players
        ],
        "game_nights": [
            {
                "date": night.date.isoformat(),
                "place": night.place,
                "notes": night.notes,
                "created_at": _stamp(night.created_at),
                "matches": [match_doc(match) for match in history.matches.get(night.pk, [])],
            }
            for night in history.nights
        ],
    }


def group_export_json(group: Group) -> str:
    """:func:`group_export` as compact JSON text (UTF-8, keys in a fixed order)."""
    return json.dumps(group_export(group), ensure_ascii=False, separators=(",", ":")) + "\n"


def _cell(text: str) -> str:
    """A text cell that a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def group_export_csv(group: Group) -> str:
    """One row per player per deal, oldest match first, with English headers."""
    document = group_export(group)
    names = {player["key"]: player["name"] for player in document["players"]}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADERS)
    number = 0
    for night in document["game_nights"]:
        for match in night["matches"]:
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
    return out.getvalue()

