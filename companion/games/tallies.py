"""What a game's statistics are made of (``GameApp.tally`` and ``GameApp.figures``): the
summed per-deal tallies a game's figures read, and the figures the game page shows.
The games' folders build theirs from these (``companion/games/<game>/tallies.py``);
:mod:`companion.selectors.stats` reads the tallies from the database."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from django.utils.formats import number_format

HORNOCHSEN = "bulls"
"""The per-deal tally (``GameApp.tally``) of Hornochsen taken: a game whose cards carry
Hornochsen reports them under this name, and the night page adds them up across games."""

Unit = Literal["number", "percent", "count"]


@dataclass(frozen=True, slots=True)
class Figure:
    """One per-deal statistic, for the whole group and per player."""

    label: str
    value: float | None
    unit: Unit
    by_player: tuple[tuple[str, float | None], ...] = ()

    def format(self, value: float | None) -> str:
        """A value of this figure as the page shows it, in the active language's format."""
        if value is None:
            return "–"
        if self.unit == "percent":
            return f"{round(value * 100):d} %"
        if self.unit == "count":
            return str(round(value))
        return number_format(round(value, 1), 1)

    @property
    def display(self) -> str:
        return self.format(self.value)

    @property
    def players_display(self) -> list[tuple[str, str]]:
        return [(name, self.format(value)) for name, value in self.by_player]


@dataclass(frozen=True, slots=True)
class Tallies:
    """What the per-deal statistics of one game read: per player with recorded entries,
    their per-deal figures (their game's ``GameApp.tally``) summed over the game's finished
    matches,
    with ``"entries"``, the number of their entries."""

    by_player: Mapping[int, Mapping[str, int]]
    deals: int
    matches: int
    names: Mapping[int, str]

    def total(self, measure: str) -> int:
        return sum(tally.get(measure, 0) for tally in self.by_player.values())

    def per_player(
        self, measure: str, *, per_entry: bool = True
    ) -> tuple[tuple[str, float | None], ...]:
        """Per player, ``measure`` (divided by their entries if ``per_entry``), by name."""
        lines = [
            (self.names[pid], tally.get(measure, 0) / (tally["entries"] if per_entry else 1))
            for pid, tally in self.by_player.items()
        ]
        return tuple(sorted(lines, key=lambda line: (line[0].casefold(), line[0])))


def ratio(part: int, whole: int) -> float | None:
    """``part / whole``, None for nothing to divide by.

    >>> ratio(3, 4), ratio(0, 0)
    (0.75, None)
    """
    return part / whole if whole else None
