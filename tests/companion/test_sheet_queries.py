"""The score sheet reads the same queries however many deals a match has, in every game
and state (running, all deals recorded, finished), page and htmx alike."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from companion.models import Deal, DealScore, Group, Match, Player
from companion.selectors import sheet as sheet_reads
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services import sheet as sheet_services
from scoring import GAMES
from scoring.common import rules_for

SHEET_QUERIES = {"running": 6, "complete": 6, "finished": 5}
"""The sheet's own queries (the app's tables; the session and the user come on top): the
match with the membership check, seats with players, deals, their scores, the roster's
colours, and for a running match the newest deal changes (what undo and redo would take,
one query: selectors/sheet.py ``undo_redo_targets``)."""


def a_match(group: Group, players: list[Player], game: str, deals: int, state: str) -> Match:
    """A match of ``game`` with ``deals`` deals of random legal entries, stored directly
    (so a match may hold more deals than the game has)."""
    rules = rules_for(game)
    match = match_services.match_start(group=group, game=game, players=players)
    game_deals = rules.random_game(len(players), random.Random(7)).deals
    played = [deal for _ in range(deals) for deal in game_deals][:deals]
    by_name = {f"P{index + 1}": player for index, player in enumerate(players)}
    for number, entries in enumerate(played, start=1):
        scores = rules.score_deal(entries)
        deal = Deal.objects.create(match=match, number=number)
        DealScore.objects.bulk_create(
            DealScore(deal=deal, player=by_name[name], data=rules.entry_to_dict(entry),
                      score=scores[name])
            for name, entry in entries.items()
        )
    sheet_services.refresh_seats(match=match)
    if state == "finished":
        match.status = Match.Status.FINISHED
        match.save(update_fields=["status"])
    return match


def sheet_queries(client: Client, match: Match, headers: dict[str, str]) -> tuple[int, str]:
    url = reverse("match_sheet", args=[match.group_id, match.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **headers)
    assert response.status_code == 200
    own = [query for query in queries.captured_queries if "companion_" in query["sql"]]
    return len(own), response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, {"HTTP_HX_REQUEST": "true"}], ids=["page", "htmx"])
@pytest.mark.parametrize("state", ["running", "complete", "finished"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_sheet_runs_the_same_queries_for_few_and_many_deals(
    anna_client: Client, group: Group, players: list[Player], game: str, state: str,
    headers: dict[str, str],
) -> None:
    rules = rules_for(game)
    needed = rules.deal_count(len(players))
    if needed is None:  # a match to a target: as many deals as a_match's random game took
        needed = len(rules.random_game(len(players), random.Random(7)).deals)
    counts: list[Any] = []
    # A running match: none and all but the last deal; a complete one: all and 12 deals.
    for deals in ((0, needed - 1) if state == "running" else (needed, 12)):
        match = a_match(group, players, game, deals, state)
        count, html = sheet_queries(anna_client, match, headers)
        again, html_again = sheet_queries(anna_client, match, headers)
        shown = match.deals.count()
        for page in (html, html_again):
            if shown:
                assert f'id="deal-{shown}"' in page
            assert ('id="deal-form"' in page) == (state == "running")
        counts.append((count, again))
    # At most the sheet's queries, and all of them once there is a deal (a match without
    # deals has no scores to read).
    assert all(count <= SHEET_QUERIES[state] for pair in counts for count in pair)
    assert counts[-1] == (SHEET_QUERIES[state],) * 2 or needed - 1 == 0


@pytest.mark.django_db
def test_the_sheet_offers_the_undo_and_redo_the_services_would_do(
    group: Group, players: list[Player]
) -> None:
    from companion.selectors.sheet import sheet_for

    match = match_services.match_start(group=group, game="dreizehn", players=players)
    entries = {player.pk: {"yellow": index + 1} for index, player in enumerate(players)}
    steps = [
        lambda: deal_services.deal_record(match=match, number=1, entries=entries),
        lambda: deal_services.deal_record(match=match, number=2, entries=entries),
        lambda: deal_services.deal_record(match=match, number=3, entries=entries),
        lambda: deal_services.match_undo(match=match, change_id=sheet_reads.undo_target(match).pk),
        lambda: deal_services.match_undo(match=match, change_id=sheet_reads.undo_target(match).pk),
        lambda: deal_services.match_redo(match=match, change_id=sheet_reads.redo_target(match).pk),
        lambda: deal_services.match_undo(match=match, change_id=sheet_reads.undo_target(match).pk),
        lambda: deal_services.deal_edit(match=match, number=1, version=1, entries=entries),
        lambda: deal_services.match_undo(match=match, change_id=sheet_reads.undo_target(match).pk),
        lambda: deal_services.match_undo(match=match, change_id=sheet_reads.undo_target(match).pk),
    ]
    seen = []
    for step in steps:
        step()
        sheet = sheet_for(match)
        undo, redo = sheet_reads.undo_target(match), sheet_reads.redo_target(match)
        assert (sheet.last_change, sheet.redo_change) == (undo, redo)
        seen.append((undo is not None, redo is not None))
    assert seen == [(True, False)] * 3 + [(True, True)] * 3 + [(True, True), (True, False),
                                                               (True, True), (False, True)]


@pytest.mark.django_db
def test_a_rows_edit_link_is_the_deals_url(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = a_match(group, players, "x-nimmt", 2, "running")
    html = anna_client.get(reverse("match_sheet", args=[group.pk, match.pk])).content.decode()
    assert f'href="{reverse("deal_edit", args=[group.pk, match.pk, 2])}"' in html
