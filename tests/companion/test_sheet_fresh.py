"""Every change shows on the next load of the sheet, whatever it changed (deals, the match,
the roster, the night, the language, who looks), and every fresh deal form carries its
own key; a save from a fresh form gets the next form's number and key instead of it."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from companion.models import Deal, Group, Match, Membership, Player
from companion.services import deals as deal_services
from companion.services import groups as group_services
from companion.services import matches as match_services

HX = {"HTTP_HX_REQUEST": "true"}
PER_REQUEST = re.compile(
    r'(name="csrfmiddlewaretoken" value="|name="client_key" value="|data-etag="'
    r'|"X-CSRFToken": ")[^"]*'
)


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def sheet(client: Client, match: Match, query: str = "", **headers: Any) -> str:
    response = client.get(url("match_sheet", match) + query, **headers)
    assert response.status_code == 200
    return response.content.decode()


def same_but_per_request(html: str) -> str:
    return PER_REQUEST.sub(lambda m: m[1] + "…", html)


def record(match: Match, players: list[Player], *hands: int) -> Deal:
    return deal_services.deal_record(
        match=match, number=match.deals.count() + 1,
        entries={p.pk: {"hand": hand} for p, hand in zip(players, hands, strict=True)},
    )


def a_running_match(group: Group, players: list[Player]) -> Match:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    record(match, players, 5, 1, 0)
    return match


@pytest.mark.django_db
def test_a_save_from_a_fresh_form_names_the_next_forms_number_and_key_instead_of_sending_it(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    assert 'data-fresh="counts"' in sheet(anna_client, match)
    deal = {"number": 1, "mode": "counts", "s0-hand": 3, "s1-hand": 0, "s2-hand": 1}
    response = anna_client.post(url("deal_new", match), deal, HTTP_KR_FRESH_FORM="counts", **HX)
    assert response.status_code == 200
    event = json.loads(response["HX-Trigger-After-Swap"])["kr:form"]
    assert event["mode"] == "counts"
    assert event["number"] == 2
    assert re.fullmatch(r"[0-9a-f]{32}", event["key"])
    assert event["heading"] == "Durchgang 2"
    assert 'id="deal-form"' not in response.content.decode()
    # A page whose fresh form is in another entry mode gets the next form itself.
    other = match_services.match_start(group=group, game="x-nimmt", players=players)
    response = anna_client.post(url("deal_new", other), deal, HTTP_KR_FRESH_FORM="cards", **HX)
    assert "kr:form" not in response.get("HX-Trigger-After-Swap", "")
    html = response.content.decode()
    assert 'id="deal-form" hx-swap-oob="true"' in html
    assert 'name="number" value="2"' in html


@pytest.mark.django_db
def test_a_form_with_typed_values_is_shown_with_them_and_not_as_a_fresh_form(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    response = anna_client.post(url("deal_new", match),
                                {"number": 1, "s0-hand": "7", "s1-hand": "x", "s2-hand": "1"})
    assert response.status_code == 422
    html = response.content.decode()
    assert 'name="s0-hand" value="7"' in html
    assert 'name="s1-hand" value="x"' in html
    assert "data-fresh=" not in html


@pytest.mark.django_db
def test_every_form_carries_its_own_key(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    keys = []
    for address in (url("match_sheet", match), url("deal_new", match)):
        for headers in ({}, HX, {}, HX):
            response = anna_client.get(address, **headers)
            assert response.status_code == 200
            keys += re.findall(r'name="client_key" value="([0-9a-f]{32})"',
                               response.content.decode())
    # The deal form's, and those of undo, abandon, delete … (issue 21): never two alike.
    assert len(keys) == len(set(keys)) >= 8


@pytest.mark.django_db
def test_every_change_of_the_match_shows_on_the_next_load(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    sheet(anna_client, match)
    saved = anna_client.post(url("deal_new", match), {"number": 1, "s0-hand": 5,
                                                       "s1-hand": 1, "s2-x_stack": 2})
    html = anna_client.get(saved["Location"]).content.decode()
    assert 'id="deal-1" class="table-success saved-row"' in html  # the row just saved
    html = sheet(anna_client, match)
    assert 'id="deal-1">' in html  # marked once only
    assert 'name="number" value="2"' in html
    anna_client.post(url("deal_edit", match, number=1),
                     {"number": 1, "version": 1, "s0-hand": 9, "s1-hand": 1, "s2-x_stack": 1})
    assert '<span>9</span></li>' in sheet(anna_client, match)
    anna_client.post(url("deal_new", match), {"number": 2, "s0-hand": 1, "s1-hand": 1,
                                               "s2-hand": 0})
    assert 'id="deal-2"' in sheet(anna_client, match)
    anna_client.post(url("deal_delete", match, number=2), {"version": 1, "confirm": "yes"})
    assert 'id="deal-2"' not in sheet(anna_client, match)
    anna_client.post(url("match_undo", match), {"change": match.changes.order_by("-id")[0].pk})
    html = sheet(anna_client, match)
    assert 'id="deal-2"' in html
    assert 'id="winners"' not in html
    anna_client.post(url("match_finish", match))
    html = sheet(anna_client, match)
    assert 'id="winners"' in html
    assert 'id="deal-form"' not in html
    anna_client.post(url("match_reopen", match))
    html = sheet(anna_client, match)
    assert 'id="winners"' not in html
    assert 'class="btn btn-sm btn-outline-secondary deal-edit"' in html


@pytest.mark.django_db
def test_a_renamed_or_recoloured_player_shows_on_the_next_load(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = a_running_match(group, players)
    assert ">Ben</th>" in sheet(anna_client, match)
    group_services.player_rename(player=players[1], name="Benedikt")
    html = sheet(anna_client, match)
    assert ">Benedikt</th>" in html
    assert ">Ben</th>" not in html
    group_services.player_recolour(player=players[1], colour="#123456")
    assert '--player: #123456">Benedikt</th>' in sheet(anna_client, match)
    # A player outside the match choosing a colour moves the others' default colours on.
    before = re.findall(r'player-head" style="--player: (#[0-9a-f]{6})"', sheet(anna_client, match))
    dora = Player.objects.create(group=group, name="Dora")
    group_services.player_recolour(player=dora, colour=before[0])
    after = re.findall(r'player-head" style="--player: (#[0-9a-f]{6})"', sheet(anna_client, match))
    assert after[0] != before[0]


@pytest.mark.django_db
def test_a_renamed_group_and_a_moved_night_show_on_the_next_load(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = a_running_match(group, players)
    sheet(anna_client, match, HTTP_ACCEPT_LANGUAGE="en")
    Group.objects.filter(pk=group.pk).update(name="Freitagsrunde")
    group_services.game_night_update(night=match.game_night, date=dt.date(2024, 2, 29))
    html = sheet(anna_client, match, HTTP_ACCEPT_LANGUAGE="en")
    assert "← Freitagsrunde</a>" in html
    assert "Freitagsrunde</title>" in html
    assert ">02/29/2024</a>" in html


@pytest.mark.django_db
def test_the_language_switch_shows_on_the_next_load(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = a_running_match(group, players)
    assert ">läuft</span>" in sheet(anna_client, match)
    anna_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = sheet(anna_client, match)
    assert ">running</span>" in html
    assert ">läuft</span>" not in html


@pytest.mark.django_db
def test_only_who_may_delete_the_match_is_offered_to(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = a_running_match(group, players)
    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=group, user=ben, role=Membership.Role.MEMBER)
    ben_client = Client()
    ben_client.force_login(ben)
    for _ in range(2):
        assert 'id="delete-match"' in sheet(anna_client, match)
        assert 'id="delete-match"' not in sheet(ben_client, match)
    # Ben becomes the group's owner: he may delete it now, on the next load.
    Group.objects.filter(pk=group.pk).update(owner=ben)
    assert 'id="delete-match"' in sheet(ben_client, match)
