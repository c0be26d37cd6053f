"""Permission lookups: every object is reached through the user's groups.

A non-member gets 404 for any object of another group (never a hint that it
exists); views are wrapped in ``@login_required`` so a logged-out visitor is
sent to log in.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.shortcuts import get_object_or_404

from companion.models import GameNight, Group, Match, Membership, Player, Seat


def get_group_for_user(user: AbstractBaseUser | AnonymousUser, group_id: int) -> Group:
    """The group, if ``user`` is a member; 404 otherwise."""
    if not user.is_authenticated:
        raise Http404
    return get_object_or_404(Group.objects.filter(memberships__user=user), pk=group_id)


def get_membership(user: AbstractBaseUser | AnonymousUser, group: Group) -> Membership:
    if not user.is_authenticated:
        raise Http404
    return get_object_or_404(Membership, group=group, user=user)


def get_player_for_user(
    user: AbstractBaseUser | AnonymousUser, group_id: int, player_id: int
) -> Player:
    group = get_group_for_user(user, group_id)
    return get_object_or_404(Player, group=group, pk=player_id)


def get_game_night_for_user(
    user: AbstractBaseUser | AnonymousUser, group_id: int, night_id: int
) -> GameNight:
    group = get_group_for_user(user, group_id)
    return get_object_or_404(GameNight.objects.select_related("group"), group=group, pk=night_id)


def get_match_for_user(
    user: AbstractBaseUser | AnonymousUser, group_id: int, match_id: int
) -> Match:
    """The match with its group and night, if ``user`` is a member of its group; 404
    otherwise (one query)."""
    if not user.is_authenticated:
        raise Http404
    return get_object_or_404(
        Match.objects.select_related("group", "game_night").filter(
            group__memberships__user=user, group__pk=group_id
        ),
        pk=match_id,
    )


def get_seats_for_user(
    user: AbstractBaseUser | AnonymousUser, group_id: int, match_id: int
) -> list[Seat]:
    """The match's seats in seat order with their players, all sharing the match (with its
    group and night), if ``user`` is a member of its group; 404 otherwise. One query for
    what a deal save reads before it writes (a match always has seats)."""
    if not user.is_authenticated:
        raise Http404
    seats = list(
        Seat.objects.select_related("player", "match__group", "match__game_night")
        .filter(match__pk=match_id, match__group__pk=group_id,
                match__group__memberships__user=user)
        .order_by("number")
    )
    if not seats:
        raise Http404
    for seat in seats[1:]:
        seat.match = seats[0].match
    return seats
