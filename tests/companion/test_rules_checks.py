"""The legality checks: every worked example of ../shared/rules/ posted to the
check views, the engine's answer read back from the HTML, and bad input."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _Grab(HTMLParser):
    """Text of every element whose id or class matches (nested matches included)."""

    def __init__(self, *, id_: str | None, cls: str | None) -> None:
        super().__init__()
        self.id_, self.cls = id_, cls
        self.depth = 0
        self.found: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        if self.depth:
            self.depth += 1
            self.found[-1].append(" ")
            return
        values = dict(attrs)
        classes = (values.get("class") or "").split()
        if (self.id_ and values.get("id") == self.id_) or (self.cls and self.cls in classes):
            self.depth = 1
            self.found.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or not self.depth:
            return
        self.depth -= 1
        if self.depth:
            self.found[-1].append(" ")

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.found[-1].append(data)


def texts(html: str, *, id_: str | None = None, cls: str | None = None) -> list[str]:
    grab = _Grab(id_=id_, cls=cls)
    grab.feed(html)
    return [" ".join("".join(parts).split()) for parts in grab.found]


def text(html: str, **kwargs: Any) -> str:
    found = texts(html, **kwargs)
    assert found, f"nothing matches {kwargs}"
    return found[0]


def post(client: Client, game: str, check: str, data: dict[str, str], *, htmx: bool = False,
         language: str = "en", query: str = "") -> str:
    payload = {"check": check, **{f"{check}-{key}": value for key, value in data.items()}}
    headers: dict[str, str] = {"HTTP_ACCEPT_LANGUAGE": language}
    if htmx:
        headers["HTTP_HX_REQUEST"] = "true"
    response = client.post(reverse("rules_check", args=[game]) + query, payload, **headers)
    assert response.status_code == 200
    return response.content.decode()


# ------------------------------------------------------------------ 3 sind einer zuviel!

DREI = "drei-sind-einer-zuviel"


def test_the_40_slides_into_the_middle_row_and_nothing_is_taken(client: Client) -> None:
    html = post(client, DREI, "place", {
        "row_1": "10 19 24", "row_2": "46 57", "row_3": "77", "card": "40"})
    answer = text(html, id_="answer")
    assert "The 40 goes into row 2, at place 1 after the start card." in answer
    assert "The row is not full: nobody takes anything." in answer
    assert "30 40 46 57" in answer


def test_the_28_is_the_highest_fifth_card_and_takes_the_10(client: Client) -> None:
    html = post(client, DREI, "place", {
        "row_1": "10 19 24", "row_2": "40 46 57", "row_3": "77", "card": "28"})
    answer = text(html, id_="answer")
    # Laid fourth after the start card (0 10 19 24 28), and only then the 10 is taken.
    assert "The 28 goes into row 1, at place 4 after the start card." in answer
    assert "It is the highest card in the row: the player takes the lowest card." in answer
    assert text(html, cls="taken-cards") == "10"
    assert "0 19 24 28" in answer
    assert "a) Your card is the highest" in answer


def test_the_37_is_a_lower_fifth_card_and_takes_everything_above_it(client: Client) -> None:
    html = post(client, DREI, "place", {
        "row_1": "10 19 24", "row_2": "40 46 57", "row_3": "77", "card": "37"})
    answer = text(html, id_="answer")
    assert "The 37 goes into row 2, at place 1 after the start card." in answer
    assert "It is not the highest card: the player takes every card higher than it." in answer
    assert text(html, cls="taken-cards") == "40 46 57"
    assert "30 37 60" in answer  # row 2 is 30 | 37, then row 3 starts with 60
    assert "b) Your card is not the highest" in answer


def test_the_answer_links_to_the_rule_that_decides(client: Client) -> None:
    html = post(client, DREI, "place", {
        "row_1": "10 19 24", "row_2": "40 46 57", "row_3": "77", "card": "37"})
    assert f'href="/rules/{DREI}/#fifth-card-lower"' in html
    assert f'href="/rules/{DREI}/#row-by-number"' in html


@pytest.mark.parametrize(("language", "says"), [
    ("en", "The grey 15 goes back to the box: it never counts."),
    ("de", "Die graue 15 kommt zurück in die Schachtel: sie zählt nie."),
])
def test_a_grey_card_taken_goes_back_to_the_box_and_the_answer_says_so(
    client: Client, language: str, says: str,
) -> None:
    # "15/45/75 taken → go back to the box; never scored": the answer listed the 15 among
    # the cards taken as if it counted.
    html = post(client, DREI, "place", {
        "row_1": "15 19 24", "row_2": "", "row_3": "", "card": "1"}, language=language)
    assert text(html, cls="taken-cards") == "15 19 24"
    assert text(html, cls="grey-taken") == says
    assert f'href="/rules/{DREI}/#grey-cards"' in html


def test_no_grey_card_taken_no_word_about_the_box(client: Client) -> None:
    html = post(client, DREI, "place", {
        "row_1": "10 19 24", "row_2": "40 46 57", "row_3": "77", "card": "37"})
    assert "grey-taken" not in html and "#grey-cards" not in html


@pytest.mark.parametrize(("data", "message"), [
    ({"card": "90"}, "There is no card 90: number cards go from 1 to 89."),
    ({"card": "30"}, "Card 30 is a start card and is never played."),
    ({"row_1": "10 19", "card": "19"}, "Card 19 is already on the table."),
    ({"row_1": "19 10", "card": "5"}, "Row 1 must ascend from left to right, but 10 follows 19."),
    ({"row_1": "10 x", "card": "5"}, "“x” is not a card number."),
])
def test_it_rejects_cards_that_cannot_be(client: Client, data: dict[str, str],
                                         message: str) -> None:
    html = post(client, DREI, "place", {"row_1": "", "row_2": "", "row_3": "", **data})
    assert message in html
    assert 'id="answer"' not in html


@pytest.mark.parametrize(("rows", "card"), [
    ({"row_1": "0 10"}, 0), ({"row_2": "30 40"}, 30), ({"row_3": "60 61"}, 60)])
@pytest.mark.parametrize(("language", "says"), [
    ("en", "Card {card} is a start card: it heads its row and is not typed in. Enter only the "
           "number cards after it."),
    ("de", "Karte {card} ist eine Startkarte: sie steht vor ihrer Reihe und wird nicht "
           "eingegeben. Gib nur die Zahlenkarten danach ein."),
])
def test_a_start_card_typed_into_its_row_is_told_at_that_row(
        client: Client, rows: dict[str, str], card: int, language: str, says: str) -> None:
    # "Start cards 0, 30, 60 (black): they head the three rows and never move": typed into
    # the row they were refused as "There is no card 0" (untrue) or, for 30 and 60, as a
    # card "never played" above the form instead of at the row.
    html = post(client, DREI, "place", {"row_1": "", "row_2": "", "row_3": "", **rows,
                                        "card": "5"}, language=language)
    field = next(iter(rows))
    errors = html[html.index(f'name="place-{field}"'):]
    assert texts(errors, cls="invalid-feedback")[0] == says.format(card=card)
    assert 'id="answer"' not in html


def test_an_unsorted_row_is_named_at_its_field_with_its_two_cards_in_german(
        client: Client) -> None:
    # "Within a row, cards lie in ascending order."
    html = post(client, DREI, "place", {"row_1": "24 10", "row_2": "", "row_3": "", "card": "5"},
                language="de")
    assert texts(html, cls="invalid-feedback") == [
        "Die Reihe 1 muss von links nach rechts aufsteigen, aber 10 folgt auf 24."]
    assert "[" not in texts(html, cls="invalid-feedback")[0]


def test_the_htmx_path_returns_only_the_check(client: Client) -> None:
    html = post(client, DREI, "place", {
        "row_1": "10 19 24", "row_2": "46 57", "row_3": "77", "card": "40"}, htmx=True)
    assert html.lstrip().startswith('<div id="check-place">')
    assert "<nav" not in html
    assert "The 40 goes into row 2" in text(html, id_="answer")


def test_the_check_speaks_german_by_default(client: Client) -> None:
    html = post(client, DREI, "place", {"row_1": "", "row_2": "", "row_3": "", "card": "90"},
                language="de")
    assert "a) Deine Karte ist die höchste" not in html
    assert 'lang="de"' in html


# ----------------------------------------------------------------------------- X nimmt!

X = "x-nimmt"
ROUND_ONE = {
    "row_3": "62", "row_4": "31 40 45", "row_5": "70",
    "name_1": "Anna", "card_1": "59", "name_2": "Ben", "card_2": "81",
    "name_3": "Cem", "card_3": "94",
}


def _resolve(client: Client, data: dict[str, str], **kwargs: Any) -> str:
    return post(client, X, "round", data, **kwargs)


def _hidden(html: str, name: str) -> str:
    marker = f'name="{name}" value="'
    start = html.index(marker) + len(marker)
    return html[start: html.index('"', start)]


def test_the_59_fills_the_4_row_and_its_player_chooses_the_x_row_card(client: Client) -> None:
    html = _resolve(client, ROUND_ONE)
    steps = texts(html, cls="step")
    assert steps == []  # the 59 is the lowest card: its choice comes first
    pending = text(html, cls="pending")
    assert "With the 59, Anna takes several cards: which one goes to the X-Reihe?" in pending
    assert 'name="round-choose_x" value="59:31"' in html
    assert 'name="round-choose_x" value="59:45"' in html
    assert "Still waiting: 81, 94" in pending


def test_choosing_the_x_row_card_finishes_the_round(client: Client) -> None:
    first = _resolve(client, ROUND_ONE)
    html = _resolve(client, {**ROUND_ONE, "basis": _hidden(first, "round-basis"),
                             "choose_x": "59:40"})
    steps = texts(html, cls="step")
    assert len(steps) == 3
    assert "Anna’s 59 → 4-row" in steps[0]
    assert "Anna takes 3: 31 40 45 and the 59 starts the row." in steps[0]
    assert "To the X-Reihe: 40 · to the hand: 31, 45" in steps[0]
    assert "Rule 3: Full row" in steps[0]
    assert "Ben’s 81 → 5-row" in steps[1]
    assert "Cem’s 94 → 5-row" in steps[2]
    assert "Rule 2: Smallest difference" in steps[2]
    assert _hidden(html, "round-x_choices") == "59:40"
    assert "pending" not in html


def test_the_43_is_too_low_and_its_player_picks_the_row_holding_only_the_59(
    client: Client,
) -> None:
    round_two = {
        "row_3": "62", "row_4": "59", "row_5": "70 81 94",
        "name_1": "Anna", "card_1": "43", "name_2": "Ben", "card_2": "66",
        "name_3": "Cem", "card_3": "89",
    }
    first = _resolve(client, round_two)
    pending = text(first, cls="pending")
    assert "Anna’s 43 is lower than every row’s last card" in pending
    assert 'name="round-choose_row" value="43:1"' in first
    html = _resolve(client, {**round_two, "basis": _hidden(first, "round-basis"),
                             "choose_row": "43:1"})
    steps = texts(html, cls="step")
    assert "Anna’s 43 → 4-row" in steps[0]
    assert "Anna takes 1: 59 and the 43 starts the row." in steps[0]
    assert "To the X-Reihe: 59" in steps[0]
    assert "Rule 4: Low card" in steps[0]
    # the 66 goes behind the 62 (2nd card of the 3-row); the 89 would be its 3rd card
    assert "Ben’s 66 → 3-row" in steps[1]
    pending = text(html, cls="pending")
    assert "With the 89, Cem takes several cards" in pending
    assert 'value="89:62"' in html and 'value="89:66"' in html


def test_the_18_and_22_go_to_the_middle_row_and_the_60_to_the_bottom_row(
    client: Client,
) -> None:
    html = _resolve(client, {
        "row_3": "30", "row_4": "15", "row_5": "54",
        "name_1": "Anna", "card_1": "18", "name_2": "Ben", "card_2": "22",
        "name_3": "Cem", "card_3": "60",
    })
    steps = texts(html, cls="step")
    assert [s.split(" Rule")[0] for s in steps] == [
        "Anna’s 18 → 4-row", "Ben’s 22 → 4-row", "Cem’s 60 → 5-row"]


def test_an_x_row_given_shows_the_cards_going_to_the_x_stack(client: Client) -> None:
    first = _resolve(client, {**ROUND_ONE, "xrow_1": "50 77"})
    html = _resolve(client, {**ROUND_ONE, "xrow_1": "50 77",
                             "basis": _hidden(first, "round-basis"), "choose_x": "59:45"})
    step = texts(html, cls="step")[0]
    assert "X-Reihe afterwards: 45 · to the X-stack: 50, 77" in step


@pytest.mark.parametrize(("data", "says", "rule"), [
    # Rule 3: the 12 would be the 3-row's 3rd card.
    ({"row_3": "10 11", "row_4": "31", "row_5": "70", "name_1": "Anna", "card_1": "12",
      "name_2": "Ben", "card_2": "50"}, "Anna’s 12 → 3-row", "rule-full-row"),
    # Rule 4: the 20 is lower than every row end and Anna took the 4-row of three cards.
    ({"row_3": "50", "row_4": "31 40 45", "row_5": "70", "name_1": "Anna", "card_1": "20",
      "name_2": "Ben", "card_2": "81", "basis": "50|31 40 45|70|Anna=20/|Ben=81/",
      "choose_row": "20:1"}, "Anna’s 20 → 4-row", "rule-low-card"),
])
def test_the_x_reihe_choice_says_where_the_card_went_and_why_it_takes(
        client: Client, data: dict[str, str], says: str, rule: str) -> None:
    # While the round waits for the X-Reihe card, the answer asked "which one goes to the
    # X-Reihe?" without the row or the rule that makes the player take.
    html = _resolve(client, data)
    pending = text(html, cls="pending-take")
    assert pending.startswith(says)
    start = html.index("pending-take")
    assert f'href="/rules/{X}/#{rule}"' in html[start:html.index("</p>", start)]


def test_stale_choices_are_dropped_when_the_table_changes(client: Client) -> None:
    first = _resolve(client, ROUND_ONE)
    html = _resolve(client, {**ROUND_ONE, "row_3": "63", "basis": _hidden(first, "round-basis"),
                             "choose_x": "59:40"})
    assert "With the 59, Anna takes several cards" in text(html, cls="pending")


def test_the_players_from_the_score_sheet_fill_the_names(client: Client) -> None:
    response = client.get(reverse("rules_check", args=[X]) + "?players=Dora,Emil",
                          HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert 'name="round-name_1" value="Dora"' in html
    assert 'name="round-name_2" value="Emil"' in html


@pytest.mark.parametrize(("data", "message"), [
    ({"card_2": "59"}, "Card 59 was revealed by Anna and by Ben."),
    ({"card_2": "101"}, "Enter a number of at most 100."),
    ({"card_2": "45"}, "Card 45 already lies in a row."),
    ({"card_2": "", "card_3": ""},
     "A round needs the revealed cards of at least 2 players."),
    ({"name_2": "Anna"}, "Anna is listed twice."),
])
def test_it_rejects_impossible_rounds(client: Client, data: dict[str, str], message: str) -> None:
    html = _resolve(client, {**ROUND_ONE, **data})
    assert message in html
    assert 'class="answer' not in html


def _error_after(html: str, name: str) -> str:
    """The text of the first error shown after the input ``round-<name>`` (its field's error)."""
    start = html.index(f'name="round-{name}"')
    found = re.search(r'class="(?:text-danger small field-error|invalid-feedback)"[^>]*>([^<]*)<',
                      html[start:])
    assert found, f"no error after {name}"
    return found.group(1)


@pytest.mark.parametrize(("data", "field", "message"), [
    # Rule 1: a row takes only cards higher than its last card, so it ascends.
    ({"row_4": "40 31 45"}, "row_4",
     "The 4-row must ascend from left to right, but 31 follows 40."),
    # Rule 3: a taken row restarts with the played card, so no row is ever empty.
    ({"row_5": ""}, "row_5", "The 5-row is empty: every row always holds a card."),
    # Rule 5: X-row cards must ascend left to right.
    ({"xrow_2": "30 10"}, "xrow_2", "An X-row must ascend from left to right, but 10 follows 30."),
    ({"xrow_3": "70"}, "xrow_3", "Card 70 appears twice."),
])
def test_it_shows_an_impossible_row_or_x_row_at_its_own_field(
        client: Client, data: dict[str, str], field: str, message: str) -> None:
    html = _resolve(client, {**ROUND_ONE, **data})
    assert _error_after(html, field) == message
    assert 'class="alert alert-danger' not in html
    assert 'class="answer' not in html


def test_it_shows_an_unsorted_row_at_its_field_in_german(client: Client) -> None:
    html = _resolve(client, {**ROUND_ONE, "row_4": "40 31 45"}, language="de")
    assert _error_after(html, "row_4") == (
        "Die 4er-Reihe muss von links nach rechts aufsteigen, aber 31 folgt auf 40.")


def test_the_x_row_check_sends_a_lower_card_s_row_to_the_x_stack(client: Client) -> None:
    html = post(client, X, "xrow", {"x_row": "18 23", "card": "9"})
    assert "The 9 is lower than the X-Reihe’s last card" in html
    answer = text(html, cls="answer")
    assert "To the X-stack (2 minus points per Hornochse): 18 23" in answer
    assert "X-Reihe afterwards: 9" in answer
    assert "At the end of the deal they cost 4 minus points." in answer  # 2 × (1 + 1)


def test_the_x_stack_cost_counts_hornochsen_twice(client: Client) -> None:
    html = post(client, X, "xrow", {"x_row": "10 20 55", "card": "5"})
    # 10 and 20 have 3 Hornochsen each, 55 has 7: 2 × 13
    assert "At the end of the deal they cost 26 minus points." in text(html, cls="stack-cost")
    assert 'href="/rules/x-nimmt/#x-row"' in html


def test_the_x_row_check_adds_a_higher_card(client: Client) -> None:
    html = post(client, X, "xrow", {"x_row": "18 23", "card": "40"})
    assert "The 40 joins the X-Reihe." in html
    assert "X-Reihe afterwards: 18 23 40" in text(html, cls="answer")


def test_the_x_row_check_rejects_a_card_twice(client: Client) -> None:
    html = post(client, X, "xrow", {"x_row": "18 23", "card": "23"})
    assert "Card 23 already lies in the X-row." in html


# ------------------------------------------------------------------------------- Freaky

FREAKY = "freaky"


def _cards(prefix_cards: dict[str, tuple[str, str, str]]) -> dict[str, str]:
    data: dict[str, str] = {}
    for slot, (bg, circle, number) in prefix_cards.items():
        data[f"{slot}_bg"], data[f"{slot}_circle"], data[f"{slot}_number"] = bg, circle, number
    return data


ROW_ENDS = {
    "end_1": ("yellow", "red", "6"),
    "end_2": ("green", "blue", "1"),
    "end_3": ("red", "green", "2"),
}


def test_the_4_may_join_row_1_by_background_and_row_2_by_circle(client: Client) -> None:
    html = post(client, FREAKY, "place", _cards({**ROW_ENDS, "card": ("yellow", "blue", "4")}))
    answer = text(html, id_="answer-place")
    assert "row 1 (same background colour)" in answer
    assert "row 2 (same circle colour)" in answer
    assert "row 3" not in answer
    assert "It fits a row, so it may not open a new row." in answer


@pytest.mark.parametrize(("language", "says"), [
    ("en", "row 1 (same background colour, circle colour and number)"),
    ("de", "Reihe 1 (gleiche Hintergrundfarbe, Kreisfarbe und Zahl)"),
])
def test_a_card_sharing_every_feature_names_them_in_a_sentence(
        client: Client, language: str, says: str) -> None:
    html = post(client, FREAKY, "place", _cards({"end_1": ("yellow", "red", "6"),
                                                 "card": ("yellow", "red", "6")}),
                language=language)
    assert says in text(html, id_="answer-place")


def test_the_yellow_violet_6_that_fits_nowhere_opens_a_new_row(client: Client) -> None:
    ends = {"end_1": ("red", "red", "1"), "end_2": ("green", "blue", "2"),
            "end_3": ("blue", "green", "3")}
    html = post(client, FREAKY, "place", _cards({**ends, "card": ("yellow", "violet", "6")}))
    answer = text(html, id_="answer-place")
    assert "Your card fits no row: it must open a new row." in answer
    assert 'href="/rules/freaky/#new-row"' in html


def test_with_no_row_on_the_table_the_card_opens_one(client: Client) -> None:
    html = post(client, FREAKY, "place", _cards({"card": ("yellow", "violet", "6")}))
    assert "No row is on the table: your card opens a new row." in text(html, id_="answer-place")


def test_a_row_with_four_yellow_circles_may_be_collected(client: Client) -> None:
    row = {f"c_{n}": (bg, "yellow", num) for n, (bg, num) in
           enumerate([("red", "1"), ("blue", "2"), ("green", "3"), ("violet", "5")], start=1)}
    html = post(client, FREAKY, "collect", _cards(row))
    answer = text(html, id_="answer-collect")
    assert "Yes: you may collect this row of 4 cards." in answer
    assert "4× circle colour yellow" in answer


def test_a_row_with_four_6s_may_be_collected(client: Client) -> None:
    row = {f"c_{n}": (bg, circle, "6") for n, (bg, circle) in enumerate(
        [("red", "blue"), ("blue", "red"), ("green", "orange"), ("violet", "green"),
         ("orange", "violet")], start=1)}
    html = post(client, FREAKY, "collect", _cards(row))
    answer = text(html, id_="answer-collect")
    assert "Yes: you may collect this row of 5 cards." in answer
    assert "5× number 6" in answer


def test_the_collect_check_takes_a_row_as_long_as_the_table_can_hold(client: Client) -> None:
    # "Checks take as many rows and as many cards per row as a real table can hold (no
    # arbitrary small limits)": 105 cards, all but one other player's hand of 3.
    row = {f"c_{n}": ("red", "blue", str(1 + n % 3)) for n in range(1, 106)}
    html = post(client, FREAKY, "collect", _cards(row))
    assert "Yes: you may collect this row of 105 cards." in text(html, id_="answer-collect")


def test_the_place_check_takes_every_row_a_table_can_hold(client: Client) -> None:
    # 104 rows (every card on the table heading its own); the card fits only the last one.
    ends = {f"end_{n}": ("red", "red", "1") for n in range(1, 104)}
    ends["end_104"] = ("blue", "green", "3")
    html = post(client, FREAKY, "place", _cards({**ends, "card": ("blue", "blue", "2")}))
    answer = text(html, id_="answer-place")
    assert "Your card may join: row 104 (same background colour)" in answer, answer[:300]


def test_a_row_with_no_value_four_times_may_not_be_collected(client: Client) -> None:
    row = {f"c_{n}": card for n, card in enumerate(
        [("red", "blue", "1"), ("red", "green", "1"), ("yellow", "green", "2"),
         ("yellow", "orange", "2")], start=1)}
    html = post(client, FREAKY, "collect", _cards(row))
    assert "No: no feature appears four times in this row." in text(html, id_="answer-collect")


def test_a_half_picked_card_gets_a_clear_message(client: Client) -> None:
    html = post(client, FREAKY, "place", {"card_bg": "yellow", "card_number": "4"})
    assert "Pick all three: background colour, circle colour and number." in html
    assert 'id="answer-place"' not in html


@pytest.mark.parametrize("card", [("red", "red", "7"), ("red", "pink", "2")])
def test_a_value_not_on_the_picker_is_refused_once_and_truly(
        client: Client, card: tuple[str, str, str]) -> None:
    # All three were picked: "Pick all three" beside "not one of the available choices"
    # was untrue.
    html = post(client, FREAKY, "place", _cards({"end_1": ("red", "blue", "1"), "card": card}))
    errors = texts(html, cls="text-danger")
    assert len(errors) == 1 and "is not one of the available choices" in errors[0]
    assert 'id="answer-place"' not in html


def test_a_colour_that_does_not_exist_is_refused(client: Client) -> None:
    html = post(client, FREAKY, "place", _cards({"card": ("pink", "blue", "4")}))
    assert "Select a valid choice. pink is not one of the available choices." in html
    assert 'id="answer-place"' not in html


# ---------------------------------------------------------------------------- 11 nimmt!

ELF = "elf-nimmt"


def test_on_96_the_cards_97_to_100_and_1_to_6_fit(client: Client) -> None:
    html = post(client, ELF, "play", {"tops": "96", "hand": "97 100 1 6 7 95"})
    items = texts(html, id_="answer-play")[0]
    for card in ("97", "100", "1", "6"):
        assert f"{card} fits on pile 1" in items
    assert "7 fits on no pile" in items
    assert "95 fits on no pile" in items


@pytest.mark.parametrize(("language", "says"), [
    ("en", ["46 fits on pile 1 or 2", "50 fits on pile 1 or 2", "95 fits on pile 3"]),
    ("de", ["46 passt auf Stapel 1 oder 2", "50 passt auf Stapel 1 oder 2",
            "95 passt auf Stapel 3"]),
])
def test_a_card_that_fits_several_piles_names_them_as_a_choice(
        client: Client, language: str, says: list[str]) -> None:
    # A card goes on one pile: "fits on pile 1, 2" read as if it went on both.
    html = post(client, ELF, "play", {"tops": "40 45 90", "hand": "46 50 95"},
                language=language)
    items = texts(html[html.index('id="answer-play"'):], cls="fits")
    assert items == says


def test_the_5_on_the_98_has_distance_7(client: Client) -> None:
    html = post(client, ELF, "play", {"tops": "98", "hand": "5"})
    table = text(html, cls="distances")
    assert table.endswith("5 7")
    assert "5 fits on pile 1" in text(html, id_="answer-play")


def test_with_a_bull_card_all_cards_34_to_43_go_on_the_33(client: Client) -> None:
    data = {"tops": "33", "hand": "34 37 43 44", "bulls": "1"}
    post(client, ELF, "play", data)  # the first post shows one play field per pile
    html = post(client, ELF, "play", {**data, "play_0": "34 37 43"})
    verdict = text(html, cls="play-verdict")
    assert "The play is allowed." in verdict
    assert "Top cards afterwards: 43" in verdict


def test_without_a_bull_card_several_cards_are_refused(client: Client) -> None:
    html = post(client, ELF, "play", {"tops": "33", "hand": "34 37", "bulls": "0",
                                      "play_0": "34 37"})
    assert "Without a bull card you put down exactly one card." in text(html, cls="play-verdict")


@pytest.mark.parametrize(("language", "verdict", "decided"), [
    ("en", "Put the cards on the pile with 95 in ascending order: 96 before 3.",
     "Decided by: Several cards across the 100"),
    ("de", "Lege die Karten aufsteigend auf den Stapel mit der 95: 96 vor 3.",
     "Entschieden durch: Mehrere Karten über die 100 hinweg"),
])
def test_a_bull_card_play_across_the_100_names_the_wrap_aware_order(
        client: Client, language: str, verdict: str, decided: str) -> None:
    # Bull cards: "put down in ascending (wrap-aware) order, highest on top": on 95 the 3
    # comes after the 96.
    html = post(client, ELF, "play", {"tops": "95", "hand": "96 3", "bulls": "1",
                                      "play_0": "3 96"}, language=language)
    assert verdict in text(html, cls="play-verdict")
    assert decided in text(html, id_="answer-play")
    assert 'href="/rules/elf-nimmt/#app-decides-wrap-order"' in html


@pytest.mark.parametrize(("data", "field", "en", "de"), [
    ({"tops": "33 50", "hand": "34", "play_1": "35"}, "play_1",
     "Card 35 is not in the hand.", "Karte 35 ist nicht auf der Hand."),
    ({"tops": "33 50", "hand": "34 51", "bulls": "2", "play_0": "34", "play_1": "51 34"},
     "play_1", "Card 34 is put down twice.", None),
    ({"tops": "33 50", "play_0": "50"}, "play_0", "Card 50 already lies on the table.", None),
])
def test_a_play_that_cannot_be_made_is_refused_at_its_pile(
        client: Client, data: dict[str, str], field: str, en: str, de: str | None) -> None:
    # A turn is "play a card onto a discard pile": from the hand, once, not from the table.
    post(client, ELF, "play", {"tops": data["tops"], "hand": data.get("hand", "")})
    for language, message in (("en", en), ("de", de)):
        html = post(client, ELF, "play", data, language=language)
        errors = html[html.index(f'name="play-{field}"'):]
        found = re.search(r'<div class="text-danger small">([^<]*)</div>', errors)
        assert found is not None
        if message is not None:
            assert found.group(1) == message
        assert 'id="answer-play"' not in html
        assert "Decided by" not in html and "Entschieden durch" not in html


@pytest.mark.parametrize(("language", "decided"), [
    ("en", "Decided by: Rule 3: After 100 comes 1"),
    ("de", "Entschieden durch: Regel 3: Nach der 100 kommt die 1"),
])
def test_the_5_on_the_98_is_allowed_by_the_wrap_around(
        client: Client, language: str, decided: str) -> None:
    # Rule 3 "wrap-around after 100": on 98, the 5 has distance 7.
    html = post(client, ELF, "play", {"tops": "98", "hand": "5", "play_0": "5"},
                language=language)
    assert decided in text(html, id_="answer-play")
    assert 'class="rule-link" href="/rules/elf-nimmt/#rule-wrap-around"' in html


@pytest.mark.parametrize(("data", "links"), [
    ({"tops": "31", "hand": "36", "play_0": "36"}, []),
    ({"tops": "98", "hand": "5", "play_0": "5"}, ["rule-wrap-around"]),
    ({"tops": "33", "hand": "34 37", "bulls": "1", "play_0": "34 37"}, ["bull-cards"]),
    ({"tops": "40 45", "hand": "46 50", "play_0": "46", "play_1": "50"}, ["bull-cards"]),
    ({"tops": "95", "hand": "96 3", "bulls": "1", "play_0": "96 3"},
     ["bull-cards", "rule-wrap-around"]),
])
def test_the_play_verdict_links_only_the_rules_the_play_touches(
        client: Client, data: dict[str, str], links: list[str]) -> None:
    # The verdict under a single 36 on the 31 cited "Bull cards" and "After 100 comes 1",
    # neither of which has anything to do with it.
    html = post(client, ELF, "play", data)
    start = html.index("play-verdict")
    verdict = html[start:html.index("#rule-ascending", start)]  # the rules under the table
    assert re.findall(r'href="/rules/elf-nimmt/#([\w-]+)"', verdict) == links


def test_a_card_11_away_is_refused_in_a_bull_card_play(client: Client) -> None:
    html = post(client, ELF, "play", {"tops": "33", "hand": "34 44", "bulls": "1",
                                      "play_0": "34 44"})
    assert "Card 44 does not fit on the pile with 33: it must be 1 to 10 above." in text(
        html, cls="play-verdict")


def test_one_bull_card_allows_only_one_pile(client: Client) -> None:
    html = post(client, ELF, "play", {"tops": "96 20", "hand": "99 3 25", "bulls": "1",
                                      "play_0": "99 3", "play_1": "25"})
    assert "With 1 bull card you may put cards on 1 pile only, not 2." in text(
        html, cls="play-verdict")


def test_the_worked_example_36_then_46_on_31(client: Client) -> None:
    first = post(client, ELF, "play", {"tops": "31", "hand": "36", "play_0": "36"})
    assert "Top cards afterwards: 36" in text(first, cls="play-verdict")
    second = post(client, ELF, "play", {"tops": "36", "hand": "46", "play_0": "46"})
    assert "Top cards afterwards: 46" in text(second, cls="play-verdict")


def test_with_nothing_from_47_to_56_the_player_must_take(client: Client) -> None:
    html = post(client, ELF, "play", {"tops": "46", "hand": "12 40 57 90"})
    assert "None of your cards fits anywhere: you must take a pile." in text(
        html, cls="must-take")


def test_88_92_98_and_5_go_on_the_87_one_after_the_other(client: Client) -> None:
    tops = "23 87"
    for top, card in (("87", "88"), ("88", "92"), ("92", "98"), ("98", "5")):
        html = post(client, ELF, "play", {"tops": tops.replace("87", top), "hand": card,
                                          "play_1": card})
        assert f"Top cards afterwards: 23 · {card}" in text(html, cls="play-verdict")


def test_the_next_player_has_nothing_for_23_or_5_and_must_take(client: Client) -> None:
    html = post(client, ELF, "play", {"tops": "23 5", "hand": "40 60 80"})
    assert "you must take a pile" in text(html, cls="must-take")


def test_taking_the_3_card_pile_earns_a_bull_card(client: Client) -> None:
    html = post(client, ELF, "take", {"size": "3", "mine": "0", "others": "0 0"})
    assert "You get a bull card from the supply (9 left)." in text(html, id_="answer-take")


def test_taking_the_1_card_pile_23_earns_no_bull_card(client: Client) -> None:
    html = post(client, ELF, "take", {"size": "1", "mine": "0", "others": "1 0"})
    assert "A pile of 1 card earns no bull card." in text(html, id_="answer-take")


def test_with_the_supply_empty_the_taker_chooses_among_the_players_with_most(
    client: Client,
) -> None:
    html = post(client, ELF, "take", {"size": "4", "mine": "2", "others": "4 4"})
    answer = text(html, id_="answer-take")
    assert answer.startswith(
        "The supply is empty. Player 2 and Player 3 hold the most bull cards (4 each). You may "
        "take one from Player 2 or Player 3 (your choice); you do not have to.")
    assert 'href="/rules/elf-nimmt/#app-decides-stealing"' in html


def test_with_the_supply_empty_a_single_player_with_most_loses_one(client: Client) -> None:
    html = post(client, ELF, "take", {"size": "3", "mine": "1", "others": "5 4"})
    assert text(html, id_="answer-take").startswith(
        "The supply is empty. Player 2 holds the most bull cards (5). You may take one from "
        "Player 2; you do not have to.")


@pytest.mark.parametrize(("data", "message"), [
    ({"tops": "31 31", "hand": "35"}, "Card 31 is in the list twice."),
    ({"tops": "101", "hand": "35"}, "There is no card 101: the cards go from 1 to 100."),
    ({"tops": "31", "hand": "35 35"}, "Card 35 is in the list twice."),
    ({"tops": "31"}, "Enter your hand cards."),
    ({"tops": "31", "hand": "31"}, "Card 31 cannot be both in the hand and on the table."),
    ({"tops": "31", "hand": "0"}, "There is no card 0: the cards go from 1 to 100."),
])
def test_it_rejects_impossible_tables(client: Client, data: dict[str, str], message: str) -> None:
    html = post(client, ELF, "play", data)
    assert message in html
    assert 'id="answer-play"' not in html


@pytest.mark.parametrize(("others", "count"), [("1 1 1 1 1 1 1", 8), ("0 " * 10, 11)])
def test_the_take_check_refuses_more_than_7_players_with_the_player_range(
        client: Client, others: str, count: int) -> None:
    # 11 nimmt! is for 2–7 players: the taker plus 7 others are 8.
    for language, words in (("en", f"11 nimmt! is played by 2 to 7 players, not {count}."),
                            ("de", f"11 nimmt! spielen 2 bis 7 Spieler, nicht {count}.")):
        html = post(client, ELF, "take", {"size": "4", "mine": "1", "others": others},
                    language=language)
        assert texts(html, cls="invalid-feedback") == [words]
        assert 'id="answer-take"' not in html


def test_a_bull_card_from_the_supply_does_not_point_to_the_stealing_rule(client: Client) -> None:
    # "If the supply is empty, they MAY take one": with cards in the supply nobody steals.
    html = post(client, ELF, "take", {"size": "3", "mine": "3", "others": "3 3"})
    assert "You get a bull card from the supply (0 left)." in text(html, id_="answer-take")
    assert "#bull-card-steal" not in text_html(html, "answer-take")
    html = post(client, ELF, "take", {"size": "3", "mine": "4", "others": "3 3"})
    assert "#bull-card-steal" in text_html(html, "answer-take")


def text_html(html: str, id_: str) -> str:
    """The markup of the element with ``id_`` up to its closing div."""
    start = html.index(f'id="{id_}"')
    return html[start:html.index("</div>", start)]


@pytest.mark.parametrize(("others", "en", "de"), [
    ("a 2", "“a” is not a number of bull cards.", "„a“ ist keine Anzahl Bullenkarten."),
    ("11 2", "Nobody holds 11 bull cards: there are only 10.",
     "Niemand hat 11 Bullenkarten: es gibt nur 10."),
    ("1 " * 30, "Enter one number of bull cards per other player, at most 21 numbers.",
     "Gib pro anderem Spieler eine Zahl Bullenkarten ein, höchstens 21 Zahlen."),
])
def test_the_other_players_bull_cards_are_refused_as_counts_not_card_numbers(
        client: Client, others: str, en: str, de: str) -> None:
    # The field holds how many bull cards each other player has (0 to 10), not cards:
    # "There is no card 11" or "not a card number" would send the player looking for a card.
    for language, message in (("en", en), ("de", de)):
        html = post(client, ELF, "take", {"size": "3", "mine": "1", "others": others},
                    language=language)
        assert texts(html, cls="invalid-feedback") == [message]
        assert 'id="answer-take"' not in html


def test_more_than_10_bull_cards_are_refused(client: Client) -> None:
    html = post(client, ELF, "take", {"size": "3", "mine": "5", "others": "4 3"})
    assert "There are only 10 bull cards, but 12 are held." in html


# ----------------------------------------------------------------------------------- 13

DREIZEHN = "dreizehn"


def test_a_yellow_2_on_12_makes_14_and_takes_the_cards(client: Client) -> None:
    html = post(client, DREIZEHN, "play", {
        "target": "yellow", "cards": "5 4 1 2", "colour": "yellow", "value": "2"})
    answer = text(html, id_="answer")
    assert "The total goes over 13: the player takes 5 4 (red) 1 2" in answer
    assert "The played card stays alone on the target. New total: 2." in answer
    assert 'href="/rules/dreizehn/#over-13"' in html


@pytest.mark.parametrize(("language", "message"), [
    ("en", "A yellow card shows 1, 2, 5 or 7, not 4."),
    ("de", "Eine Karte der Farbe Gelb zeigt 1, 2, 5 oder 7, nicht 4."),
])
def test_a_yellow_4_is_refused_at_the_value_of_the_card(
        client: Client, language: str, message: str) -> None:
    # Components: yellow, green and blue cards show 1, 2, 5 and 7; only the red cards are 4s.
    html = post(client, DREIZEHN, "play", {
        "target": "yellow", "cards": "", "colour": "yellow", "value": "4"}, language=language)
    value_fieldset = html[html.index('name="play-colour"'):html.index('name="play-value"')]
    assert f'<div class="text-danger small">{message}</div>' in value_fieldset
    assert 'class="alert alert-danger' not in html
    assert 'id="answer"' not in html


def test_a_coloured_empty_target_in_the_variant_is_refused_at_the_target(client: Client) -> None:
    # Variant: "the first coloured card played on an empty target fixes its colour".
    html = post(client, DREIZEHN, "play", {"variant": "on", "target": "green", "cards": "",
                                           "colour": "green", "value": "2"}, language="de")
    assert ("Zielscheibe" in html[html.index('name="play-target"') - 2000:
                                  html.index('name="play-colour"')])
    assert 'id="answer"' not in html


def test_the_check_opened_for_the_variant_starts_with_a_target_without_colour(
        client: Client) -> None:
    html = client.get(reverse("rules_check", args=[DREIZEHN]) + "?variant=first-card",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r'name="play-target"[^>]*value="none"[^>]* checked', html)


def test_exactly_13_is_safe(client: Client) -> None:
    html = post(client, DREIZEHN, "play", {
        "target": "blue", "cards": "7 5", "colour": "red", "value": "4"})
    answer = text(html, id_="answer")
    assert "Yes, the card may go there." in answer
    assert "New total: 16" not in answer
    html = post(client, DREIZEHN, "play", {
        "target": "blue", "cards": "7 5", "colour": "blue", "value": "1"})
    assert "New total: 13. Nobody takes anything." in text(html, id_="answer")


def test_a_red_4_going_over_13_stays_alone(client: Client) -> None:
    html = post(client, DREIZEHN, "play", {
        "target": "blue", "cards": "7 5", "colour": "red", "value": "4"})
    answer = text(html, id_="answer")
    assert "the player takes 7 5" in answer
    assert "New total: 4." in answer


def test_a_coloured_card_on_another_colour_is_refused(client: Client) -> None:
    html = post(client, DREIZEHN, "play", {
        "target": "green", "cards": "", "colour": "blue", "value": "7"})
    assert "No: a coloured card only goes on the target of its colour." in text(html, id_="answer")


def test_in_the_variant_the_first_coloured_card_fixes_the_colour(client: Client) -> None:
    html = post(client, DREIZEHN, "play", {
        "variant": "on", "target": "none", "cards": "4", "colour": "blue", "value": "5",
        "elsewhere": "yellow"})
    assert "New total: 9. Nobody takes anything." in text(html, id_="answer")


@pytest.mark.parametrize(("language", "says"), [
    ("en", "A red 4 may go on any target. The nasty red 4s"),
    ("de", "Eine rote 4 darf auf jede Zielscheibe. Die fiesen roten Vieren"),
])
@pytest.mark.parametrize("cards", ["5", "7 5"])
def test_a_red_4_on_a_green_target_is_allowed_by_the_red_4_rule(
        client: Client, language: str, says: str, cards: str) -> None:
    # "a red 4 on any target": the answer said only "Yes" and named the over-13 rule, so
    # the table arguing about a red 4 on green never saw the rule that allows it.
    html = post(client, DREIZEHN, "play", {
        "target": "green", "cards": cards, "colour": "red", "value": "4"}, language=language)
    assert text(html, cls="why-allowed") == says
    assert 'href="/rules/dreizehn/#red-fours"' in text_html(html, "answer")


@pytest.mark.parametrize(("language", "says"), [
    ("en", "It is the first coloured card on this target: the target is blue for the rest of "
           "the deal."),
    ("de", "Sie ist die erste farbige Karte auf dieser Zielscheibe: die Zielscheibe ist für "
           "den Rest des Durchgangs blau."),
])
def test_in_the_variant_the_answer_says_the_first_coloured_card_gives_the_colour(
        client: Client, language: str, says: str) -> None:
    # Variant: "the first coloured card played on an empty target fixes its colour for the
    # deal" (red 4s give no colour).
    html = post(client, DREIZEHN, "play", {
        "variant": "on", "target": "none", "cards": "4", "colour": "blue", "value": "5",
        "elsewhere": "yellow"}, language=language)
    assert text(html, cls="why-allowed").startswith(says)
    assert 'href="/rules/dreizehn/#variant-open-targets"' in text_html(html, "answer")


def test_a_coloured_card_on_its_own_target_names_the_colour_rule(client: Client) -> None:
    html = post(client, DREIZEHN, "play", {
        "target": "green", "cards": "5", "colour": "green", "value": "2"})
    assert text(html, cls="why-allowed").startswith(
        "A coloured card goes on the target of its colour.")
    assert 'href="/rules/dreizehn/#colours"' in text_html(html, "answer")


def test_in_the_variant_a_colour_already_elsewhere_is_refused(client: Client) -> None:
    html = post(client, DREIZEHN, "play", {
        "variant": "on", "target": "none", "cards": "", "colour": "blue", "value": "5",
        "elsewhere": "blue"})
    assert "No: that colour already lies on another target." in text(html, id_="answer")


@pytest.mark.parametrize(("data", "message"), [
    ({"colour": "yellow", "value": "4"}, "A yellow card shows 1, 2, 5 or 7, not 4."),
    ({"value": "3"}, "Select a valid choice. 3 is not one of the available choices."),
    ({"cards": "7 7"}, "These cards total 14, but two or more cards on a target never total "
                       "more than 13"),
    ({"cards": "3"}, "A yellow card shows 1, 2, 5 or 7, not 3."),
    ({"target": "none"}, "Only in the variant can a target be without a colour."),
])
def test_it_rejects_cards_13_does_not_have(client: Client, data: dict[str, str],
                                           message: str) -> None:
    html = post(client, DREIZEHN, "play", {
        "target": "yellow", "cards": "", "colour": "yellow", "value": "2", **data})
    assert message in html
    assert 'id="answer"' not in html


# ------------------------------------------------------------------------------ routing


def test_an_unknown_game_is_404(client: Client) -> None:
    assert client.get("/rules/skat/check/").status_code == 404
    assert client.post("/rules/skat/check/", {"check": "x"}).status_code == 404


@pytest.mark.parametrize("game", [DREI, X, FREAKY, ELF, DREIZEHN])
def test_every_check_page_is_public(client: Client, game: str) -> None:
    response = client.get(reverse("rules_check", args=[game]))
    assert response.status_code == 200
    assert b'<form method="post"' in response.content


def test_the_next_round_starts_on_the_table_the_round_left(client: Client) -> None:
    first = _resolve(client, {**ROUND_ONE, "xrow_1": "20"})
    html = _resolve(client, {**ROUND_ONE, "xrow_1": "20", "basis": _hidden(first, "round-basis"),
                             "choose_x": "59:40", "next": "1"})
    values = dict(re.findall(r'<input[^>]*name="round-(\w+)"[^>]*value="([^"]*)"', html))
    assert values["row_3"] == "62"
    assert values["row_4"] == "59"
    assert values["row_5"] == "70 81 94"
    assert values["xrow_1"] == "20 40"
    assert values["card_1"] == ""
    assert values["name_2"] == "Ben"
    assert 'class="answer' not in html


def test_the_players_travel_from_the_check_to_the_live_helper(client: Client) -> None:
    html = post(client, ELF, "take", {"size": "3", "mine": "0", "others": "0"},
                query="?players=Anna,Ben")
    assert 'href="/tools/bulls/?players=Anna%2CBen"' in html
    assert 'action="/rules/elf-nimmt/check/?players=Anna%2CBen"' in html
