"""Who deals and who starts: each deal of a match, and the first deal of its rematch.

The rules differ per game (``GameApp.turns``): 13 passes the deal clockwise, in 11 nimmt!
the player with the most minus points of the last deal starts the next; the others only
know who starts the first deal (:class:`TurnRules`, the default).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.models import Match, Seat


@dataclass(frozen=True, slots=True)
class Turn:
    """Who deals and who starts a deal (either may be unknown)."""

    dealer: Seat | None = None
    starter: Seat | None = None
    tied: tuple[str, ...] = ()
    """Players who tied for starting; the starter is the first of them in seat order (the
    app's decision), and the table may overrule it."""


RematchRule = Literal["continue-dealing", "most-minus-starts", "rotate-one"]
"""Why the rematch's first dealer / starter is who it is:

- ``continue-dealing``: 13 passes the deal clockwise; the next match goes on from
  the last deal's dealer.
- ``most-minus-starts``: 11 nimmt!: the player with the most minus points in the
  last deal starts the next one (the engine's ``next_starter``).
- ``rotate-one``: the rules say nothing about the next match: the first dealer /
  starter moves one seat clockwise.
"""


@dataclass(frozen=True, slots=True)
class RematchPlan:
    """The seats of a rematch (rotated by one) and who deals / starts its first deal."""

    seats: tuple[Seat, ...]
    """The finished match's seats in the rematch's seat order."""
    first_dealer: int
    """Index into :attr:`seats`."""
    rule: RematchRule
    deals: bool
    """True when the first player deals (13); False when they start."""

    @property
    def opener(self) -> Seat:
        return self.seats[self.first_dealer]

    @property
    def names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]




class TurnRules:
    """Who deals and starts when the rules say nothing more: the chosen player starts the
    first deal, and a rematch's first player is one seat on."""

    rematch_deals = False
    """True when the rematch's first player deals (13); False when they start."""

    def turn(
        self, match: Match, seats: Sequence[Seat], scores: Sequence[Sequence[int]], index: int
    ) -> Turn:
        """Who deals / starts deal ``index`` (0-based), given the earlier deals' ``scores``
        (each in seat order)."""
        if index == 0 and 0 <= match.first_dealer < len(seats):
            return Turn(starter=seats[match.first_dealer])
        return Turn()

    def rematch_opener(
        self, match: Match, seats: Sequence[Seat], last_scores: Mapping[int, int] | None
    ) -> tuple[int, RematchRule]:
        """The seat (of ``seats``, the finished match's order) that opens the rematch, and
        why; ``last_scores``: the last deal's score per player id (None without deals)."""
        return (match.first_dealer + 1) % len(seats), "rotate-one"
