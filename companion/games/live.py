"""A game's live board: the game recorded while it is played, tap by tap, on every phone.

A game with a live board has a :class:`LiveMode` (``GameApp.live``): its steps are kept in
one match option (a list of lists that start with a player id), every step is a pure
function of the steps so far (checked by the engine before anything is stored), and the
board's result becomes the game's deal. Locking, the revision every tap names and the
storing are the same for every game (:mod:`companion.services.live`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from companion.models import Match, Seat

LiveStep = list[Any]
"""One step of a live board, starting with the player's id (e.g. ``[7, ["rot"], False]``)."""

Action = Callable[[list[LiveStep], Sequence[Seat], Mapping[str, Any]], list[LiveStep]]
"""A tap on the board: the steps so far, the seats and the tap's form data → the new steps
(raises ``ValidationError`` or ``ScoringError`` for a tap the game refuses)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveMode:
    """How one game is recorded on its live board."""

    option: str
    """The match option that holds the steps."""
    check: Callable[[list[Any], Sequence[str], Mapping[str, str]], None]
    """``check(items, keys, names)`` for steps read from an imported file (``keys``: the
    seated players' keys in seat order, ``names``: key → name): raises
    :class:`~companion.games.checks.Refusal` or ``ScoringError`` unless they can be."""
    actions: Mapping[str, Action]
    """The board's taps by the ``action`` their form posts."""
    undo: Callable[[list[LiveStep]], list[LiveStep]]
    """The steps with the last tap taken back (the steps are not empty)."""
    entries: Callable[[list[LiveStep], Sequence[Seat]], dict[int, dict[str, object]]]
    """The board's result as the deal's entry per player id (checked by the engine)."""
    board: Callable[[list[LiveStep], Sequence[Seat]], Any]
    """What the game's board template shows of the steps."""
    cards: Callable[[list[LiveStep]], int]
    """How many cards are on the board."""
    template: str
    """The game's board (a template included in the live page)."""
    undo_label: str | Promise
    """The undo button's words."""


def live_steps(match: Match, option: str) -> list[LiveStep]:
    """The match's live steps kept in ``option`` (copies: the match's own stay as they are)."""
    steps = match.options.get(option, [])
    return [list(step) for step in steps] if isinstance(steps, list) else []


def player_names(seats: Sequence[Seat]) -> dict[int, str]:
    return {seat.player_id: seat.player.name for seat in seats}


def check_player(seats: Sequence[Seat], player_id: object) -> int:
    """``player_id`` if it is a seated player's, else the refusal a tap gets."""
    if not isinstance(player_id, int) or player_id not in player_names(seats):
        raise ValidationError(_("That player does not play in this match."), code="player")
    return player_id
