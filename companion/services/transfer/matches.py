"""Import, the checks of one match: its seats, its options and live record, every deal
through the engine (which must give the recorded scores and totals), and its log; the
answer is a :class:`MatchPlan` (the rows to write, as plain tuples)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.games import game_app
from companion.games.checks import Refusal
from companion.games.messages import message_for
from companion.models import Match, MatchChange, Player
from companion.parsing import MAX_POSITIVE, MAX_SMALL
from companion.services.deals import end_before_the_last
from companion.services.transfer.reader import Reader
from scoring import GAMES, ScoringError, rank
from scoring.common import deals_needed, rules_for

CLIENT_KEY = re.compile(r"[A-Za-z0-9-]{8,64}")
"""An idempotency key as phones send them (``companion.forms.sheet.CLIENT_KEY``)."""

class SeatPlan(NamedTuple):
    player: str
    """The player's key in the document."""
    number: int
    total: int
    place: int | None
    is_winner: bool


class ScorePlan(NamedTuple):
    player: str
    data: dict[str, Any]
    """The engine's ``entry_to_dict`` of the entry."""
    score: int


class DealPlan(NamedTuple):
    number: int
    version: int
    created_at: dt.datetime
    updated_at: dt.datetime
    scores: list[ScorePlan]


class ChangePlan(NamedTuple):
    kind: str
    deal_number: int | None
    created_at: dt.datetime
    undone_at: dt.datetime | None
    client_key: str | None
    before: Any
    """``{player key: entry}`` or None."""
    after: Any


@dataclass(slots=True)
class MatchPlan:
    match: Match
    seats: list[SeatPlan]
    deals: list[DealPlan]
    changes: list[ChangePlan]



def _check_options(
    reader: Reader, game: str, status: str, keys: Sequence[str], names: Mapping[str, str]
) -> dict[str, Any]:
    """The match's options: those of its game (e.g. the 13 variant), and the live record
    the engine must accept."""
    options = dict(reader.mapping("options"))
    app = game_app(game)
    live = app.live.option if app.live else None
    for name, value in options.items():
        if name in app.option_checks:
            try:
                app.option_checks[name](value)
            except Refusal as refusal:
                raise reader.fail(refusal.message) from refusal
        elif name == "live_rev":
            if isinstance(value, bool) or not isinstance(value, int) or not (
                0 <= value <= MAX_POSITIVE
            ):
                raise reader.fail(_("the live counter is not a whole number of changes."))
        elif name.startswith("live_") and name != live:
            raise reader.fail(_("a match of this game has no live record “%(name)s”.")
                              % {"name": name[:40]})
        elif name != live and not (
            value is None or isinstance(value, bool | int)
            or (isinstance(value, str) and len(value) <= 200)
        ):
            raise reader.fail(_("the option “%(name)s” has a value Kartenrunde does not know.")
                              % {"name": name[:40]})
    if app.live is None or app.live.option not in options:
        return options
    items = options[app.live.option]
    if status != Match.Status.OPEN and items:
        raise reader.fail(_("only a running match can have a live record."))
    if not isinstance(items, list) or len(items) > 1000:
        raise reader.fail(_("the live record “%(name)s” is not a list of steps.") % {"name": live})
    try:
        app.live.check(items, keys, names)
    except Refusal as refusal:
        raise reader.fail(refusal.message) from refusal
    except ScoringError as err:
        raise reader.fail(message_for(err)) from err
    return options


def _entries_by_key(
    reader: Reader, key: str, keys: Sequence[str], game: str
) -> Any:
    """A log entry's ``before`` or ``after``: null, or a valid entry per seated player key."""
    value = reader.mapping(key, null=True) if reader.has(key) else None
    if value is None:
        return None
    rules = rules_for(game)
    for player, data in value.items():
        if player not in keys or not isinstance(data, dict):
            raise reader.fail(_("“%(key)s” names a player who is not seated.") % {"key": key})
        try:
            rules.entry_from_dict(data)
        except ScoringError as err:
            raise reader.fail(message_for(err)) from err
    return value


def _check_changes(
    reader: Reader, game: str, keys: Sequence[str], deals: int
) -> list[ChangePlan]:
    """The match's log: kinds, deal numbers that fit the deals, entries the engine reads."""
    deal_kinds = set(MatchChange.DEAL_KINDS)
    # Undo and redo are logged with the deal they changed; they are not undone themselves.
    with_deal = deal_kinds | set(MatchChange.STEP_KINDS)
    changes: list[ChangePlan] = []
    client_keys: set[str] = set()
    readers = reader.items(
        "changes", lambda i: _("%(match)s, change %(n)d") % {"match": reader.where, "n": i + 1}
    )
    for change_reader in readers:
        kind = change_reader.choice("kind", [k for k, _l in MatchChange.Kind.choices])
        number = change_reader.integer("deal_number", minimum=1, maximum=MAX_SMALL, null=True)
        if kind in with_deal and number is None:
            raise change_reader.fail(_("a change of a deal needs the deal's number."))
        if kind not in with_deal and number is not None:
            raise change_reader.fail(_("a change of the match names no deal."))
        client_key = None
        if change_reader.has("client_key") and change_reader.value["client_key"] is not None:
            client_key = change_reader.text("client_key", max_length=64)
            if not CLIENT_KEY.fullmatch(client_key) or client_key in client_keys:
                raise change_reader.fail(_("the change's key is malformed or used twice."))
            client_keys.add(client_key)
        undone_at = (change_reader.stamp("undone_at", null=True)
                     if change_reader.has("undone_at") else None)
        changes.append(ChangePlan(
            kind, number, change_reader.stamp("created_at"), undone_at, client_key,  # type: ignore[arg-type]
            _entries_by_key(change_reader, "before", keys, game),
            _entries_by_key(change_reader, "after", keys, game),
        ))
    # The changes undo and redo would apply next must fit the deals there are. The log
    # is oldest first: undo takes back the newest deal change not undone, redo re-applies
    # the oldest undone one after it (``services.matches.undo_target``/``redo_target``).
    # A deal comes back (undo of a delete, redo of a record) at most right after the last.
    in_log = [(index, change) for index, change in enumerate(changes)
              if change.kind in deal_kinds]
    done = [index for index, change in in_log if change.undone_at is None]
    undo = done[-1] if done else None
    redo = next((index for index, change in in_log
                 if change.undone_at is not None and (undo is None or index > undo)), None)
    for target, returns in ((undo, MatchChange.Kind.DELETE), (redo, MatchChange.Kind.RECORD)):
        if target is None:
            continue
        change = changes[target]
        limit = deals + 1 if change.kind == returns else deals
        if change.deal_number is not None and change.deal_number > limit:
            raise readers[target].fail(
                ngettext("the change names deal %(number)d, but the match has %(deals)d deal.",
                         "the change names deal %(number)d, but the match has %(deals)d deals.",
                         deals)
                % {"number": change.deal_number, "deals": deals}
            )
    return changes


def check_match(reader: Reader, players: Mapping[str, Player]) -> MatchPlan:
    game = reader.choice("game", list(GAMES))
    info = GAMES[game]
    status = reader.choice("status", [value for value, _label in Match.Status.choices])
    # Files written before matches were imported from elsewhere have neither field.
    source = (reader.choice("source", [value for value, _label in Match.Source.choices])
              if reader.has("source") else Match.Source.SHEET)
    external_id = None
    if reader.has("external_id") and reader.value["external_id"] is not None:
        external_id = reader.text("external_id", max_length=64, blank=False)
    match = Match(
        game=game,
        first_dealer=reader.integer("first_dealer", minimum=0, maximum=MAX_SMALL),
        status=status,
        created_at=reader.stamp("created_at"),
        finished_at=reader.stamp("finished_at", null=True),
        source=source,
        external_id=external_id,
    )
    if status == Match.Status.FINISHED and match.finished_at is None:
        raise reader.fail(_("a finished match needs the time it was finished."))
    imported = source != Match.Source.SHEET
    if imported and status != Match.Status.FINISHED:
        raise reader.fail(_("an imported match is finished: it has final scores only."))
    seats: list[SeatPlan] = []
    for seat_reader in reader.items("seats", lambda i: _("%(match)s, seat %(n)d")
                                    % {"match": reader.where, "n": i + 1}):
        seats.append(SeatPlan(
            seat_reader.choice("player", list(players)),
            seat_reader.integer("number", minimum=0, maximum=MAX_SMALL),
            seat_reader.integer("total", minimum=-MAX_POSITIVE, maximum=MAX_POSITIVE),
            seat_reader.integer("place", minimum=1, maximum=MAX_SMALL, null=True),
            seat_reader.boolean("is_winner"),
        ))
    try:
        info.check_players(len(seats))
    except ScoringError as err:
        raise reader.fail(message_for(err)) from err
    keys = [seat.player for seat in seats]
    if len(set(keys)) != len(keys):
        raise reader.fail(_("a player has more than one seat."))
    if sorted(seat.number for seat in seats) != list(range(len(seats))):
        raise reader.fail(_("the seats must be numbered 0, 1, 2, … without gaps."))
    if match.first_dealer >= len(seats):
        raise reader.fail(_("the first dealer is not one of the seats."))
    name_of = {key: players[key].name for key in keys}
    match.options = _check_options(reader, game, status, keys, name_of)
    try:
        # The options together (each was checked alone): e.g. 6 nimmt! plays to a target
        # or a fixed number of deals, not both.
        rules = rules_for(game, match.options)
    except ScoringError as err:
        raise reader.fail(message_for(err)) from err
    deals: list[DealPlan] = []
    totals = dict.fromkeys(keys, 0)
    deal_readers = reader.items(
        "deals", lambda i: _("%(match)s, deal %(n)d") % {"match": reader.where, "n": i + 1}
    )
    # A match that ends by its totals (to a target) is over by the totals the file states
    # (checked against the deals below).
    needed = deals_needed(game, len(seats), recorded=len(deal_readers), options=match.options,
                          totals=lambda: {seat.player: seat.total for seat in seats})
    if imported and deal_readers:
        raise reader.fail(_("an imported match has final scores only, no deals."))
    if len(deal_readers) > needed:
        raise reader.fail(
            _("it has %(deals)d deals, but a match of %(game)s with %(players)d players has "
              "%(needed)d.")
            % {"deals": len(deal_readers), "game": info.title, "players": len(seats),
               "needed": needed}
        )
    if status == Match.Status.FINISHED and len(deal_readers) < needed and not imported:
        raise reader.fail(
            ngettext("it is finished with %(deals)d deal, but a match of %(game)s with "
                     "%(players)d players has %(needed)d.",
                     "it is finished with %(deals)d deals, but a match of %(game)s with "
                     "%(players)d players has %(needed)d.", len(deal_readers))
            % {"deals": len(deal_readers), "game": info.title, "players": len(seats),
               "needed": needed}
        )
    for index, deal_reader in enumerate(deal_readers, start=1):
        number = deal_reader.integer("number", minimum=1, maximum=MAX_SMALL)
        version = deal_reader.integer("version", minimum=1, maximum=MAX_POSITIVE)
        created_at = deal_reader.stamp("created_at")
        updated_at = deal_reader.stamp("updated_at")
        if number != index:
            raise deal_reader.fail(
                _("the deals must be numbered 1, 2, 3, … in order; this one should be "
                  "%(expected)d.") % {"expected": index}
            )
        recorded: dict[str, tuple[Any, int]] = {}
        for score_reader in deal_reader.items(
            "scores", lambda i, parent=deal_reader: _("%(deal)s, entry %(n)d")
            % {"deal": parent.where, "n": i + 1}
        ):
            key = score_reader.choice("player", keys)
            if key in recorded:
                raise score_reader.fail(_("the player has two entries in this deal."))
            try:
                entry = rules.entry_from_dict(score_reader.mapping("data"))
            except ScoringError as err:
                raise score_reader.fail(message_for(err)) from err
            recorded[key] = (
                entry, score_reader.integer("score", minimum=-MAX_POSITIVE, maximum=MAX_POSITIVE)
            )
        if set(recorded) != set(keys):
            raise deal_reader.fail(_("every seated player needs exactly one entry."))
        try:
            parsed = {name_of[key]: entry for key, (entry, _s) in recorded.items()}
            rules.validate_deal(parsed)
            scores = rules.score_deal(parsed)
        except ScoringError as err:
            raise deal_reader.fail(message_for(err)) from err
        rows: list[ScorePlan] = []
        for key, (entry, score) in recorded.items():
            if scores[name_of[key]] != score:
                raise deal_reader.fail(
                    _("%(player)s's recorded score %(recorded)d differs from the rules' "
                      "%(computed)d.")
                    % {"player": name_of[key], "recorded": score,
                       "computed": scores[name_of[key]]}
                )
            totals[key] += score
            rows.append(ScorePlan(key, rules.entry_to_dict(entry), score))
        deals.append(DealPlan(number, version, created_at, updated_at, rows))  # type: ignore[arg-type]
    # A match that ends by its totals (6 nimmt!: the deal in which somebody reaches the
    # target) has no deal after that one; the sheet could not have recorded it.
    end = end_before_the_last(game, len(seats), options=match.options, deals=[
        {row.player: row.score for row in deal.scores} for deal in deals])
    if end is not None:
        raise deal_readers[end - 1].fail(
            _("the match was over after this deal by its totals, but more deals follow.")
        )
    if imported:  # no deals to add up: the final scores are the totals
        totals = {seat.player: seat.total for seat in seats}
    places = {
        name: place
        for place, name, _total in rank(totals, lower_is_better=info.lower_is_better)
    }
    finished = status == Match.Status.FINISHED
    for seat in seats:
        key = seat.player
        if seat.total != totals[key]:
            raise reader.fail(
                _("%(player)s's total %(total)d is not the sum of the deals (%(sum)d).")
                % {"player": name_of[key], "total": seat.total, "sum": totals[key]}
            )
        if seat.place != places[key] or seat.is_winner != (finished and places[key] == 1):
            raise reader.fail(
                _("%(player)s's place or win does not follow from the totals.")
                % {"player": name_of[key]}
            )
    changes = _check_changes(reader, game, keys, len(deals))
    return MatchPlan(match, seats, deals, changes)
