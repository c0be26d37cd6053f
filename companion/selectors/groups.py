"""Reads of the groups area, each a fixed number of queries however much a group has played."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Prefetch, QuerySet
from django.db.models.functions import Lower

from companion.models import GameNight, Group, Invite, Match, Membership, Player, Seat

RECENT_NIGHTS = 5


def groups_for_user(user: AbstractBaseUser) -> QuerySet[Group]:
    """The user's groups by name, with ``member_count`` and ``player_count``."""
    return (
        Group.objects.filter(memberships__user=user)
        .annotate(
            member_count=Count("memberships", distinct=True),
            player_count=Count("players", distinct=True),
        )
        .order_by(Lower("name"), "id")
    )


def _matches_with_seats() -> QuerySet[Match]:
    """Matches oldest first, each with ``seat_list`` (seat order) and ``winner_seats``."""
    return Match.objects.order_by("created_at", "id").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"), to_attr="seat_list"),
        Prefetch(
            "seats",
            queryset=Seat.objects.filter(is_winner=True).select_related("player"),
            to_attr="winner_seats",
        ),
    )


def running_matches(group: Group) -> list[Match]:
    """The group's unfinished matches, newest first, with their seats."""
    return list(
        _matches_with_seats()
        .filter(group=group, status=Match.Status.OPEN)
        .select_related("game_night")
        .order_by("-created_at", "-id")
    )


def night_matches(night: GameNight) -> list[Match]:
    """The night's matches in the order they were started, with seats and winners."""
    return list(_matches_with_seats().filter(game_night=night))


def roster(group: Group) -> list[Player]:
    """The group's players by name (ignoring case), with the linked account and ``seat_count``."""
    return list(
        Player.objects.filter(group=group)
        .select_related("user")
        .annotate(seat_count=Count("seats"))
        .order_by(Lower("name"), "id")
    )


def members(group: Group) -> list[Membership]:
    """The group's members, owner first, then by user name.

    Each membership's user carries ``group_players``: the players linked to it in this group.
    """
    return list(
        Membership.objects.filter(group=group)
        .select_related("user")
        .prefetch_related(
            Prefetch(
                "user__players",
                queryset=Player.objects.filter(group=group).order_by("name"),
                to_attr="group_players",
            )
        )
        .order_by("-role", "user__username")
    )


def active_invites(group: Group) -> list[Invite]:
    return list(
        Invite.objects.filter(group=group, revoked_at__isnull=True)
        .select_related("created_by")
        .order_by("-created_at", "-id")
    )
