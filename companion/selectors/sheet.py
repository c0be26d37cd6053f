"""Reads for the score sheet: one match with its seats, deals and standings.

:func:`sheet_for` runs a fixed number of queries however many deals the match
has (seats with players, deals, their scores, the last change). Totals and
places are the engine's (``Seat.total``/``place``, kept up to date by
``companion.services.matches``); the running totals per row add up the
engine's per-deal scores.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from companion.engine_messages import COLOUR_WORDS
from companion.models import Deal, DealScore, Match, MatchChange, Seat
from companion.selectors.history import Progression
from scoring import GAMES, GameInfo
from scoring.common import rules_for


@dataclass(frozen=True, slots=True)
class Cell:
    """One player's score in one deal and their running total after it."""

    score: int
    total: int
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Row:
    """One deal of the sheet: a cell per seat, in seat order."""

    deal: Deal
    cells: tuple[Cell, ...]
    dealer: Seat | None = None
    starter: Seat | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    seat: Seat
    total: int


@dataclass(frozen=True, slots=True)
class Turn:
    """Who deals and who starts a deal (either may be unknown)."""

    dealer: Seat | None = None
    starter: Seat | None = None


@dataclass(slots=True)
class Sheet:
    match: Match
    info: GameInfo
    seats: list[Seat]
    rows: list[Row]
    standings: list[Standing]
    deals_needed: int
    next_turn: Turn
    last_change: MatchChange | None
    winners: list[Seat] = field(default_factory=list)

    @property
    def deals_recorded(self) -> int:
        return len(self.rows)

    @property
    def complete(self) -> bool:
        return len(self.rows) >= self.deals_needed

    @property
    def next_number(self) -> int:
        return len(self.rows) + 1

    @property
    def is_open(self) -> bool:
        return self.match.status == Match.Status.OPEN

    @property
    def can_record(self) -> bool:
        return self.is_open and not self.complete

    @property
    def progression(self) -> Progression:
        """Running totals after each deal for the chart, from the rows already read."""
        return Progression(
            self.info,
            tuple(row.deal.number for row in self.rows),
            tuple(
                (seat.player.name, tuple(row.cells[index].total for row in self.rows))
                for index, seat in enumerate(self.seats)
            ),
        )

    @property
    def leaders(self) -> list[Seat]:
        return [standing.seat for standing in self.standings if standing.place == 1]


# --------------------------------------------------------- who deals / starts next

TurnRule = Callable[[Match, list[Seat], list[Row], int], Turn]
"""(match, seats, rows so far, 0-based index of the deal) → who deals / starts it."""


def _first_starts(match: Match, seats: list[Seat], rows: list[Row], index: int) -> Turn:
    """Games without a rotation the engine knows: the chosen player starts the first deal."""
    if index == 0 and 0 <= match.first_dealer < len(seats):
        return Turn(starter=seats[match.first_dealer])
    return Turn()


def _dreizehn(match: Match, seats: list[Seat], rows: list[Row], index: int) -> Turn:
    from scoring import dreizehn

    if index >= dreizehn.deal_count(len(seats)):
        return Turn()
    dealer = dreizehn.dealer(len(seats), match.first_dealer, index)
    starter = dreizehn.start_player(len(seats), match.first_dealer, index)
    return Turn(dealer=seats[dealer], starter=seats[starter])


def _elf_nimmt(match: Match, seats: list[Seat], rows: list[Row], index: int) -> Turn:
    from scoring import elf_nimmt

    if index == 0 or not rows:
        return _first_starts(match, seats, rows, 0)
    previous = rows[index - 1] if index - 1 < len(rows) else rows[-1]
    scores = {
        seat.player.name: cell.score for seat, cell in zip(seats, previous.cells, strict=True)
    }
    name = elf_nimmt.next_starter(scores, [seat.player.name for seat in seats])
    return Turn(starter=next(seat for seat in seats if seat.player.name == name))


TURN_RULES: dict[str, TurnRule] = {
    "dreizehn": _dreizehn,
    "elf-nimmt": _elf_nimmt,
}
"""Per game: who deals / starts a deal; games not listed use :func:`_first_starts`."""


def turn_for(match: Match, seats: list[Seat], rows: list[Row], index: int) -> Turn:
    rule = TURN_RULES.get(match.game, _first_starts)
    return rule(match, seats, rows, index)


# ------------------------------------------------------------------------ the sheet


def sheet_for(match: Match) -> Sheet:
    """The score sheet of ``match`` (a constant number of queries)."""
    seats = list(match.seats.select_related("player").order_by("number"))
    deals = list(
        match.deals.order_by("number").prefetch_related(
            Prefetch("scores", queryset=DealScore.objects.only(
                "id", "deal_id", "player_id", "score", "data"
            ))
        )
    )
    running = [0] * len(seats)
    position = {seat.player_id: index for index, seat in enumerate(seats)}
    rows: list[Row] = []
    for index, deal in enumerate(deals):
        scores: list[tuple[int, dict[str, Any]]] = [(0, {})] * len(seats)
        for score in deal.scores.all():
            if score.player_id in position:
                scores[position[score.player_id]] = (score.score, score.data)
        cells = []
        for seat_index, (score_value, data) in enumerate(scores):
            running[seat_index] += score_value
            cells.append(Cell(score=score_value, total=running[seat_index], data=data))
        turn = turn_for(match, seats, rows, index)
        rows.append(Row(deal=deal, cells=tuple(cells), dealer=turn.dealer, starter=turn.starter))
    needed = rules_for(match.game).deal_count(len(seats))
    standings = sorted(
        (Standing(place=seat.place or 1, seat=seat, total=seat.total) for seat in seats),
        key=lambda standing: (standing.place, standing.seat.player.name),
    )
    next_turn = turn_for(match, seats, rows, len(rows)) if len(rows) < needed else Turn()
    last_change = match.changes.order_by("-id").only("id", "kind", "deal_number").first()
    sheet = Sheet(
        match=match, info=GAMES[match.game], seats=seats, rows=rows, standings=standings,
        deals_needed=needed, next_turn=next_turn, last_change=last_change,
    )
    sheet.winners = [seat for seat in seats if seat.is_winner]
    return sheet


# ------------------------------------------------------------------------ live mode


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
    from companion.services.matches import freaky_collected, live_rows

    seats = list(match.seats.select_related("player").order_by("number"))
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
    from companion.services.matches import live_state, live_turns
    from scoring import drei_sind_einer_zuviel as engine

    seats = list(match.seats.select_related("player").order_by("number"))
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
