"""Bad input on the rules checks and helpers: a clear message at the field it is about,
the ranges of players held, and never a server error (fuzzed a bit)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.companion.test_rules_checks import post, text

NAME_41 = "A" * 41


def _field_errors(html: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", "", m).split()) for m in re.findall(
        r'<div class="(?:invalid-feedback[^"]*|text-danger small[^"]*)"[^>]*>(.*?)</div>', html,
        re.S)]


@pytest.mark.parametrize(("language", "message"), [
    ("en", "Ensure this value has at most 40 characters (it has 41)."),
    ("de", "Bitte sicherstellen, dass der Wert aus höchstens 40 Zeichen besteht. "
           "(Er besteht aus 41 Zeichen.)"),
])
def test_a_41_character_name_in_the_round_check_is_told_at_its_field(
    client: Client, language: str, message: str,
) -> None:
    html = post(client, "x-nimmt", "round", {
        "row_3": "12", "row_4": "15", "row_5": "54", "name_1": NAME_41, "card_1": "18",
        "name_2": "Ben", "card_2": "22"}, language=language)
    assert re.search(r'class="form-control is-invalid" name="round-name_1"', html)
    assert message in _field_errors(html)
    assert 'id="answer"' not in html


def test_a_name_listed_twice_is_told_at_the_second_name(client: Client) -> None:
    html = post(client, "x-nimmt", "round", {
        "row_3": "12", "row_4": "15", "row_5": "54", "name_1": "Anna", "card_1": "18",
        "name_2": "anna", "card_2": "22"})
    assert re.search(r'class="form-control is-invalid" name="round-name_2"', html)
    assert "anna is listed twice." in _field_errors(html)


@pytest.mark.parametrize(("language", "message"), [
    ("en", "11 nimmt! is played by 2 to 7 players, not 1."),
    ("de", "11 nimmt! spielen 2 bis 7 Spieler, nicht 1."),
])
def test_the_take_check_with_no_other_player_is_refused_at_that_field(
    client: Client, language: str, message: str,
) -> None:
    html = post(client, "elf-nimmt", "take", {"size": "3", "mine": "0", "others": ""},
                language=language)
    assert 'id="answer-take"' not in html
    assert message in _field_errors(html)


def test_the_take_check_with_eleven_players_is_refused(client: Client) -> None:
    html = post(client, "elf-nimmt", "take", {"size": "3", "mine": "0",
                                              "others": "0 0 0 0 0 0 0 0 0 0"})
    assert _field_errors(html) == ["11 nimmt! is played by 2 to 7 players, not 11."]
    assert 'id="answer-take"' not in html


def test_a_check_page_opened_with_too_many_players_says_so(client: Client) -> None:
    response = client.get(reverse("rules_check", args=["x-nimmt"]) + "?players=A,B,C,D,E",
                          HTTP_ACCEPT_LANGUAGE="en")
    assert "X nimmt! is played by 2 to 4 players, not 5." in text(
        response.content.decode(), cls="players-error")


# ------------------------------------------------------------------- bull cards


@pytest.mark.parametrize(("players", "message"), [
    ("Anna", "11 nimmt! is played by 2 to 7 players, not 1."),
    ("A,B,C,D,E,F,G,H", "11 nimmt! is played by 2 to 7 players, not 8."),
    ("Anna,anna", "anna is listed twice."),
    (NAME_41 + ",Ben", "A name has at most 40 characters"),
])
def test_the_tracker_refuses_players_that_cannot_play_and_keeps_what_was_typed(
    client: Client, players: str, message: str,
) -> None:
    response = client.get(reverse("tool", args=["bulls"]), {"players": players},
                          HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert any(message in error for error in _field_errors(html))
    assert f'value="{players}"' in html
    assert 'class="display-6 fw-bold supply"' not in html


@pytest.mark.parametrize("take", ["3", "9", "-1", "²", "1" * 5000])
def test_a_take_out_of_range_is_a_clear_message(client: Client, take: str) -> None:
    response = client.get(reverse("tool", args=["bulls"]),
                          {"players": "Anna,Ben,Cem", "take": take},
                          HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'class="alert alert-danger py-2" role="alert">(There is no such player\.|'
                     r"Enter a number of at most 6\.|Enter a number of at least 0\.|"
                     r"Enter a whole number with the digits 0–9\.)<", html)


def test_the_tracker_offers_to_give_a_stolen_bull_card_back(client: Client) -> None:
    response = client.get(reverse("tool", args=["bulls"]), {
        "players": "Anna,Ben,Cem", "held": "5.3.2", "ev": "steal.0.1"},
        HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert "Anna and Ben held the most bull cards (4 each): Anna takes one from Ben." in html
    undo = re.search(r'class="btn btn-outline-secondary btn-sm mb-2 undo-steal" href="\?([^"]+)"',
                     html)
    assert undo is not None
    assert undo.group(1) == "players=Anna%2CBen%2CCem&amp;held=4.4.2&amp;ev=kept.0"


@pytest.mark.parametrize(("language", "line"), [
    ("en", "Anna takes no bull card from Ben or Cem: taking one is allowed, not required."),
    ("de", "Anna nimmt Ben oder Cem keine Bullenkarte weg: Das darf man, muss es aber nicht."),
])
def test_declining_to_steal_says_from_whom_and_why(
    client: Client, language: str, line: str,
) -> None:
    # Stealing is optional ("darf"): declining names the players one could have taken from.
    html = client.get(reverse("tool", args=["bulls"]), {
        "players": "Anna,Ben,Cem", "held": "2.4.4", "ev": "kept.0"},
        HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert line in html


def test_a_taker_alone_with_the_most_is_told_why_in_german(client: Client) -> None:
    response = client.get(reverse("tool", args=["bulls"]), {
        "players": "Anna,Ben", "held": "6.4", "take": "0"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302
    assert response["Location"].endswith("ev=none.0")
    html = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ("Der Vorrat ist leer und Anna hat allein die meisten Bullenkarten (6): es gibt "
            "niemanden, dem Anna eine wegnehmen kann, also bekommt Anna keine.") in html


# ---------------------------------------------------------------------- targets


@pytest.mark.parametrize(("query", "total"), [("?y=7.7", 14), ("?y=4.4.4.4", 16)])
def test_the_target_helper_refuses_a_target_that_cannot_exist(
    client: Client, query: str, total: int,
) -> None:
    html = client.get(reverse("tool", args=["targets"]) + query,
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert (f"These cards total {total}, but two or more cards on a target never total more "
            "than 13: the card that went over would lie there alone.") in html


@pytest.mark.parametrize(("query", "message"), [
    ("?players=A,B,C&taken=0.0.0.5_0.0.0.4_0.0.0.0",
     "There are only 8 red 4s, but 9 are counted here."),
    ("?players=A,B,C&taken=8.0.0.0_7.0.0.0_0.0.0.0",
     "There are only 14 yellow cards, but 15 are counted here."),
    ("?players=A,B,C&taken=1.0.0.0", "The counts of taken cards do not match the players"),
    ("?players=A,B,C&taken=x.0.0.0_0.0.0.0_0.0.0.0",
     "The counts of taken cards do not match the players"),
    ("?players=A,B", "13 is played by 3 to 6 players, not 2."),
    ("?y=3", "A yellow card shows 1, 2, 5 or 7, not 3."),
    ("?y=x", "“x” is not a card number."),
    ("?target=yellow&card=9", "There is no such card."),
    ("?target=purple&card=1", "There is no such target."),
    ("?variant=first-card&t1=pink:1", "A target is yellow, green or blue, not “pink”."),
    ("?variant=first-card&t1=blue:5&t2=blue:2", "The colour blue cannot be on two targets."),
])
def test_the_target_helper_validates_its_state(client: Client, query: str, message: str) -> None:
    response = client.get(reverse("tool", args=["targets"]) + query, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert message in response.content.decode()


def test_the_target_helper_plays_the_colour_by_first_card_variant(client: Client) -> None:
    response = client.get(reverse("tool", args=["targets"])
                          + "?variant=first-card&target=t2&card=b5",
                          HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    location = response["Location"]
    assert "variant=first-card" in location and "t2=blue%3A5" in location
    html = client.get(location, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The player: blue 5 on blue, total 5." in html
    refused = client.get(location + "&target=t1&card=b2", HTTP_ACCEPT_LANGUAGE="en")
    assert "The colour blue already lies on another target." in refused.content.decode()


def test_the_target_helper_links_to_the_variant(client: Client) -> None:
    html = client.get(reverse("tool", args=["targets"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="?variant=first-card">Play the variant: colour by the first card</a>' in html


# ------------------------------------------------------------------------ Freaky


def _card(prefix: str, slot: str, bg: str, circle: str, number: str) -> dict[str, str]:
    return {f"{prefix}-{slot}_bg": bg, f"{prefix}-{slot}_circle": circle,
            f"{prefix}-{slot}_number": number}


def test_a_card_fitting_only_a_sixth_row_is_told_to_join_it(client: Client) -> None:
    data = {"check": "place"}
    for n in range(1, 6):
        data |= _card("place", f"end_{n}", "red", "red", "1")
    data |= _card("place", "end_6", "blue", "blue", "4")
    data |= _card("place", "card", "green", "green", "4")
    html = client.post(reverse("rules_check", args=["freaky"]), data,
                       HTTP_ACCEPT_LANGUAGE="en").content.decode()
    answer = text(html, id_="answer-place")
    assert "Your card may join: row 6 (same number)" in answer
    assert 'name="place-end_7_bg"' in html  # one more empty row to fill


def test_a_broken_row_is_refused_at_the_card_that_breaks_it(client: Client) -> None:
    data = {"check": "collect"}
    data |= _card("collect", "c_1", "red", "blue", "1")
    data |= _card("collect", "c_2", "red", "green", "2")
    data |= _card("collect", "c_3", "yellow", "orange", "3")
    html = client.post(reverse("rules_check", args=["freaky"]), data,
                       HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="answer-collect"' not in html
    slot = html[html.index('name="collect-c_3_bg"'):html.index('name="collect-c_4_bg"')]
    assert ("Card 3 cannot lie there: it shares no feature with card 2 before it, so it could "
            "not have joined the row.") in slot


def test_another_row_can_be_added_without_checking(client: Client) -> None:
    html = client.post(reverse("rules_check", args=["freaky"]), {
        "check": "place", "place-add": "1"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="place-end_4_bg"' in html
    assert "Pick the background colour" not in html


# -------------------------------------------------------------------------- fuzz

NASTY = ["", "²", "①", "٣", "0", "-1", "9" * 5000, "1e3", "3.5", "\x00", "\u200b7", "A" * 10_000,
         "<script>", "7 7 7 7 7 7 7 7 7 7 7 7 7 7 7", "１２"]

CHECK_FIELDS = {
    "drei-sind-einer-zuviel": ("place", ["row_1", "row_2", "row_3", "card"]),
    "x-nimmt": ("round", ["row_3", "row_4", "row_5", "name_1", "card_1", "xrow_1", "card_2",
                          "basis", "choose_row", "choose_x", "row_choices"]),
    "freaky": ("collect", ["c_1_bg", "c_1_number", "c_99_bg", "add"]),
    "elf-nimmt": ("play", ["tops", "hand", "bulls", "play_0"]),
    "dreizehn": ("play", ["cards", "target", "colour", "value", "elsewhere"]),
}


@pytest.mark.parametrize("game", list(CHECK_FIELDS))
def test_no_check_input_gives_a_server_error(client: Client, game: str) -> None:
    check, fields = CHECK_FIELDS[game]
    url = reverse("rules_check", args=[game])
    for field in fields:
        for value in NASTY:
            data = {"check": check, f"{check}-{field}": value, "round-card_1": "18",
                    "round-card_2": "22", "play-tops": "33"}
            status = client.post(url, data).status_code
            # A NUL may be refused before the page (400); anything else gets the page back.
            assert status in ((200, 400) if "\x00" in value else (200,)), (field, value[:20])
    assert client.post(url, {"check": check, "take-size": NASTY, "take-others": "4 4"}
                       ).status_code in (200, 400)
    assert client.post(url + "?players=" + "%00,x", {"check": check}).status_code in (200, 400)


@pytest.mark.parametrize("tool", ["bulls", "targets"])
def test_no_helper_input_gives_a_server_error(client: Client, tool: str) -> None:
    keys = ["players", "held", "take", "steal", "keep", "ev", "reset", "y", "g", "b", "taken",
            "target", "card", "who", "took", "variant", "t1"]
    for key in keys:
        for value in NASTY:
            query = {"players": "Anna,Ben,Cem", key: value}
            response = Client().get(reverse("tool", args=[tool]), query)
            expected = (200, 302, 400) if "\x00" in value else (200, 302)
            assert response.status_code in expected, (key, value[:20])
    assert Client().get(reverse("tool", args=[tool]),
                        {"players": ["Anna,Ben,Cem", "x"], "take": ["0", "1"]}
                        ).status_code in (200, 302)


def test_a_colour_on_two_other_targets_is_told_at_that_field(client: Client) -> None:
    html = post(client, "dreizehn", "play", {
        "variant": "on", "target": "none", "cards": "", "colour": "yellow", "value": "2",
        "elsewhere": ["green", "blue", "yellow"]})
    assert 'id="answer"' not in html
    assert "There are only three targets." in _field_errors(html)
