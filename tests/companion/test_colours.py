"""Player colours: the default palette, the strict #rrggbb check, the roster's colour
form, and the colours on the sheet, in table mode and in the progression chart."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from companion.charts import Series, line_chart
from companion.colours import PALETTE, contrast, ink_for, parse_colour, player_colours
from companion.models import Group, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HX = {"HTTP_HX_REQUEST": "true"}


def colour_url(player: Player) -> str:
    return reverse("player_colour", kwargs={"group_id": player.group_id, "player_id": player.pk})


@pytest.mark.parametrize("raw, expected", [
    ("#0072b2", "#0072b2"), ("#0072B2", "#0072b2"), ("  #abcdef ", "#abcdef"), ("", ""),
])
def test_it_accepts_a_colour_as_hash_and_six_hex_digits(raw: str, expected: str) -> None:
    assert parse_colour(raw) == expected


@pytest.mark.parametrize("raw", [
    "red", "#fff", "0072b2", "#0072b", "#0072b2f", "#00 72b2", "#gg0000", "rgb(0,0,0)",
    "#0072b2;background:url(x)", "#\x000072b",
])
def test_it_refuses_anything_else_as_a_colour(raw: str) -> None:
    with pytest.raises(ValidationError) as caught:
        parse_colour(raw)
    assert caught.value.code == "colour"


def test_the_default_palette_is_okabe_ito_in_creation_order() -> None:
    assert [c.value for c in PALETTE] == [
        "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#000000",
    ]
    assert player_colours([(12, ""), (10, ""), (11, "#123456"), (13, "")]) == {
        10: "#e69f00", 11: "#123456", 12: "#56b4e9", 13: "#009e73",
    }
    # A chosen palette colour is skipped by the defaults.
    assert player_colours([(1, ""), (2, "#56b4e9"), (3, "")]) == {
        1: "#e69f00", 2: "#56b4e9", 3: "#009e73",
    }
    assert player_colours([(n, "") for n in range(1, 10)])[9] == "#e69f00"  # the ninth wraps


def test_ink_on_every_palette_colour_reaches_wcag_aa() -> None:
    assert [ink_for(c.value) for c in PALETTE] == [
        "#000000", "#000000", "#000000", "#000000", "#ffffff", "#000000", "#000000", "#ffffff",
    ]
    assert min(contrast(c.value, ink_for(c.value)) for c in PALETTE) >= 4.5


@pytest.mark.django_db
def test_a_member_chooses_a_players_colour_on_the_roster(
    anna_client: Client, players: list[Player]
) -> None:
    ben = players[1]
    response = anna_client.post(colour_url(ben), {"colour": "#CC79A7"})
    assert response.status_code == 302
    ben.refresh_from_db()
    assert ben.colour == "#cc79a7"
    page = anna_client.get(reverse("roster", kwargs={"group_id": ben.group_id}), **EN)
    html = page.content.decode()
    assert f'id="colour-{ben.pk}" name="colour" type="color"' in html
    assert 'value="#cc79a7"' in html
    assert "reddish purple" in html
    assert '<datalist id="palette">' in html


@pytest.mark.django_db
def test_a_refused_colour_keeps_the_old_one_and_says_why(
    anna_client: Client, players: list[Player]
) -> None:
    ben = players[1]
    response = anna_client.post(colour_url(ben), {"colour": "blue"}, **EN, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Give the colour as # and six hex digits, e.g. #0072b2. (blue)" in html
    assert html.startswith('\n<div id="roster">') or html.lstrip().startswith('<div id="roster">')
    ben.refresh_from_db()
    assert ben.colour == ""


@pytest.mark.django_db
def test_the_refusal_is_in_german_too(anna_client: Client, players: list[Player]) -> None:
    response = anna_client.post(colour_url(players[1]), {"colour": "#12"},
                                HTTP_ACCEPT_LANGUAGE="de")
    assert "Gib die Farbe als # und sechs Hex-Ziffern an, z. B. #0072b2." in (
        response.content.decode()
    )


@pytest.mark.django_db
def test_the_default_button_gives_back_the_palette_colour(
    anna_client: Client, players: list[Player]
) -> None:
    ben = players[1]
    Player.objects.filter(pk=ben.pk).update(colour="#123456")
    anna_client.post(colour_url(ben), {"colour": "#123456", "default": "1"})
    ben.refresh_from_db()
    assert ben.colour == ""


@pytest.mark.django_db
def test_an_outsider_cannot_colour_a_player(
    outsider_client: Client, players: list[Player]
) -> None:
    assert outsider_client.post(colour_url(players[0]), {"colour": "#000000"}).status_code == 404
    players[0].refresh_from_db()
    assert players[0].colour == ""


@pytest.mark.django_db
def test_choosing_a_colour_needs_post(anna_client: Client, players: list[Player]) -> None:
    assert anna_client.get(colour_url(players[0])).status_code == 405


@pytest.mark.django_db
def test_the_sheet_and_table_mode_show_each_players_colour(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    Player.objects.filter(pk=players[2].pk).update(colour="#0072b2")
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    for number in (1, 2):
        deal_services.deal_record(match=match, number=number, entries={
            players[0].pk: {"hand": 3}, players[1].pk: {"hand": 1}, players[2].pk: {"x_stack": 1},
        })
    sheet = reverse("match_sheet", kwargs={"group_id": group.pk, "match_id": match.pk})
    html = anna_client.get(sheet).content.decode()
    # Anna, Ben: palette colours 1 and 2 by creation order; Cem: chosen.
    assert '<th scope="col" class="player-head" style="--player: #e69f00">Anna</th>' in html
    assert '<th scope="col" class="player-head" style="--player: #56b4e9">Ben</th>' in html
    assert '<th scope="col" class="player-head" style="--player: #0072b2">Cem</th>' in html
    # Cem's row in the standings and in the table mode, his colour beside his name in both
    assert html.count('<li style="--player: #0072b2"><span>') == 2
    # The chart draws Cem's line in his colour, over an outline, with the dash pattern of his
    # place (c2, in the CSS), his markers defined in his legend entry, in his colour too.
    assert '<g class="c2 pc" style="--k:#0072b2"><polyline class="hl" points=' in html
    assert html.count('<g class="c2 pc" style="--k:#0072b2"><marker id="kr-m') == 1
    css = (settings.BASE_DIR / "static/css/app.css").read_text()
    assert ".kr-chart .c2 .ln, .kr-chart .c2 .lg, .kr-chart .c6 .ln, .kr-chart .c6 .lg " \
           "{ stroke-dasharray: 2 3; }" in css


def test_a_chart_line_in_a_players_colour_keeps_its_pattern_and_gets_an_outline() -> None:
    svg = line_chart([Series("A", (1, 2)), Series("B", (2, 1), "#f0e442")],
                     x_labels=("1", "2"), title="t", desc="d")
    assert svg.count('class="hl"') == 2  # under the line and under its legend entry
    assert svg.count('<g class="c1 pc" style="--k:#f0e442">') == 2  # line and legend entry
    assert '<g class="c1 pc" style="--k:#f0e442"><polyline class="hl"' in svg
    css_dash = ".kr-chart .c1 .ln, .kr-chart .c1 .lg, .kr-chart .c5 .ln, .kr-chart .c5 .lg " \
               "{ stroke-dasharray: 6 3; }"  # B is second: dashed as before
    assert svg.count('<g class="c0">') == 2  # A keeps the palette class colour
    css = (settings.BASE_DIR / "static/css/app.css").read_text()
    assert ".kr-chart .hl { fill: none; stroke: currentColor; stroke-opacity: .6; " \
           "stroke-width: 4.5;" in css
    assert ".kr-chart .pc .mk { stroke: currentColor; stroke-width: .8; }" in css
    assert css_dash in css


def test_freaky_colour_swatches_carry_their_colours_first_letters(client: Client) -> None:
    html = client.get("/rules/freaky/check/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'style="background: #d62828; color: #ffffff;" title="Background: red">' \
           '<span class="swatch-text" aria-hidden="true">re</span>' in html
    assert "color: #000000;\" aria-hidden=\"true\">ye</span>" in html  # yellow circle
    german = client.get("/rules/freaky/check/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<span class="swatch-text" aria-hidden="true">vi</span>' in german  # violett
    assert '<span class="swatch-text" aria-hidden="true">gr</span>' in german  # grün
