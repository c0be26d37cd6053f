"""Import, second step: the plan of a file written as a new group, in batches.

The file is read, checked and written a batch at a time (:data:`BATCH_ROWS` rows per
transaction), so that neither memory nor any transaction grows with the file, and no
phone of another group waits long for SQLite's write lock. The new group has no member
while it is written: nobody sees it (every page reaches a group through its
memberships). Its owner's membership is written last, once the group is complete with
its statistics; an import that fails half-way (a match that breaks a rule, found when
the reading reaches it) deletes what it wrote.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from companion.models import (
    Deal,
    DealScore,
    GameNight,
    Group,
    Match,
    MatchChange,
    Membership,
    Player,
    Seat,
)
from companion.services.batches import let_others_write
from companion.services.import_slot import ImportBusy, import_slot
from companion.services.results import results_rebuild_hidden
from companion.services.transfer import TransferError, map_options
from companion.services.transfer.validate import ImportPlan, MatchPlan, read_import

BATCH_ROWS = 500
"""Rows (nights, matches, seats, deals, entries, log entries) written per transaction:
well under a tenth of a second on an idle SQLite, with a pause after each
(:func:`~companion.services.batches.let_others_write`); 2,500 held the lock 1.6 s at a
load of 9, 1,000 of the largest rows (11 nimmt! entries with their cards) 0.9 s at a
load of 11 (``bench/imports.py``)."""



def _by_id(entries: Any, players: Mapping[str, Player]) -> Any:
    """A log entry's ``{player key: entry}`` with the new players' ids."""
    if entries is None:
        return None
    return {str(players[key].pk): data for key, data in entries.items()}


def _rows(item: MatchPlan) -> int:
    return (1 + len(item.seats) + len(item.changes)
            + sum(1 + len(deal.scores) for deal in item.deals))


def _batches(plan: ImportPlan) -> Iterator[list[tuple[GameNight, list[MatchPlan]]]]:
    """The plan's game nights with their matches, a few thousand rows at a time, each
    match checked as it is taken from the plan. A night with more matches than a batch
    holds is split: its row goes with the first part, the later parts name the same
    night (already written), so no transaction grows with a night (a night of 10,000
    matches took one transaction of 38 s)."""
    batch: list[tuple[GameNight, list[MatchPlan]]] = []
    rows = 0
    for night, matches in plan.nights:
        part: list[MatchPlan] = []
        batch.append((night, part))
        rows += 1
        for item in matches:
            part.append(item)
            rows += _rows(item)
            if rows >= BATCH_ROWS:
                yield batch
                part = []
                batch, rows = [(night, part)], 0
    if batch:
        yield batch


def _write(group: Group, players: Mapping[str, Player],
           nights: list[tuple[GameNight, list[MatchPlan]]]) -> None:
    """One batch of game nights with everything of their matches (in the caller's
    transaction); a night written by an earlier batch (its later matches) is not
    written again."""
    new = [night for night, _matches in nights if night.pk is None]
    for night in new:
        night.group = group
    GameNight.objects.bulk_create(new)
    items = []
    for night, matches in nights:
        for item in matches:
            item.match.group = group
            item.match.game_night = night
            item.match.options = map_options(item.match.options, lambda key: players[key].pk)
            items.append(item)
    Match.objects.bulk_create([item.match for item in items])
    Seat.objects.bulk_create(
        Seat(match=item.match, player=players[seat.player], number=seat.number,
             total=seat.total, place=seat.place, is_winner=seat.is_winner)
        for item in items for seat in item.seats
    )
    deals = Deal.objects.bulk_create(
        Deal(match=item.match, number=deal.number, version=deal.version,
             created_at=deal.created_at, updated_at=deal.updated_at)
        for item in items for deal in item.deals
    )
    planned = (deal for item in items for deal in item.deals)
    DealScore.objects.bulk_create(
        DealScore(deal=deal, player=players[score.player], data=score.data, score=score.score)
        for deal, plan in zip(deals, planned, strict=True) for score in plan.scores
    )
    MatchChange.objects.bulk_create(
        MatchChange(match=item.match, kind=change.kind, deal_number=change.deal_number,
                    before=_by_id(change.before, players), after=_by_id(change.after, players),
                    created_at=change.created_at, undone_at=change.undone_at,
                    client_key=change.client_key)
        for item in items for change in item.changes
    )


def _discard(group: Group) -> None:
    """Delete a group whose import failed, a few hundred matches at a time."""
    matches = Match.objects.filter(group=group).order_by("pk").values_list("pk", flat=True)
    while True:
        with transaction.atomic():
            ids = list(matches[:200])
            if not ids:
                break
            Match.objects.filter(pk__in=ids).delete()
    with transaction.atomic():
        group.delete()


def group_import(
    *, user: AbstractBaseUser, content: bytes | str | IO[bytes],
    complete: Callable[[Group], None] | None = None,
) -> Group:
    """Create a new group owned by ``user`` from an exported JSON document.

    Raises :class:`TransferError` (nothing is saved) if the file is damaged,
    foreign, over a limit of :mod:`companion.limits`, of a newer format or breaks a
    rule of the games. The group appears (its owner's membership is written) only
    when all of it is written; ``complete(group)`` runs in that last transaction (the
    send's receipt, :func:`companion.idempotency.receipt_writer`).

    One import at a time per server (:func:`~companion.services.import_slot.import_slot`):
    another one running makes this one wait a moment, then refuse (TransferError).
    """
    try:
        with import_slot():
            return _group_import(user=user, content=content, complete=complete)
    except ImportBusy as busy:
        raise TransferError(str(busy)) from busy


def _group_import(
    *, user: AbstractBaseUser, content: bytes | str | IO[bytes],
    complete: Callable[[Group], None] | None,
) -> Group:
    plan = read_import(content)
    with transaction.atomic():
        group = plan.group
        group.owner = user  # type: ignore[assignment]
        group.save()
        for player in plan.players.values():
            player.group = group
        Player.objects.bulk_create(plan.players.values())
    try:
        for nights in _batches(plan):
            with transaction.atomic():
                _write(group, plan.players, nights)
            let_others_write()
        results_rebuild_hidden(group=group)
        with transaction.atomic():
            Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
            if complete is not None:
                complete(group)
    except BaseException:
        _discard(group)
        raise
    return group
