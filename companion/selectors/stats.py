"""The results of the history's statistics as plain frozen data: what
:mod:`companion.selectors.history` returns, the history pages show and
:mod:`companion.charts` draws. Each game's figures (``companion/games/<game>/tallies.py``)
are built from :class:`Tallies` into :class:`Figure` values. No queries here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from django.utils import formats
from django.utils.translation import get_language

from companion.games.tallies import HORNOCHSEN, Figure, Tallies, Unit, ratio
from scoring import GameInfo

__all__ = ["HORNOCHSEN", "Figure", "Tallies", "Unit", "ratio"]  # what the games' tallies use

if TYPE_CHECKING:
    from companion.models import Player


def _rate(wins: int, matches: int) -> float | None:
    return wins / matches if matches else None


def _percent(wins: int, matches: int) -> int | None:
    """A win rate as a whole percentage (half up), None without matches.

    >>> _percent(1, 3), _percent(2, 3), _percent(1, 8), _percent(0, 0)
    (33, 67, 13, None)
    """
    return (200 * wins + matches) // (2 * matches) if matches else None


class WinRate:
    """``win_rate`` and ``win_percent`` for a line that has ``wins`` and ``matches``."""

    __slots__ = ()
    wins: int
    matches: int

    @property
    def win_rate(self) -> float | None:
        return _rate(self.wins, self.matches)

    @property
    def win_percent(self) -> int | None:
        return _percent(self.wins, self.matches)


@dataclass(frozen=True, slots=True)
class PlayerGameLine(WinRate):
    """A player's record in one game."""

    game: GameInfo
    matches: int
    wins: int
    average: float
    best: int
    worst: int


@lru_cache(maxsize=4096)
def _date_format(value: dt.date, format_name: str, language: str | None) -> str:
    return formats.date_format(value, format_name)


def local_date(value: dt.date, format_name: str) -> str:
    """``value|date:format_name`` as the template filter gives it in the active language,
    worked out once per date and language (the player page shows dozens)."""
    return _date_format(value, format_name, get_language())


@dataclass(frozen=True, slots=True)
class Result:
    """One finished match from one player's point of view."""

    match_id: int
    game: GameInfo
    date: dt.date
    place: int | None
    players: int
    total: int
    is_winner: bool

    @property
    def short_date(self) -> str:
        return local_date(self.date, "SHORT_DATE_FORMAT")


@dataclass(frozen=True, slots=True)
class MonthLine(WinRate):
    """How a player did in one calendar month."""

    month: dt.date
    matches: int
    wins: int

    @property
    def label(self) -> str:
        """The month as the active language writes it, e.g. "März 2026"."""
        return local_date(self.month, "YEAR_MONTH_FORMAT")

    @property
    def axis_label(self) -> str:
        """The month under the chart, e.g. "03/26"."""
        return local_date(self.month, "m/y")


@dataclass(frozen=True, slots=True)
class PlayerStats(WinRate):
    player: Player
    games: tuple[PlayerGameLine, ...]
    recent: tuple[Result, ...]
    """The last results, newest first."""
    longest_streak: int
    """Most finished matches won in a row (all games, in the order played)."""
    current_streak: int
    """Matches won in a row up to the latest one."""
    months: tuple[MonthLine, ...]
    """The last months with matches, oldest first."""

    @property
    def matches(self) -> int:
        return sum(line.matches for line in self.games)

    @property
    def wins(self) -> int:
        return sum(line.wins for line in self.games)


@dataclass(frozen=True, slots=True)
class HeadToHeadLine:
    """Two players' finished matches together in one game (``game`` None: all games)."""

    game: GameInfo | None
    matches: int
    first_ahead: int
    second_ahead: int

    @property
    def level(self) -> int:
        """Matches where both finished on the same place."""
        return self.matches - self.first_ahead - self.second_ahead


@dataclass(frozen=True, slots=True)
class HeadToHead:
    first: Player
    second: Player
    games: tuple[HeadToHeadLine, ...]
    overall: HeadToHeadLine


@dataclass(frozen=True, slots=True)
class LeaderLine(WinRate):
    """A player's line on a game's leaderboard; ``place`` is None below the minimum."""

    place: int | None
    player_id: int
    name: str
    matches: int
    wins: int
    average: float


@dataclass(frozen=True, slots=True)
class Record:
    """A notable score: who, how much, in which match (and deal)."""

    name: str
    value: int
    match_id: int
    date: dt.date
    deal: int | None = None


@dataclass(frozen=True, slots=True)
class GameStats:
    game: GameInfo
    matches: int
    deals: int
    min_matches: int
    leaderboard: tuple[LeaderLine, ...]
    """Players with at least ``min_matches`` finished matches, best win rate first."""
    below_minimum: tuple[LeaderLine, ...]
    best_total: Record | None
    worst_deal: Record | None
    figures: tuple[Figure, ...]
    win_shares: tuple[tuple[str, int], ...] = field(default=())
    """(player name, wins) for every player with a win, most first."""
    without_deals: int = 0
    """Finished matches imported with final scores only: not in the per-deal figures."""

    @property
    def wins(self) -> int:
        return sum(wins for _name, wins in self.win_shares)
