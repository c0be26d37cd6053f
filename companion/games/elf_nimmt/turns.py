"""11 nimmt!: the player with the most minus points in the deal just played starts the next
one (the engine's ``next_starter``; a tie is said, the first in seat order starts), and so
the next match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.models import Match, Seat
from companion.turns import RematchRule, Turn, TurnRules
from scoring import elf_nimmt


class ElfNimmtTurns(TurnRules):
    def turn(
        self, match: Match, seats: Sequence[Seat], scores: Sequence[Sequence[int]], index: int
    ) -> Turn:
        if index == 0 or not scores:
            return super().turn(match, seats, scores, 0)
        previous = scores[min(index, len(scores)) - 1]
        by_name = {seat.player.name: score for seat, score in zip(seats, previous, strict=True)}
        order = [seat.player.name for seat in seats]
        name = elf_nimmt.next_starter(by_name, order)
        return Turn(starter=next(seat for seat in seats if seat.player.name == name),
                    tied=elf_nimmt.next_starter_tie(by_name, order))

    def rematch_opener(
        self, match: Match, seats: Sequence[Seat], last_scores: Mapping[int, int] | None
    ) -> tuple[int, RematchRule]:
        if last_scores is None:
            return super().rematch_opener(match, seats, last_scores)
        by_name = {seat.player.name: last_scores.get(seat.player_id, 0) for seat in seats}
        name = elf_nimmt.next_starter(by_name, [seat.player.name for seat in seats])
        return next(i for i, seat in enumerate(seats) if seat.player.name == name), (
            "most-minus-starts")


TURNS = ElfNimmtTurns()
