"""The htmx deal save: the parts of the sheet a new deal changes, sent out of band, with
a constant number of queries; they are what a reload of the sheet shows. Seat totals
moved on by the new deal are the engine's totals over every deal."""

from __future__ import annotations

import random
import re
import uuid
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from companion.forms.sheet import DealForm
from companion.models import Group, Match, Player, Seat
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services import sheet as sheet_services
from scoring import GAMES
from scoring.common import rules_for

HX = {"HTTP_HX_REQUEST": "true"}
CASES = [(game, 4) for game in GAMES] + [("elf-nimmt", 7)]
"""Every game with four players, and seven players (only 11 nimmt! seats seven)."""

SAVE_QUERIES = 13
"""The session, its user, the seats with their players and match (with the membership
check); the save's transaction (here a savepoint and its release: the locked match with
its deal count, the deal, its scores, the log entry, the revision, the seat totals); the
earlier deals' scores and the roster's colours."""


def roster(group: Group, count: int) -> list[Player]:
    names = ("Anna", "Ben", "Cem", "Dora", "Emil", "Fritz", "Gina")[:count]
    return [Player.objects.get_or_create(group=group, name=name)[0] for name in names]


def deals_of(game: str, players: list[Player], seed: int = 3) -> list[dict[int, Any]]:
    """A random complete game: per deal, the engine's entry dict per player id."""
    rules = rules_for(game)
    played = rules.random_game(len(players), random.Random(seed))
    return [
        {player.pk: rules.entry_to_dict(deal[f"P{index + 1}"])
         for index, player in enumerate(players)}
        for deal in played.deals
    ]


def form_data(match: Match, number: int, entries: dict[int, Any]) -> dict[str, Any]:
    """What the deal form sends for ``entries`` as deal ``number``."""
    seats = list(match.seats.select_related("player").order_by("number"))
    initial, _mode = DealForm.initial_from(game=match.game, seats=seats, datas=entries)
    data = {name: value for name, value in initial.items() if value not in (None, "")}
    return {**data, "number": number, "client_key": uuid.uuid4().hex, "confirm_empty": "1"}


def url(name: str, match: Match) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk})


def save(client: Client, match: Match, data: dict[str, Any]) -> Any:
    response = client.post(url("deal_new", match), data, **HX)
    assert response.status_code == 200, response.content.decode()[:2000]
    return response


def element(html: str, marker: str) -> str:
    """The element whose start tag contains ``marker``, up to its matching end tag."""
    start = html.rindex("<", 0, html.index(marker) + 1)
    tag = re.match(r"<(\w+)", html[start:]).group(1)  # type: ignore[union-attr]
    depth, position = 0, start
    for found in re.finditer(rf"<(/?){tag}\b[^>]*>", html[start:]):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            position = start + found.end()
            break
    return html[start:position]


def same(fragment: str) -> str:
    """An element as the page shows it: without the out-of-band swap marks, the new-row mark,
    the form's own send key or the (per answer masked) CSRF token, whitespace collapsed."""
    fragment = re.sub(r' hx-swap-oob="[^"]*"', "", fragment)
    fragment = fragment.replace(' class="table-success saved-row"', "")
    fragment = re.sub(r'(name="client_key"[^>]*value=")[0-9a-f]+"', r'\1"', fragment)
    fragment = re.sub(r'(name="csrfmiddlewaretoken" value=")\w+"', r'\1"', fragment)
    return re.sub(r"\s+", " ", fragment).strip()


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "count"), CASES)
def test_the_htmx_save_runs_as_many_queries_for_the_last_deal_as_for_the_first(
    anna_client: Client, group: Group, game: str, count: int
) -> None:
    players = roster(group, count)
    match = match_services.match_start(group=group, game=game, players=players)
    deals = deals_of(game, players)
    measured = []
    for number, entries in enumerate(deals, start=1):
        if number in (1, len(deals)):
            data = form_data(match, number, entries)
            with CaptureQueriesContext(connection) as queries:
                save(anna_client, match, data)
            measured.append(len(queries))
        else:
            deal_services.deal_record(match=match, number=number, entries=entries)
    assert measured == [SAVE_QUERIES] * len(measured)


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "count"), CASES)
def test_a_deal_saved_with_htmx_shows_what_a_reload_shows(
    anna_client: Client, group: Group, game: str, count: int
) -> None:
    players = roster(group, count)
    match = match_services.match_start(group=group, game=game, players=players)
    deals = deals_of(game, players)
    for number in (1, (len(deals) + 1) // 2, len(deals)):
        while match.deals.count() < number - 1:
            done = match.deals.count()
            deal_services.deal_record(match=match, number=done + 1, entries=deals[done])
        if match.deals.count() >= number:
            continue
        data = form_data(match, number, deals[number - 1])
        if number == 1:  # the deals table and the progression wait, empty, for the first deal
            before = anna_client.get(url("match_sheet", match)).content.decode()
            assert "<tbody></tbody>" in element(before, 'class="sheet-scroll')
            assert "<tbody></tbody>" in element(before, 'class="my-3 progression"')
            assert '<svg class="kr-chart kr-plot" aria-hidden="true"></svg>' in before
        answer = save(anna_client, match, data).content.decode()
        # The next deal's form keeps the entry mode just used; the reload asks for it.
        page = anna_client.get(url("match_sheet", match), {"mode": data["mode"]}).content.decode()
        markers = [
            'id="standings"', f'id="deal-{number}"', 'id="undo-redo"', 'id="tv-state"',
            'id="tv-deal"',
        ]
        # the totals, the chart's plot anew (its legend stays), a row more in its data table
        markers += ["<tfoot", 'class="kr-chart kr-plot"']
        assert "kr-legend" not in answer and 'class="kr-chart kr-legend"' in page
        shown = element(page, 'class="my-3 progression"')
        added = element(answer, '<tbody hx-swap-oob="beforeend:#sheet .progression tbody">')
        assert re.sub(r"<tbody[^>]*>|</tbody>", "", added) == re.findall(
            r"<tr><th scope=\"row\">.*?</tr>", shown)[-1]
        if number < len(deals):
            markers.append('id="deal-form"')
        else:
            markers.append('action="' + url("match_finish", match) + '"')
            # The offer to finish takes the deal form's place, where the thumb is.
            assert '<div hx-swap-oob="outerHTML:#deal-form">' in answer
        for marker in markers:
            assert same(element(answer, marker)) == same(element(page, marker)), marker
        assert re.findall(r'<tr id="deal-(\d+)"', answer) == [str(number)]  # no earlier row
        assert 'id="notice"' in answer
        assert "data-focus" in element(answer, 'id="notice"')


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(GAMES))
def test_totals_moved_on_by_each_new_deal_are_the_engines_totals_over_every_deal(
    group: Group, game: str
) -> None:
    info = GAMES[game]
    for count in sorted({info.min_players, min(info.max_players, 5), info.max_players}):
        players = roster(group, count)
        for seed in range(3):
            match = match_services.match_start(group=group, game=game, players=players)
            for number, entries in enumerate(deals_of(game, players, seed), start=1):
                recorded = deal_services.deal_append(match=match, number=number, entries=entries)
                appended = [(seat.total, seat.place) for seat in recorded.seats]
                stored = list(match.seats.order_by("number").values_list("total", "place"))
                recomputed = [(seat.total, seat.place) for seat in sheet_services.refresh_seats(
                    match=match)]
                assert appended == stored == recomputed


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(GAMES))
def test_totals_moved_by_a_corrected_deal_are_the_engines_totals_over_every_deal(
    group: Group, game: str
) -> None:
    """A correction moves each total by the deal's new score less its old one (no deal is
    read again): after every deal of one game is corrected to the same deal of another,
    the totals and places are what the engine gives over all the deals."""
    info = GAMES[game]
    for count in sorted({info.min_players, info.max_players}):
        players = roster(group, count)
        match = match_services.match_start(group=group, game=game, players=players)
        first, second = deals_of(game, players, 0), deals_of(game, players, 1)
        for number, entries in enumerate(first, start=1):
            deal_services.deal_append(match=match, number=number, entries=entries)
        corrected = 0
        for number, entries in list(enumerate(second, start=1))[:len(first)]:
            with CaptureQueriesContext(connection) as queries:
                try:
                    deal_services.deal_edit(match=match, number=number, version=1,
                                            entries=entries)
                except ValidationError as refused:
                    # A match that ends by its totals: the mixed deals would have ended it
                    # before its last deal, and such a correction is refused
                    # (the game's own tests); the totals must stay as they were.
                    assert refused.code == "ended_before"
                else:
                    corrected += 1
            deal_reads = [sql for sql in (query["sql"] for query in queries)
                          if sql.startswith("SELECT") and 'FROM "companion_deal"' in sql]
            assert deal_reads and all('"number" =' in sql for sql in deal_reads)  # this deal only
            stored = list(match.seats.order_by("number").values_list("total", "place"))
            recomputed = [(seat.total, seat.place) for seat in sheet_services.refresh_seats(
                match=match)]
            assert stored == recomputed
        assert corrected >= 1


@pytest.mark.django_db
def test_a_new_deal_deletes_no_scores_and_reads_no_earlier_deal(
    group: Group,
) -> None:
    players = roster(group, 4)
    match = match_services.match_start(group=group, game="elf-nimmt", players=players)
    deals = deals_of("elf-nimmt", players)
    deal_services.deal_record(match=match, number=1, entries=deals[0])
    with CaptureQueriesContext(connection) as queries:
        deal_services.deal_record(match=match, number=2, entries=deals[1])
    statements = [query["sql"] for query in queries]
    assert not [sql for sql in statements if sql.startswith("DELETE")]
    assert not [sql for sql in statements if 'FROM "companion_dealscore"' in sql]


@pytest.mark.django_db
def test_seats_read_before_another_phone_changed_the_sheet_are_read_again(
    group: Group,
) -> None:
    players = roster(group, 3)
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    seats = list(match.seats.select_related("player").order_by("number"))
    deal_services.deal_record(match=match, number=1, entries={  # another phone, meanwhile
        players[0].pk: {"hand": 5}, players[1].pk: {}, players[2].pk: {}})
    recorded = deal_services.deal_append(match=match, number=2, seats=seats, entries={
        players[0].pk: {"hand": 1}, players[1].pk: {"hand": 2}, players[2].pk: {}})
    assert [seat.total for seat in recorded.seats] == [6, 2, 0]
    assert list(Seat.objects.filter(match=match).order_by("number").values_list(
        "total", flat=True)) == [6, 2, 0]
