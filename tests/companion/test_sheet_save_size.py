"""The htmx deal save answers small, with 13 queries: at most 10 KB (uncompressed) for every
game at every deal with four players, and for 11 nimmt! with seven, the most any game seats
(its last deal the longest answer: seven breakdowns of hand cards, the chart at its widest,
the finish button). The next deal's form is left out when the page holds a fresh form in
the same entry mode (static/js/sync.js puts a copy of it in place with the new number, key
and heading): that form is, but for those, the form a reload shows."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.models import Group, Match
from companion.services import matches as match_services
from scoring import GAMES
from scoring.common import rules_for
from tests.companion.test_sheet_save import (
    HX,
    SAVE_QUERIES,
    deals_of,
    element,
    form_data,
    roster,
    url,
)

LIMIT = 10_000
"""Bytes of the answer, uncompressed, for the random games of ``deals_of`` (seed 3). Measured
over 20 random games each: four players at most 7.3 KB (3 sind einer zuviel!), 11 nimmt!
with seven at most 9.5 KB at its last deal."""


def fresh_form(client: Client, match: Match, mode: str) -> tuple[str, str]:
    """The sheet's deal form as a reload shows it, and the entry mode it says it is fresh in."""
    page = client.get(url("match_sheet", match), {"mode": mode}).content.decode()
    form = element(page, 'id="deal-form"')
    fresh = re.search(r'data-fresh="(\w+)"', form)
    assert fresh, form[:300]
    return form, fresh[1]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "count"), [(game, 4) for game in GAMES] + [("elf-nimmt", 7)])
def test_a_save_answers_in_at_most_10_kb_at_every_deal(
    anna_client: Client, group: Group, game: str, count: int
) -> None:
    players = roster(group, count)
    match = match_services.match_start(group=group, game=game, players=players)
    sizes = []
    for number, entries in enumerate(deals_of(game, players), start=1):
        data = form_data(match, number, entries)
        _form, mode = fresh_form(anna_client, match, data["mode"])
        with CaptureQueriesContext(connection) as queries:
            answer = anna_client.post(url("deal_new", match), data, HTTP_KR_FRESH_FORM=mode,
                                      **HX)
        assert answer.status_code == 200
        assert len(queries) == SAVE_QUERIES
        sizes.append(len(answer.content))
    assert len(sizes) == (rules_for(game).deal_count(count) or len(deals_of(game, players)))
    assert max(sizes) <= LIMIT, sizes


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["x-nimmt", "elf-nimmt", "dreizehn"])
def test_the_next_form_named_instead_of_sent_is_the_form_a_reload_shows(
    anna_client: Client, group: Group, game: str
) -> None:
    players = roster(group, 4)
    match = match_services.match_start(group=group, game=game, players=players)
    deals = deals_of(game, players)
    data = form_data(match, 1, deals[0])
    kept, mode = fresh_form(anna_client, match, data["mode"])

    answer = anna_client.post(url("deal_new", match), data, HTTP_KR_FRESH_FORM=mode, **HX)
    body = answer.content.decode()
    assert 'id="deal-form"' not in body
    assert "kr:form" not in answer.get("HX-Trigger", "")
    named = json.loads(answer["HX-Trigger-After-Swap"])["kr:form"]
    reloaded, reloaded_mode = fresh_form(anna_client, match, data["mode"])
    assert named["mode"] == mode == reloaded_mode
    assert named["number"] == 2

    # What sync.js does with the kept fresh form: heading, number and key replaced.
    def put(form: str, heading: str, number: str, key: str) -> str:
        form = re.sub(r"(<h2[^>]*>)[^<]*(</h2>)", lambda m: m[1] + html.escape(heading) + m[2],
                      form)
        form = re.sub(r'(name="number" value=")[^"]*', rf"\g<1>{number}", form)
        form = re.sub(r'(name="client_key" value=")[^"]*', rf"\g<1>{key}", form)
        return re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]*', r"\1", form)

    reload_key = re.search(r'name="client_key" value="([^"]*)', reloaded)[1]  # type: ignore[index]
    assert put(kept, named["heading"], str(named["number"]), reload_key) == put(
        reloaded, named["heading"], str(named["number"]), reload_key)
    assert re.search(r"<h2[^>]*>([^<]*)</h2>", reloaded)[1] == named["heading"]  # type: ignore[index]


@pytest.mark.django_db
def test_a_save_from_a_page_with_another_form_gets_the_whole_next_form(
    anna_client: Client, group: Group
) -> None:
    players = roster(group, 4)
    match = match_services.match_start(group=group, game="dreizehn", players=players)
    deals = deals_of("dreizehn", players)
    for headers in ({}, {"HTTP_KR_FRESH_FORM": "grid"}):
        number = match.deals.count() + 1
        answer = anna_client.post(url("deal_new", match),
                                  form_data(match, number, deals[number - 1]), **headers, **HX)
        assert '<section class="card mb-2" id="deal-form" hx-swap-oob="true" data-fresh="' \
            in answer.content.decode()
        assert "HX-Trigger-After-Swap" not in answer
