"""Build game histories directly with the models, for the history tests (no tests here).

Scores and results come from the engine, the same way the score sheet stores
them: ``DealScore.data`` is ``entry_to_dict``, ``DealScore.score`` the
engine's ``score_deal``, ``Seat.total``/``place`` the sums and ``rank``,
``is_winner`` place 1 of a finished match.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import timezone

from companion.models import Deal, DealScore, GameNight, Group, Match, Player, Seat
from companion.services.results import match_counted, match_results_update
from scoring import GAMES, rank
from scoring.common import rules_for

Entries = Mapping[str, Mapping[str, Any]]
"""One deal: player name → entry dict."""

_clock = [0]


def _tick() -> dt.datetime:
    """A strictly increasing creation time, so "played order" is well defined in tests."""
    _clock[0] += 1
    return dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC) + dt.timedelta(minutes=_clock[0])


def night(group: Group, date: dt.date | str, place: str = "") -> GameNight:
    if isinstance(date, str):
        date = dt.date.fromisoformat(date)
    return GameNight.objects.create(group=group, date=date, place=place, created_at=_tick())


def play(
    group: Group,
    game: str,
    deals: Sequence[Entries],
    *,
    on: GameNight | dt.date | str,
    finished: bool = True,
    players: Sequence[str] | None = None,
) -> Match:
    """A match of ``game`` with the given deals, seated in the order of the first deal."""
    game_night = on if isinstance(on, GameNight) else night(group, on)
    names = list(players or deals[0])
    roster = {p.name: p for p in Player.objects.filter(group=group, name__in=names)}
    for name in names:
        if name not in roster:
            roster[name] = Player.objects.create(group=group, name=name)
    created = _tick()
    match = Match.objects.create(
        group=group, game_night=game_night, game=game, created_at=created,
        status=Match.Status.FINISHED if finished else Match.Status.OPEN,
        finished_at=created + dt.timedelta(minutes=30) if finished else None,
    )
    match_counted(match=match, delta=1)  # as match_start does: the matches per game
    seats = [
        Seat.objects.create(match=match, player=roster[name], number=number)
        for number, name in enumerate(names)
    ]
    rules = rules_for(game)
    totals = dict.fromkeys(names, 0)
    for number, entries in enumerate(deals, start=1):
        parsed = {name: rules.entry_from_dict(data) for name, data in entries.items()}
        scores = rules.score_deal(parsed)
        deal = Deal.objects.create(match=match, number=number, created_at=timezone.now())
        for name, entry in parsed.items():
            DealScore.objects.create(
                deal=deal, player=roster[name], data=rules.entry_to_dict(entry),
                score=scores[name],
            )
            totals[name] += scores[name]
    places = {
        name: place for place, name, _t in rank(totals, lower_is_better=GAMES[game].lower_is_better)
    }
    for seat in seats:
        seat.total = totals[seat.player.name]
        seat.place = places[seat.player.name]
        seat.is_winner = finished and seat.place == 1
        seat.save(update_fields=["total", "place", "is_winner"])
    match_results_update(match=match)  # as match_finish does: the statistics' records
    return match


def freaky(group: Group, on: GameNight | dt.date | str, finished: bool = True,
           **collected: int) -> Match:
    """A game of Freaky: ``freaky(group, "2026-03-01", Anna=30, Ben=20)``."""
    return play(group, "freaky", [{n: {"collected": c} for n, c in collected.items()}],
                on=on, finished=finished)


def x_nimmt(group: Group, on: GameNight | dt.date | str, *deals: Mapping[str, tuple[int, int]]
            ) -> Match:
    """X nimmt! with ``{name: (hand, x_stack)}`` per deal."""
    return play(
        group, "x-nimmt",
        [{n: {"hand": h, "x_stack": x} for n, (h, x) in deal.items()} for deal in deals], on=on,
    )
