"""A save refused because another phone changed the sheet answers 409 on both paths.

htmx swaps the answer in (base.html's htmx-config), so the phone shows the
current data; the status still tells scripts and the offline queue that the
change was not saved.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from companion.models import Deal, DealScore, Group, Match, Player
from companion.services import deals as deal_services
from companion.services import live as live_services
from companion.services import matches as match_services

HX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


@pytest.fixture
def match(group: Group, players: list[Player]) -> Match:
    """X nimmt! with deal 1 recorded (Anna 5) and then corrected on another phone (Anna 7)."""
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    entries: dict[int, dict[str, object]] = {p.pk: {} for p in players}
    deal_services.deal_record(
        match=match, number=1, entries={**entries, players[0].pk: {"hand": 5}}
    )
    deal_services.deal_edit(
        match=match, number=1, version=1, entries={**entries, players[0].pk: {"hand": 7}}
    )
    return match


@pytest.mark.django_db
def test_a_stale_new_deal_through_htmx_answers_409_with_the_current_sheet(
    anna_client: Client, match: Match
) -> None:
    response = anna_client.post(
        url("deal_new", match), {"mode": "counts", "number": 1, "s0-hand": "9"}, **HX
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#sheet"
    assert "Deal 1 was recorded on another phone meanwhile" in html
    assert 'name="number" value="2"' in html
    assert Deal.objects.count() == 1


@pytest.mark.django_db
def test_a_stale_edit_through_htmx_answers_409_with_the_current_data(
    anna_client: Client, match: Match, players: list[Player]
) -> None:
    response = anna_client.post(
        url("deal_edit", match, number=1), {"mode": "counts", "version": 1, "s0-hand": "50"},
        **HX,
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert "Deal 1 was changed on another phone meanwhile" in html
    assert 'name="s0-hand" value="7"' in html
    assert 'name="version" value="2"' in html
    assert DealScore.objects.get(player=players[0]).score == 7


@pytest.mark.django_db
def test_a_stale_delete_through_htmx_answers_409(anna_client: Client, match: Match) -> None:
    response = anna_client.post(
        url("deal_delete", match, number=1), {"version": 1, "confirm": "yes"}, **HX
    )
    assert response.status_code == 409
    assert "Deal 1 was changed on another phone meanwhile" in response.content.decode()
    assert Deal.objects.count() == 1


@pytest.mark.django_db
def test_a_stale_undo_through_htmx_answers_409(anna_client: Client, match: Match) -> None:
    first = match.changes.order_by("id").first()
    assert first is not None
    response = anna_client.post(url("match_undo", match), {"change": first.pk}, **HX)
    assert response.status_code == 409
    assert "nothing was undone" in response.content.decode()
    assert Deal.objects.get().version == 2


@pytest.mark.django_db
def test_a_stale_live_tap_through_htmx_answers_409_with_the_current_board(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="drei-sind-einer-zuviel", players=players)
    live_services.live_step(
        match=match, revision=0, action="take", data={"player": players[1].pk, "colour": "rot"},
    )
    response = anna_client.post(
        url("match_live", match),
        {"revision": 0, "action": "take", "player": players[0].pk, "colour": "rot"},
        **HX,
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert html.lstrip().startswith('<div id="board" data-etag=')
    assert "Another phone recorded a card meanwhile" in html
    match.refresh_from_db()
    assert match.options["live_rev"] == 1
