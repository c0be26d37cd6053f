"""Table mode of the score sheet, server side: ?view=table opens the sheet in table
mode without JavaScript, and the table view is part of the sheet partial, so whatever
refreshes the sheet (a saved deal, the poll) refreshes the table view too."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from companion.models import Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}
HX = {"HTTP_HX_REQUEST": "true"}

pytestmark = pytest.mark.django_db


@pytest.fixture
def dreizehn(group: Group, players: list[Player]) -> Match:
    """A 13 match of Anna, Ben, Cem (Ben deals first) with its first deal recorded."""
    match = match_services.match_start(
        group=group, game="dreizehn", players=players, first_dealer=1
    )
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"red": 2}, players[1].pk: {"red": 0}, players[2].pk: {"red": 5},
    })
    return match


def sheet_url(match: Match) -> str:
    return reverse("match_sheet", kwargs={"group_id": match.group_id, "match_id": match.pk})


def table_view(html: str) -> str:
    start = html.index('<section id="table-view"')
    return html[start:html.index("</section>", start)]


def test_the_sheet_links_to_table_mode_that_works_without_javascript(
    anna_client: Client, dreizehn: Match
) -> None:
    html = anna_client.get(sheet_url(dreizehn), **EN).content.decode()
    assert f'href="{sheet_url(dreizehn)}?view=table" data-table-mode="on"' in html
    assert 'class="">' in html.split("<head>")[0]  # the plain sheet is not in table mode


def test_view_table_opens_the_sheet_in_table_mode(anna_client: Client, dreizehn: Match) -> None:
    html = anna_client.get(sheet_url(dreizehn) + "?view=table", **EN).content.decode()
    assert '<html lang="en" class="table-mode table-page">' in html
    assert '<noscript><meta http-equiv="refresh" content="20"></noscript>' in html
    view = table_view(html)
    assert f'href="{sheet_url(dreizehn)}" data-table-mode="off"' in view


def test_the_table_view_shows_the_deal_who_deals_and_the_standings(
    anna_client: Client, dreizehn: Match, players: list[Player]
) -> None:
    view = table_view(anna_client.get(sheet_url(dreizehn), **EN).content.decode())
    assert '<div class="tv-deal" id="tv-deal">Deal 2 of 6</div>' in view
    # 13 with three players: the deal passes clockwise, Ben dealt deal 1, Cem deals deal 2.
    assert "Cem deals, Anna starts" in view
    rows = re.findall(r'<li style="--player: #\w+"><span>(\w+)</span><b>(\w+)</b>'
                      r"<span>(\u2212?\d+)</span></li>", view)
    assert rows == [("1st", "Ben", "0"), ("2nd", "Anna", "4"), ("3rd", "Cem", "10")]


def test_the_table_view_speaks_german(anna_client: Client, dreizehn: Match) -> None:
    view = table_view(anna_client.get(sheet_url(dreizehn), **DE).content.decode())
    assert '<div class="tv-deal" id="tv-deal">Durchgang 2 von 6</div>' in view
    assert "Cem gibt, Anna beginnt" in view
    assert 'aria-label="Tischansicht verlassen"' in view


def test_the_sheet_partial_carries_the_table_view(
    anna_client: Client, dreizehn: Match, players: list[Player]
) -> None:
    response = anna_client.get(sheet_url(dreizehn), **EN, **HX)
    html = response.content.decode()
    assert '<div id="sheet"' in html
    assert 'id="table-view"' in html
    saved = anna_client.post(
        reverse("deal_new", kwargs={"group_id": dreizehn.group_id, "match_id": dreizehn.pk}),
        {"number": "2", "s0-red": "1", "s1-red": "1", "s2-red": "0"},
        **EN, **HX,
    )
    assert saved.status_code == 200, saved.content.decode()
    # the save answers with the parts of the table view that change, out of band
    assert '<div class="tv-deal" id="tv-deal" hx-swap-oob="true">Deal 3 of 6</div>' \
        in saved.content.decode()
    assert '<div id="tv-state" hx-swap-oob="true">' in saved.content.decode()


def test_a_finished_match_shows_the_winner_in_table_mode(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="freaky", players=players)
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"collected": 8}, players[1].pk: {"collected": 10},
        players[2].pk: {"collected": 12},
    })
    match_services.match_finish(match=match)
    view = table_view(anna_client.get(sheet_url(match), **EN).content.decode())
    assert '<div class="tv-deal" id="tv-deal">Match finished</div>' in view
    assert '<p class="tv-turn" id="tv-turn">Winner: Cem</p>' in view
