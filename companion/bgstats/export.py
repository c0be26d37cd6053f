"""The BG Stats export: a group's finished matches in the shape BG Stats writes.

:func:`bgstats_export` writes them so that tools built for BG Stats read ours, BG Stats
itself included (the shape: :mod:`companion.bgstats.read`). A match of ours is exported
under a uuid of its own (:func:`match_uuid`, the same in every export), an imported one
under its BG Stats uuid, so that either is recognised when it comes back.
"""

from __future__ import annotations

import datetime as dt
import json
import textwrap
import uuid
from collections.abc import Iterator
from typing import Any

from django.utils import timezone

from companion.evenings import EVENING_ENDS_AT
from companion.games import GAME_APPS
from companion.models import Group, Match, Player, Seat
from scoring import GAMES

NAMESPACE = uuid.UUID("6f1c1a52-3b7e-5f0e-9a43-5e4b2d6c8a10")
"""Kartenrunde's namespace for the uuids of exported games, players, places and plays."""


def match_uuid(pk: int) -> str:
    """The uuid a match of ours is exported under (the same in every export)."""
    return str(uuid.uuid5(NAMESPACE, f"match:{pk}"))


def _stamp(value: dt.datetime) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S")


def _play_date(night: dt.date, created: dt.datetime) -> str:
    """When a match was played, as BG Stats writes it: its night's date at the time of day
    it started, the next day for a start after midnight (a match recorded later, on an
    older night, keeps its night).

    >>> start = dt.datetime(2026, 3, 6, 0, 40, tzinfo=dt.UTC)
    >>> _play_date(dt.date(2026, 3, 5), start)
    '2026-03-06 01:40:00'
    """
    start = timezone.localtime(created)
    day = night + dt.timedelta(days=int(start.hour < EVENING_ENDS_AT))
    return f"{day.isoformat()} {start.strftime('%H:%M:%S')}"


def _duration(created: dt.datetime, finished: dt.datetime | None) -> int:
    """A play's ``durationMin``: from the start to the finish, whole minutes (an imported
    play was stored with the duration its file gave, ``companion.services.bgstats``).

    >>> start = dt.datetime(2026, 3, 5, 20, 0, tzinfo=dt.UTC)
    >>> _duration(start, start + dt.timedelta(minutes=35, seconds=59)), _duration(start, None)
    (35, 0)
    """
    return max(0, int(((finished or created) - created).total_seconds() // 60))


def _bgg(slug: str, title: str) -> dict[str, Any]:
    """A game's BoardGameGeek fields as BG Stats writes them: its id, name and year; a game
    without an id as BG Stats writes a custom game (id 0, year 0, its own name as
    ``bggName``), as BG Stats' own export does (tests/companion/data/BGStatsExport.json).

    >>> _bgg("elf-nimmt", "11 nimmt!")["bggName"], _bgg("dreizehn", "13")["bggName"]
    ('11 nimmt!', 'Poison')
    >>> {key: value for key, value in _bgg("x-nimmt", "X nimmt!").items() if key[:3] == "bgg"}
    {'bggId': 0, 'bggName': 'X nimmt!', 'bggYear': 0}
    """
    app = GAME_APPS[slug]
    if app.bgg_id:
        return {"bggId": app.bgg_id, "bggName": app.bgg_name or title, "isBaseGame": 1,
                "isExpansion": 0}
    return {"bggId": 0, "bggName": title, "bggYear": 0, "isBaseGame": 1, "isExpansion": 0}


EXPORT_BATCH = 200
"""Matches whose seats are read and written per round (:func:`bgstats_export_chunks`)."""

_Match = tuple[int, str, dt.datetime, dt.datetime | None, int, str, dt.date, str]


def _finished(group: Group) -> list[_Match]:
    return list(
        Match.objects.filter(group=group, status=Match.Status.FINISHED)
        .order_by("game_night__date", "created_at", "pk")
        .values_list("pk", "game", "created_at", "finished_at", "first_dealer",
                     "external_id", "game_night__date", "game_night__place")
    )


def _head(group: Group, matches: list[_Match]) -> tuple[dict[str, Any], dict[int, int],
                                                        dict[str, int], dict[str, int]]:
    """Everything but the plays, and the numbers the plays refer to."""
    roster = list(Player.objects.filter(group=group).order_by("pk")
                  .values_list("pk", "name", "created_at"))
    player_ref = {pk: index for index, (pk, _name, _created) in enumerate(roster, 1)}
    game_ref = {slug: index for index, slug in enumerate(GAMES, 1)}
    played_games = {game for _pk, game, *_rest in matches}
    places = sorted({place for *_rest, place in matches if place})
    place_ref = {name: index for index, name in enumerate(places, 1)}
    head = {
        "about": "Exported from Kartenrunde in the BG Stats format "
                 "(https://www.bgstatsapp.com/).",
        "userInfo": {"exportDate": _stamp(timezone.now())},
        "games": [
            {"id": game_ref[slug], "uuid": str(uuid.uuid5(NAMESPACE, f"game:{slug}")),
             "name": info.title, **_bgg(slug, info.title),
             "highestWins": not info.lower_is_better, "cooperative": False,
             "noPoints": False, "usesTeams": False, "minPlayerCount": info.min_players,
             "maxPlayerCount": info.max_players}
            for slug, info in GAMES.items() if slug in played_games
        ],
        "players": [
            {"id": player_ref[pk], "uuid": str(uuid.uuid5(NAMESPACE, f"player:{pk}")),
             "name": name, "isAnonymous": False, "modificationDate": _stamp(created)}
            for pk, name, created in roster
        ],
        "locations": [
            {"id": index, "uuid": str(uuid.uuid5(NAMESPACE, f"location:{group.pk}:{name}")),
             "name": name}
            for name, index in place_ref.items()
        ],
    }
    return head, player_ref, game_ref, place_ref


def _plays(matches: list[_Match], player_ref: dict[int, int], game_ref: dict[str, int],
           place_ref: dict[str, int]) -> Iterator[list[dict[str, Any]]]:
    """The plays, :data:`EXPORT_BATCH` matches at a time (one query for their seats)."""
    for start in range(0, len(matches), EXPORT_BATCH):
        batch = matches[start:start + EXPORT_BATCH]
        seats: dict[int, list[tuple[int, int, int, int | None, bool]]] = {}
        for match_id, player_id, number, total, place, winner in (
            Seat.objects.filter(match_id__in=[pk for pk, *_rest in batch])
            .order_by("match_id", "number")
            .values_list("match_id", "player_id", "number", "total", "place", "is_winner")
        ):
            seats.setdefault(match_id, []).append((player_id, number, total, place, winner))
        yield [{
            "uuid": external or match_uuid(pk),
            "gameRefId": game_ref[game],
            "playDate": _play_date(date, created),
            "entryDate": _stamp(created),
            "modificationDate": _stamp(finished or created),
            "durationMin": _duration(created, finished),
            "locationRefId": place_ref.get(place, 0),
            "ignored": False,
            "manualWinner": False,
            "usesTeams": False,
            "rounds": 0,
            "playerScores": [
                {"playerRefId": player_ref[player], "score": str(total), "winner": winner,
                 "startPlayer": number == first, "seatOrder": number + 1,
                 "rank": place or 0, "newPlayer": False, "role": ""}
                for player, number, total, place, winner in seats.get(pk, [])
            ],
        } for pk, game, created, finished, first, external, date, place in batch]


def bgstats_export(group: Group) -> dict[str, Any]:
    """The group's finished matches as a BG Stats export: the games played, the roster,
    the nights' places as locations, a play per match. An imported play keeps its BG
    Stats uuid, so BG Stats recognises it."""
    matches = _finished(group)
    head, *refs = _head(group, matches)
    return {**head, "plays": [play for plays in _plays(matches, *refs) for play in plays]}


def bgstats_export_chunks(group: Group) -> Iterator[str]:
    """:func:`bgstats_export` as JSON text, written as it is read: the head at once, then
    the plays :data:`EXPORT_BATCH` matches at a time (the same text as
    :func:`bgstats_export_json`; memory per batch, not per group)."""
    matches = _finished(group)
    head, *refs = _head(group, matches)
    text = json.dumps({**head, "plays": []}, ensure_ascii=False, indent=1)
    opening, _empty, closing = text.rpartition('"plays": []')
    yield opening + '"plays": ['
    first = True
    for plays in _plays(matches, *refs):
        parts = []
        for play in plays:
            played = json.dumps(play, ensure_ascii=False, indent=1)
            parts.append(("\n" if first else ",\n") + textwrap.indent(played, "  "))
            first = False
        yield "".join(parts)
    yield ("\n ]" if not first else "]") + closing + "\n"


def bgstats_export_json(group: Group) -> str:
    """:func:`bgstats_export` as JSON text (UTF-8)."""
    return "".join(bgstats_export_chunks(group))
