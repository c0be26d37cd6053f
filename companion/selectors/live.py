"""Reads of the live boards (3 sind einer zuviel! card by card, Freaky row by row) and the
state their steps are checked against (the steps are in :mod:`companion.services.live`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from companion.colours import ink_for
from companion.engine_messages import COLOUR_WORDS
from companion.models import Match, Seat
from companion.selectors.sheet import seats_of
from scoring import drei_sind_einer_zuviel, freaky

LIVE_GAMES = frozenset({"drei-sind-einer-zuviel", "freaky"})
"""Games with a live mode on the sheet."""

LiveTurn = list[Any]

def live_turns(match: Match) -> list[LiveTurn]:
    """3 sind einer zuviel!: the recorded turns, ``[player_id, [colours], closed]`` each."""
    turns = match.options.get("live_turns", [])
    return [list(turn) for turn in turns] if isinstance(turns, list) else []

def live_rows(match: Match) -> list[list[int]]:
    """Freaky: the collected rows, ``[player_id, cards]`` each."""
    rows = match.options.get("live_rows", [])
    return [list(row) for row in rows] if isinstance(rows, list) else []

def _names(seats: Sequence[Seat]) -> dict[int, str]:
    return {seat.player_id: seat.player.name for seat in seats}

def check_player(seats: Sequence[Seat], player_id: object) -> int:
    if not isinstance(player_id, int) or player_id not in _names(seats):
        raise ValidationError(_("That player does not play in this match."), code="player")
    return player_id

def live_state(match: Match, seats: Sequence[Seat], turns: Sequence[LiveTurn]) -> Any:
    """3 sind einer zuviel!: the engine's live game after ``turns`` (validates every turn)."""
    names = _names(seats)
    replay = [
        (names[check_player(seats, player_id)], list(colours))
        for player_id, colours, _closed in turns
    ]
    return drei_sind_einer_zuviel.live_replay([seat.player.name for seat in seats], replay)

def freaky_collected(seats: Sequence[Seat], rows: Sequence[Sequence[int]]) -> dict[int, int]:
    """Freaky: cards collected per player id so far, checked by the engine."""
    collected = {seat.player_id: 0 for seat in seats}
    for player_id, cards in rows:
        collected[check_player(seats, player_id)] += cards
    names = _names(seats)
    freaky.validate_deal({
        names[pid]: freaky.entry_from_dict({"collected": n}) for pid, n in collected.items()
    })
    return collected

def live_entries(match: Match, seats: Sequence[Seat]) -> dict[int, dict[str, object]]:
    """The live state as the entries of the game's deal, per player id."""
    if match.game == "freaky":
        collected = freaky_collected(seats, live_rows(match))
        return {pid: {"collected": n} for pid, n in collected.items()}
    engine = drei_sind_einer_zuviel
    by_name = engine.live_entries(live_state(match, seats, live_turns(match)))
    return {seat.player_id: engine.entry_to_dict(by_name[seat.player.name]) for seat in seats}




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
class LiveBoard:
    match: Match
    players: tuple[LivePlayer, ...]
    revision: int
    stack: tuple[int, ...]
    cards: int
    turn_open: bool
    deal_recorded: bool
    kind: str = "colours"


SWATCHES = {  # the colours of 3 sind einer zuviel!, for buttons and live taps
    "orange": "#f28c28", "flieder": "#b39ddb", "hellblau": "#81d4fa", "rot": "#e53935",
    "tuerkis": "#26a69a", "magenta": "#d81b60", "olivgruen": "#827717",
}


@dataclass(frozen=True, slots=True)
class RowsPlayer:
    seat: Seat
    rows: tuple[int, ...]
    """Cards of each row the player collected, in order."""
    collected: int


@dataclass(frozen=True, slots=True)
class RowsBoard:
    """Freaky live: the rows every player collected so far."""

    match: Match
    players: tuple[RowsPlayer, ...]
    revision: int
    cards: int
    deal_recorded: bool
    quick_adds: tuple[int, ...] = (4, 5, 6, 7, 8, 9)
    kind: str = "rows"


def live_board_for(match: Match) -> LiveBoard | RowsBoard:
    """The live board of the match's game, from the stored live steps."""
    if match.game == "freaky":
        return rows_board_for(match)
    return colours_board_for(match)


def rows_board_for(match: Match) -> RowsBoard:
    """Freaky: each player's collected rows and cards (checked by the engine)."""
    seats = seats_of(match)
    rows = live_rows(match)
    collected = freaky_collected(seats, rows)
    players = tuple(
        RowsPlayer(
            seat=seat,
            rows=tuple(cards for player_id, cards in rows if player_id == seat.player_id),
            collected=collected[seat.player_id],
        )
        for seat in seats
    )
    return RowsBoard(
        match=match, players=players, revision=int(match.options.get("live_rev", 0)),
        cards=sum(collected.values()), deal_recorded=match.deals.filter(number=1).exists(),
    )


def colours_board_for(match: Match) -> LiveBoard:
    """3 sind einer zuviel!: open and face-down cards per colour of every player."""
    engine = drei_sind_einer_zuviel
    seats = seats_of(match)
    turns = live_turns(match)
    state = live_state(match, seats, turns)
    last = turns[-1] if turns else None
    players = []
    for seat in seats:
        view = engine.live_view(state, seat.player.name)
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
    return LiveBoard(
        match=match, players=tuple(players), revision=int(match.options.get("live_rev", 0)),
        stack=state.stack, cards=sum(len(turn[1]) for turn in turns),
        turn_open=last is not None and not last[2],
        deal_recorded=match.deals.filter(number=1).exists(),
    )


