"""What every change of a score sheet shares: the match row locked, its state checked,
the engine's scores of a deal, the log entry, and the seats' totals and places (the
revision every phone polls moves on with them).

The steps themselves live by feature: :mod:`companion.services.deals` (record, correct,
delete, undo, redo), :mod:`companion.services.matches` (start, finish, reopen, abandon,
delete, rematch) and :mod:`companion.services.live` (the live boards).

Every step is keyword-only and runs inside ``transaction.atomic()``: a deal is saved
whole or not at all. The scores come from the engine only (``scoring.common.rules_for``):
``DealScore.data`` is the engine's ``entry_to_dict`` of what was recorded,
``DealScore.score`` its ``score_deal``, and ``Seat.total``/``place``/``is_winner`` the
engine's ``match_totals`` and ``rank`` (``is_winner`` only once the match is finished).

Bad input raises :class:`scoring.ScoringError` (the engine's sentence) or
:class:`django.core.exceptions.ValidationError` (a rule of the sheet, e.g. a finished
match cannot be changed); a save based on data another phone has changed meanwhile
raises :class:`StaleData`. Nothing is saved in any of these cases.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connections, router
from django.db.models import F
from django.utils.translation import gettext as _

from companion.changes import announce
from companion.models import Match, MatchChange, Seat
from scoring import GAMES, rank
from scoring.common import deals_needed as engine_deals_needed
from scoring.common import match_totals, rules_for

EntryData = Mapping[str, object]
"""One player's entry in its JSON form (the engine's ``entry_to_dict``)."""

class StaleData(ValidationError):
    """The save was based on a version of the sheet that another phone has changed."""

class ConfirmationNeeded(ValidationError):
    """The step would replace or empty something: it needs the user's explicit yes."""

# ------------------------------------------------------------------------ helpers

def lock_match(match: Match) -> Match:
    """The match row, locked for the rest of the transaction (PostgreSQL; SQLite serialises)."""
    return Match.objects.select_for_update().get(pk=match.pk)

def check_open(match: Match) -> None:
    if match.status == Match.Status.ABANDONED:
        raise ValidationError(
            _("This match was abandoned. Resume it to change it."), code="abandoned"
        )
    if match.status != Match.Status.OPEN:
        raise ValidationError(
            _("This match is finished. Reopen it to change it."), code="finished"
        )

def match_seats(match: Match) -> list[Seat]:
    return list(match.seats.select_related("player").order_by("number"))

def score_entries(
    match: Match, seats: Sequence[Seat], entries: Mapping[int, EntryData]
) -> tuple[dict[int, dict[str, object]], dict[int, int]]:
    """Engine-normalised entry dicts and scores per player id, validated across the deal."""
    rules = rules_for(match.game, match.options)
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

@dataclass(frozen=True, slots=True)
class Guest:
    """Who acts through a table pass: no account, only the name the guest gave. Passed as
    a step's ``user``; the log keeps the name (``MatchChange.created_by_guest``)."""

    name: str
    is_authenticated = False

def acting_user(user: Any) -> Any:
    return user if user is not None and user.is_authenticated else None

def guest_name(user: Any) -> str:
    """The guest's name when ``user`` is a :class:`Guest`, else ""."""
    return user.name if isinstance(user, Guest) else ""

def log_change(
    match: Match, kind: str, number: int | None, before: object, user: Any,
    after: object = None, client_key: str | None = None,
) -> MatchChange:
    return MatchChange.objects.create(
        match=match, kind=kind, deal_number=number, before=before, after=after,
        created_by=acting_user(user), created_by_guest=guest_name(user),
        client_key=client_key or None,
    )

def touch(*, match: Match, revision: int | None = None) -> bool:
    """Move the match's ``revision`` on: phones polling the sheet see a new ETag, and the
    polls waiting for a change answer once the change is committed.

    With ``revision``, only if the match is still at it (nothing changed since it was
    read): False, and nothing written, if another change came first."""
    rows = Match.objects.filter(pk=match.pk)
    if revision is not None:
        rows = rows.filter(revision=revision)
    if not rows.update(revision=F("revision") + 1):
        return False
    announce(match.pk, None if revision is None else revision + 1)
    return True

def refresh_seats(*, match: Match) -> list[Seat]:
    """Recompute every seat's total, place and winner flag from the recorded deals.

    Totals are the engine's ``match_totals``; places its ``rank`` (ties share a
    place). ``is_winner`` marks the players on place 1 of a finished match.

    Every change to a sheet ends here, so this is also where the match's
    ``revision`` (the sheet's ETag) moves on.
    """
    touch(match=match)
    seats = match_seats(match)
    names = {seat.player_id: seat.player.name for seat in seats}
    rules = rules_for(match.game, match.options)
    deals = [
        {names[score.player_id]: rules.entry_from_dict(score.data) for score in deal.scores.all()}
        for deal in match.deals.prefetch_related("scores").order_by("number")
    ]
    totals = {name: 0 for name in names.values()}
    totals.update(match_totals(match.game, deals, match.options))
    place_seats(match, seats, totals)
    return seats

def place_seats(match: Match, seats: Sequence[Seat], totals: Mapping[str, int]) -> None:
    """Store ``totals`` (per player name) with the engine's places on the seats."""
    set_places(match, seats, totals)
    store_places(seats)


def set_places(match: Match, seats: Sequence[Seat], totals: Mapping[str, int]) -> None:
    """Put ``totals`` (per player name) and the engine's places on the seats, unsaved
    (:func:`store_places` writes them)."""
    places = {
        name: place
        for place, name, _total in rank(totals, lower_is_better=GAMES[match.game].lower_is_better)
    }
    finished = match.status == Match.Status.FINISHED
    for seat in seats:
        seat.total = totals[seat.player.name]
        seat.place = places[seat.player.name]
        seat.is_winner = finished and seat.place == 1


PLACED = ("total", "place", "is_winner")


def store_places(seats: Sequence[Seat]) -> None:
    """One UPDATE per seat, sent as one statement with a row of values each (the DB-API's
    ``executemany``): every save ends here, and ``bulk_update``'s ``CASE WHEN`` for each
    field and seat cost more to build than the rest of the save's writes."""
    connection = connections[router.db_for_write(Seat)]
    name = connection.ops.quote_name
    columns = ", ".join(f"{name(Seat._meta.get_field(field).column)} = %s" for field in PLACED)
    table, key = name(Seat._meta.db_table), name(Seat._meta.pk.column)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET {columns} WHERE {key} = %s",
            [(*(getattr(seat, field) for field in PLACED), seat.pk) for seat in seats],
        )

def deals_needed(
    match: Match, players: int, recorded: int = 0, *, seats: Sequence[Seat] | None = None,
) -> int:
    """How many deals the match has with ``recorded`` on its sheet (the engine's
    ``deals_needed``: a fixed count, or for a match to a target one more until somebody's
    total reaches it; the totals are read, from ``seats`` if given, only for such a game)."""
    def totals() -> dict[str, int]:
        if seats is not None:
            return {str(seat.player_id): seat.total for seat in seats}
        return {str(pid): total for pid, total in match.seats.values_list("player_id", "total")}

    return engine_deals_needed(match.game, players, recorded=recorded, options=match.options,
                               totals=totals)
