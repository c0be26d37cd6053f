"""Reads for the score sheet: one match with its seats, deals and standings, the
changes undo and redo would take, the match's log, and the preview of a typed deal.

:func:`sheet_for` runs a fixed number of queries however many deals the match
has (seats with players, deals, their scores, the last changes, the colours). Totals and
places are the engine's (``Seat.total``/``place``, kept up to date by
``companion.services.matches``); the running totals per row add up the
engine's per-deal scores.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from django.core.paginator import Page, Paginator
from django.utils.translation import get_language

from companion.breakdown import WhyLine, explain
from companion.charts import Progression
from companion.colours import ink_for, player_colours
from companion.games import game_app
from companion.models import Deal, DealScore, Match, MatchChange, Player, Seat
from companion.selectors.groups import roster_names
from companion.turns import RematchPlan, Turn
from scoring import GAMES, GameInfo, ScoringError, rank
from scoring.common import deals_needed, rules_for


@dataclass(frozen=True, slots=True)
class Cell:
    """One player's score in one deal and their running total after it."""

    score: int
    total: int
    data: Mapping[str, Any]
    """The stored entry."""
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

    @property
    def key(self) -> tuple[Any, ...]:
        """Everything the row's markup shows (templates/companion/sheet/_deal_table.html):
        the key its rendered text is kept under (a correction of this deal or of an
        earlier one, a renamed player, a new dealer give a new key)."""
        return (self.deal.pk, self.deal.number,
                self.dealer.player.name if self.dealer else None,
                tuple((cell.score, cell.total, cell.name, cell.why) for cell in self.cells))


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


@dataclass(slots=True)
class Sheet:
    match: Match
    info: GameInfo
    seats: list[Seat]
    rows: list[Row]
    standings: list[Standing]
    deals_needed: int
    next_turn: Turn
    planned: int | None
    last_change: MatchChange | None
    """The change undo would take back (the newest deal change not undone)."""
    winners: list[Seat] = field(default_factory=list)
    colours: dict[int, str] = field(default_factory=dict)
    """Player id → the player's colour (``companion.colours.player_colours``)."""
    redo_change: MatchChange | None = None
    """The change redo would re-apply, if any."""
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
    def imported(self) -> bool:
        """Imported with final scores only (BG Stats): read-only, no deals to show."""
        return self.match.source != Match.Source.SHEET

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
    def opener(self) -> Seat | None:
        """Who dealt or started the first deal (``Match.first_dealer``)."""
        index = self.match.first_dealer
        return self.seats[index] if 0 <= index < len(self.seats) else None

    @property
    def leaders(self) -> list[Seat]:
        return [standing.seat for standing in self.standings if standing.place == 1]


# ------------------------------------------------------------------------ the sheet


def undo_target(match: Match) -> MatchChange | None:
    """The change undo would take back: the newest deal change that is not undone."""
    return (
        match.changes.filter(kind__in=MatchChange.DEAL_KINDS, undone_at__isnull=True)
        .order_by("-id").first()
    )


def redo_target(
    match: Match, after: MatchChange | None = None, *, known: bool = False
) -> MatchChange | None:
    """The change redo would re-apply: the undone change undone last, if no change since.

    Undone changes pile up at the end of the log; a new change after them ends
    their chance of a redo (they stay in the log, marked as undone). With
    ``known``, ``after`` is :func:`undo_target`'s answer the caller has already.
    """
    if not known:
        after = undo_target(match)
    undone = match.changes.filter(kind__in=MatchChange.DEAL_KINDS, undone_at__isnull=False)
    if after is not None:
        undone = undone.filter(id__gt=after.pk)
    return undone.order_by("id").first()


TARGETS_READ = 8
"""The newest deal changes :func:`undo_redo_targets` reads at once."""


def undo_redo_targets(match: Match) -> tuple[MatchChange | None, MatchChange | None]:
    """:func:`undo_target` and :func:`redo_target` as the sheet shows them (their id, kind
    and deal number; the rest is read when used), in one query: both are among the newest
    deal changes unless more than :data:`TARGETS_READ` undone ones pile up at the end."""
    newest = list(
        match.changes.filter(kind__in=MatchChange.DEAL_KINDS)
        .only("id", "match_id", "kind", "deal_number", "undone_at")
        .order_by("-id")[:TARGETS_READ]
    )
    redo = None
    for change in newest:
        if change.undone_at is None:
            return change, redo
        redo = change  # undone after the undo target: the oldest of them is redone first
    if len(newest) < TARGETS_READ:
        return None, redo  # every deal change of the match is undone
    undo = undo_target(match)
    return undo, redo_target(match, undo, known=True)


def seats_of(match: Match) -> list[Seat]:
    """The match's seats in seat order, each with its player."""
    return list(match.seats.select_related("player").order_by("number"))


def _colour_rows(match: Match) -> Any:
    """The group's ``(player id, colour)`` pairs: a default colour depends on the roster."""
    return Player.objects.filter(group_id=match.group_id).values_list("id", "colour")


def sheet_for(match: Match) -> Sheet:
    """The score sheet of ``match`` (a constant number of queries however many deals).

    The changes undo and redo would take are read only for a running match (nothing
    else shows them).
    """
    seats = seats_of(match)
    turns = game_app(match.game).turns
    names = [seat.player.name for seat in seats]
    position = {seat.player_id: index for index, seat in enumerate(seats)}
    deals = list(match.deals.order_by("number"))
    # The scores as plain values, not a prefetch: a related manager per deal was a fifth of
    # reading a long sheet.
    stored: dict[int, list[tuple[int, int, Mapping[str, Any]]]] = {}
    for deal_id, player_id, score_value, data in DealScore.objects.filter(
        deal__match=match
    ).values_list("deal_id", "player_id", "score", "data"):
        stored.setdefault(deal_id, []).append((player_id, score_value, data))
    language = get_language()
    running = [0] * len(seats)
    scores_so_far: list[list[int]] = []
    rows: list[Row] = []
    for index, deal in enumerate(deals):
        scores = [0] * len(seats)
        datas: list[Mapping[str, Any]] = [{} for _ in seats]
        for player_id, score_value, data in stored.get(deal.pk, ()):
            if player_id in position:
                scores[position[player_id]] = score_value
                datas[position[player_id]] = data
        why = _breakdown(match.game, language, tuple(names), _entry_texts(datas))
        cells = _cells(scores, datas, why, names, running)
        turn = turns.turn(match, seats, scores_so_far, index)
        rows.append(Row(deal=deal, cells=cells, dealer=turn.dealer, starter=turn.starter))
        scores_so_far.append(scores)
    last_change = redo_change = None
    if match.status == Match.Status.OPEN:
        last_change, redo_change = undo_redo_targets(match)
    return _sheet(match, seats, rows, scores_so_far, _colour_rows(match), last_change,
                  redo_change)


def sheet_after_record(match: Match, recorded: Any) -> Sheet:
    """The sheet right after ``recorded`` (``services.deals.Recorded``) was appended.

    For the htmx answer to a saved deal: the seats, the new deal's scores and the log
    entry come from the save; one query reads the earlier deals' scores (numbers only:
    their rows are on the phone already, only the running totals, the progression and
    who deals / starts next need them) and one the roster's colours. Only the new row
    carries its entries and breakdown.
    """
    seats = recorded.seats
    turns = game_app(match.game).turns
    position = {seat.player_id: index for index, seat in enumerate(seats)}
    earlier: dict[int, list[int]] = {}
    for number, player_id, score in (
        DealScore.objects.filter(deal__match=match, deal__number__lt=recorded.deal.number)
        .values_list("deal__number", "player_id", "score")
    ):
        if player_id in position:
            earlier.setdefault(number, [0] * len(seats))[position[player_id]] = score
    running = [0] * len(seats)
    scores_so_far: list[list[int]] = []
    rows: list[Row] = []
    for number in sorted(earlier):
        cells = []
        for index, score_value in enumerate(earlier[number]):
            running[index] += score_value
            cells.append(Cell(score=score_value, total=running[index], data={}))
        turn = turns.turn(match, seats, scores_so_far, len(rows))
        rows.append(Row(deal=Deal(match=match, number=number), cells=tuple(cells),
                        dealer=turn.dealer, starter=turn.starter))
        scores_so_far.append(earlier[number])
    names = [seat.player.name for seat in seats]
    new = [recorded.scores.get(seat.player_id) for seat in seats]
    scores = [score.score if score is not None else 0 for score in new]
    datas = [score.data if score is not None else {} for score in new]
    why = _breakdown(match.game, get_language(), tuple(names), _entry_texts(datas))
    turn = turns.turn(match, seats, scores_so_far, len(rows))
    rows.append(Row(deal=recorded.deal, cells=_cells(scores, datas, why, names, running),
                    dealer=turn.dealer, starter=turn.starter))
    scores_so_far.append(scores)
    # The new change is the newest: undo takes it back, and nothing is left to redo.
    return _sheet(match, seats, rows, scores_so_far, _colour_rows(match),
                  last_change=recorded.change, redo_change=None)


def _entry_texts(datas: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """A deal's stored entries as JSON text: the key of :func:`_breakdown`'s memo."""
    return tuple(json.dumps(data, sort_keys=True) for data in datas)


@functools.lru_cache(maxsize=2048)
def _breakdown(
    game: str, language: str | None, names: tuple[str, ...], entries: tuple[str, ...]
) -> Mapping[str, tuple[WhyLine, ...]]:
    """The engine's breakdown of one deal per player name, in ``language`` (the active one).

    A pure memo of the engine's answer: a sheet loaded again explains only the deals it
    has not explained before (explaining card numbers is most of reading a long sheet).
    """
    datas = [json.loads(entry) for entry in entries]
    why = explain(game, dict(zip(names, datas, strict=True)),
                  signed=not GAMES[game].lower_is_better)
    return MappingProxyType(why)


def _cells(
    scores: list[int], datas: Sequence[Mapping[str, Any]],
    why: Mapping[str, tuple[WhyLine, ...]], names: list[str], running: list[int],
) -> tuple[Cell, ...]:
    """One deal's cells; ``running`` moves on by the deal's scores."""
    cells = []
    for index, score in enumerate(scores):
        running[index] += score
        cells.append(Cell(score=score, total=running[index], data=datas[index],
                          why=why.get(names[index], ()), name=names[index]))
    return tuple(cells)


def _sheet(
    match: Match, seats: list[Seat], rows: list[Row], scores: Sequence[Sequence[int]],
    colour_rows: Any, last_change: MatchChange | None, redo_change: MatchChange | None,
) -> Sheet:
    """The sheet of ``rows``: standings in the engine's places (ties by name), who deals
    or starts next while deals are missing, the winners and the players' colours
    (``colour_rows``: the group's ``(player id, colour)`` pairs)."""
    needed = deals_needed(match.game, len(seats), recorded=len(rows), options=match.options,
                          totals=lambda: {str(seat.player_id): seat.total for seat in seats})
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
        # None: the match ends by its totals (to a target), so the sheet counts no "of N".
        planned=rules_for(match.game, match.options).deal_count(len(seats)),
        next_turn=(game_app(match.game).turns.turn(match, seats, scores, len(rows))
                   if len(rows) < needed else Turn()),
        last_change=last_change, redo_change=redo_change,
    )
    sheet.winners = [seat for seat in seats if seat.is_winner]
    sheet.colours = colours
    return sheet


# -------------------------------------------------------------------- the rematch


def rematch_plan(
    match: Match, seats: Sequence[Seat] | None = None,
    last_scores: Mapping[int, int] | None = None,
) -> RematchPlan:
    """Same players, seats rotated by one (seat 2 becomes seat 1, seat 1 the last
    seat; clockwise order at the table unchanged), the opener by the game's rule
    (``GameApp.turns``).

    ``seats`` and ``last_scores`` (the last deal's score per player id): where the caller
    has read them already (:attr:`Sheet.last_scores`)."""
    seats = seats_of(match) if seats is None else list(seats)
    if last_scores is None:
        last = match.deals.order_by("-number").prefetch_related("scores").first()
        if last is not None:
            last_scores = {score.player_id: score.score for score in last.scores.all()}
    rules = game_app(match.game).turns
    opener, rule = rules.rematch_opener(match, seats, last_scores)
    count = len(seats)
    return RematchPlan(
        seats=tuple(seats[1:] + seats[:1]), first_dealer=(opener - 1) % count, rule=rule,
        deals=rules.rematch_deals,
    )


def recorded_as(match: Match, number: int, entries: Mapping[int, Mapping[str, Any]],
                seats: Sequence[Seat]) -> bool:
    """Whether deal ``number`` is on the sheet with exactly ``entries`` (per player id, as a
    deal form gives them), compared as the engine stores them."""
    deal = match.deals.filter(number=number).prefetch_related("scores").first()
    if deal is None:
        return False
    rules = rules_for(match.game)
    try:
        typed = {
            seat.player_id: rules.entry_to_dict(rules.entry_from_dict(entries[seat.player_id]))
            for seat in seats
        }
    except (KeyError, ScoringError):
        return False
    stored = {score.player_id: score.data for score in deal.scores.all()}
    # Through JSON as the stored data went (tuples become lists).
    return {pid: json.loads(json.dumps(data)) for pid, data in typed.items()} == stored


# ------------------------------------------------------------------- the match's log


@dataclass(frozen=True, slots=True)
class LogLine:
    """One player's part of a logged change of a deal: the entry and score before and after."""

    name: str
    entry: str
    """What changed in the entry, in words (``EntryFormat.describe_change``)."""
    score_before: int | None
    """The engine's score of the deal before; None where there was no deal (or the engine
    cannot read what is stored)."""
    score_after: int | None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """A change of the log with who made it, by their name on the group's roster."""

    change: MatchChange
    by: str
    """The roster name of the member who made it (their user name if they have none
    on the roster, empty if the account is gone)."""
    undone_by: str
    lines: tuple[LogLine, ...]
    """The players whose entry or score the change changed, in seat order."""


def _snapshot_scores(
    match: Match, snapshot: Mapping[str, Any] | None, names: Mapping[str, str]
) -> dict[str, int]:
    """The engine's scores of a logged deal (by player id as text); {} if it cannot read it."""
    if not snapshot:
        return {}
    rules = rules_for(match.game)
    try:
        scores = rules.score_deal({
            names.get(key, key): rules.entry_from_dict(data) for key, data in snapshot.items()
        })
    except ScoringError:
        return {}
    return {key: scores[names.get(key, key)] for key in snapshot}


def _log_lines(
    match: Match, change: MatchChange, seats: Sequence[Seat]
) -> tuple[LogLine, ...]:
    before, after = change.before or {}, change.after or {}
    if not before and not after:
        return ()
    entry_format = game_app(match.game).entry
    names = {str(seat.player_id): seat.player.name for seat in seats}
    scores_before = _snapshot_scores(match, before, names)
    scores_after = _snapshot_scores(match, after, names)
    lines = []
    for key in [*names, *(k for k in {**before, **after} if k not in names)]:
        if key not in before and key not in after:
            continue
        line = LogLine(
            name=names.get(key, "?"),
            entry=entry_format.describe_change(before.get(key) if before else None,
                                               after.get(key) if after else None),
            score_before=scores_before.get(key), score_after=scores_after.get(key),
        )
        if line.entry or line.score_before != line.score_after:
            lines.append(line)
    return tuple(lines)


LOG_PER_PAGE = 50
"""Changes per page of a match's log (a long evening of undo and redo has hundreds)."""


def match_log(match: Match, page: int | str | None = 1) -> Page[LogEntry]:
    """A page of the match's changes, newest first (:data:`LOG_PER_PAGE` of them): who
    made each (by roster name) and who undid it, and for a change of a deal each player's
    entry and score before and after (four queries, however long the log)."""
    # "match" among the fields: the related manager hands each change its match, which
    # reads the match's id of each (one query per change when it is left out).
    changes = (
        match.changes.select_related("created_by", "undone_by")
        .only(
            "id", "match", "kind", "deal_number", "created_at", "undone_at", "before", "after",
            "created_by__username", "undone_by__username",
            "created_by_guest", "undone_by_guest",
        )
        .order_by("-id")
    )
    found = Paginator(changes, LOG_PER_PAGE).get_page(page)
    roster = roster_names(match.group_id)
    seats = seats_of(match)

    def who(user: Any) -> str:
        return "" if user is None else roster.get(user.pk, user.username)

    found.object_list = [
        LogEntry(change=change, by=who(change.created_by), undone_by=who(change.undone_by),
                 lines=_log_lines(match, change, seats))
        for change in found.object_list
    ]
    return found  # type: ignore[return-value]


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
    rules = rules_for(sheet.match.game, sheet.match.options)
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
