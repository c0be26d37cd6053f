"""A sheet's deal rows are rendered once per process and kept (``{% cache %}`` in
templates/companion/sheet/_deal_table.html, keyed by ``Row.key``): a sheet with kept
rows shows exactly what a sheet rendered from nothing shows, after every kind of change
that alters a row other than the newest."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.test import Client

from companion.models import Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from scoring import GAMES
from scoring.common import rules_for
from tests.companion.test_sheet_save import deals_of, roster, url

ROW = re.compile(r'<tr id="deal-\d+".*?</tr>', re.S)


def rows(client: Client, match: Match, **headers: str) -> list[str]:
    response = client.get(url("match_sheet", match), **headers)
    assert response.status_code == 200
    return ROW.findall(response.content.decode())


def rows_from_nothing(client: Client, match: Match, **headers: str) -> list[str]:
    caches["fragments"].clear()
    return rows(client, match, **headers)


SEVERAL = [game for game in GAMES if rules_for(game).deal_count(4) != 1]
"""The games whose match has more than one deal (in the others no row follows another)."""


def kept_match(group: Group, game: str) -> tuple[Match, list[Player]]:
    """A running match of ``game`` with four players and the deals of a random game."""
    players = roster(group, 4)
    match = match_services.match_start(group=group, game=game, players=players)
    for number, entries in enumerate(deals_of(game, players), start=1):
        deal_services.deal_append(match=match, number=number, entries=entries)
    return match, players


def totals(row: str) -> list[str]:
    return re.findall(r"<small>Σ ([^<]*)</small>", row)


@pytest.mark.django_db
@pytest.mark.parametrize("game", SEVERAL)
def test_a_corrected_first_deal_changes_the_kept_rows_after_it(
    anna_client: Client, group: Group, game: str
) -> None:
    match, players = kept_match(group, game)
    before = rows(anna_client, match)
    assert len(before) >= 2
    for version, seed in enumerate(range(11, 60), start=1):
        # The first deal of other games until one scores differently: every total moves.
        deal_services.deal_edit(match=match, number=1, version=version,
                                entries=deals_of(game, players, seed)[0])
        after = rows(anna_client, match)
        if totals(after[0]) != totals(before[0]):
            break
    assert totals(after[-1]) != totals(before[-1])
    assert after == rows_from_nothing(anna_client, match)


@pytest.mark.django_db
def test_a_renamed_player_finished_match_and_language_each_give_their_own_rows(
    anna_client: Client, group: Group
) -> None:
    match, players = kept_match(group, "x-nimmt")
    first = rows(anna_client, match)
    Player.objects.filter(pk=players[0].pk).update(name="Zora")
    renamed = rows(anna_client, match)
    assert renamed == rows_from_nothing(anna_client, match) != first
    assert "Zora" in renamed[0]

    english = rows(anna_client, match, HTTP_ACCEPT_LANGUAGE="en")
    assert english == rows_from_nothing(anna_client, match, HTTP_ACCEPT_LANGUAGE="en")
    assert english != renamed

    match_services.match_finish(match=Match.objects.get(pk=match.pk))
    finished = rows(anna_client, match)
    assert finished == rows_from_nothing(anna_client, match)
    assert "deal-edit" in renamed[0] and "deal-edit" not in finished[0]
