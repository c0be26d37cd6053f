"""What every game module offers beyond its own contract.

Each game module (``scoring.<game>``) exposes the same recording interface so
that the app, the benchmark and the property tests can treat the five games
alike (game differences are per-game modules, never ``if game == ...``):

``Entry``
    frozen dataclass: what one player took in one deal, as recorded at the
    table.
``deal_count(players) -> int``
    how many deals a complete match has.
``validate_deal(entries) -> None``
    cross-player validation of one deal's entries (``{player: Entry}``);
    raises :class:`scoring.ScoringError`.
``score_deal(entries) -> dict[str, int]``
    validates, then returns each player's score for that deal (points for
    games where more is better, minus points as non-negative numbers where
    fewer is better).
``entry_from_dict(data) -> Entry`` / ``entry_to_dict(entry) -> dict``
    JSON-compatible round trip of an entry; bad data raises ScoringError.
``random_game(players, rng) -> SimulatedGame``
    a complete random legal game, played through the game model from the
    deal to the end.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from scoring import GAMES, error


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    """A complete game played through a game model.

    ``deals`` holds, per deal, what each player would record at the table;
    ``totals`` the final scores the game model computed itself.
    """

    players: tuple[str, ...]
    deals: tuple[Mapping[str, Any], ...]
    totals: Mapping[str, int]


class GameRules(Protocol):
    """The recording interface every game module implements."""

    def deal_count(self, players: int) -> int: ...

    def validate_deal(self, entries: Mapping[str, Any]) -> None: ...

    def score_deal(self, entries: Mapping[str, Any]) -> dict[str, int]: ...

    def entry_from_dict(self, data: Mapping[str, object]) -> Any: ...

    def entry_to_dict(self, entry: Any) -> dict[str, object]: ...

    def random_game(self, players: int, rng: random.Random) -> SimulatedGame: ...


def rules_for(slug: str) -> GameRules:
    """The module of a game, by slug.

    >>> rules_for("elf-nimmt").deal_count(4)
    4
    >>> rules_for("skat")
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Unknown game 'skat'.
    """
    info = GAMES.get(slug)
    if info is None:
        raise error("unknown_game", "Unknown game {game!r}.", game=slug)
    return cast(GameRules, importlib.import_module(info.module))


def match_totals(slug: str, deals: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Sum of :func:`score_deal` over the deals of a match, per player.

    Every player who appears in any deal gets a total.
    """
    rules = rules_for(slug)
    totals: dict[str, int] = {}
    for entries in deals:
        for player, score in rules.score_deal(entries).items():
            totals[player] = totals.get(player, 0) + score
    return totals


def player_names(players: int) -> tuple[str, ...]:
    """Seat names used by the simulators: ``P1`` … ``Pn``.

    >>> player_names(3)
    ('P1', 'P2', 'P3')
    """
    return tuple(f"P{i}" for i in range(1, players + 1))
