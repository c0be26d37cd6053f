"""The score sheet's pages: the htmx path, the full-page path, permissions, validation."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from companion.models import Deal, DealScore, Group, Match, MatchChange, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services import sheet as sheet_services

HX = {"HTTP_HX_REQUEST": "true"}


def start(group: Group, players: list[Player], game: str, **kwargs: Any) -> Match:
    return match_services.match_start(group=group, game=game, players=players, **kwargs)


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def record(match: Match, players: list[Player], *datas: dict[str, Any]) -> Deal:
    return deal_services.deal_record(
        match=match, number=match.deals.count() + 1,
        entries={p.pk: d for p, d in zip(players, datas, strict=True)},
    )


# ------------------------------------------------------------------- start a match


@pytest.mark.django_db
def test_it_starts_a_match_in_seat_order(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    anna, ben, cem = players
    response = anna_client.post(reverse("match_new", args=[group.pk]), {
        "game": "dreizehn", "seat_0": cem.pk, "seat_1": anna.pk, "seat_2": ben.pk,
        "first_player": ben.pk, "dreizehn-colour_by_first_card": "on",
    })
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("match_sheet", match)
    assert list(match.seats.values_list("player__name", flat=True)) == ["Cem", "Anna", "Ben"]
    assert match.first_dealer == 2
    assert match.options == {"variant": "first-card"}


@pytest.mark.django_db
def test_it_puts_the_match_into_the_chosen_game_night(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    night = group.game_nights.create(place="Bei Ben")
    response = anna_client.post(
        reverse("match_new", args=[group.pk]) + f"?night={night.pk}",
        {"game": "freaky", "seat_0": players[0].pk, "seat_1": players[1].pk, "first_dealer": 0},
    )
    assert response.status_code == 302
    assert Match.objects.get().game_night == night


@pytest.mark.django_db
def test_it_refuses_too_few_players_for_the_game(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    response = anna_client.post(reverse("match_new", args=[group.pk]), {
        "game": "dreizehn", "seat_0": players[0].pk, "seat_1": players[1].pk, "first_dealer": 0,
    }, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "13 is played by 3 to 6 players, not 2." in response.content.decode()
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_it_refuses_a_player_on_two_seats(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    response = anna_client.post(reverse("match_new", args=[group.pk]), {
        "game": "x-nimmt", "seat_0": players[0].pk, "seat_1": players[0].pk, "first_dealer": 0,
    }, HTTP_ACCEPT_LANGUAGE="en")
    assert "Anna already has a seat." in response.content.decode()
    assert not Match.objects.exists()


# ------------------------------------------------------------------------ the sheet


@pytest.mark.django_db
def test_saving_a_deal_with_htmx_answers_with_the_changed_parts_of_the_sheet(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    response = anna_client.post(url("deal_new", match), {
        "mode": "counts", "number": 1, "s0-hand": "5", "s0-x_stack": "9", "s1-hand": "3",
        "s2-x_stack": "1",
    }, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert '<div id="sheet"' not in html
    assert response["HX-Reswap"] == "none"
    match.refresh_from_db()
    assert response["ETag"].startswith(f'"{match.revision}.')
    assert json.loads(response["HX-Trigger"]) == {
        "kr:sheet": {"etag": response["ETag"], "next": 2}
    }
    assert '<section class="card mb-2" id="standings" hx-swap-oob="true"' in html
    assert "<html" not in html
    assert [s.total for s in match.seats.order_by("number")] == [23, 3, 2]
    assert 'id="deal-1"' in html
    assert "Deal 2" in html or "Durchgang 2" in html
    assert '<b>Anna</b><span>23</span></li>' in html


@pytest.mark.django_db
def test_saving_a_deal_without_javascript_redirects_to_the_sheet(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    response = anna_client.post(url("deal_new", match), {
        "number": 1, "s0-collected": "12", "s1-collected": "4", "s2-collected": "",
    })
    assert response.status_code == 302
    assert response["Location"] == url("match_sheet", match) + "?saved=1"
    page = anna_client.get(response["Location"]).content.decode()
    assert "<html" in page
    assert 'id="deal-1"' in page
    assert [s.total for s in match.seats.order_by("number")] == [12, 4, 0]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "data", "message"), [
    ("drei-sind-einer-zuviel", {"s0-rot": "13"},
     "Together the players took 13 cards of red, but there are only 12."),
    ("x-nimmt", {"mode": "counts", "s0-hand": "100", "s1-x_stack": "100"},
     "This deal records 200 Hornochsen, but the whole deck has only 167."),
    ("x-nimmt", {"mode": "cards", "s0-hand_cards": "17, 4", "s2-x_stack_cards": "17"},
     "Card 17 appears more than once in this deal (Anna and Cem)."),
    ("elf-nimmt", {"mode": "counts", "went_out": "1", "s0-hand": "100", "s2-hand": "100"},
     "The hands show 200 Hornochsen, but all cards together show only 167."),
    ("elf-nimmt", {"mode": "counts", "s0-hand": "3", "s1-hand": "4", "s2-hand": "5"},
     "Nobody went out, but the hands show only 12 of the 167 Hornochsen"),
    ("dreizehn", {"s0-red": "5", "s1-red": "4"},
     "9 red 4s taken in this deal, but there are only 8."),
])
def test_invalid_deals_show_the_engines_message_and_save_nothing(
    client: Client, anna: Any, group: Group, players: list[Player], game: str,
    data: dict[str, str], message: str,
) -> None:
    client.force_login(anna)
    match = start(group, players, game)
    for path in ({}, HX):
        response = client.post(
            url("deal_new", match), {"number": 1, **data}, HTTP_ACCEPT_LANGUAGE="en", **path
        )
        assert message in response.content.decode()
        assert response.status_code == 422
    assert not Deal.objects.exists()
    assert not DealScore.objects.exists()
    assert not MatchChange.objects.exists()


@pytest.mark.django_db
def test_a_players_own_error_is_shown_at_the_player(
    client: Client, anna: Any, group: Group, players: list[Player]
) -> None:
    client.force_login(anna)
    match = start(group, players, "freaky")
    response = client.post(url("deal_new", match), {
        "number": 1, "s1-collected": "3",
    }, HTTP_ACCEPT_LANGUAGE="en", **HX)
    html = response.content.decode()
    legend = '<legend class="float-none w-auto px-1 mb-0 h6 fw-bold text-break">'
    block = html[html.index(legend + "Ben"):]
    assert block.index("Ben: 3 collected cards is impossible") < block.index("Cem")
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_messages_are_german_by_default(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    page = anna_client.get(url("match_sheet", match)).content.decode()
    assert "Durchgang 1" in page
    assert "Gesammelte Karten" in page


@pytest.mark.django_db
def test_editing_a_deal_refuses_a_stale_version_and_shows_the_current_data(
    client: Client, anna: Any, group: Group, players: list[Player]
) -> None:
    client.force_login(anna)
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {}, {})
    deal_services.deal_edit(match=match, number=1, version=1, entries={
        players[0].pk: {"hand": 7}, players[1].pk: {}, players[2].pk: {},
    })
    response = client.post(url("deal_edit", match, number=1), {
        "mode": "counts", "version": 1, "s0-hand": "50",
    }, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 409
    assert "Deal 1 was changed on another phone meanwhile" in html
    assert 'name="s0-hand" value="7"' in html
    assert 'name="version" value="2"' in html
    assert DealScore.objects.get(player=players[0]).score == 7


@pytest.mark.django_db
def test_editing_a_deal_with_htmx_updates_the_totals(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "dreizehn")
    record(match, players, {"red": 1}, {}, {})
    # The whole sheet answers (a complete match has no next deal's form to take the place of).
    answer = anna_client.get(url("deal_edit", match, number=1), **HX)
    form = answer.content.decode()
    assert answer["HX-Retarget"] == "#sheet"
    assert form.lstrip().startswith('<div id="sheet"')
    assert 'id="deal-form" tabindex="-1" data-focus>' in form
    assert 'name="s0-red" value="1"' in form
    response = anna_client.post(url("deal_edit", match, number=1), {
        "version": 1, "s0-red": "2", "s1-blue": "1", "s2-blue": "1",
    }, **HX)
    assert response.status_code == 200
    # A tie for most blue spares nobody: Ben and Cem count their blue card.
    assert [s.total for s in match.seats.order_by("number")] == [4, 1, 1]
    assert Deal.objects.get().version == 2


@pytest.mark.django_db
def test_the_edit_page_works_without_javascript(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "elf-nimmt")
    record(match, players, {"hand_cards": [55]}, {"went_out": True}, {"hand_cards": [3]})
    page = anna_client.get(url("deal_edit", match, number=1)).content.decode()
    assert "<html" in page
    assert 'name="s0-hand_cards" value="55"' in page
    assert 'value="1" checked' in page  # Ben went out


@pytest.mark.django_db
def test_deleting_and_undoing_a_deal(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {}, {})
    response = anna_client.post(
        url("deal_delete", match, number=1), {"version": 1, "confirm": "yes"}
    )
    assert response.status_code == 302
    assert not Deal.objects.exists()
    change = match.changes.order_by("-id").first()
    assert change is not None and change.kind == MatchChange.Kind.DELETE
    response = anna_client.post(url("match_undo", match), {"change": change.pk}, **HX)
    assert response.status_code == 200
    assert 'id="deal-1"' in response.content.decode()
    assert [s.total for s in match.seats.order_by("number")] == [5, 0, 0]


@pytest.mark.django_db
def test_a_stale_delete_is_refused(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {}, {})
    response = anna_client.post(url("deal_delete", match, number=1), {"version": 7})
    assert response.status_code == 409
    assert Deal.objects.count() == 1


@pytest.mark.django_db
def test_the_sheet_offers_to_finish_a_complete_match_and_shows_the_winner(
    client: Client, anna: Any, group: Group, players: list[Player]
) -> None:
    client.force_login(anna)
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {"hand": 1}, {"x_stack": 1})
    page = client.get(url("match_sheet", match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "finish the match" not in page
    record(match, players, {"hand": 5}, {"hand": 1}, {"hand": 0})
    page = client.get(url("match_sheet", match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "All deals recorded: finish the match" in page
    assert 'id="deal-form"' not in page
    response = client.post(url("match_finish", match), HTTP_ACCEPT_LANGUAGE="en", **HX)
    html = response.content.decode()
    assert "Winners (tie):" in html
    assert "<strong>Ben, Cem</strong>" in html
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    response = client.post(url("match_reopen", match))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN


@pytest.mark.django_db
def test_a_deal_recorded_meanwhile_on_another_phone_is_not_overwritten(
    client: Client, anna: Any, group: Group, players: list[Player]
) -> None:
    client.force_login(anna)
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {}, {})
    response = client.post(url("deal_new", match), {
        "mode": "counts", "number": 1, "s0-hand": "9",
    }, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 409
    assert "Deal 1 was recorded on another phone meanwhile" in html
    assert "save them as deal 2 only if they belong to the next deal" in html
    assert 'name="s0-hand" value="9"' in html
    assert 'name="number" value="2"' in html
    assert DealScore.objects.get(player=players[0]).score == 5


@pytest.mark.django_db
def test_the_sheet_names_who_deals_and_starts_next(
    client: Client, anna: Any, group: Group, players: list[Player]
) -> None:
    client.force_login(anna)
    match = start(group, players, "dreizehn", first_dealer=1)
    page = client.get(url("match_sheet", match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ben deals, Cem starts" in page
    elf = start(group, players, "elf-nimmt")
    record(elf, players, {"hand": 3}, {"went_out": True}, {"hand": 8})
    page = client.get(url("match_sheet", elf), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Cem starts" in page


@pytest.mark.django_db
def test_the_entry_mode_switch_works_with_and_without_htmx(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    fragment = anna_client.get(url("deal_new", match) + "?mode=cards", **HX).content.decode()
    # a fresh form, named by its entry mode (a save may then answer without the next one)
    assert re.match(r'<section class="card mb-2" id="deal-form" data-fresh="cards">',
                    fragment.lstrip())
    assert 'name="s0-hand_cards"' in fragment
    page = anna_client.get(url("deal_new", match) + "?mode=cards").content.decode()
    assert "<html" in page and 'name="s0-hand_cards"' in page


@pytest.mark.django_db
def test_the_live_page_records_taps_and_puts_the_result_on_the_sheet(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "drei-sind-einer-zuviel")
    live = url("match_live", match)
    assert anna_client.get(live).status_code == 200
    response = anna_client.post(
        live, {"revision": 0, "action": "take", "player": players[1].pk, "colour": "rot"}, **HX
    )
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="board" data-etag=')
    tap = {"revision": 1, "action": "take", "colour": "rot"}
    response = anna_client.post(live, {**tap, "player": players[1].pk})
    assert response.status_code == 302
    response = anna_client.post(live, {**tap, "player": players[0].pk})
    assert response.status_code == 409
    response = anna_client.post(live, {"revision": 2, "action": "save"})
    assert response.status_code == 302
    assert DealScore.objects.get(player=players[1]).score == 5


@pytest.mark.django_db
def test_freaky_live_collects_rows_and_puts_the_result_on_the_sheet(
    client: Client, anna: Any, group: Group, players: list[Player]
) -> None:
    client.force_login(anna)
    match = start(group, players, "freaky")
    live = url("match_live", match)
    response = client.post(live, {
        "revision": 0, "action": "collect", "player": players[2].pk, "cards": "7",
    }, HTTP_ACCEPT_LANGUAGE="en", **HX)
    html = response.content.decode()
    assert "7 cards collected" in html
    response = client.post(live, {
        "revision": 1, "action": "collect", "player": players[2].pk, "cards": "x",
    }, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    assert "How many cards did the row have?" in response.content.decode()
    response = client.post(live, {"revision": 1, "action": "save"})
    assert response.status_code == 302
    assert [s.total for s in match.seats.order_by("number")] == [0, 0, 7]


@pytest.mark.django_db
def test_other_games_have_no_live_page(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    assert anna_client.get(url("match_live", match)).status_code == 404


# ---------------------------------------------------------------------- permissions


def every_url(match: Match) -> list[tuple[str, str]]:
    return [
        ("get", reverse("match_new", args=[match.group_id])),
        ("post", reverse("match_new", args=[match.group_id])),
        ("get", url("match_sheet", match)),
        ("get", url("deal_new", match)),
        ("post", url("deal_new", match)),
        ("get", url("deal_edit", match, number=1)),
        ("post", url("deal_edit", match, number=1)),
        ("post", url("deal_delete", match, number=1)),
        ("post", url("match_undo", match)),
        ("post", url("match_finish", match)),
        ("post", url("match_reopen", match)),
        ("get", url("match_live", match)),
        ("post", url("match_live", match)),
    ]


@pytest.fixture
def live_match(group: Group, players: list[Player]) -> Match:
    match = start(group, players, "drei-sind-einer-zuviel")
    record(match, players, {"taken": {"rot": 1}}, {}, {})
    return match


@pytest.mark.django_db
def test_an_outsider_gets_404_everywhere(outsider_client: Client, live_match: Match) -> None:
    for method, path in every_url(live_match):
        response = getattr(outsider_client, method)(path, {"version": 1, "number": 1})
        assert response.status_code == 404, (method, path)
    assert live_match.deals.get().version == 1
    assert live_match.status == Match.Status.OPEN


@pytest.mark.django_db
def test_a_logged_out_visitor_is_sent_to_log_in(client: Client, live_match: Match) -> None:
    for method, path in every_url(live_match):
        response = getattr(client, method)(path)
        assert response.status_code == 302, (method, path)
        assert response["Location"].startswith(reverse("login") + "?next="), path


@pytest.mark.django_db
def test_changes_need_post(anna_client: Client, live_match: Match) -> None:
    for name, kwargs in [("deal_delete", {"number": 1}), ("match_undo", {}),
                         ("match_finish", {}), ("match_reopen", {})]:
        assert anna_client.get(url(name, live_match, **kwargs)).status_code == 405


# ----------------------------------------------------------------------- query count


def sheet_with(group: Group, players: list[Player], deals: int) -> Match:
    """A 13 match with ``deals`` deals (created directly: a real match has at most 12)."""
    match = start(group, players, "dreizehn")
    Deal.objects.bulk_create(Deal(match=match, number=n) for n in range(1, deals + 1))
    DealScore.objects.bulk_create(
        DealScore(deal=deal, player=player, data={"red": 1}, score=2)
        for deal in match.deals.all() for player in players
    )
    sheet_services.refresh_seats(match=match)
    return match


QUERIES = 10
"""Session, user, group, match, seats, deals, scores, the roster's colours, the change to
undo and the change to redo."""


@pytest.mark.django_db
def test_the_sheet_runs_the_same_queries_with_2_and_20_deals(
    anna_client: Client, group: Group, players: list[Player],
    django_assert_max_num_queries: Any,
) -> None:
    counts = []
    for deals in (2, 20):
        match = sheet_with(group, players, deals)
        with CaptureQueriesContext(connection) as queries:
            response = anna_client.get(url("match_sheet", match))
        html = response.content.decode()
        assert f'id="deal-{deals}"' in html
        assert f"Σ {2 * deals}" in html
        counts.append(len(queries))
    assert counts[0] == counts[1]
    match = sheet_with(group, players, 20)
    with django_assert_max_num_queries(QUERIES):
        anna_client.get(url("match_sheet", match))


@pytest.mark.django_db
def test_editing_a_deal_recorded_partly_by_cards_shows_the_counted_hornochsen(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"x_stack": 2}, {"hand_cards": [55, 10]}, {"x_stack_cards": [22]})
    page = anna_client.get(url("deal_edit", match, number=1)).content.decode()
    # Anna's counts have no cards, so the form shows counts: Ben's 55 + 10 = 10 Hornochsen.
    assert 'name="s0-x_stack" value="2"' in page
    assert 'name="s1-hand" value="10"' in page
    assert 'name="s2-x_stack" value="5"' in page
    cards = anna_client.get(url("deal_edit", match, number=1) + "?mode=cards").content.decode()
    assert 'name="s1-hand_cards" value="55, 10"' in cards


@pytest.mark.django_db
def test_editing_an_11_nimmt_deal_recorded_by_cards_keeps_the_cards(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "elf-nimmt")
    record(match, players, {"hand_cards": [55, 1]}, {"went_out": True}, {"hand_cards": [2]})
    page = anna_client.get(url("deal_edit", match, number=1)).content.decode()
    assert 'name="s0-hand_cards" value="1, 55"' in page
    counts = anna_client.get(url("deal_edit", match, number=1) + "?mode=counts").content.decode()
    assert 'name="s0-hand" value="8"' in counts


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "links"), [
    ("x-nimmt", ["/rules/x-nimmt/"]),
    ("elf-nimmt", ["/rules/elf-nimmt/", "/tools/bulls/"]),
    ("dreizehn", ["/rules/dreizehn/", "/tools/targets/"]),
    ("drei-sind-einer-zuviel", ["/rules/drei-sind-einer-zuviel/", "/live/"]),
])
def test_the_sheet_links_to_the_rules_and_the_games_helpers(
    anna_client: Client, group: Group, players: list[Player], game: str, links: list[str]
) -> None:
    match = start(group, players, game)
    page = anna_client.get(url("match_sheet", match)).content.decode()
    for link in links:
        assert f'{link}"' in page or f'{link}?players=Anna%2CBen%2CCem&amp;' in page
    assert f'href="/g/{group.pk}/nights/{match.game_night_id}/"' in page


@pytest.mark.django_db
def test_the_sheet_charts_the_running_totals_deal_by_deal(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = sheet_with(group, players, 3)
    html = anna_client.get(url("match_sheet", match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Score progression" in html
    assert "<svg" in html
    # The data table behind the chart: after deal 3 every player has 3 × 2 minus points.
    row = '<tr><th scope="row">3</th><td>6</td><td>6</td>'  # right-aligned by .totals-table
    assert row in html


@pytest.mark.django_db
def test_the_last_deal_saved_offers_to_finish_in_the_forms_place_and_finishing_undoes(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    answer = anna_client.post(url("deal_new", match), {
        "mode": "counts", "number": 1, "s0-collected": "12", "s1-collected": "4",
    }, HTTP_ACCEPT_LANGUAGE="en", **HX).content.decode()
    offer = answer[answer.index('<div hx-swap-oob="outerHTML:#deal-form">'):]
    assert "All deals recorded: finish the match" in offer
    assert "Finishing can be undone: the match can be reopened to correct it." in offer
    finished = anna_client.post(url("match_finish", match), HTTP_ACCEPT_LANGUAGE="en", **HX)
    html = finished.content.decode()
    assert "Match finished." in html
    undo = re.search(r'<form method="post" action="([^"]+)"[^>]*id="undo-finish">', html)
    assert undo is not None and undo[1] == url("match_reopen", match)
    assert "↶ Undo finishing" in html
    anna_client.post(undo[1], **HX)
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN
    # Only right after finishing: a sheet loaded later offers "Reopen to correct" below.
    match_services.match_finish(match=match)
    assert 'id="undo-finish"' not in anna_client.get(url("match_sheet", match)).content.decode()
