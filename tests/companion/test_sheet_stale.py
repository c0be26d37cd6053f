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


@pytest.mark.django_db
def test_a_stale_new_deal_with_exactly_the_saved_entries_is_no_error(
    anna_client: Client, match: Match
) -> None:
    # Typed on this phone as the other phone saved (and corrected) it: Anna 7.
    response = anna_client.post(
        url("deal_new", match), {"mode": "counts", "number": 1, "s0-hand": "7"}, **HX
    )
    assert response.status_code == 200
    assert ("Deal 1 was saved on another phone with exactly these entries: nothing to do."
            in response.content.decode())
    assert Deal.objects.count() == 1


@pytest.fixture
def freaky_done(group: Group, players: list[Player]) -> Match:
    """Freaky, whose one deal another phone saved: Anna 12, Ben 8, Cem 4."""
    match = match_services.match_start(group=group, game="freaky", players=players)
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"collected": 12}, players[1].pk: {"collected": 8},
        players[2].pk: {"collected": 4}})
    return match


@pytest.mark.django_db
@pytest.mark.parametrize(("typed", "status"), [
    ({"s0-collected": "12", "s1-collected": "8", "s2-collected": "4"}, 200),  # the same
    ({}, 200),  # nothing typed
    ({"s0-collected": "20", "s1-collected": "8", "s2-collected": "4"}, 409),
])
def test_a_kept_form_is_compared_with_the_sheet_and_never_saved(
    anna_client: Client, freaky_done: Match, typed: dict[str, str], status: int
) -> None:
    response = anna_client.post(url("deal_new", freaky_done), {
        "mode": "counts", "number": 1, "kept": "1", **typed}, **HX)
    assert response.status_code == status
    html = response.content.decode()
    if status == 409:
        assert ("Deal 1 was recorded on another phone meanwhile: these entries were not saved. "
                "The match takes no further deal.") in html
        assert "data-recording" not in html  # the queue offers no "as the next deal"
    assert DealScore.objects.filter(deal__match=freaky_done).count() == 3


@pytest.mark.django_db
def test_a_kept_form_is_not_saved_even_where_its_deal_number_is_free_again(
    anna_client: Client, freaky_done: Match
) -> None:
    deal_services.match_undo(match=freaky_done)  # deal 1 taken back: number 1 is free
    response = anna_client.post(url("deal_new", freaky_done), {
        "mode": "counts", "number": 1, "kept": "1", "s0-collected": "20"}, **HX)
    assert response.status_code == 409
    assert not Deal.objects.filter(match=freaky_done).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["match_sheet", "match_live"])
def test_a_poll_of_a_match_deleted_on_another_phone_says_so_and_leads_on(
    anna_client: Client, group: Group, players: list[Player], anna: Any, page: str
) -> None:
    match = match_services.match_start(group=group, game="freaky", players=players, user=anna)
    address = url(page, match)
    match_services.match_delete(match=match, user=anna)
    response = anna_client.get(address, **HX, HTTP_IF_NONE_MATCH='"3.en.1"')
    assert response.status_code == 410
    html = response.content.decode()
    assert "This match was deleted on another phone." in html
    assert f'href="/g/{group.pk}/"' in html and f'href="/g/{group.pk}/matches/new/"' in html
    assert "-poll" not in html  # nothing polls a match that is gone
    # The page itself, and anybody outside the group, still get 404.
    assert anna_client.get(address).status_code == 404


@pytest.mark.django_db
def test_a_poll_of_a_match_someone_cannot_see_stays_404(
    outsider_client: Client, group: Group, players: list[Player], anna: Any
) -> None:
    match = match_services.match_start(group=group, game="freaky", players=players, user=anna)
    address = url("match_sheet", match)
    assert outsider_client.get(address, **HX).status_code == 404
    match_services.match_delete(match=match, user=anna)
    assert outsider_client.get(address, **HX).status_code == 404
