"""Who deals and who starts: each deal of a match, and the first deal of its rematch.

The rules differ per game: 13 passes the deal clockwise (the engine's ``dealer`` and
``start_player``), in 11 nimmt! the player with the most minus points of the last deal
starts the next (``next_starter``); the others only know who starts the first deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.models import Match, Seat
from scoring import dreizehn, elf_nimmt


@dataclass(frozen=True, slots=True)
class Turn:
    """Who deals and who starts a deal (either may be unknown)."""

    dealer: Seat | None = None
    starter: Seat | None = None
    tied: tuple[str, ...] = ()
    """Players who tied for starting; the starter is the first of them in seat order (the
    app's decision), and the table may overrule it."""


TurnRule = Callable[[Match, Sequence[Seat], Sequence[Sequence[int]], int], Turn]
"""(match, seats, each earlier deal's scores in seat order, 0-based index of the deal) →
who deals / starts it."""


def _first_starts(
    match: Match, seats: Sequence[Seat], scores: Sequence[Sequence[int]], index: int
) -> Turn:
    """Games without a rotation the engine knows: the chosen player starts the first deal."""
    if index == 0 and 0 <= match.first_dealer < len(seats):
        return Turn(starter=seats[match.first_dealer])
    return Turn()


def _dreizehn(
    match: Match, seats: Sequence[Seat], scores: Sequence[Sequence[int]], index: int
) -> Turn:
    if index >= dreizehn.deal_count(len(seats)):
        return Turn()
    dealer = dreizehn.dealer(len(seats), match.first_dealer, index)
    starter = dreizehn.start_player(len(seats), match.first_dealer, index)
    return Turn(dealer=seats[dealer], starter=seats[starter])


def _elf_nimmt(
    match: Match, seats: Sequence[Seat], scores: Sequence[Sequence[int]], index: int
) -> Turn:
    if index == 0 or not scores:
        return _first_starts(match, seats, scores, 0)
    previous = scores[min(index, len(scores)) - 1]
    by_name = {seat.player.name: score for seat, score in zip(seats, previous, strict=True)}
    order = [seat.player.name for seat in seats]
    name = elf_nimmt.next_starter(by_name, order)
    return Turn(starter=next(seat for seat in seats if seat.player.name == name),
                tied=elf_nimmt.next_starter_tie(by_name, order))


TURN_RULES: dict[str, TurnRule] = {
    "dreizehn": _dreizehn,
    "elf-nimmt": _elf_nimmt,
}
"""Per game: who deals / starts a deal; games not listed use :func:`_first_starts`."""


def turn_for(
    match: Match, seats: Sequence[Seat], scores: Sequence[Sequence[int]], index: int
) -> Turn:
    """Who deals / starts deal ``index`` (0-based), given the earlier deals' ``scores``."""
    rule = TURN_RULES.get(match.game, _first_starts)
    return rule(match, seats, scores, index)


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


def rematch_plan(
    match: Match, seats: Sequence[Seat] | None = None, last_scores: dict[int, int] | None = None
) -> RematchPlan:
    """Same players, seats rotated by one (seat 2 becomes seat 1, seat 1 the last
    seat; clockwise order at the table unchanged), the opener by the game's rule.

    ``last_scores``: the last deal's score per player id, where the caller has read
    them already (the sheet's ``last_scores``)."""
    if seats is None:
        seats = list(match.seats.select_related("player").order_by("number"))
    seats = list(seats)
    count = len(seats)
    rule: RematchRule = "rotate-one"
    opener = (match.first_dealer + 1) % count
    if match.game == "dreizehn":
        last = dreizehn.dealer(count, match.first_dealer, dreizehn.deal_count(count) - 1)
        opener, rule = (last + 1) % count, "continue-dealing"
    elif match.game == "elf-nimmt":
        scores = last_scores
        if scores is None:
            deal = match.deals.order_by("-number").prefetch_related("scores").first()
            if deal is not None:
                scores = {score.player_id: score.score for score in deal.scores.all()}
        if scores is not None:
            by_name = {seat.player.name: scores.get(seat.player_id, 0) for seat in seats}
            name = elf_nimmt.next_starter(by_name, [seat.player.name for seat in seats])
            opener = next(i for i, seat in enumerate(seats) if seat.player.name == name)
            rule = "most-minus-starts"
    rotated = tuple(seats[1:] + seats[:1])
    return RematchPlan(
        seats=rotated, first_dealer=(opener - 1) % count, rule=rule,
        deals=match.game == "dreizehn",
    )
