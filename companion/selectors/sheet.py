"""Reads for the score sheet: one match with its seats, deals and standings.

:func:`sheet_for` runs a fixed number of queries however many deals the match
has (seats with players, deals, their scores, the last change). Totals and
places are the engine's (``Seat.total``/``place``, kept up to date by
``companion.services.matches``); the running totals per row add up the
engine's per-deal scores.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils.translation import get_language

from companion.breakdown import WhyLine, explain
from companion.charts import Progression
from companion.colours import ink_for, player_colours
from companion.engine_messages import COLOUR_WORDS
from companion.models import Deal, DealScore, Match, MatchChange, Player, Seat
from companion.selectors.prepared import Prepared
from scoring import GAMES, GameInfo
from scoring.common import rules_for


@dataclass(frozen=True, slots=True)
class Cell:
    """One player's score in one deal and their running total after it."""

    score: int
    total: int
    data: Mapping[str, Any]
    """The stored entry (read-only: a sheet read shares it with the next, ``_read_deal``)."""
    why: tuple[WhyLine, ...] = ()
    """Why the score is what it is: the engine's parts in words (``companion.breakdown``)."""
    name: str = ""
    """The player's name (for the breakdown's heading)."""


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
    colour: str = ""
    """The player's colour (``companion.colours``)."""

    @property
    def ink(self) -> str:
        """Black or white, whichever reads on :attr:`colour`."""
        return ink_for(self.colour) if self.colour else ""


@dataclass(frozen=True, slots=True)
class Head:
    """A column head of the sheet: a seat and its player's colour."""

    seat: Seat
    colour: str


@dataclass(frozen=True, slots=True)
class Turn:
    """Who deals and who starts a deal (either may be unknown)."""

    dealer: Seat | None = None
    starter: Seat | None = None
    tied: tuple[str, ...] = ()
    """Players who tied for starting; the starter is the first of them in seat order (the
    app's decision), and the table may overrule it."""


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
    """The change undo would take back (the newest deal change not undone)."""
    winners: list[Seat] = field(default_factory=list)
    colours: dict[int, str] = field(default_factory=dict)
    """Player id → the player's colour (``companion.colours.player_colours``)."""
    redo_change: MatchChange | None = None
    """The change redo would re-apply, if any."""
    _deal_url: str = field(default="", init=False, repr=False)

    @property
    def deal_url(self) -> str:
        """The start of every deal's URL ("/g/1/matches/2/deals/"): a row adds its number
        and "/" (one URL worked out per sheet instead of two per row)."""
        if not self._deal_url:
            from django.urls import reverse

            self._deal_url = reverse(
                "deal_edit", args=[self.match.group_id, self.match.pk, 0]
            ).removesuffix("0/")
        return self._deal_url

    @property
    def heads(self) -> list[Head]:
        """The column heads in seat order, each with its player's colour."""
        return [Head(seat, self.colours.get(seat.player_id, "")) for seat in self.seats]

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
    def is_abandoned(self) -> bool:
        return self.match.status == Match.Status.ABANDONED

    @property
    def is_finished(self) -> bool:
        return self.match.status == Match.Status.FINISHED

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
            colours=tuple(self.colours.get(seat.player_id, "") for seat in self.seats),
        )

    @property
    def last_scores(self) -> dict[int, int] | None:
        """The last deal's score per player id (None before the first deal)."""
        if not self.rows:
            return None
        return {seat.player_id: cell.score
                for seat, cell in zip(self.seats, self.rows[-1].cells, strict=True)}

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
    order = [seat.player.name for seat in seats]
    name = elf_nimmt.next_starter(scores, order)
    return Turn(starter=next(seat for seat in seats if seat.player.name == name),
                tied=elf_nimmt.next_starter_tie(scores, order))


TURN_RULES: dict[str, TurnRule] = {
    "dreizehn": _dreizehn,
    "elf-nimmt": _elf_nimmt,
}
"""Per game: who deals / starts a deal; games not listed use :func:`_first_starts`."""


def turn_for(match: Match, seats: list[Seat], rows: list[Row], index: int) -> Turn:
    rule = TURN_RULES.get(match.game, _first_starts)
    return rule(match, seats, rows, index)


# ------------------------------------------------------------------- the rematch

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
    match: Match, seats: list[Seat] | None = None, last_scores: dict[int, int] | None = None
) -> RematchPlan:
    """Same players, seats rotated by one (seat 2 becomes seat 1, seat 1 the last
    seat; clockwise order at the table unchanged), the opener by the game's rule.

    ``last_scores``: the last deal's score per player id, where the caller has read
    them already (:attr:`Sheet.last_scores`)."""
    if seats is None:
        seats = list(match.seats.select_related("player").order_by("number"))
    count = len(seats)
    rule: RematchRule = "rotate-one"
    opener = (match.first_dealer + 1) % count
    if match.game == "dreizehn":
        from scoring import dreizehn

        last = dreizehn.dealer(count, match.first_dealer, dreizehn.deal_count(count) - 1)
        opener, rule = (last + 1) % count, "continue-dealing"
    elif match.game == "elf-nimmt":
        from scoring import elf_nimmt

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


# ------------------------------------------------------------------------ the sheet

DEAL_FIELDS = tuple(field.attname for field in Deal._meta.concrete_fields)
"""Every column of a deal (``id`` first): the sheet's deals are whole model objects."""
CHANGE_FIELDS = ("id", "match_id", "kind", "deal_number", "undone_at")
"""What the sheet shows of the changes undo and redo would take (not their entries)."""


def _deal_changes(match_id: int) -> Any:
    from companion.services.matches import DEAL_KINDS

    return (MatchChange.objects.filter(match_id=match_id, kind__in=DEAL_KINDS)
            .order_by("-id").values_list(*CHANGE_FIELDS))


_DEAL_CHANGES = Prepared(MatchChange, _deal_changes)
"""A match's deal changes, newest first, without their entries (SQL compiled once)."""


def _undo_redo(match: Match) -> tuple[MatchChange | None, MatchChange | None]:
    """The changes undo and redo would take (``services.matches.undo_target`` and
    ``redo_target``), from one query: newest first, the undone changes piled up after
    the newest change not undone (the oldest of them is redo's), then that one (undo's).
    The changes are model objects with only :data:`CHANGE_FIELDS` loaded."""
    undo = redo = None
    for values in _DEAL_CHANGES(match.pk):
        change = MatchChange.from_db(MatchChange.objects.db, CHANGE_FIELDS, values)
        if change.undone_at is None:
            undo = change
            break
        redo = change
    return undo, redo


SEAT_FIELDS = tuple(field.attname for field in Seat._meta.concrete_fields)
PLAYER_FIELDS = tuple(field.attname for field in Player._meta.concrete_fields)
_SEATS = Prepared(Seat, lambda match_id: (
    Seat.objects.filter(match_id=match_id).order_by("number").values_list(
        *SEAT_FIELDS, *(f"player__{field.name}" for field in Player._meta.concrete_fields)
    )
))
"""A match's seats with their players, in seat order (SQL compiled once)."""


def seats_of(match: Match) -> list[Seat]:
    """The match's seats in seat order, each with its player and its match (what
    ``match.seats.select_related("player").order_by("number")`` gives, without building
    the query on every read)."""
    db, count = Seat.objects.db, len(SEAT_FIELDS)
    seats = []
    for values in _SEATS(match.pk):
        seat = Seat.from_db(db, SEAT_FIELDS, values[:count])
        seat.player = Player.from_db(db, PLAYER_FIELDS, values[count:])
        seat.match = match
        seats.append(seat)
    return seats


def sheet_for(match: Match, *, roster: Any = None) -> Sheet:
    """The score sheet of ``match`` (a constant number of queries).

    The scores are read as plain rows (no model object per score); the changes undo
    and redo would take are read without their entries, and only for a running match
    (nothing else shows them). ``roster``: the group's players as ``(id, colour, …)``
    rows when the caller has read them already (the sheet page's key), else read here.
    """
    seats = seats_of(match)
    position = {seat.player_id: index for index, seat in enumerate(seats)}
    names = [seat.player.name for seat in seats]
    deals: list[Deal] = []
    scores: dict[int, list[int]] = {}
    entries: dict[int, list[str | None]] = {}
    # One query for the deals and their scores (a deal without scores still has its row).
    for *deal_values, player_id, score, entry in _DEALS_WITH_SCORES(match.pk):
        if deal_values[0] not in scores:
            deal = Deal.from_db(Deal.objects.db, DEAL_FIELDS, deal_values)
            deal.match = match
            deals.append(deal)
            scores[deal_values[0]] = [0] * len(seats)
            entries[deal_values[0]] = [None] * len(seats)
        if player_id in position:
            scores[deal_values[0]][position[player_id]] = score
            entries[deal_values[0]][position[player_id]] = entry
    running = [0] * len(seats)
    rows: list[Row] = []
    language = get_language()
    for index, deal in enumerate(deals):
        datas, why = _read_deal(match.game, language, tuple(names), tuple(entries[deal.pk]))
        cells = _cells(scores[deal.pk], datas, why, names, running)
        turn = turn_for(match, seats, rows, index)
        rows.append(Row(deal=deal, cells=cells, dealer=turn.dealer, starter=turn.starter))
    last_change, redo_change = _undo_redo(match) if match.status == Match.Status.OPEN else (
        None, None)
    colour_rows = (
        Player.objects.filter(group_id=match.group_id).values_list("id", "colour")
        if roster is None else ((row[0], row[1]) for row in roster)
    )
    return _sheet(match, seats, rows, colour_rows, last_change, redo_change)


def sheet_after_record(match: Match, recorded: Any) -> Sheet:
    """The sheet right after ``recorded`` (``services.matches.Recorded``) was appended.

    For the htmx answer to a saved deal: the seats, the new deal's scores and the
    log entry come from the save; one query reads the earlier deals' scores
    (numbers only, no entry data: their rows are on the phone already, only the
    running totals, the progression and who deals / starts next need them) and
    one the roster's colours. Only the new row carries its entries and breakdown.
    """
    seats = recorded.seats
    position = {seat.player_id: index for index, seat in enumerate(seats)}
    earlier: dict[int, list[int]] = {}
    for number, player_id, score in (
        DealScore.objects.filter(deal__match=match, deal__number__lt=recorded.deal.number)
        .values_list("deal__number", "player_id", "score")
    ):
        if player_id in position:
            earlier.setdefault(number, [0] * len(seats))[position[player_id]] = score
    running = [0] * len(seats)
    rows: list[Row] = []
    for number in sorted(earlier):
        cells = []
        for index, score_value in enumerate(earlier[number]):
            running[index] += score_value
            cells.append(Cell(score=score_value, total=running[index], data={}))
        turn = turn_for(match, seats, rows, len(rows))
        rows.append(Row(deal=Deal(match=match, number=number), cells=tuple(cells),
                        dealer=turn.dealer, starter=turn.starter))
    new = [recorded.scores.get(seat.player_id) for seat in seats]
    cells = _deal_cells(match.game, [seat.player.name for seat in seats], [
        (score.score, score.data) if score is not None else (0, {}) for score in new
    ], running)
    turn = turn_for(match, seats, rows, len(rows))
    rows.append(Row(deal=recorded.deal, cells=cells, dealer=turn.dealer, starter=turn.starter))
    # The new change is the newest: undo takes it back, and nothing is left to redo.
    return _sheet(
        match, seats, rows,
        Player.objects.filter(group_id=match.group_id).values_list("id", "colour"),
        last_change=recorded.change, redo_change=None,
    )


_DEALS_WITH_SCORES = Prepared(Deal, lambda match_id: (
    Deal.objects.filter(match_id=match_id).order_by("number")
    .annotate(entry=Cast("scores__data", TextField()))
    .values_list(*DEAL_FIELDS, "scores__player_id", "scores__score", "entry")
))
"""A match's deals with each score and its stored entry as JSON text (the text is the
key of :func:`_read_deal`; it is decoded only for a deal not read before)."""

_NO_ENTRY: Mapping[str, Any] = MappingProxyType({})


@functools.lru_cache(maxsize=2048)
def _read_deal(
    game: str, language: str | None, names: tuple[str, ...], entries: tuple[str | None, ...]
) -> tuple[tuple[Mapping[str, Any], ...], dict[str, tuple[WhyLine, ...]]]:
    """One deal's stored entries (JSON text per seat, ``None`` for none) decoded, with the
    engine's breakdown per player name in ``language``.

    A pure function of its arguments, kept for the deals read most recently: a sheet read
    after a change explains only the deal that changed, not every deal again (the engine's
    breakdown of card numbers was half of reading an 11 nimmt! sheet). What it gives is
    shared by the reads: read-only mappings, immutable lines.
    """
    datas = [json.loads(entry) if entry is not None else {} for entry in entries]
    why = explain(game, dict(zip(names, datas, strict=True)),
                  signed=not GAMES[game].lower_is_better)
    return tuple(MappingProxyType(data) if data else _NO_ENTRY for data in datas), why


def _cells(
    scores: list[int], datas: tuple[Mapping[str, Any], ...],
    why: Mapping[str, tuple[WhyLine, ...]], names: list[str], running: list[int],
) -> tuple[Cell, ...]:
    """One deal's cells; ``running`` moves on by the deal's scores."""
    cells = []
    for index, score in enumerate(scores):
        running[index] += score
        cells.append(Cell(score=score, total=running[index], data=datas[index],
                          why=why.get(names[index], ()), name=names[index]))
    return tuple(cells)


def _deal_cells(
    game: str, names: list[str], scored: list[tuple[int, dict[str, Any]]], running: list[int]
) -> tuple[Cell, ...]:
    """One deal's cells: each seat's ``(score, entries)`` with the engine's breakdown and
    the running total after it (``running`` moves on by the deal's scores)."""
    why = explain(game, {
        name: data for name, (_, data) in zip(names, scored, strict=True)
    }, signed=not GAMES[game].lower_is_better)
    cells = []
    for index, (score, data) in enumerate(scored):
        running[index] += score
        cells.append(Cell(score=score, total=running[index], data=data,
                          why=why.get(names[index], ()), name=names[index]))
    return tuple(cells)


def _sheet(
    match: Match, seats: list[Seat], rows: list[Row], colour_rows: Any,
    last_change: MatchChange | None, redo_change: MatchChange | None,
) -> Sheet:
    """The sheet of ``rows``: standings in the engine's places (ties by name), who deals
    or starts next while deals are missing, the winners and the players' colours
    (``colour_rows``: the group's ``(player id, colour)`` pairs)."""
    needed = rules_for(match.game).deal_count(len(seats))
    colours = player_colours(colour_rows)
    standings = sorted(
        (
            Standing(place=seat.place or 1, seat=seat, total=seat.total,
                     colour=colours.get(seat.player_id, ""))
            for seat in seats
        ),
        key=lambda standing: (
            standing.place, standing.seat.player.name.casefold(), standing.seat.player.name
        ),
    )
    sheet = Sheet(
        match=match, info=GAMES[match.game], seats=seats, rows=rows, standings=standings,
        deals_needed=needed,
        next_turn=turn_for(match, seats, rows, len(rows)) if len(rows) < needed else Turn(),
        last_change=last_change, redo_change=redo_change,
    )
    sheet.winners = [seat for seat in seats if seat.is_winner]
    sheet.colours = colours
    return sheet


# ------------------------------------------------------------------- the match's log


def match_log(match: Match) -> list[MatchChange]:
    """Every change of the match, newest first, with who made it and who undid it
    (one query, however long the log)."""
    return list(
        match.changes.select_related("created_by", "undone_by")
        .only(
            "id", "kind", "deal_number", "created_at", "undone_at",
            "created_by__username", "undone_by__username",
        )
        .order_by("-id")
    )


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


# --------------------------------------------------------- preview of a typed deal


@dataclass(frozen=True, slots=True)
class PreviewRow:
    """One player's score in the typed deal and their total and place after it."""

    seat: Seat
    score: int
    total: int
    place: int


def deal_preview_for(
    sheet: Sheet, entries: dict[int, dict[str, object]], number: int
) -> tuple[PreviewRow, ...]:
    """What saving ``entries`` (engine entry dicts by player id) as deal ``number``
    would give each player: the engine's deal score, the new total and place.

    A deal already on the sheet (a correction) replaces its old scores in the totals.
    Nothing is stored. Raises :class:`scoring.ScoringError` for entries the engine
    refuses.
    """
    from scoring import rank

    rules = rules_for(sheet.match.game)
    names = {seat.player_id: seat.player.name for seat in sheet.seats}
    scores = rules.score_deal({
        names[player_id]: rules.entry_from_dict(data) for player_id, data in entries.items()
    })
    old = next((row for row in sheet.rows if row.deal.number == number), None)
    totals = {}
    for index, seat in enumerate(sheet.seats):
        before = sheet.rows[-1].cells[index].total if sheet.rows else 0
        if old is not None:
            before -= old.cells[index].score
        totals[seat.player.name] = before + scores[seat.player.name]
    places = {
        name: place for place, name, _ in rank(totals, lower_is_better=sheet.info.lower_is_better)
    }
    return tuple(
        PreviewRow(seat=seat, score=scores[seat.player.name], total=totals[seat.player.name],
                   place=places[seat.player.name])
        for seat in sheet.seats
    )
