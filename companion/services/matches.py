"""Business steps of the score sheet: start, record, edit, delete, undo / redo, finish,
reopen, abandon, delete a match, and the rematch.

Every step is keyword-only and runs inside ``transaction.atomic()``: a deal is
saved whole or not at all. The scores come from the engine only
(``scoring.common.rules_for(game)``): ``DealScore.data`` is the engine's
``entry_to_dict`` of what was recorded, ``DealScore.score`` its ``score_deal``,
and ``Seat.total``/``place``/``is_winner`` the engine's ``match_totals`` and
``rank`` after every change (``is_winner`` only once the match is finished).

Every change is logged as a :class:`MatchChange` (who, when, what; for deals
the entries ``before`` and ``after``). Undo marks a change as undone and redo
re-applies it: the log never loses an entry, so replaying the changes that are
not undone, in order, gives the sheet.

Bad input raises :class:`scoring.ScoringError` (the engine's sentence) or
:class:`django.core.exceptions.ValidationError` (a rule of the sheet, e.g. a
finished match cannot be changed); a save based on data another phone has
changed meanwhile raises :class:`StaleData`. Nothing is saved in any of these
cases.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Subquery, Value
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.models import Deal, DealScore, GameNight, Group, Match, MatchChange, Player, Seat
from companion.services.results import match_counted, match_results_update
from scoring import GAMES, ScoringError, error, rank
from scoring.common import match_totals, rules_for

EntryData = Mapping[str, object]
"""One player's entry in its JSON form (the engine's ``entry_to_dict``)."""


class StaleData(ValidationError):
    """The save was based on a version of the sheet that another phone has changed."""


class AlreadyRecorded(Exception):
    """A deal sent again with the key of a send that was recorded: nothing new was saved.

    Phones send a deal with a key of their own (``client_key``) and send it again
    when the answer got lost; the repeat is answered as a success.
    """

    def __init__(self, change: MatchChange) -> None:
        super().__init__(change.deal_number)
        self.change = change


class ConfirmationNeeded(ValidationError):
    """The step would replace or empty something: it needs the user's explicit yes."""


# ------------------------------------------------------------------------ helpers


def _lock(match: Match) -> Match:
    """The match row, locked for the rest of the transaction (PostgreSQL; SQLite serialises)."""
    return Match.objects.select_for_update().get(pk=match.pk)


def _check_open(match: Match) -> None:
    if match.status == Match.Status.ABANDONED:
        raise ValidationError(
            _("This match was abandoned. Resume it to change it."), code="abandoned"
        )
    if match.status != Match.Status.OPEN:
        raise ValidationError(
            _("This match is finished. Reopen it to change it."), code="finished"
        )


def _seats(match: Match) -> list[Seat]:
    return list(match.seats.select_related("player").order_by("number"))


def _score(
    match: Match, seats: Sequence[Seat], entries: Mapping[int, EntryData]
) -> tuple[dict[int, dict[str, object]], dict[int, int]]:
    """Engine-normalised entry dicts and scores per player id, validated across the deal."""
    rules = rules_for(match.game)
    missing = [seat.player.name for seat in seats if seat.player_id not in entries]
    extra = set(entries) - {seat.player_id for seat in seats}
    if missing or extra:
        raise ValidationError(
            _("A deal needs one entry for every player of the match."), code="players"
        )
    parsed = {seat.player.name: rules.entry_from_dict(entries[seat.player_id]) for seat in seats}
    scores = rules.score_deal(parsed)
    data = {seat.player_id: rules.entry_to_dict(parsed[seat.player.name]) for seat in seats}
    return data, {seat.player_id: scores[seat.player.name] for seat in seats}


def _write_scores(
    deal: Deal, data: Mapping[int, dict[str, object]], scores: Mapping[int, int],
    *, new: bool = False,
) -> list[DealScore]:
    """Store the deal's scores; a ``new`` deal has none to replace yet."""
    if not new:
        deal.scores.all().delete()
    return DealScore.objects.bulk_create(
        DealScore(deal=deal, player_id=player_id, data=data[player_id], score=scores[player_id])
        for player_id in data
    )


def _snapshot(deal: Deal) -> dict[str, dict[str, Any]]:
    return {str(score.player_id): score.data for score in deal.scores.all()}


def _user(user: Any) -> Any:
    return user if user is not None and user.is_authenticated else None


def _log(
    match: Match, kind: str, number: int | None, before: object, user: Any,
    after: object = None, client_key: str | None = None,
) -> MatchChange:
    return MatchChange.objects.create(
        match=match, kind=kind, deal_number=number, before=before, after=after,
        created_by=_user(user), client_key=client_key or None,
    )


DEAL_KINDS = (MatchChange.Kind.RECORD, MatchChange.Kind.EDIT, MatchChange.Kind.DELETE)
"""The changes of a deal: the ones undo and redo work on."""


def undo_target(match: Match) -> MatchChange | None:
    """The change undo would take back: the newest deal change that is not undone."""
    return (
        match.changes.filter(kind__in=DEAL_KINDS, undone_at__isnull=True)
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
    undone = match.changes.filter(kind__in=DEAL_KINDS, undone_at__isnull=False)
    if after is not None:
        undone = undone.filter(id__gt=after.pk)
    return undone.order_by("id").first()


def touch(*, match: Match) -> None:
    """Move the match's ``revision`` on: phones polling the sheet see a new ETag."""
    Match.objects.filter(pk=match.pk).update(revision=F("revision") + 1)


def refresh_seats(*, match: Match) -> list[Seat]:
    """Recompute every seat's total, place and winner flag from the recorded deals.

    Totals are the engine's ``match_totals``; places its ``rank`` (ties share a
    place). ``is_winner`` marks the players on place 1 of a finished match.

    Every change to a sheet ends here, so this is also where the match's
    ``revision`` (the sheet's ETag) moves on.
    """
    touch(match=match)
    seats = _seats(match)
    names = {seat.player_id: seat.player.name for seat in seats}
    rules = rules_for(match.game)
    deals = [
        {names[score.player_id]: rules.entry_from_dict(score.data) for score in deal.scores.all()}
        for deal in match.deals.prefetch_related("scores").order_by("number")
    ]
    totals = {name: 0 for name in names.values()}
    totals.update(match_totals(match.game, deals))
    _place_seats(match, seats, totals)
    return seats


def _place_seats(match: Match, seats: Sequence[Seat], totals: Mapping[str, int]) -> None:
    """Store ``totals`` (per player name) with the engine's places on the seats."""
    places = {
        name: place
        for place, name, _total in rank(totals, lower_is_better=GAMES[match.game].lower_is_better)
    }
    finished = match.status == Match.Status.FINISHED
    for seat in seats:
        seat.total = totals[seat.player.name]
        seat.place = places[seat.player.name]
        seat.is_winner = finished and seat.place == 1
    Seat.objects.bulk_update(seats, ["total", "place", "is_winner"])


def _add_to_seats(match: Match, seats: Sequence[Seat], scores: Mapping[int, int]) -> None:
    """A deal appended to the sheet: each seat's total moves on by its score in that deal.

    The engine's ``match_totals`` is the sum of ``score_deal`` over the deals
    (a later deal never changes an earlier deal's score), so adding the new
    deal's scores to totals that were the engine's gives the engine's totals,
    without reading and parsing every earlier deal again
    (``tests/companion/test_matches_services.py`` compares the two over random
    games of every game). Places are ranked anew; ``revision`` moves on.
    """
    touch(match=match)
    _place_seats(match, seats, {
        seat.player.name: seat.total + scores[seat.player_id] for seat in seats
    })


def deals_needed(match: Match, players: int) -> int:
    """How many deals a complete match of this game has (the engine's ``deal_count``)."""
    return rules_for(match.game).deal_count(players)


# ------------------------------------------------------------------------- steps


def match_start(
    *,
    group: Group,
    game: str,
    players: Sequence[Player],
    first_dealer: int = 0,
    options: Mapping[str, object] | None = None,
    game_night: GameNight | None = None,
    user: Any = None,
) -> Match:
    """Start a match of ``game`` with ``players`` in seat order.

    Without ``game_night`` the match goes into today's game night of the group.
    ``first_dealer`` is the seat (0-based) that deals or starts first.
    """
    info = GAMES.get(game)
    if info is None:
        raise error("unknown_game", "Unknown game {game!r}.", game=game)
    info.check_players(len(players))
    if len({player.pk for player in players}) != len(players):
        raise ValidationError(_("Every player can take only one seat."), code="seat_twice")
    if any(player.group_id != group.pk for player in players):
        raise ValidationError(_("Every player must be on the group's roster."), code="roster")
    if not 0 <= first_dealer < len(players):
        raise ValidationError(_("The first dealer must be one of the players."), code="dealer")
    if game_night is not None and game_night.group_id != group.pk:
        raise ValidationError(_("The game night belongs to another group."), code="night")
    with transaction.atomic():
        if game_night is None:
            from companion.services.groups import game_night_for_today

            game_night = game_night_for_today(group=group)
        match = Match.objects.create(
            group=group, game_night=game_night, game=game, options=dict(options or {}),
            first_dealer=first_dealer, created_by=_user(user),
        )
        match_counted(match=match, delta=1)
        Seat.objects.bulk_create(
            Seat(match=match, player=player, number=number)
            for number, player in enumerate(players)
        )
        refresh_seats(match=match)
    return match


def _sent_before(
    match: Match, client_key: str, number: int, entries: Mapping[int, EntryData],
    seats: Sequence[Seat] | None = None,
) -> MatchChange | None:
    """The change recorded earlier with ``client_key``, if this send repeats it.

    A key names one send of one deal. Sent again with the same deal number and
    the same entries, it is a repeat (the phone never got the answer). Sent with
    other values, the key was reused by mistake: refused, nothing is saved, and
    the phone keeps what was typed (a fresh send gets a fresh key).
    """
    earlier = match.changes.filter(client_key=client_key).first()
    if earlier is None:
        return None
    try:
        data, _scores = _score(match, seats if seats is not None else _seats(match), entries)
    except (ValidationError, ScoringError):
        data = None
    same = (
        earlier.deal_number == number and data is not None
        and earlier.after == json.loads(json.dumps({str(pid): d for pid, d in data.items()}))
    )
    if not same:
        raise ValidationError(
            _("These entries were sent with the key of another send and were not saved. "
              "Send them again as a new deal."),
            code="key_reused",
        )
    return earlier


@dataclass(frozen=True, slots=True)
class Recorded:
    """A deal just recorded, with what the sheet needs to show it without reading it again."""

    deal: Deal
    seats: list[Seat]
    """The match's seats in seat order (with players), totals and places after the deal."""
    scores: dict[int, DealScore]
    """The deal's stored scores per player id."""
    change: MatchChange
    """The log entry of the recording (what undo now takes back)."""
    revision: int
    """The match's revision after the deal (the sheet's new ETag)."""


def deal_record(
    *, match: Match, number: int, entries: Mapping[int, EntryData], user: Any = None,
    client_key: str | None = None,
) -> Deal:
    """Record deal ``number`` (the next one) with an entry per player id.

    ``number`` is the deal the form was showing: if another phone has recorded
    that deal meanwhile, :class:`StaleData` is raised.

    ``client_key`` is the phone's key for this send (its offline queue sends a
    deal again when an answer got lost). A repeat of a recorded send raises
    :class:`AlreadyRecorded` and records nothing, even if the deal was undone or
    the match finished since; the key with other values raises
    :class:`ValidationError` (``key_reused``).
    """
    return deal_append(
        match=match, number=number, entries=entries, user=user, client_key=client_key
    ).deal


def deal_append(
    *, match: Match, number: int, entries: Mapping[int, EntryData], user: Any = None,
    client_key: str | None = None, seats: Sequence[Seat] | None = None,
) -> Recorded:
    """:func:`deal_record`, answering with the seats, scores and log entry it wrote.

    ``seats`` are the match's seats (with players) read by the caller after
    ``match``: they are used when the match's ``revision`` is still the one
    ``match`` carries (nothing changed since they were read), else read again.
    The seat totals move on by the deal's scores (see :func:`_add_to_seats`).
    """
    with transaction.atomic():
        locked = (
            Match.objects.select_for_update()
            .annotate(
                recorded=Subquery(
                    Deal.objects.filter(match=OuterRef("pk")).order_by()
                    .values("match").annotate(count=Count("pk")).values("count")
                ),
                sent=Exists(MatchChange.objects.filter(
                    match=OuterRef("pk"), client_key=client_key or "",
                )) if client_key else Value(False),
            )
            .get(pk=match.pk)
        )
        if seats is None or locked.revision != match.revision:
            seats = _seats(locked)
        seats = list(seats)
        if locked.sent:
            earlier = _sent_before(locked, client_key or "", number, entries, seats)
            if earlier is not None:
                raise AlreadyRecorded(earlier)
        _check_open(locked)
        count = locked.recorded or 0
        if number != count + 1:
            raise StaleData(
                _("Deal %(number)s was recorded on another phone meanwhile. "
                  "Here is the current sheet.") % {"number": number},
                code="stale",
            )
        _check_room(locked, recorded=count, players=len(seats))
        data, scores = _score(locked, seats, entries)
        now = timezone.now()
        deal = Deal.objects.create(match=locked, number=number, created_at=now, updated_at=now)
        stored = _write_scores(deal, data, scores, new=True)
        change = _log(
            locked, MatchChange.Kind.RECORD, number, None, user,
            after={str(player_id): entry for player_id, entry in data.items()},
            client_key=client_key,
        )
        _add_to_seats(locked, seats, scores)
    return Recorded(
        deal=deal, seats=seats, scores={score.player_id: score for score in stored},
        change=change, revision=locked.revision + 1,
    )


def _get_deal(match: Match, number: int, version: int) -> Deal:
    deal = match.deals.prefetch_related("scores").filter(number=number).first()
    if deal is None:
        raise StaleData(
            _("Deal %(number)s no longer exists: another phone deleted it. "
              "Here is the current sheet.") % {"number": number},
            code="stale",
        )
    if deal.version != version:
        raise StaleData(
            _("Deal %(number)s was changed on another phone meanwhile. Your change was not "
              "saved; here is the current data.") % {"number": number},
            code="stale",
        )
    return deal


def deal_edit(
    *, match: Match, number: int, version: int, entries: Mapping[int, EntryData],
    user: Any = None,
) -> Deal:
    """Replace the entries of deal ``number``, if it is still at ``version``."""
    with transaction.atomic():
        match = _lock(match)
        _check_open(match)
        deal = _get_deal(match, number, version)
        data, scores = _score(match, _seats(match), entries)
        before = _snapshot(deal)
        deal.version += 1
        deal.updated_at = timezone.now()
        deal.save(update_fields=["version", "updated_at"])
        _write_scores(deal, data, scores)
        _log(match, MatchChange.Kind.EDIT, number, before, user, after=_snapshot(deal))
        refresh_seats(match=match)
    return deal


def _shift(match: Match, *, from_number: int, by: int) -> None:
    """Renumber the deals from ``from_number`` on by ``by`` (one at a time: unique numbers)."""
    deals = list(match.deals.filter(number__gte=from_number).order_by("number"))
    if by > 0:
        deals.reverse()
    for deal in deals:
        deal.number += by
        deal.version += 1
        deal.save(update_fields=["number", "version"])


def deal_delete(*, match: Match, number: int, version: int, user: Any = None) -> None:
    """Delete deal ``number`` (if still at ``version``); later deals move up one row."""
    with transaction.atomic():
        match = _lock(match)
        _check_open(match)
        deal = _get_deal(match, number, version)
        before = _snapshot(deal)
        deal.delete()
        _shift(match, from_number=number + 1, by=-1)
        _log(match, MatchChange.Kind.DELETE, number, before, user)
        refresh_seats(match=match)


def _check_room(match: Match, *, recorded: int, players: int) -> None:
    """Refuse another deal when the match already has all its deals."""
    needed = deals_needed(match, players)
    if recorded >= needed:
        raise ValidationError(
            ngettext("The match is complete: its %(needed)s deal is recorded.",
                     "The match is complete: all %(needed)s deals are recorded.",
                     needed) % {"needed": needed},
            code="complete",
        )


def _stale(change_id: int | None, change: MatchChange, what: str) -> None:
    if change_id is not None and change.pk != change_id:
        raise StaleData(what, code="stale")


def _entries_of(snapshot: object) -> dict[int, EntryData]:
    return {int(key): value for key, value in dict(snapshot or {}).items()}


def _put_deal(match: Match, number: int, snapshot: object, *, insert: bool) -> None:
    """Write ``snapshot`` as deal ``number``: into the existing deal or as a new row."""
    data, scores = _score(match, _seats(match), _entries_of(snapshot))
    now = timezone.now()
    if insert:
        _shift(match, from_number=number, by=1)
        deal = Deal.objects.create(match=match, number=number, created_at=now, updated_at=now)
    else:
        deal = match.deals.get(number=number)
        deal.version += 1
        deal.updated_at = now
        deal.save(update_fields=["version", "updated_at"])
    _write_scores(deal, data, scores)


def _drop_deal(match: Match, number: int) -> None:
    match.deals.filter(number=number).delete()
    _shift(match, from_number=number + 1, by=-1)


def match_undo(*, match: Match, change_id: int | None = None, user: Any = None) -> MatchChange:
    """Take back the match's newest deal change (record, edit or delete).

    The change stays in the log, marked as undone, and can be redone
    (:func:`match_redo`). ``change_id`` is the change the user saw as the one
    to undo; if another phone has changed the sheet since, :class:`StaleData`
    is raised and nothing is undone.
    """
    with transaction.atomic():
        match = _lock(match)
        _check_open(match)
        change = undo_target(match)
        if change is None:
            raise ValidationError(_("There is nothing to undo."), code="nothing")
        _stale(change_id, change, _(
            "The sheet was changed on another phone meanwhile; nothing was undone. "
            "Here is the current sheet."
        ))
        number = change.deal_number or 0
        if change.kind == MatchChange.Kind.RECORD:
            _drop_deal(match, number)
        elif change.kind == MatchChange.Kind.EDIT:
            _put_deal(match, number, change.before, insert=False)
        else:
            _put_deal(match, number, change.before, insert=True)
        change.undone_at = timezone.now()
        change.undone_by = _user(user)
        change.save(update_fields=["undone_at", "undone_by"])
        refresh_seats(match=match)
    return change


def match_redo(*, match: Match, change_id: int | None = None, user: Any = None) -> MatchChange:
    """Re-apply the change undone last (if nothing was changed since it was undone).

    ``change_id`` is the change the user saw as the one to redo; otherwise
    :class:`StaleData`, and nothing is changed.
    """
    with transaction.atomic():
        match = _lock(match)
        _check_open(match)
        change = redo_target(match)
        if change is None:
            raise ValidationError(_("There is nothing to redo."), code="nothing")
        _stale(change_id, change, _(
            "The sheet was changed on another phone meanwhile; nothing was redone. "
            "Here is the current sheet."
        ))
        number = change.deal_number or 0
        if change.kind == MatchChange.Kind.RECORD:
            _check_room(match, recorded=match.deals.count(), players=match.seats.count())
            _put_deal(match, number, change.after, insert=True)
        elif change.kind == MatchChange.Kind.EDIT:
            _put_deal(match, number, change.after, insert=False)
        else:
            _drop_deal(match, number)
        change.undone_at = None
        change.undone_by = None
        change.save(update_fields=["undone_at", "undone_by"])
        refresh_seats(match=match)
    return change


def match_finish(*, match: Match, user: Any = None) -> Match:
    """Finish a complete match: the winners are the players on the engine's place 1."""
    with transaction.atomic():
        match = _lock(match)
        _check_open(match)
        players = match.seats.count()
        needed = deals_needed(match, players)
        recorded = match.deals.count()
        if recorded < needed:
            raise ValidationError(
                ngettext(
                    "The match is not complete yet: %(recorded)s of %(needed)s deal recorded.",
                    "The match is not complete yet: %(recorded)s of %(needed)s deals recorded.",
                    needed,
                ) % {"recorded": recorded, "needed": needed},
                code="incomplete",
            )
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "finished_at"])
        _log(match, MatchChange.Kind.FINISH, None, None, user)
        refresh_seats(match=match)
        match_results_update(match=match)
    return match


def match_reopen(*, match: Match, user: Any = None) -> Match:
    """Reopen a finished match so that its deals can be corrected, or resume an abandoned one."""
    with transaction.atomic():
        match = _lock(match)
        if match.status == Match.Status.OPEN:
            raise ValidationError(_("This match is still running."), code="open")
        if match.source != Match.Source.SHEET:
            # Its totals have no deals behind them: reopened, the sheet would count zeros.
            raise ValidationError(
                _("An imported match has final scores only; it cannot be reopened."),
                code="imported",
            )
        match.status = Match.Status.OPEN
        match.finished_at = None
        match.save(update_fields=["status", "finished_at"])
        _log(match, MatchChange.Kind.REOPEN, None, None, user)
        refresh_seats(match=match)
        match_results_update(match=match)
    return match


def match_abandon(*, match: Match, user: Any = None) -> Match:
    """Stop a running match for good: it stays in the history, counts in no statistics."""
    with transaction.atomic():
        match = _lock(match)
        if match.status != Match.Status.OPEN:
            raise ValidationError(
                _("Only a running match can be abandoned."), code="not_running"
            )
        match.status = Match.Status.ABANDONED
        match.save(update_fields=["status"])
        _log(match, MatchChange.Kind.ABANDON, None, None, user)
        refresh_seats(match=match)
    return match


def can_delete(match: Match, user: Any) -> bool:
    """Only the group's owner and the one who started the match may delete it."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.pk in (match.group.owner_id, match.created_by_id))


def match_delete(*, match: Match, user: Any) -> None:
    """Delete the match with its deals and log (the group's owner or its starter only)."""
    if not can_delete(match, user):
        raise PermissionDenied(
            _("Only the group's owner and the one who started the match may delete it.")
        )
    with transaction.atomic():
        match = _lock(match)
        match_results_update(match=match, counts=False)
        match_counted(match=match, delta=-1)
        match.delete()


def match_rematch(*, match: Match, user: Any = None) -> Match:
    """Start the same game again with the same players, seats rotated by one.

    Who deals / starts first follows :func:`companion.selectors.sheet.rematch_plan`.
    The new match goes into today's game night and keeps the game's options
    (not the finished match's live board).
    """
    from companion.selectors.sheet import rematch_plan

    match = Match.objects.select_related("group").get(pk=match.pk)
    if match.status != Match.Status.FINISHED:
        raise ValidationError(
            _("A rematch can be started once the match is finished."), code="not_finished"
        )
    plan = rematch_plan(match)
    options = {
        key: value for key, value in match.options.items() if not key.startswith("live_")
    }
    return match_start(
        group=match.group, game=match.game, players=[seat.player for seat in plan.seats],
        first_dealer=plan.first_dealer, options=options, user=user,
    )


# ---------------------------------------------------------------------- live mode
#
# Two games can be recorded while they are played, so that the page survives
# reloads and every phone of the group sees the same state:
#
# - 3 sind einer zuviel!, turn by turn: ``Match.options["live_turns"]`` holds
#   ``[player_id, [colour, ...], closed]`` per turn. The engine's live API
#   (``live_replay``/``live_entries``) does the bookkeeping: open and face-down
#   cards, interim bonuses in order, the final bonus.
# - Freaky, row by row: ``Match.options["live_rows"]`` holds ``[player_id, cards]``
#   per collected row.
#
# ``Match.options["live_rev"]`` counts the changes: every step names the
# revision it was based on and is refused as stale otherwise. Every step is
# validated by the engine before it is stored.

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


def _check_player(seats: Sequence[Seat], player_id: object) -> int:
    if not isinstance(player_id, int) or player_id not in _names(seats):
        raise ValidationError(_("That player does not play in this match."), code="player")
    return player_id


def live_state(match: Match, seats: Sequence[Seat], turns: Sequence[LiveTurn]) -> Any:
    """3 sind einer zuviel!: the engine's live game after ``turns`` (validates every turn)."""
    from scoring import drei_sind_einer_zuviel as engine

    names = _names(seats)
    replay = [
        (names[_check_player(seats, player_id)], list(colours))
        for player_id, colours, _closed in turns
    ]
    return engine.live_replay([seat.player.name for seat in seats], replay)


def freaky_collected(seats: Sequence[Seat], rows: Sequence[Sequence[int]]) -> dict[int, int]:
    """Freaky: cards collected per player id so far, checked by the engine."""
    from scoring import freaky

    collected = {seat.player_id: 0 for seat in seats}
    for player_id, cards in rows:
        collected[_check_player(seats, player_id)] += cards
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
    from scoring import drei_sind_einer_zuviel as engine

    by_name = engine.live_entries(live_state(match, seats, live_turns(match)))
    return {seat.player_id: engine.entry_to_dict(by_name[seat.player.name]) for seat in seats}


def _live_change(
    match: Match, revision: int, *, game: str | None = None
) -> tuple[Match, list[Seat]]:
    if match.game not in LIVE_GAMES or (game is not None and match.game != game):
        raise ValidationError(_("This game has no live mode."), code="no_live")
    match = _lock(match)
    _check_open(match)
    if int(match.options.get("live_rev", 0)) != revision:
        raise StaleData(
            _("Another phone recorded a card meanwhile; your tap was not saved. "
              "Here is the current state."),
            code="stale",
        )
    return match, _seats(match)


def _live_store(match: Match, key: str, value: list[Any]) -> None:
    match.options = {
        **match.options, key: value, "live_rev": int(match.options.get("live_rev", 0)) + 1
    }
    match.save(update_fields=["options"])
    touch(match=match)


def live_take(*, match: Match, player_id: int, colour: str, revision: int) -> None:
    """3 sind einer zuviel!: ``player_id`` took a card of ``colour`` in their current turn.

    Cards tapped for the same player one after the other belong to one turn
    until the turn is closed (:func:`live_end_turn`), another player takes a
    card, or the turn has three cards (a turn takes at most three).
    """
    with transaction.atomic():
        match, seats = _live_change(match, revision, game="drei-sind-einer-zuviel")
        turns = live_turns(match)
        last = turns[-1] if turns else None
        if last is not None and last[0] == player_id and not last[2] and len(last[1]) < 3:
            last[1] = [*last[1], colour]
        else:
            if last is not None:
                last[2] = True
            turns.append([player_id, [colour], False])
        live_state(match, seats, turns)  # raises ScoringError: nothing is stored
        _live_store(match, "live_turns", turns)


def live_end_turn(*, match: Match, revision: int) -> None:
    """3 sind einer zuviel!: close the current turn; the next card starts a new one."""
    with transaction.atomic():
        match, _ = _live_change(match, revision, game="drei-sind-einer-zuviel")
        turns = live_turns(match)
        if not turns or turns[-1][2]:
            raise ValidationError(_("No turn is open."), code="no_turn")
        turns[-1][2] = True
        _live_store(match, "live_turns", turns)


def live_collect(*, match: Match, player_id: int, cards: int, revision: int) -> None:
    """Freaky: ``player_id`` collected a row of ``cards`` cards."""
    from scoring import freaky

    with transaction.atomic():
        match, seats = _live_change(match, revision, game="freaky")
        if cards < freaky.COLLECT_AT:
            raise ValidationError(
                _("A collected row has at least %(least)s cards.") % {"least": freaky.COLLECT_AT},
                code="short_row",
            )
        rows = [*live_rows(match), [_check_player(seats, player_id), cards]]
        freaky_collected(seats, rows)  # raises ScoringError: nothing is stored
        _live_store(match, "live_rows", rows)


def live_undo(*, match: Match, revision: int) -> None:
    """Take back the last tapped card or row (or reopen the last closed turn)."""
    with transaction.atomic():
        match, _ = _live_change(match, revision)
        if match.game == "freaky":
            rows = live_rows(match)
            if not rows:
                raise ValidationError(_("There is nothing to undo."), code="nothing")
            _live_store(match, "live_rows", rows[:-1])
            return
        turns = live_turns(match)
        if not turns:
            raise ValidationError(_("There is nothing to undo."), code="nothing")
        last = turns[-1]
        if last[2]:
            last[2] = False
        else:
            last[1] = last[1][:-1]
            if not last[1]:
                turns.pop()
        _live_store(match, "live_turns", turns)


def live_save(*, match: Match, revision: int, user: Any = None, confirm: bool = False) -> Deal:
    """Put the live result on the sheet as the game's deal (recorded or corrected).

    Replacing a result already on the sheet, or putting an empty board (no card
    taken) on it, needs ``confirm``: otherwise :class:`ConfirmationNeeded`.
    """
    with transaction.atomic():
        match, seats = _live_change(match, revision)
        entries = live_entries(match, seats)
        empty = not (live_rows(match) if match.game == "freaky" else live_turns(match))
        existing = match.deals.filter(number=1).first()
        if not confirm and empty and existing is not None:
            raise ConfirmationNeeded(
                _("No card is on the live board: the sheet's result would be replaced "
                  "by zeros. Replace it anyway?"),
                code="confirm_replace",
            )
        if not confirm and empty:
            raise ConfirmationNeeded(
                _("No card is on the live board: the sheet would get a deal of zeros. "
                  "Put it on the sheet anyway?"),
                code="confirm_empty",
            )
        if not confirm and existing is not None:
            raise ConfirmationNeeded(
                _("The sheet already has a result for this game. Replace it with the "
                  "live board's?"),
                code="confirm_replace",
            )
        if existing is None:
            return deal_record(match=match, number=1, entries=entries, user=user)
        return deal_edit(
            match=match, number=1, version=existing.version, entries=entries, user=user
        )


__all__ = [
    "DEAL_KINDS",
    "LIVE_GAMES",
    "AlreadyRecorded",
    "ConfirmationNeeded",
    "EntryData",
    "Recorded",
    "ScoringError",
    "StaleData",
    "can_delete",
    "deal_append",
    "deal_delete",
    "deal_edit",
    "deal_record",
    "deals_needed",
    "freaky_collected",
    "live_collect",
    "live_end_turn",
    "live_entries",
    "live_rows",
    "live_save",
    "live_state",
    "live_take",
    "live_turns",
    "live_undo",
    "match_abandon",
    "match_delete",
    "match_finish",
    "match_redo",
    "match_rematch",
    "match_reopen",
    "match_start",
    "match_undo",
    "redo_target",
    "refresh_seats",
    "touch",
    "undo_target",
]
