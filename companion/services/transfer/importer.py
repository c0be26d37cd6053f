"""Import, second step: the checked plan of a file written as a new group, at once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
from companion.services.results import results_rebuild
from companion.services.transfer import map_options
from companion.services.transfer.validate import read_import


def _by_id(entries: Any, players: Mapping[str, Player]) -> Any:
    """A log entry's ``{player key: entry}`` with the new players' ids."""
    if entries is None:
        return None
    return {str(players[key].pk): data for key, data in entries.items()}


def group_import(*, user: AbstractBaseUser, content: bytes | str) -> Group:
    """Create a new group owned by ``user`` from an exported JSON document.

    Raises :class:`TransferError` (nothing is saved) if the file is damaged,
    foreign, of a newer format or breaks a rule of the games.
    """
    plan = read_import(content)
    with transaction.atomic():
        group = plan.group
        group.owner = user  # type: ignore[assignment]
        group.save()
        Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
        for player in plan.players.values():
            player.group = group
        Player.objects.bulk_create(plan.players.values())
        for night, _matches in plan.nights:
            night.group = group
        GameNight.objects.bulk_create([night for night, _matches in plan.nights])
        match_plans = []
        for night, matches in plan.nights:
            for item in matches:
                item.match.group = group
                item.match.game_night = night
                item.match.options = map_options(
                    item.match.options, lambda key: plan.players[key].pk
                )
                match_plans.append(item)
        Match.objects.bulk_create([item.match for item in match_plans])
        seats, deals = [], []
        for item in match_plans:
            for seat, _key in item.seats:
                seat.match = item.match
                seats.append(seat)
            for deal, _rows in item.deals:
                deal.match = item.match
                deals.append(deal)
        Seat.objects.bulk_create(seats)
        Deal.objects.bulk_create(deals)
        scores, changes = [], []
        for item in match_plans:
            for deal, rows in item.deals:
                for score, key in rows:
                    score.deal = deal
                    score.player = plan.players[key]
                    scores.append(score)
            for change, before, after in item.changes:
                change.match = item.match
                change.before = _by_id(before, plan.players)
                change.after = _by_id(after, plan.players)
                changes.append(change)
        DealScore.objects.bulk_create(scores)
        MatchChange.objects.bulk_create(changes)
        results_rebuild(group=group)
    return group
