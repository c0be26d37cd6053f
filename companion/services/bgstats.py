"""Storing the plays of a BG Stats export (``companion.bgstats``) as matches.

An imported match has final scores only: ``Match.source`` is ``bgstats`` and
``external_id`` the play's uuid; it is finished (``created_at`` the play's time,
``finished_at`` that plus the play's ``durationMin``), has no deals, and its seats carry
the final totals, the places the game's rules give for them (ties share) and the winners
on place 1; ``first_dealer`` is
the start player's seat. Such matches count in wins, places, ratings and records; the
statistics that need deals skip them. They cannot be reopened.

The plays go oldest first in batches of :data:`IMPORT_BATCH`, each in its own
transaction with its statistics (results, records, matches per game, and the ratings
from the batch's oldest night on: :func:`~companion.services.results.matches_added`),
so that a long history never holds the database for long and the group's statistics
are whole after every batch; a batch that fails leaves nothing of itself, and since a
play's uuid is stored with its match, importing the file again completes the import
without repeating a play.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from companion.bgstats import BGStatsError, ImportMapping, ImportPlan, ReadyPlay
from companion.models import GameNight, Group, Match, Player, Seat
from companion.parsing import clean_name, name_key
from companion.services.batches import let_others_write
from companion.services.groups import (
    PLAYER_NAME_MAX,
    ROSTER_MAX,
    game_night_date,
    roster_full_message,
)
from companion.services.import_slot import ImportBusy, import_slot
from companion.services.results import matches_added
from scoring import GAMES, rank

IMPORT_BATCH = 100
"""Plays stored per transaction, with their statistics (``bench/imports.py --bgstats``:
250 held the write lock about 1 s at a load of 6)."""


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import did."""

    matches: int
    """Matches stored."""
    players: tuple[str, ...]
    """Players added to the roster, by name."""
    skipped: Counter[str]
    """Plays left out, per reason (``companion.bgstats.Reason``)."""
    winners_differ: int
    """Stored plays whose BG Stats winners differ from those their scores give."""


def _check_mapping(mapping: ImportMapping, roster: dict[int, str]) -> None:
    if any(slug is not None and slug not in GAMES for slug in mapping.games.values()):
        raise BGStatsError(_("A game was mapped onto a game Kartenrunde does not know."))
    if any(pk is not None and pk not in roster for pk in mapping.players.values()):
        raise BGStatsError(_("A player was mapped onto somebody who is not on the group's "
                             "roster."))


def _new_players(plan: ImportPlan, ready: tuple[ReadyPlay, ...],
                 roster: dict[int, str]) -> dict[int, str]:
    """The BG Stats players to add to the roster: their cleaned names by BG Stats id."""
    refs = sorted({ref for play in ready
                   for ref, pk in zip(play.player_refs, play.players, strict=True)
                   if pk is None})
    taken = {name_key(name): name for name in roster.values()}
    names: dict[int, str] = {}
    for ref in refs:
        raw = plan.names[ref]
        try:
            name = clean_name(raw, max_length=PLAYER_NAME_MAX)
        except ValidationError as err:
            raise BGStatsError(
                _("The BG Stats player “%(name)s” cannot join the roster: %(problem)s")
                % {"name": raw[:PLAYER_NAME_MAX + 10], "problem": " ".join(err.messages)}
            ) from err
        if name_key(name) in taken:
            raise BGStatsError(
                _("“%(name)s” is on the roster already (as “%(other)s”): map the BG Stats "
                  "player onto them.") % {"name": name, "other": taken[name_key(name)]}
            )
        taken[name_key(name)] = name
        names[ref] = name
    if len(roster) + len(names) > ROSTER_MAX:
        raise BGStatsError(roster_full_message())
    return names


def _store(group: Group, plays: list[ReadyPlay], players: dict[int, int], user: Any
           ) -> list[ReadyPlay]:
    """One batch, in the caller's transaction; returns the plays stored (those the group
    did not have yet)."""
    # The group's row, locked: the same file imported twice at once stores each play once.
    list(Group.objects.select_for_update().filter(pk=group.pk).values_list("pk"))
    known = set(Match.objects.filter(
        group=group, source=Match.Source.BGSTATS,
        external_id__in=[ready.play.uuid for ready in plays],
    ).values_list("external_id", flat=True))
    plays = [ready for ready in plays if ready.play.uuid not in known]
    if not plays:
        return []
    moments = [timezone.make_aware(ready.play.played_at) for ready in plays]
    dates = [game_night_date(moment) for moment in moments]
    nights: dict[dt.date, GameNight] = {}
    for night in GameNight.objects.filter(group=group, date__in=set(dates)).order_by("-pk"):
        nights.setdefault(night.date, night)  # the newest, as a match started that day would
    new = {}
    for ready, date in zip(plays, dates, strict=True):
        if date not in nights and date not in new:
            new[date] = GameNight(group=group, date=date, place=ready.play.location[:100])
    GameNight.objects.bulk_create(new.values())
    nights.update(new)
    matches = [
        Match(group=group, game_night=nights[date], game=ready.game, first_dealer=ready.first,
              status=Match.Status.FINISHED, created_at=moment,
              finished_at=moment + dt.timedelta(minutes=ready.play.duration_min),
              created_by=user if getattr(user, "is_authenticated", False) else None,
              source=Match.Source.BGSTATS, external_id=ready.play.uuid)
        for ready, moment, date in zip(plays, moments, dates, strict=True)
    ]
    Match.objects.bulk_create(matches)
    seats = []
    for match, ready in zip(matches, plays, strict=True):
        places = {
            int(seat): place for place, seat, _total in rank(
                {str(seat): total for seat, total in enumerate(ready.totals)},
                lower_is_better=GAMES[ready.game].lower_is_better,
            )
        }
        for seat, (ref, pk, total) in enumerate(
            zip(ready.player_refs, ready.players, ready.totals, strict=True)
        ):
            seats.append(Seat(match=match, player_id=pk if pk is not None else players[ref],
                              number=seat, total=total, place=places[seat],
                              is_winner=places[seat] == 1))
    Seat.objects.bulk_create(seats)
    return plays


def bgstats_import(*, group: Group, plan: ImportPlan, mapping: ImportMapping | None = None,
                   user: Any = None) -> Imported:
    """Store the plays of ``plan`` that ``mapping`` (None: the suggestions) takes as
    matches of ``group`` with final scores only; raises :class:`BGStatsError` (and
    stores nothing) when the mapping cannot be carried out, or when another import
    runs on the server (one at a time: :mod:`companion.services.import_slot`)."""
    try:
        with import_slot():
            return _import(group=group, plan=plan, mapping=mapping, user=user)
    except ImportBusy as busy:
        raise BGStatsError(str(busy)) from busy


def _import(*, group: Group, plan: ImportPlan, mapping: ImportMapping | None,
            user: Any) -> Imported:
    mapping = mapping or ImportMapping({}, {})
    roster = dict(Player.objects.filter(group=group).values_list("pk", "name"))
    _check_mapping(mapping, roster)
    prepared = plan.prepare(mapping)
    names = _new_players(plan, prepared.ready, roster)
    players: dict[int, int] = {}
    try:
        with transaction.atomic():
            created = Player.objects.bulk_create(
                Player(group=group, name=name) for name in names.values())
            players = {ref: player.pk for ref, player in zip(names, created, strict=True)}
    except IntegrityError as err:  # somebody added one of those names just now
        raise BGStatsError(_("A player of that name was added to the roster meanwhile; "
                             "please start the import again.")) from err
    stored: list[ReadyPlay] = []
    # Oldest first: each batch replays the ratings from its oldest night on.
    ready = sorted(prepared.ready, key=lambda ready: ready.play.played_at)
    try:
        for start in range(0, len(ready), IMPORT_BATCH):
            with transaction.atomic():
                batch = _store(group, ready[start:start + IMPORT_BATCH], players, user)
                matches_added(group_id=group.pk, matches=list(Match.objects.filter(
                    group=group, source=Match.Source.BGSTATS,
                    external_id__in=[play.play.uuid for play in batch])))
            stored += batch
            let_others_write()
    except IntegrityError as err:  # the same play stored by an import running at once
        raise BGStatsError(_("This file is being imported at the same time elsewhere; "
                             "import it again once that is done to add what is missing.")
                           ) from err
    skipped = prepared.skipped.copy()
    if len(ready) > len(stored):
        skipped["already"] += len(ready) - len(stored)
    return Imported(len(stored), tuple(names.values()), skipped,
                    sum(play.winners_differ for play in stored))


__all__ = ["IMPORT_BATCH", "Imported", "bgstats_import"]
