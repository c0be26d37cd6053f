"""Permission lookups: every object is reached through the user's groups.

A non-member gets 404 for any object of another group (never a hint that it
exists); views are wrapped in ``@login_required`` so a logged-out visitor is
sent to log in.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.shortcuts import get_object_or_404

from companion.models import GameNight, Group, Match, Membership, Player
from companion.parsing import MAX_ID
from companion.selectors.prepared import Prepared


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


MATCH_FIELDS = tuple(field.attname for field in Match._meta.concrete_fields)
GROUP_FIELDS = tuple(field.attname for field in Group._meta.concrete_fields)
NIGHT_FIELDS = tuple(field.attname for field in GameNight._meta.concrete_fields)


def _match_with_group_and_night(user_id: int, group_id: int, match_id: int) -> Any:
    return Match.objects.filter(
        group__memberships__user_id=user_id, group_id=group_id, pk=match_id
    ).values_list(
        *MATCH_FIELDS,
        *(f"group__{field.name}" for field in Group._meta.concrete_fields),
        *(f"game_night__{field.name}" for field in GameNight._meta.concrete_fields),
    )


def get_match_for_user(
    user: AbstractBaseUser | AnonymousUser, group_id: int, match_id: int
) -> Match:
    """The match with its group and night, if ``user`` is a member of its group; 404
    otherwise (one query, its SQL compiled once: building it through the ORM cost about
    a fifth of a sheet's repeat load). The same objects as
    ``Match.objects.select_related("group", "game_night")`` gives."""
    # Numbers past the database's integers are no match (the SQL is run as it is, without
    # the ORM's range check of a primary key).
    if not user.is_authenticated or group_id > MAX_ID or match_id > MAX_ID:
        raise Http404
    rows = _MATCH_FOR_USER(int(user.pk), group_id, match_id)
    if not rows:
        raise Http404
    db = Match.objects.db
    values = rows[0]
    match_end, group_end = len(MATCH_FIELDS), len(MATCH_FIELDS) + len(GROUP_FIELDS)
    match = Match.from_db(db, MATCH_FIELDS, values[:match_end])
    match.group = Group.from_db(db, GROUP_FIELDS, values[match_end:group_end])
    match.game_night = GameNight.from_db(db, NIGHT_FIELDS, values[group_end:])
    return match


_MATCH_FOR_USER = Prepared(Match, _match_with_group_and_night)
