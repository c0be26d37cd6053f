"""The deals of a score sheet: record, correct, delete, and undo / redo.

Every change is logged as a :class:`MatchChange` (who, when, what; the entries
``before`` and ``after``). Undo marks a change as undone and redo re-applies it; both
are logged as entries of their own (who undid or redid which deal, when, and the deal
before and after): the log never loses an entry, and replaying the deal changes that are
not undone, in order, gives the sheet. What the steps share is in
:mod:`companion.services.sheet`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connections, router, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.models import Deal, DealScore, Match, MatchChange, Seat
from companion.selectors.sheet import redo_target, undo_target
from companion.services.sheet import (
    EntryData,
    StaleData,
    acting_user,
    check_open,
    deals_needed,
    guest_name,
    lock_match,
    log_change,
    match_seats,
    place_seats,
    refresh_seats,
    score_entries,
    set_places,
    store_places,
    touch,
)
from scoring import ScoringError
from scoring.common import deals_needed as engine_deals_needed
from scoring.common import rules_for


class AlreadyRecorded(Exception):
    """A deal sent again with the key of a send that was recorded: nothing new was saved.

    Phones send a deal with a key of their own (``client_key``) and send it again
    when the answer got lost; the repeat is answered as a success.
    """

    def __init__(self, change: MatchChange) -> None:
        super().__init__(change.deal_number)
        self.change = change

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

def _add_to_seats(match: Match, seats: Sequence[Seat], scores: Mapping[int, int]) -> None:
    """A deal appended to the sheet (or corrected: ``scores`` are then the differences to
    what it scored before): each seat's total moves on by its score in that deal.

    The engine's ``match_totals`` is the sum of ``score_deal`` over the deals
    (a later deal never changes an earlier deal's score), so adding the new
    deal's scores to totals that were the engine's gives the engine's totals,
    without reading and parsing every earlier deal again
    (``tests/companion/test_matches_services.py`` compares the two over random
    games of every game). Places are ranked anew; ``revision`` moves on.
    """
    touch(match=match)
    place_seats(match, seats, {
        seat.player.name: seat.total + scores[seat.player_id] for seat in seats
    })

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
        seats = seats if seats is not None else match_seats(match)
        data, _scores = score_entries(match, seats, entries)
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

def _counted(match: Match, client_key: str | None) -> tuple[int, bool]:
    """How many deals ``match`` has, and whether ``client_key`` was sent before. One
    statement written here: building the ORM's subquery and ``EXISTS`` took longer than
    the save's writes (py-spy at 1,000 phones: 7 % of the server's CPU)."""
    connection = connections[router.db_for_read(Deal)]
    name = connection.ops.quote_name
    deals, changes = name(Deal._meta.db_table), name(MatchChange._meta.db_table)
    deal_match = name(Deal._meta.get_field("match").column)
    change_match = name(MatchChange._meta.get_field("match").column)
    key = name(MatchChange._meta.get_field("client_key").column)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT COUNT(*) FROM {deals} WHERE {deal_match} = %s), "
            f"EXISTS (SELECT 1 FROM {changes} WHERE {change_match} = %s AND {key} = %s)",
            [match.pk, match.pk, client_key or ""],
        )
        recorded, sent = cursor.fetchone()
    return recorded, bool(sent) and bool(client_key)

def _work_out(
    match: Match, seats: list[Seat], number: int, entries: Mapping[int, EntryData],
    client_key: str | None, *, recorded: int, sent: bool,
) -> tuple[dict[int, dict[str, object]], dict[int, int]]:
    """Deal ``number``'s entries and scores on ``match`` with ``recorded`` deals (``sent``:
    ``client_key`` was sent before), the seats' new totals and places put on ``seats``
    (unsaved); raises what refuses it."""
    if sent:
        earlier = _sent_before(match, client_key or "", number, entries, seats)
        if earlier is not None:
            raise AlreadyRecorded(earlier)
    check_open(match)
    if number != recorded + 1:
        raise StaleData(
            _("Deal %(number)s was recorded on another phone meanwhile. "
              "Here is the current sheet.") % {"number": number},
            code="stale",
        )
    _check_room(match, recorded=recorded, players=len(seats), seats=seats)
    data, scores = score_entries(match, seats, entries)
    set_places(match, seats, {
        seat.player.name: seat.total + scores[seat.player_id] for seat in seats
    })
    return data, scores

def deal_append(
    *, match: Match, number: int, entries: Mapping[int, EntryData], user: Any = None,
    client_key: str | None = None, seats: Sequence[Seat] | None = None,
) -> Recorded:
    """:func:`deal_record`, answering with the seats, scores and log entry it wrote.

    ``seats`` are the match's seats (with players), read by the caller with ``match`` a
    moment ago: they are used if the match is still at ``match.revision`` when the deal is
    written (nothing changed since they were read), else both are read again. The seat
    totals move on by the deal's scores (see :func:`_add_to_seats`).

    The deal is worked out (checks, the engine's scores, the seats' places) from a read
    of the match before the transaction, which then only writes, if the match's revision
    is still the one read; else (another change came in between) it reads and works out
    again with the match locked. On SQLite a transaction holds the database's one write
    lock from its start (``BEGIN IMMEDIATE``), and its thread shares the interpreter with
    the process's other requests: every step in it made every other save wait longer
    (issue 31, ``write_helds`` in the load report).
    """
    if seats is None:
        match = Match.objects.get(pk=match.pk)
        seats = match_seats(match)
    seen, seats = match, list(seats)
    recorded, sent = _counted(seen, client_key)
    data, scores = _work_out(seen, seats, number, entries, client_key,
                             recorded=recorded, sent=sent)
    with transaction.atomic():
        if not touch(match=seen, revision=seen.revision):
            seen = Match.objects.select_for_update().get(pk=match.pk)
            seats = match_seats(seen)
            recorded, sent = _counted(seen, client_key)
            data, scores = _work_out(seen, seats, number, entries, client_key,
                                     recorded=recorded, sent=sent)
            touch(match=seen)
        now = timezone.now()
        deal = Deal.objects.create(match=seen, number=number, created_at=now, updated_at=now)
        stored = _write_scores(deal, data, scores, new=True)
        change = log_change(
            seen, MatchChange.Kind.RECORD, number, None, user,
            after={str(player_id): entry for player_id, entry in data.items()},
            client_key=client_key,
        )
        store_places(seats)
    return Recorded(
        deal=deal, seats=seats, scores={score.player_id: score for score in stored},
        change=change, revision=seen.revision + 1,
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
        match = lock_match(match)
        check_open(match)
        deal = _get_deal(match, number, version)
        seats = match_seats(match)
        data, scores = score_entries(match, seats, entries)
        _check_end_kept(match, len(seats), number, scores)
        before = _snapshot(deal)
        old = {score.player_id: score.score for score in deal.scores.all()}
        deal.version += 1
        deal.updated_at = timezone.now()
        deal.save(update_fields=["version", "updated_at"])
        _write_scores(deal, data, scores)
        log_change(match, MatchChange.Kind.EDIT, number, before, user,
                   after={str(player_id): entry for player_id, entry in data.items()})
        # Totals are sums of the deals' scores: the corrected deal's difference moves them.
        _add_to_seats(match, seats, {
            player_id: score - old.get(player_id, 0) for player_id, score in scores.items()})
    return deal

def end_before_the_last(
    game: str, players: int, deals: Sequence[Mapping[Any, int]], *,
    options: Mapping[str, object] | None = None, first: int = 1,
) -> int | None:
    """The position (1, 2, …) in ``deals`` (each deal's scores per player, in order) of
    the deal after which a match that ends by its totals was over although later deals
    follow; ``None`` when the end comes at the last deal or not yet. Positions before
    ``first`` are not reported (their totals still count). A game of a fixed number of
    deals never ends before its last deal here (more deals than it has are refused
    where they are counted)."""
    totals: dict[Any, int] = {}
    for position, scores in enumerate(deals[:-1], start=1):
        for player, score in scores.items():
            totals[player] = totals.get(player, 0) + score
        if position >= first and engine_deals_needed(
            game, players, recorded=position, options=options, totals=lambda: totals,
        ) <= position:
            return position
    return None


def _check_end_kept(
    match: Match, players: int, number: int, scores: Mapping[int, int]
) -> None:
    """Refuse a correction of deal ``number`` (its new ``scores`` per player id) after which
    the match would have ended before its last recorded deal: a match that ends by its
    totals (6 nimmt!: after the deal in which somebody reaches the target) has no deals
    after that one. A game of a fixed number of deals reads nothing here."""
    if getattr(rules_for(match.game, match.options), "deals_needed", None) is None:
        return
    per_deal: dict[int, dict[int, int]] = {}
    for deal_number, player_id, score in DealScore.objects.filter(deal__match=match).values_list(
        "deal__number", "player_id", "score"
    ):
        per_deal.setdefault(deal_number, {})[player_id] = score
    per_deal[number] = dict(scores)
    ordered = sorted(per_deal)
    end = end_before_the_last(match.game, players, [per_deal[n] for n in ordered],
                              options=match.options, first=ordered.index(number) + 1)
    if end is not None:
        raise ValidationError(
            _("With this correction the match would have ended after deal %(end)s, but "
              "later deals are recorded. Check the correction, or delete the later deals "
              "first.") % {"end": ordered[end - 1]},
            code="ended_before",
        )


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
        match = lock_match(match)
        check_open(match)
        deal = _get_deal(match, number, version)
        before = _snapshot(deal)
        deal.delete()
        _shift(match, from_number=number + 1, by=-1)
        log_change(match, MatchChange.Kind.DELETE, number, before, user)
        refresh_seats(match=match)

def _check_room(
    match: Match, *, recorded: int, players: int, seats: Sequence[Seat] | None = None,
) -> None:
    """Refuse another deal when the match already has all its deals (``seats``, if loaded,
    give the totals a match to a target is judged by, without another query)."""
    needed = deals_needed(match, players, recorded, seats=seats)
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
    data, scores = score_entries(match, match_seats(match), _entries_of(snapshot))
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

    The change stays in the log, marked as undone, the undo is logged as an entry of
    its own (who, when, the deal before and after), and the change can be redone
    (:func:`match_redo`). ``change_id`` is the change the user saw as the one
    to undo; if another phone has changed the sheet since, :class:`StaleData`
    is raised and nothing is undone.
    """
    with transaction.atomic():
        match = lock_match(match)
        check_open(match)
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
        step = log_change(match, MatchChange.Kind.UNDO, number, change.after, user,
                          after=change.before)
        change.undone_at = step.created_at
        change.undone_by = acting_user(user)
        change.undone_by_guest = guest_name(user)
        change.save(update_fields=["undone_at", "undone_by", "undone_by_guest"])
        refresh_seats(match=match)
    return change

def match_redo(*, match: Match, change_id: int | None = None, user: Any = None) -> MatchChange:
    """Re-apply the change undone last (if nothing was changed since it was undone),
    logged as a redo of its own.

    ``change_id`` is the change the user saw as the one to redo; otherwise
    :class:`StaleData`, and nothing is changed.
    """
    with transaction.atomic():
        match = lock_match(match)
        check_open(match)
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
        # The change counts again; who undid it and when stays in the log's undo entry.
        log_change(match, MatchChange.Kind.REDO, number, change.before, user, after=change.after)
        change.undone_at = None
        change.undone_by = None
        change.undone_by_guest = ""
        change.save(update_fields=["undone_at", "undone_by", "undone_by_guest"])
        refresh_seats(match=match)
    return change
