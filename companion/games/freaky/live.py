"""Freaky on the live board: the rows every player collects. A step is
``[player_id, cards]``; the engine checks the collected cards of the deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion.games.freaky.options import LIVE_ROWS, check_live_rows
from companion.games.live import LiveMode, LiveStep, check_player, player_names
from companion.models import Seat
from companion.parsing import MAX_ID, MAX_SMALL, number_from
from scoring import freaky

QUICK_ADDS = (4, 5, 6, 7, 8, 9)
"""The row sizes the board offers as one tap (any other is typed)."""


def collected(steps: Sequence[LiveStep], seats: Sequence[Seat]) -> dict[int, int]:
    """Cards collected per player id so far, checked by the engine."""
    counts = {seat.player_id: 0 for seat in seats}
    for player_id, cards in steps:
        counts[check_player(seats, player_id)] += cards
    names = player_names(seats)
    freaky.validate_deal({
        names[pid]: freaky.entry_from_dict({"collected": n}) for pid, n in counts.items()
    })
    return counts


def collect(
    steps: list[LiveStep], seats: Sequence[Seat], data: Mapping[str, Any]
) -> list[LiveStep]:
    """A player collected a row of a number of cards."""
    try:
        cards = number_from(data, "cards", minimum=1, maximum=MAX_SMALL)
    except ValidationError as err:
        if err.code != "not_a_number":
            raise
        cards = None
    if cards is None:
        raise ValidationError(_("How many cards did the row have?"), code="cards")
    if cards < freaky.COLLECT_AT:
        raise ValidationError(
            _("A collected row has at least %(least)s cards.") % {"least": freaky.COLLECT_AT},
            code="short_row",
        )
    player_id = number_from(data, "player", minimum=1, maximum=MAX_ID, default=0)
    steps = [*steps, [check_player(seats, player_id), cards]]
    collected(steps, seats)  # raises ScoringError for more cards than the deal can have
    return steps


def undo(steps: list[LiveStep]) -> list[LiveStep]:
    """The last collected row taken back."""
    return steps[:-1]


def entries(steps: list[LiveStep], seats: Sequence[Seat]) -> dict[int, dict[str, object]]:
    return {pid: {"collected": n} for pid, n in collected(steps, seats).items()}


def cards(steps: list[LiveStep]) -> int:
    return sum(step[1] for step in steps)


@dataclass(frozen=True, slots=True)
class RowsPlayer:
    seat: Seat
    rows: tuple[int, ...]
    """Cards of each row the player collected, in order."""
    collected: int


@dataclass(frozen=True, slots=True)
class Board:
    """The rows every player collected so far."""

    players: tuple[RowsPlayer, ...]
    quick_adds: tuple[int, ...] = QUICK_ADDS


def board(steps: list[LiveStep], seats: Sequence[Seat]) -> Board:
    counts = collected(steps, seats)
    return Board(players=tuple(
        RowsPlayer(seat=seat,
                   rows=tuple(cards for player_id, cards in steps if player_id == seat.player_id),
                   collected=counts[seat.player_id])
        for seat in seats
    ))


LIVE = LiveMode(
    option=LIVE_ROWS, check=check_live_rows, actions={"collect": collect}, undo=undo,
    entries=entries, board=board, cards=cards, template="games/freaky/live.html",
    undo_label=gettext_lazy("Undo last row"),
)
