"""13: the deal passes clockwise (the engine's ``dealer`` and ``start_player``), and the
next match goes on from the last deal's dealer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.models import Match, Seat
from companion.turns import RematchRule, Turn, TurnRules
from scoring import dreizehn


class DreizehnTurns(TurnRules):
    rematch_deals = True

    def turn(
        self, match: Match, seats: Sequence[Seat], scores: Sequence[Sequence[int]], index: int
    ) -> Turn:
        if index >= dreizehn.deal_count(len(seats)):
            return Turn()
        dealer = dreizehn.dealer(len(seats), match.first_dealer, index)
        starter = dreizehn.start_player(len(seats), match.first_dealer, index)
        return Turn(dealer=seats[dealer], starter=seats[starter])

    def rematch_opener(
        self, match: Match, seats: Sequence[Seat], last_scores: Mapping[int, int] | None
    ) -> tuple[int, RematchRule]:
        count = len(seats)
        last = dreizehn.dealer(count, match.first_dealer, dreizehn.deal_count(count) - 1)
        return (last + 1) % count, "continue-dealing"


TURNS = DreizehnTurns()
