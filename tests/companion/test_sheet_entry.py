"""Fewer taps on the score sheet: the score preview, the per-deal breakdown, the card
grid, the 3 sind einer zuviel! count form, and the table helpers that belong to the match."""

from __future__ import annotations

import re
from html import unescape as html_unescape
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from companion.models import Deal, DealScore, Group, Match, MatchChange, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services

HX = {"HTTP_HX_REQUEST": "true"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def start(group: Group, players: list[Player], game: str, **kwargs: Any) -> Match:
    return match_services.match_start(group=group, game=game, players=players, **kwargs)


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def record(match: Match, players: list[Player], *datas: dict[str, Any]) -> Deal:
    return deal_services.deal_record(
        match=match, number=match.deals.count() + 1,
        entries={p.pk: d for p, d in zip(players, datas, strict=True)},
    )


def text(html: str) -> str:
    """The page's text with tags removed and white space collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def stored(match: Match) -> tuple[int, int, int, int]:
    match.refresh_from_db()
    return (Deal.objects.filter(match=match).count(), DealScore.objects.count(),
            MatchChange.objects.filter(match=match).count(), match.revision)


# ------------------------------------------------------------------------ preview


@pytest.mark.django_db
def test_the_preview_shows_each_players_deal_score_new_total_and_place(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {"hand": 1}, {"x_stack": 1})
    response = anna_client.post(url("deal_preview", match), {
        "mode": "counts", "number": 2, "s0-hand": "1", "s0-x_stack": "2",
        "s1-hand": "10", "s2-hand": "",
    }, **HX, **EN)
    assert response.status_code == 200
    rows = re.findall(
        r'<tr><th scope="row" class="text-start text-truncate">(\w+)</th>'
        r"<td>(\d+)</td><td class=\"fw-bold\">(\d+)</td><td>(\d)(?:st|nd|rd|th)</td></tr>",
        response.content.decode(),
    )
    # Anna 5 + (1 + 2×2) = 10, Ben 1 + 10 = 11, Cem 2 + 0 = 2.
    assert rows == [("Anna", "5", "10", "2"), ("Ben", "10", "11", "3"), ("Cem", "0", "2", "1")]


@pytest.mark.django_db
def test_the_german_preview_heads_its_place_column_platz(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    response = anna_client.post(url("deal_preview", match), {
        "mode": "counts", "number": 1, "s0-hand": "1",
    }, **HX, HTTP_ACCEPT_LANGUAGE="de")
    assert ("<th scope=\"col\">dieser Durchgang</th><th scope=\"col\">neue Summe</th>"
            "<th scope=\"col\">Platz</th>") in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "labels", "chips"), [
    ("drei-sind-einer-zuviel", [f"Anna: {colour}" for colour in (
        "Orange", "Flieder", "Hellblau", "Rot", "Türkis", "Magenta", "Olivgrün")],
     [f"Anna: {colour}" for colour in (
         "Orange", "Flieder", "Hellblau", "Rot", "Türkis", "Magenta", "Olivgrün")]),
    ("dreizehn", ["Anna Gelb − + Grün − + Blau − + rote Vieren − +"],
     [f"Anna: {colour}" for colour in ("Gelb", "Grün", "Blau", "rote Vieren")]),
])
def test_the_german_deal_form_names_the_colours_as_nouns(
    anna_client: Client, group: Group, players: list[Player], game: str, labels: list[str],
    chips: list[str],
) -> None:
    match = start(group, players, game)
    page = text(anna_client.get(url("match_sheet", match) + "?mode=counts",
                                HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert [label for label in labels if label not in page] == []
    html = anna_client.get(url("match_sheet", match), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert [label for label in chips if f'aria-label="{label}"' not in html] == []


@pytest.mark.django_db
def test_the_preview_stores_nothing(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    before = stored(match)
    anna_client.post(url("deal_preview", match), {
        "number": 1, "s0-collected": "12", "s1-collected": "4", "s2-collected": "5",
    }, **HX)
    anna_client.post(url("deal_preview", match), {
        "number": 1, "s0-collected": "12", "s1-collected": "4", "s2-collected": "5",
    })
    assert stored(match) == before
    assert [s.total for s in match.seats.all()] == [0, 0, 0]


@pytest.mark.django_db
def test_a_correction_previews_the_totals_with_the_old_deal_replaced(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    record(match, players, {"collected": 12}, {"collected": 4}, {"collected": 0})
    response = anna_client.post(url("deal_preview", match), {
        "number": 1, "s0-collected": "8", "s1-collected": "", "s2-collected": "9",
    }, **HX, **EN)
    html = response.content.decode()
    assert '<td>8</td><td class="fw-bold">8</td><td>2nd</td>' in html
    assert '<td>9</td><td class="fw-bold">9</td><td>1st</td>' in html


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "data", "hint"), [
    ("x-nimmt", {"mode": "counts", "s0-hand": "abc"}, "Enter a whole number"),
    ("x-nimmt", {"mode": "cards", "s0-hand_cards": "7", "s1-x_stack_cards": "7"},
     "Card 7 appears more than once in this deal (Anna and Ben)."),
    ("elf-nimmt", {"mode": "counts", "s0-hand": "3", "s1-hand": "4", "s2-hand": "5"},
     "Nobody went out, but the hands show only 12 of the 167 Hornochsen"),
    ("freaky", {"s0-collected": "3"}, "Anna: 3 collected cards is impossible"),
    ("x-nimmt", {"mode": "nonsense", "number": "x", "s9-hand": "5"}, None),
])
def test_unreadable_or_impossible_input_gets_a_quiet_hint_never_an_error_page(
    anna_client: Client, group: Group, players: list[Player], game: str,
    data: dict[str, str], hint: str | None,
) -> None:
    match = start(group, players, game)
    response = anna_client.post(url("deal_preview", match), data, **HX, **EN)
    html = response.content.decode()
    assert response.status_code == 200
    if hint is None:
        assert 'id="deal-preview"' in html
    else:
        assert "No preview yet:" in html
        assert hint in html.replace("&#x27;", "'")
    assert stored(match)[0] == 0


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "data", "hint"), [
    ("freaky", {"s0-collected": "3"},
     "No preview yet: Anna: 3 collected cards is impossible: every collected row has at least 4 "
     "cards."),
    ("x-nimmt", {"mode": "counts", "s1-hand": "abc"},
     "No preview yet: Ben: Enter a whole number with the digits 0–9."),
])
def test_the_preview_hint_names_the_player_once(
    anna_client: Client, group: Group, players: list[Player], game: str,
    data: dict[str, str], hint: str,
) -> None:
    match = start(group, players, game)
    response = anna_client.post(url("deal_preview", match), data, **HX, **EN)
    assert text(response.content.decode()) == hint


@pytest.mark.django_db
def test_the_preview_needs_a_member_and_a_post(
    anna_client: Client, outsider_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    assert outsider_client.post(url("deal_preview", match), {}, **HX).status_code == 404
    assert anna_client.get(url("deal_preview", match)).status_code == 405


@pytest.mark.django_db
def test_without_javascript_the_preview_button_shows_the_page_with_the_form_as_typed(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    response = anna_client.post(url("deal_preview", match), {
        "number": 1, "s0-collected": "12", "s1-collected": "4", "s2-collected": "",
    }, **EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert 'name="s0-collected" value="12"' in html
    assert '<td>12</td><td class="fw-bold">12</td><td>1st</td>' in html


@pytest.mark.django_db
def test_the_deal_form_asks_for_a_preview_while_typing(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    html = anna_client.get(url("match_sheet", match)).content.decode()
    assert f'hx-post="{url("deal_preview", match)}"' in html
    trigger = ("input delay:300ms from:closest form, change delay:300ms from:closest form, "
               "kr:retry")
    assert f'hx-trigger="{trigger}"' in html


# ---------------------------------------------------------------------- breakdown


def breakdowns(html: str) -> list[str]:
    return [text(body) for body in re.findall(
        r'<div class="why-body" role="note">(.*?)</div>\s*</details>', html, re.S)]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "datas", "expected"), [
    ("x-nimmt", [{"hand": 5, "x_stack": 9}, {"hand_cards": [55, 3]}, {}], [
        "5 Hornochsen in hand 5 2 × 9 Hornochsen in the X-stack 18 Anna · Deal 1 = 23",
        "8 Hornochsen in hand cards (Hornochsen): 3 (1), 55 (7) 8 "
        "2 × 0 Hornochsen in the X-stack 0 Ben · Deal 1 = 8",
        "0 Hornochsen in hand 0 2 × 0 Hornochsen in the X-stack 0 Cem · Deal 1 = 0",
    ]),
    ("elf-nimmt", [{"hand_cards": [10, 55]}, {"went_out": True}, {"hand": 1}], [
        "10 Hornochsen in hand cards (Hornochsen): 10 (3), 55 (7) 10 Anna · Deal 1 = 10",
        "went out: no cards left 0 Ben · Deal 1 = 0",
        "1 Hornochse in hand 1 Cem · Deal 1 = 1",
    ]),
    ("drei-sind-einer-zuviel", [{"taken": {"rot": 4, "orange": 2}}, {"taken": {}},
                                {"taken": {"hellblau": 1}}], [
        "orange: 2 open cards +5 red: 1 open card +1 "
        "red: 1 triple flipped (3 cards face down) −3 "
        "2 colours open at the end (bonus from 6) 0 Anna · Deal 1 = 3",
        "0 colours open at the end (bonus from 6) 0 Ben · Deal 1 = 0",
        "light blue: 1 open card +1 1 colour open at the end (bonus from 6) 0 Cem · Deal 1 = 1",
    ]),
    ("dreizehn", [{"blue": 5, "green": 3}, {"blue": 5, "red": 2}, {"green": 1}], [
        "green: 3 cards, the most: spared 0 "
        "blue: 5 cards (tied for the most: nobody is spared) 5 Anna · Deal 1 = 5",
        "blue: 5 cards (tied for the most: nobody is spared) 5 2 × 2 red 4s 4 Ben · Deal 1 = 9",
        "green: 1 card 1 Cem · Deal 1 = 1",
    ]),
    ("freaky", [{"collected": 12}, {"collected": 0}, {"collected": 4}], [
        "12 cards collected +12 Anna · Deal 1 = 12",
        "0 cards collected 0 Ben · Deal 1 = 0",
        "4 cards collected +4 Cem · Deal 1 = 4",
    ]),
])
def test_tapping_a_deals_score_shows_why_it_is_that_number(
    anna_client: Client, group: Group, players: list[Player], game: str,
    datas: list[dict[str, Any]], expected: list[str],
) -> None:
    match = start(group, players, game)
    record(match, players, *datas)
    html = anna_client.get(url("match_sheet", match), **EN).content.decode()
    assert breakdowns(html) == expected
    # The htmx partial (a saved deal, the poll) carries the same breakdowns.
    partial = anna_client.get(url("match_sheet", match), **HX, **EN).content.decode()
    assert breakdowns(partial) == expected


@pytest.mark.django_db
def test_the_breakdown_speaks_german(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5, "x_stack": 9}, {"hand": 1}, {})
    html = anna_client.get(url("match_sheet", match), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert breakdowns(html)[0] == (
        "5 Hornochsen auf der Hand 5 2 × 9 Hornochsen im X-Stapel 18 Anna · Durchgang 1 = 23"
    )


@pytest.mark.django_db
def test_the_breakdown_adds_no_query_per_deal(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    counts = []
    for deals in (1, 6):
        match = start(group, players, "dreizehn")
        for _ in range(deals):
            record(match, players, {"yellow": 2, "red": 1}, {"yellow": 1}, {"blue": 3})
        with CaptureQueriesContext(connection) as queries:
            html = anna_client.get(url("match_sheet", match), **EN).content.decode()
        assert len(breakdowns(html)) == 3 * deals
        counts.append(len(queries))
    assert counts[0] == counts[1]


# ---------------------------------------------------------------------- card grid


def grid_post(client: Client, match: Match, data: dict[str, Any]) -> Any:
    return client.post(url("deal_new", match), data, **HX, **EN)


@pytest.mark.django_db
def test_the_card_grid_records_what_typed_card_numbers_record(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    typed_match = start(group, players, "x-nimmt")
    grid_match = start(group, players, "x-nimmt")
    grid_post(anna_client, typed_match, {
        "mode": "cards", "number": 1, "s0-hand_cards": "3, 55", "s0-x_stack_cards": "10",
        "s1-hand_cards": "", "s1-x_stack_cards": "11, 22", "s2-hand_cards": "99",
    })
    grid_post(anna_client, grid_match, {
        "mode": "grid", "number": 1, "s0-hand_cards": ["3", "55"], "s0-x_stack_cards": ["10"],
        "s1-x_stack_cards": ["11", "22"], "s2-hand_cards": ["99"],
    })

    def recorded(match: Match) -> list[tuple[str, int, dict[str, Any]]]:
        return [(s.player.name, s.score, s.data) for s in
                DealScore.objects.filter(deal__match=match).order_by("player__name")]

    assert recorded(grid_match) == recorded(typed_match)
    assert recorded(grid_match) == [
        ("Anna", 14, {"hand": 0, "x_stack": 0, "hand_cards": [3, 55], "x_stack_cards": [10]}),
        ("Ben", 20, {"hand": 0, "x_stack": 0, "hand_cards": [], "x_stack_cards": [11, 22]}),
        ("Cem", 5, {"hand": 0, "x_stack": 0, "hand_cards": [99], "x_stack_cards": []}),
    ]


@pytest.mark.django_db
def test_the_card_grid_is_refused_like_typed_numbers(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    typed = grid_post(anna_client, match, {
        "mode": "cards", "number": 1, "s0-hand_cards": "7", "s1-x_stack_cards": "7",
    })
    grid = grid_post(anna_client, match, {
        "mode": "grid", "number": 1, "s0-hand_cards": ["7"], "s1-x_stack_cards": ["7"],
    })
    message = "Card 7 appears more than once in this deal (Anna and Ben)."
    assert (typed.status_code, grid.status_code) == (422, 422)
    assert message in typed.content.decode()
    assert message in grid.content.decode()
    assert not Deal.objects.filter(match=match).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "data", "line"), [
    ("elf-nimmt", {"mode": "grid", "went_out": "1", "s0-hand_cards": ["5"]},
     "Cem did not go out, so they still hold a card and at least one Hornochse."),
    ("drei-sind-einer-zuviel", {"s0-orange": "1", "s0-interim_bonus": "10"},
     "Anna has the interim bonus 10 but took no card of lilac, light blue, red, turquoise, "
     "magenta, olive; it needs all seven colours open."),
])
def test_a_players_refusal_under_the_grid_or_the_colour_table_names_the_player_once(
    anna_client: Client, group: Group, players: list[Player], game: str,
    data: dict[str, Any], line: str,
) -> None:
    match = start(group, players, game)
    response = grid_post(anna_client, match, {"number": 1, **data})
    alerts = re.findall(r'<div class="text-danger small mb-1" role="alert">([^<]*)</div>',
                        response.content.decode().replace("&#x27;", "'"))
    assert (response.status_code, alerts) == (422, [line])


@pytest.mark.django_db
def test_the_card_grid_of_11_nimmt_records_the_hands(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "elf-nimmt")
    response = grid_post(anna_client, match, {
        "mode": "grid", "number": 1, "went_out": "1",
        "s0-hand_cards": ["55", "10"], "s2-hand_cards": ["1"],
    })
    assert response.status_code == 200
    assert [(s.player.name, s.score) for s in DealScore.objects.order_by("player__name")] == [
        ("Anna", 10), ("Ben", 0), ("Cem", 1)]


@pytest.mark.django_db
def test_the_card_grid_shows_every_card_with_its_hornochsen_and_greys_the_others_cards(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    response = grid_post(anna_client, match, {
        "mode": "grid", "number": 1, "s0-hand_cards": ["55"], "s1-hand_cards": ["55", "1"],
    })
    html = response.content.decode()
    assert response.status_code == 422  # card 55 twice
    assert html.count('<input type="checkbox" name="s0-hand_cards"') == 100
    assert html.count('<input type="checkbox" name="s2-x_stack_cards"') == 100
    assert ('<label class="gc h7" aria-describedby="hz7"><input type="checkbox" '
            'name="s0-hand_cards" value="55" checked>55</label>') in html
    assert '<span id="hz7" hidden>7 Hornochsen</span>' in html
    assert '<span id="hz1" hidden>1 Hornochse</span>' in html
    # The game's words (its format's), in the reader's language.
    assert "The small number is the card’s Hornochsen" in html
    # Card 1 is Ben's: greyed out in Anna's and Cem's grids.
    assert ('<label class="gc h1 taken" aria-describedby="hz1"><input type="checkbox" '
            'name="s0-hand_cards" value="1">') in html
    assert ('<label class="gc h1" aria-describedby="hz1"><input type="checkbox" '
            'name="s1-hand_cards" value="1" checked>') in html


@pytest.mark.django_db
def test_after_a_deal_saved_on_the_grid_the_next_deal_opens_on_the_grid(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    response = grid_post(anna_client, match, {
        "mode": "grid", "number": 1, "s0-hand_cards": ["3"], "s1-x_stack_cards": ["11"],
    })
    html = response.content.decode()
    assert response.status_code == 200
    assert '<input type="hidden" name="mode" value="grid"' in html
    assert html.count('<input type="checkbox" name="s0-hand_cards"') == 100


@pytest.mark.django_db
def test_switching_from_the_grid_to_typed_numbers_keeps_the_ticked_cards(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    response = anna_client.post(url("deal_new", match), {
        "mode": "grid", "number": 1, "switch_mode": "cards",
        "s0-hand_cards": ["3", "55"], "s1-x_stack_cards": ["11"],
    }, **HX)
    html = response.content.decode()
    assert 'name="s0-hand_cards" value="3, 55"' in html
    assert 'name="s1-x_stack_cards" value="11"' in html


# ----------------------------------------------------------- 3 sind einer zuviel!


@pytest.mark.django_db
def test_the_3_sind_count_form_is_a_row_per_colour_and_says_what_to_count(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "drei-sind-einer-zuviel")
    html = anna_client.get(url("match_sheet", match) + "?mode=counts", **EN).content.decode()
    assert ("Each player counts the cards they took, per colour: all cards of the colour, "
            "the open ones and the face-down ones (flipped triples) together. "
            "Grey cards do not count.") in html
    table = re.search(r'<table class="table table-sm align-middle colour-table mb-2">(.*?)</table>',
                      html, re.S)
    assert table is not None
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    assert len(rows) == 1 + 8  # the players, then seven colours and the bonus card
    assert [text(cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", rows[0], re.S)] == [
        "Card colour", "Anna", "Ben", "Cem"]
    assert text(rows[4]).startswith("red")
    assert re.findall(r'name="(s\d-rot)"', rows[4]) == ["s0-rot", "s1-rot", "s2-rot"]


@pytest.mark.django_db
def test_a_3_sind_deal_opens_per_player_with_a_button_per_count(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "drei-sind-einer-zuviel")
    html = anna_client.get(url("match_sheet", match), **EN).content.decode()
    assert 'aria-pressed="true">Per player</button>' in html
    panels = re.findall(r'<fieldset class="chip-panel mb-2" data-seat="(\d)">\s*'
                        r'<legend class="chip-player text-break">(\w+)</legend>', html)
    assert panels == [("0", "Anna"), ("1", "Ben"), ("2", "Cem")]
    # A button per count the deck allows (0 to 12 of a colour), 0 where nothing is tapped.
    assert re.findall(r'name="s1-tuerkis" value="(\d+)"', html) == [str(n) for n in range(13)]
    assert '<input type="radio" name="s1-tuerkis" value="0" checked>' in html
    assert 'data-field="tuerkis" data-deck="12"' in html
    # The interim scoring card: none, 10, 7, 5 or 3; filled in by the page where certain.
    assert re.findall(r'name="s2-interim_bonus" value="(\d+)"', html) == [
        "0", "10", "7", "5", "3"]
    assert 'data-auto-bonus="interim_bonus"' in html


@pytest.mark.django_db
def test_a_deal_tapped_per_player_is_saved_as_if_typed(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "drei-sind-einer-zuviel")
    response = anna_client.post(url("deal_new", match), {
        "mode": "players", "number": 1, "s0-orange": "2", "s0-rot": "4", "s1-magenta": "5",
        "s1-interim_bonus": "0", "s2-orange": "0",
    }, **EN)
    assert response.status_code == 302
    # Anna: orange 2 open → 5, red 4 → 3 face down (−3) + 1 open → 1: 3; Ben 5 → −3 + 5.
    assert [s.total for s in match.seats.order_by("number")] == [3, 2, 0]


@pytest.mark.django_db
def test_a_deal_entered_as_open_and_face_down_cards_scores_as_its_totals(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    # The Decision: at the end, per colour the total taken, or the open and face-down
    # counts; both give the same score.
    match = start(group, players, "drei-sind-einer-zuviel")
    split = anna_client.post(url("deal_new", match), {
        "mode": "split", "number": 1, "s0-orange_open": "2", "s0-rot_open": "1",
        "s0-rot_down": "3", "s1-magenta_open": "2", "s1-magenta_down": "3"}, **EN)
    assert split.status_code == 302
    deal = Deal.objects.get(match=match, number=1)
    taken = {score.player.name: score.data["taken"] for score in deal.scores.all()}
    assert (taken["Anna"]["orange"], taken["Anna"]["rot"], taken["Ben"]["magenta"]) == (2, 4, 5)
    assert [s.total for s in match.seats.order_by("number")] == [3, 2, 0]  # as typed as 2, 4, 5


@pytest.mark.django_db
def test_open_and_face_down_counts_offer_what_can_lie_so_and_refuse_the_rest(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "drei-sind-einer-zuviel")
    html = anna_client.post(url("deal_new", match), {
        "mode": "players", "switch_mode": "split", "number": 1, "s0-rot": "7"},
        **HX, **EN).content.decode()
    assert re.findall(r'name="s0-rot_open" value="(\d+)"', html) == ["0", "1", "2"]
    assert re.findall(r'name="s0-rot_down" value="(\d+)"', html) == ["0", "3", "6", "9", "12"]
    # 7 red cards as the table shows them: 1 open, 6 face down.
    assert 'name="s0-rot_open" value="1" checked' in html
    assert 'name="s0-rot_down" value="6" checked' in html
    assert "red open" in html and "red face-down" in html and "flipped triples" in html
    back = anna_client.post(url("deal_new", match), {
        "mode": "split", "switch_mode": "players", "number": 1, "s0-rot_open": "2",
        "s0-rot_down": "9"}, **HX, **EN).content.decode()
    assert 'name="s0-rot" value="11" checked' in back
    refused = anna_client.post(url("deal_new", match), {
        "mode": "split", "number": 1, "s0-rot_open": "1", "s0-rot_down": "4"}, **HX, **EN)
    assert refused.status_code == 422
    assert not Deal.objects.filter(match=match).exists()
    too_many = anna_client.post(url("deal_new", match), {
        "mode": "split", "number": 1, "s0-rot_open": "1", "s0-rot_down": "12"}, **HX, **EN)
    assert too_many.status_code == 422
    assert "took 13 cards of red, but there are only 12" in too_many.content.decode()


@pytest.mark.django_db
def test_a_count_the_buttons_do_not_offer_keeps_a_button_of_its_own(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "drei-sind-einer-zuviel")
    response = anna_client.post(url("deal_new", match), {
        "mode": "counts", "switch_mode": "players", "number": 1, "s0-orange": "13"},
        HTTP_HX_REQUEST="true", **EN)
    html = response.content.decode()
    assert '<input type="radio" name="s0-orange" value="13" checked><span>13</span>' in html
    saved = anna_client.post(url("deal_new", match), {
        "mode": "players", "number": 1, "s0-orange": "13"}, HTTP_HX_REQUEST="true", **EN)
    assert saved.status_code == 422
    assert "took 13 cards of orange, but there are only 12" in saved.content.decode()


@pytest.mark.django_db
def test_a_13_deal_opens_per_player_with_a_button_per_count(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "dreizehn")
    html = anna_client.get(url("match_sheet", match), **EN).content.decode()
    assert re.findall(r'name="s0-yellow" value="(\d+)"', html) == [str(n) for n in range(15)]
    assert re.findall(r'name="s0-red" value="(\d+)"', html) == [str(n) for n in range(9)]
    assert "data-auto-bonus" not in html


# ---------------------------------------------------------- helpers of the match


@pytest.mark.django_db
def test_the_sheet_opens_the_helper_and_the_check_with_the_matchs_players_and_variant(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "dreizehn", options={"variant": "first-card"})
    html = anna_client.get(url("match_sheet", match), **EN).content.decode()
    back = f"%2Fg%2F{group.pk}%2Fmatches%2F{match.pk}%2F"
    assert (f'href="/tools/targets/?players=Anna%2CBen%2CCem&amp;variant=first-card'
            f'&amp;back={back}"') in html
    assert ('id="dispute" href="/rules/dreizehn/check/?players=Anna%2CBen%2CCem'
            f'&amp;variant=first-card&amp;back={back}"') in html
    check = anna_client.get("/rules/dreizehn/check/?players=Anna%2CBen%2CCem"
                            "&variant=first-card").content.decode()
    assert re.search(r'type="checkbox" name="play-variant"[^>]* checked>', check)


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["drei-sind-einer-zuviel", "x-nimmt", "freaky", "elf-nimmt",
                                  "dreizehn"])
def test_a_check_opened_from_the_sheet_leads_back_to_it_and_keeps_the_way_while_checking(
    anna_client: Client, group: Group, players: list[Player], game: str
) -> None:
    match = start(group, players, game)
    sheet_url = url("match_sheet", match)
    html = anna_client.get(sheet_url, **EN).content.decode()
    dispute = html_unescape(re.search(r'id="dispute" href="([^"]+)"', html)[1])  # type: ignore[index]
    check = anna_client.get(dispute, **EN).content.decode()
    assert f'id="back-to-sheet" href="{sheet_url}"' in check
    # Every check's form posts with the way back, so the answer's page has it too.
    actions = re.findall(r'<form method="post" action="([^"]+)"', check)
    assert actions and all(f"back={quote(sheet_url, safe='')}" in a for a in actions)


@pytest.mark.django_db
@pytest.mark.parametrize("back", ["//evil.example/g/1/matches/1/", "https://evil.example/",
                                  "/rules/", "/g/1/matches/1/../../../accounts/", "x"])
def test_a_check_page_leads_back_only_to_a_score_sheet_of_this_site(
    anna_client: Client, back: str
) -> None:
    check = anna_client.get("/rules/freaky/check/", {"back": back}, **EN).content.decode()
    assert 'id="back-to-sheet"' not in check


@pytest.mark.django_db
def test_a_finished_sheet_has_no_dispute_button(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    record(match, players, {"collected": 12}, {"collected": 4}, {})
    match_services.match_finish(match=match)
    html = anna_client.get(url("match_sheet", match), **EN).content.decode()
    assert 'id="dispute"' not in html


@pytest.mark.django_db
def test_the_target_helper_hands_its_tally_to_the_deal_form(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "dreizehn")
    back = url("match_sheet", match)
    tool = anna_client.get("/tools/targets/", {
        "players": "Anna,Ben,Cem", "back": back, "taken": "2.1.0.1_0.0.3.0_1.0.0.0",
    }, **EN).content.decode()
    link = re.search(r'id="take-over" href="([^"]+)"', tool)
    assert link is not None
    target = link.group(1).replace("&amp;", "&")
    assert target == (
        f"{back}?s0-yellow=2&s0-green=1&s0-blue=0&s0-red=1&s1-yellow=0&s1-green=0"
        "&s1-blue=3&s1-red=0&s2-yellow=1&s2-green=0&s2-blue=0&s2-red=0#deal-form"
    )
    sheet = anna_client.get(target.split("#")[0], **EN).content.decode()
    assert "Taken over into the deal form: check the values, then save the deal." in sheet
    assert 'name="s0-yellow" value="2"' in sheet
    assert 'name="s0-red" value="1"' in sheet
    assert 'name="s1-blue" value="3"' in sheet
    assert not Deal.objects.filter(match=match).exists()


@pytest.mark.django_db
def test_values_that_do_not_fit_are_left_out_with_a_message(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "dreizehn")
    response = anna_client.get(url("match_sheet", match), {
        "s0-yellow": "2", "s1-green": "-4", "s2-purple": "1", "s9-red": "1", "s0-blue": "x",
    }, **EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert ("Some values from the link do not fit this deal and were left out: "
            "s0-blue, s1-green, s2-purple, s9-red.") in html
    assert 'name="s0-yellow" value="2"' in html
    assert 'name="s1-green" value="-4"' not in html


@pytest.mark.django_db
def test_a_helper_cannot_send_the_sheet_elsewhere(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    for back in ("https://example.com/", "//example.com/", "/rules/", "/g/1/matches/x/"):
        tool = anna_client.get("/tools/targets/", {
            "players": "Anna,Ben,Cem", "back": back}).content.decode()
        assert 'id="take-over"' not in tool
        assert 'name="back"' not in tool
        assert "Back to the score sheet" not in tool


@pytest.mark.django_db
def test_the_bull_card_tracker_keeps_the_way_back_to_the_sheet(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "elf-nimmt")
    back = url("match_sheet", match)
    response = anna_client.get("/tools/bulls/", {
        "players": "Anna,Ben,Cem", "back": back, "take": "1"})
    assert response.status_code == 302
    assert f"back={back.replace('/', '%2F')}" in response["Location"]
    page = anna_client.get(response["Location"], **EN).content.decode()
    assert f'href="{back}#deal-form">Back to the score sheet</a>' in page
    # When the deal is over, one tap on who went out takes that into the deal form.
    assert f'<a class="btn btn-success went-out" href="{back}?went_out=2#deal-form">Cem</a>' in page
    sheet = anna_client.get(back, {"went_out": "2"}, **EN).content.decode()
    assert re.search(r'name="went_out" id="[^"]+" value="2" checked', sheet)


@pytest.mark.django_db
def test_a_finished_match_takes_nothing_over(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    record(match, players, {"collected": 12}, {"collected": 4}, {})
    response = anna_client.get(url("match_sheet", match), {"s0-collected": "5"}, **EN)
    assert response.status_code == 200
    assert ("The values from the link were not taken over: this match takes no further deal."
            in response.content.decode())


@pytest.mark.django_db
def test_the_card_grid_is_light_enough_to_save_from_quickly(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    # Saving from the grid took 1.8 s against 0.37 s by counts on a phone: htmx walks every
    # element of the form after a save (and cleans each up when the form goes). A card is
    # its checkbox inside its label now: two elements, five attributes.
    match = start(group, [*players, Player.objects.create(group=group, name="Dora")], "x-nimmt")
    html = anna_client.get(url("deal_new", match) + "?mode=grid", HTTP_HX_REQUEST="true",
                           **EN).content.decode()
    cards = re.findall(r'<label class="gc[^>]*><input [^>]*>\d+</label>', html)
    assert len(cards) == 800
    grid = html[html.index('class="grid-panels"'):]
    assert grid.count("<") - grid.count("</") <= 2 * 800 + 100  # elements, not per card more
    assert len(html.encode()) < 110_000  # was 190 kB


@pytest.mark.django_db
def test_the_next_match_opens_in_the_entry_mode_this_phone_last_saved_in(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    first = start(group, players, "x-nimmt")
    saved = grid_post(anna_client, first, {
        "mode": "grid", "number": 1, "s0-hand_cards": ["3"], "s1-x_stack_cards": ["11"]})
    assert saved.cookies["kr-mode-x-nimmt"].value == "grid"
    second = start(group, players, "x-nimmt")
    html = anna_client.get(url("match_sheet", second), **EN).content.decode()
    assert '<input type="hidden" name="mode" value="grid"' in html
    assert "kr-mode-elf-nimmt" not in anna_client.cookies  # per game
    # Saved by counts (the game's first mode) again: the phone forgets the grid.
    back = anna_client.post(url("deal_new", second), {
        "mode": "counts", "number": 1, "s0-hand": "3", "s1-x_stack": "2"}, **EN)
    assert back.cookies["kr-mode-x-nimmt"].value == ""
    html = anna_client.get(url("match_sheet", second), **EN).content.decode()
    assert '<input type="hidden" name="mode" value="counts"' in html


@pytest.mark.django_db
def test_an_unlikely_3_sind_deal_gets_a_hint_with_the_preview_and_is_saved_all_the_same(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "drei-sind-einer-zuviel")
    few = {"mode": "players", "number": 1, "s0-orange": "2", "s1-rot": "4", "s2-magenta": "5"}
    preview = anna_client.post(url("deal_preview", match), few, **HX, **EN).content.decode()
    # 3 players play 54 cards: at least 3 + 54 − 9 − 3 = 45 coloured ones are taken.
    assert ("Only 11 coloured cards taken in all, but in a complete game of 3 players at least "
            "45 are") in preview
    assert 'id="deal-preview"' in preview  # the scores are previewed all the same
    saved = anna_client.post(url("deal_new", match), few, **EN)
    assert saved.status_code == 302 and match.deals.count() == 1
    plenty = {"mode": "players", "number": 1, **{
        f"s{seat}-{colour}": "3" for seat in range(3)
        for colour in ("orange", "flieder", "hellblau", "rot", "tuerkis")}}
    preview = anna_client.post(url("deal_preview", match), plenty, **HX, **EN).content.decode()
    assert "deal-unlikely" not in preview  # 45 cards: as a complete game takes at least
