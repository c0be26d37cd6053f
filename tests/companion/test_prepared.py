"""Reads whose SQL the ORM writes once (companion/selectors/prepared.py): they give what
the queryset they stand for gives, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Model
from django.http import Http404
from django.test import Client

from companion.access import get_match_for_user
from companion.models import Group, Match, Membership, Player
from companion.services import matches as services

pytestmark = pytest.mark.django_db


def columns(instance: Model) -> list[Any]:
    return [getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields]


def test_the_match_of_a_page_is_the_match_the_orm_reads_with_its_group_and_night(
    anna: User, group: Group, players: list[Player], django_assert_num_queries: Any
) -> None:
    match = services.match_start(group=group, game="elf-nimmt", players=players,
                                 options={"variant": "x"}, user=anna)
    expected = Match.objects.select_related("group", "game_night").get(pk=match.pk)
    with django_assert_num_queries(1):
        found = get_match_for_user(anna, group.pk, match.pk)
        assert (found.group.name, found.game_night.date) == (group.name, expected.game_night.date)
    assert columns(found) == columns(expected)
    assert columns(found.group) == columns(expected.group)
    assert columns(found.game_night) == columns(expected.game_night)
    assert found._state.adding is False
    assert found.options == {"variant": "x"}


def test_the_match_is_found_only_by_members_of_its_own_group(
    anna: User, outsider: User, group: Group, players: list[Player]
) -> None:
    match = services.match_start(group=group, game="x-nimmt", players=players)
    other = Group.objects.create(name="Andere", owner=anna)
    Membership.objects.create(group=other, user=anna, role=Membership.Role.OWNER)
    for user, group_id in ((outsider, group.pk), (anna, other.pk)):
        with pytest.raises(Http404):
            get_match_for_user(user, group_id, match.pk)



@pytest.mark.parametrize("ids", [(0, 10**20), (10**20, 0)])
def test_a_match_address_with_numbers_past_the_databases_integers_is_404(
    anna_client: Client, group: Group, players: list[Player], ids: tuple[int, int]
) -> None:
    match = services.match_start(group=group, game="x-nimmt", players=players)
    sheet = f"/g/{group.pk + ids[0]}/matches/{match.pk + ids[1]}/"
    for path in (sheet, sheet + "deals/new/"):
        assert anna_client.get(path).status_code == 404
