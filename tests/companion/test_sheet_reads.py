"""The sheet's reads in SQL compiled once (the match with its group and night, the seats
with their players, the deals with their scores, the changes undo and redo take) give
what the ORM's querysets give; a deal's breakdown is worked out once per stored entry
(``selectors.sheet._read_deal``), and a corrected deal shows its new one."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from companion.access import get_match_for_user
from companion.models import Group, Match, Player
from companion.selectors.sheet import seats_of, sheet_for
from companion.services import deals as deal_services
from companion.services import matches as match_services


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def fields(instance: Model) -> dict[str, Any]:
    return {field.attname: getattr(instance, field.attname)
            for field in type(instance)._meta.concrete_fields}


@pytest.mark.django_db
def test_the_match_and_its_seats_are_what_the_orm_reads(
    anna: User, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="dreizehn", players=players[::-1],
                                 first_dealer=1, options={"variant": "first-card"})
    read = get_match_for_user(anna, group.pk, match.pk)
    orm = Match.objects.select_related("group", "game_night").get(pk=match.pk)
    assert fields(read) == fields(orm)
    assert fields(read.group) == fields(orm.group)
    assert fields(read.game_night) == fields(orm.game_night)
    assert read.options == {"variant": "first-card"}
    seats = seats_of(read)
    expected = list(orm.seats.select_related("player").order_by("number"))
    assert [fields(seat) for seat in seats] == [fields(seat) for seat in expected]
    assert [fields(seat.player) for seat in seats] == [fields(seat.player) for seat in expected]
    assert [seat.player.name for seat in seats] == ["Cem", "Ben", "Anna"]
    assert all(seat.match is read for seat in seats)


@pytest.mark.django_db
@pytest.mark.parametrize("number", [2**31, 2**63 - 1, 2**63, 10**30])
def test_a_match_or_group_number_past_the_database_integers_is_no_match(
    anna_client: Client, group: Group, players: list[Player], number: int
) -> None:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    for address in (f"/g/{group.pk}/matches/{number}/", f"/g/{number}/matches/{match.pk}/"):
        assert anna_client.get(address).status_code == 404
    assert anna_client.get(url("match_sheet", match)).status_code == 200


@pytest.mark.django_db
def test_a_match_of_another_group_is_no_match(
    anna: User, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    other = Group.objects.create(name="Andere", owner=anna)
    with pytest.raises(Exception) as raised:
        get_match_for_user(anna, other.pk, match.pk)
    assert type(raised.value).__name__ == "Http404"


@pytest.mark.django_db
def test_a_corrected_deal_shows_its_new_breakdown_and_undo_takes_it_back(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    entries = {players[0].pk: {"hand_cards": [55, 3]}, players[1].pk: {"hand_cards": [10]},
               players[2].pk: {"hand_cards": []}}
    deal_services.deal_record(match=match, number=1, entries=entries)
    html = anna_client.get(url("match_sheet", match)).content.decode()
    assert "3 (1), 55 (7)" in html
    entries[players[0].pk] = {"hand_cards": [55, 11]}
    deal_services.deal_edit(match=match, number=1, version=1, entries=entries)
    html = anna_client.get(url("match_sheet", match)).content.decode()
    assert "11 (5), 55 (7)" in html
    assert "3 (1), 55 (7)" not in html
    sheet = sheet_for(match)
    assert [cell.score for cell in sheet.rows[0].cells] == [12, 3, 0]
    assert sheet.rows[0].cells[0].data["hand_cards"] == [55, 11]
    deal_services.match_undo(match=match)
    html = anna_client.get(url("match_sheet", match)).content.decode()
    assert "3 (1), 55 (7)" in html
    assert "11 (5), 55 (7)" not in html
    undo, redo = sheet_for(match).last_change, sheet_for(match).redo_change
    assert (undo.kind, undo.deal_number, redo.kind, redo.deal_number) == (
        "record", 1, "edit", 1)
