"""3 sind einer zuviel! on the live board: the colour of every card a player takes, turn by
turn. A step is ``[player_id, [colour, ...], closed]``; the engine's live API
(``live_replay``/``live_entries``) does the bookkeeping: open and face-down cards, the
interim scoring cards in order, the final bonus."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion.colours import ink_for
from companion.games.drei_sind_einer_zuviel.colours import SWATCHES
from companion.games.drei_sind_einer_zuviel.colours import WORDS as COLOUR_WORDS
from companion.games.drei_sind_einer_zuviel.options import LIVE_TURNS, check_live_turns
from companion.games.live import LiveMode, LiveStep, check_player, player_names
from companion.models import Seat
from companion.parsing import MAX_ID, number_from
from scoring import drei_sind_einer_zuviel as engine

TURN_CARDS = 3
"""A turn takes at most three cards (its card, and at most two more the row gives)."""


def state(steps: Sequence[LiveStep], seats: Sequence[Seat]) -> Any:
    """The engine's live game after ``steps`` (validates every turn)."""
    names = player_names(seats)
    replay = [(names[check_player(seats, player_id)], list(colours))
              for player_id, colours, _closed in steps]
    return engine.live_replay([seat.player.name for seat in seats], replay)


def take(
    steps: list[LiveStep], seats: Sequence[Seat], data: Mapping[str, Any]
) -> list[LiveStep]:
    """A player took a card of a colour in their current turn.

    Cards tapped for the same player one after the other belong to one turn until the
    turn is closed (:func:`end_turn`), another player takes a card, or the turn has
    three cards.
    """
    player_id = number_from(data, "player", minimum=1, maximum=MAX_ID, default=0)
    colour = data.get("colour", "")
    last = steps[-1] if steps else None
    if (last is not None and last[0] == player_id and not last[2]
            and len(last[1]) < TURN_CARDS):
        last[1] = [*last[1], colour]
    else:
        if last is not None:
            last[2] = True
        steps.append([player_id, [colour], False])
    state(steps, seats)  # raises ScoringError for a card the game cannot give
    return steps


def end_turn(
    steps: list[LiveStep], seats: Sequence[Seat], data: Mapping[str, Any]
) -> list[LiveStep]:
    """Close the current turn: the next card starts a new one."""
    if not steps or steps[-1][2]:
        raise ValidationError(_("No turn is open."), code="no_turn")
    steps[-1][2] = True
    return steps


def undo(steps: list[LiveStep]) -> list[LiveStep]:
    """The last tapped card taken back, or the last closed turn opened again."""
    last = steps[-1]
    if last[2]:
        last[2] = False
    else:
        last[1] = last[1][:-1]
        if not last[1]:
            steps.pop()
    return steps


def entries(steps: list[LiveStep], seats: Sequence[Seat]) -> dict[int, dict[str, object]]:
    by_name = engine.live_entries(state(steps, seats))
    return {seat.player_id: engine.entry_to_dict(by_name[seat.player.name]) for seat in seats}


def cards(steps: list[LiveStep]) -> int:
    return sum(len(step[1]) for step in steps)


@dataclass(frozen=True, slots=True)
class LiveColour:
    key: str
    label: str
    swatch: str
    open: int
    face_down: int

    @property
    def open_marks(self) -> str:
        """One dot per open card, e.g. "●●"."""
        return "●" * self.open

    @property
    def ink(self) -> str:
        """The label's colour on :attr:`swatch`: black or white, whichever reads (AA)."""
        return ink_for(self.swatch)


@dataclass(frozen=True, slots=True)
class LivePlayer:
    seat: Seat
    colours: tuple[LiveColour, ...]
    interim_bonus: int
    open_colours: int
    final_bonus: int
    score: int
    pending: tuple[str, ...]
    """Colours tapped in this player's turn that is still open."""


@dataclass(frozen=True, slots=True)
class Board:
    """Open and face-down cards per colour of every player, and the interim cards left."""

    players: tuple[LivePlayer, ...]
    stack: tuple[int, ...]
    turn_open: bool


def board(steps: list[LiveStep], seats: Sequence[Seat]) -> Board:
    game = state(steps, seats)
    last = steps[-1] if steps else None
    players = []
    for seat in seats:
        view = engine.live_view(game, seat.player.name)
        pending: tuple[str, ...] = ()
        if last is not None and last[0] == seat.player_id and not last[2]:
            pending = tuple(str(COLOUR_WORDS.get(c, c)) for c in last[1])
        players.append(LivePlayer(
            seat=seat,
            colours=tuple(
                LiveColour(key, str(COLOUR_WORDS[key]), SWATCHES.get(key, "#888"),
                           view.open[key], view.face_down[key])
                for key in engine.COLOURS
            ),
            interim_bonus=view.interim_bonus, open_colours=view.open_colours,
            final_bonus=view.final_bonus, score=view.score, pending=pending,
        ))
    return Board(players=tuple(players), stack=game.stack,
                 turn_open=last is not None and not last[2])


LIVE = LiveMode(
    option=LIVE_TURNS, check=check_live_turns,
    actions={"take": take, "end": end_turn}, undo=undo, entries=entries, board=board,
    cards=cards, template="games/drei_sind_einer_zuviel/live.html",
    undo_label=gettext_lazy("Undo last card"),
)
