"""Kartenrunde's rules engine for five Amigo card games.

Pure Python, no Django. Every public function is pure and raises
:class:`ScoringError` on input that the rules do not allow.

>>> GAMES["elf-nimmt"].title
'11 nimmt!'
>>> hornochsen(55), hornochsen(44), hornochsen(30), hornochsen(25), hornochsen(7)
(7, 5, 3, 2, 1)
>>> rank({"Ben": 12, "Anna": 12, "Cem": 20}, lower_is_better=True)
((1, 'Anna', 12), (1, 'Ben', 12), (3, 'Cem', 20))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "GAMES", "GameInfo", "ScoringError", "error", "hornochsen", "hornochsen_by_scheme", "rank",
    "register", "unregister",
]


class ScoringError(ValueError):
    """Input that the rules of the game do not allow.

    ``str(error)`` is an English sentence a player understands. ``code`` names
    the kind of error, ``template`` is the English sentence with ``{name}``
    placeholders and ``params`` their values, so that the app can translate
    the template and fill in the values in the player's language.
    """

    def __init__(
        self, message: str, *, code: str = "invalid", template: str | None = None,
        **params: object,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.template = template if template is not None else message
        self.params: dict[str, object] = dict(params)


def error(code: str, template: str, **params: object) -> ScoringError:
    """A :class:`ScoringError` from a message template (keep ``template`` a literal).

    >>> err = error("card_twice", "Card {card} appears twice.", card=17)
    >>> str(err), err.code, err.template, err.params
    ('Card 17 appears twice.', 'card_twice', 'Card {card} appears twice.', {'card': 17})
    """
    return ScoringError(template.format(**params), code=code, template=template, **params)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the app needs to know about a game before it asks the game's module."""

    slug: str
    title: str
    min_players: int
    max_players: int
    lower_is_better: bool
    module: str
    """Dotted name of the game's module in this package."""

    def check_players(self, players: object) -> None:
        """Raise :class:`ScoringError` unless ``players`` may play this game.

        >>> GAMES["dreizehn"].check_players(2)
        Traceback (most recent call last):
        ...
        scoring.ScoringError: 13 is played by 3 to 6 players, not 2.
        """
        if isinstance(players, bool) or not isinstance(players, int):
            raise error(
                "player_count_type",
                "The number of players must be a whole number, not {players!r}.",
                players=players,
            )
        if not self.min_players <= players <= self.max_players:
            raise error(
                "player_count",
                "{game} is played by {min} to {max} players, not {players}.",
                game=self.title,
                min=self.min_players,
                max=self.max_players,
                players=players,
            )


_REGISTRY: dict[str, GameInfo] = {
    info.slug: info
    for info in (
        GameInfo("drei-sind-einer-zuviel", "3 sind einer zuviel!", 2, 4, False,
                 "scoring.drei_sind_einer_zuviel"),
        GameInfo("x-nimmt", "X nimmt!", 2, 4, True, "scoring.x_nimmt"),
        GameInfo("freaky", "Freaky", 2, 5, False, "scoring.freaky"),
        GameInfo("elf-nimmt", "11 nimmt!", 2, 7, True, "scoring.elf_nimmt"),
        GameInfo("dreizehn", "13", 3, 6, True, "scoring.dreizehn"),
        GameInfo("sechs-nimmt", "6 nimmt!", 2, 10, True, "scoring.sechs_nimmt"),
    )
}

GAMES: Mapping[str, GameInfo] = MappingProxyType(_REGISTRY)
"""Every game by slug, in the order the app lists them (a read-only view of the registry:
a game is added by one line above, or by :func:`register`)."""


def register(info: GameInfo) -> None:
    """Add a game whose module lives outside this package (the tests' contract game).

    A game shipped with Kartenrunde is one line in the registry above instead.

    >>> register(GAMES["x-nimmt"])
    Traceback (most recent call last):
    ...
    ValueError: A game 'x-nimmt' is registered already.
    """
    if info.slug in _REGISTRY:
        raise ValueError(f"A game {info.slug!r} is registered already.")
    _REGISTRY[info.slug] = info


def unregister(slug: str) -> None:
    """Take a game added by :func:`register` out again (tests clean up with it)."""
    del _REGISTRY[slug]


def hornochsen(card: int) -> int:
    """Bullheads ("Hornochsen") on a number card 1–100 of X nimmt! and 11 nimmt!.

    55 → 7; other multiples of 11 → 5; multiples of 10 → 3; other multiples
    of 5 → 2; every other card → 1.

    >>> sum(hornochsen(c) for c in range(1, 101))
    167
    >>> hornochsen(101)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: There is no card 101: cards go from 1 to 100.
    """
    if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= 100:
        raise error("card_range", "There is no card {card}: cards go from 1 to 100.", card=card)
    return hornochsen_by_scheme(card)


def hornochsen_by_scheme(card: int) -> int:
    """The family's scheme for any card number, without a range (X nimmt! and 11 nimmt! go
    to 100, 6 nimmt! to 104): 55 → 7; other multiples of 11 → 5; multiples of 10 → 3;
    other multiples of 5 → 2; every other card → 1.

    >>> [hornochsen_by_scheme(card) for card in (55, 102, 104, 100, 95, 1)]
    [7, 1, 1, 3, 2, 1]
    """
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


def rank(
    totals: Mapping[str, int], *, lower_is_better: bool
) -> tuple[tuple[int, str, int], ...]:
    """Standings as ``(place, player, total)``, best first.

    Tied players share a place and the next place is skipped (1, 1, 3);
    players with equal totals are listed by name, ignoring case.

    >>> rank({"Anna": 20, "Ben": 31, "Cem": 20}, lower_is_better=False)
    ((1, 'Ben', 31), (2, 'Anna', 20), (2, 'Cem', 20))
    >>> rank({"Eva": 5, "anna": 5}, lower_is_better=True)
    ((1, 'anna', 5), (1, 'Eva', 5))
    >>> rank({}, lower_is_better=True)
    ()
    """
    sign = 1 if lower_is_better else -1
    ordered = sorted(
        totals.items(), key=lambda item: (sign * item[1], item[0].casefold(), item[0])
    )
    standings: list[tuple[int, str, int]] = []
    for index, (player, total) in enumerate(ordered):
        if standings and standings[-1][2] == total:
            place = standings[-1][0]
        else:
            place = index + 1
        standings.append((place, player, total))
    return tuple(standings)
