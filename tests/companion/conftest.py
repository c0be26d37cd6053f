"""Personas for the app's tests: a group "Donnerstagsrunde" owned by Anna,
with the players Anna, Ben and Cem, Ben's account as a member, and an outsider who
belongs to another group."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Group, Membership, Player


@pytest.fixture
def anna(db: None) -> User:
    return User.objects.create_user("anna", password="kartenrunde-anna-1")


@pytest.fixture
def outsider(db: None) -> User:
    user = User.objects.create_user("olaf", password="kartenrunde-olaf-1")
    other = Group.objects.create(name="Andere Runde", owner=user)
    Membership.objects.create(group=other, user=user, role=Membership.Role.OWNER)
    return user


@pytest.fixture
def group(anna: User) -> Group:
    group = Group.objects.create(name="Donnerstagsrunde", owner=anna)
    Membership.objects.create(group=group, user=anna, role=Membership.Role.OWNER)
    Player.objects.create(group=group, name="Anna", user=anna)
    Player.objects.create(group=group, name="Ben")
    Player.objects.create(group=group, name="Cem")
    return group


@pytest.fixture
def ben(group: Group) -> User:
    """A member of the group (not its owner), not linked to a player."""
    user = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=group, user=user, role=Membership.Role.MEMBER)
    return user


@pytest.fixture
def players(group: Group) -> list[Player]:
    """Anna, Ben, Cem in this order."""
    return [group.players.get(name=name) for name in ("Anna", "Ben", "Cem")]


@pytest.fixture
def anna_client(client: Client, anna: User) -> Client:
    client.force_login(anna)
    return client


@pytest.fixture
def outsider_client(outsider: User) -> Client:
    client = Client()
    client.force_login(outsider)
    return client
