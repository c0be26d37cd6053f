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

from companion.models import GameNight, Group, Match, Membership, Player
from companion.parsing import MAX_ID


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
    """The match, if ``user`` is a member of its group; 404 otherwise (one query)."""
    # A foreign key's lookup does not check the number's range as a primary key's does:
    # an address with a group number past the database's integers is no match.
    if not user.is_authenticated or group_id > MAX_ID:
        raise Http404
    return get_object_or_404(
        Match.objects.select_related("group", "game_night").filter(group__memberships__user=user),
        group_id=group_id, pk=match_id,
    )
