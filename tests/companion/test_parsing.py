"""The one parser for whole numbers and card lists (companion.parsing)."""

from __future__ import annotations

import doctest

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils import translation

from companion import parsing
from companion.parsing import (
    CardNumbersField,
    WholeNumberField,
    id_from,
    number_from,
    parse_card_numbers,
    parse_whole_number,
)


def refusal(call, *args, language: str = "en", **kwargs) -> tuple[str, str]:
    with translation.override(language):
        with pytest.raises(ValidationError) as caught:
            call(*args, **kwargs)
        return caught.value.code, caught.value.messages[0]


def test_its_examples_hold() -> None:
    with translation.override("en"):
        result = doctest.testmod(parsing, optionflags=doctest.ELLIPSIS)
    assert result.attempted == 19  # shown_count's example too
    assert result.failed == 0


@pytest.mark.parametrize(("text", "number"), [
    ("7", 7), (" 7 ", 7), ("007", 7), ("0", 0), ("１２", 12), ("\u200b5\u200f", 5),
    (12, 12), ("100", 100),
])
def test_it_reads_a_whole_number(text: object, number: int) -> None:
    assert parse_whole_number(text, minimum=0, maximum=100) == number


@pytest.mark.parametrize("text", [
    "²", "¹", "①", "٣", "۳", "३", "1.5", "3.0", "1,5", "1e3", "0x10", "+5", "- 5", "5-",
    "abc", "1\x00", "\x00", "--1", "1 2", "½", True, False, 1.0, float("nan"), None, [],
])
def test_it_refuses_anything_but_the_digits_0_to_9(text: object) -> None:
    assert refusal(parse_whole_number, text, minimum=0, maximum=100) == (
        "not_a_number", "Enter a whole number with the digits 0–9."
    )


def test_it_says_so_in_german() -> None:
    assert refusal(parse_whole_number, "①", minimum=0, maximum=9, language="de") == (
        "not_a_number", "Gib eine ganze Zahl mit den Ziffern 0–9 ein."
    )
    assert refusal(parse_whole_number, "12", minimum=0, maximum=9, language="de") == (
        "too_large", "Gib eine Zahl bis höchstens 9 ein."
    )
    assert refusal(parse_whole_number, "", minimum=0, maximum=9, language="de") == (
        "required", "Gib eine Zahl ein."
    )


def test_it_refuses_numbers_outside_the_range() -> None:
    assert refusal(parse_whole_number, "0", minimum=1, maximum=10) == (
        "too_small", "Enter a number of at least 1."
    )
    assert refusal(parse_whole_number, "-1", minimum=0, maximum=10) == (
        "too_small", "Enter a number of at least 0."
    )
    assert refusal(parse_whole_number, "11", minimum=1, maximum=10) == (
        "too_large", "Enter a number of at most 10."
    )
    assert refusal(parse_whole_number, "-11", minimum=-10, maximum=10) == (
        "too_small", "Enter a number of at least -10."
    )


def test_it_checks_the_length_before_reading_thousands_of_digits() -> None:
    # int() of 5,000 digits raises ValueError in Python 3.11; the parser never gets there.
    assert refusal(parse_whole_number, "9" * 5000, minimum=0, maximum=999)[0] == "too_large"
    assert refusal(parse_whole_number, "-" + "9" * 5000, minimum=-9, maximum=9)[0] == (
        "too_small"
    )
    assert parse_whole_number("0" * 5000 + "42", minimum=0, maximum=999) == 42


def test_it_reads_negative_numbers_only_where_the_range_has_them() -> None:
    assert parse_whole_number("-4", minimum=-10, maximum=10) == -4
    assert parse_whole_number("－4", minimum=-10, maximum=10) == -4
    assert parse_whole_number("−4", minimum=-10, maximum=10) == -4


def test_it_refuses_an_empty_value() -> None:
    assert refusal(parse_whole_number, "  \u200b ", minimum=0, maximum=9) == (
        "required", "Enter a number."
    )


# ------------------------------------------------------------------------ card lists


def test_it_reads_a_list_of_card_numbers_in_the_order_typed() -> None:
    assert parse_card_numbers("55, 3 17;9.  104", minimum=1, maximum=104, max_count=10) == [
        55, 3, 17, 9, 104,
    ]


@pytest.mark.parametrize(("text", "code", "message"), [
    ("12 ²", "not_a_number", "“²” is not a card number."),
    ("12 x", "not_a_number", "“x” is not a card number."),
    ("12 3\x00", "not_a_number", "“3\x00” is not a card number."),
    ("0 12", "too_small", "There is no card 0: the cards go from 1 to 104."),
    ("105", "too_large", "There is no card 105: the cards go from 1 to 104."),
    ("1" * 5000, "too_large", "There is no card 11111111111…: the cards go from 1 to 104."),
    ("3 4 3", "duplicate", "Card 3 is in the list twice."),
    ("1 2 3 4", "too_long", "Enter at most 3 cards."),
])
def test_it_refuses_a_card_list_with_a_clear_message(text: str, code: str, message: str) -> None:
    assert refusal(parse_card_numbers, text, minimum=1, maximum=104, max_count=3) == (
        code, message
    )


def test_it_says_what_is_wrong_with_a_card_list_in_german() -> None:
    assert refusal(parse_card_numbers, "3 3", minimum=1, maximum=104, max_count=9,
                   language="de") == ("duplicate", "Karte 3 steht zweimal in der Liste.")
    assert refusal(parse_card_numbers, "1 2", minimum=1, maximum=104, max_count=1,
                   language="de") == ("too_long", "Gib höchstens 1 Karte ein.")
    assert refusal(parse_card_numbers, "200", minimum=1, maximum=104, max_count=9,
                   language="de") == (
        "too_large", "Eine Karte 200 gibt es nicht: Die Karten gehen von 1 bis 104."
    )


def test_it_lets_a_list_repeat_cards_when_asked() -> None:
    assert parse_card_numbers("3 3", minimum=1, maximum=9, max_count=9,
                              allow_duplicates=True) == [3, 3]


# ----------------------------------------------------------------------- form fields


class NumbersForm(forms.Form):
    count = WholeNumberField(minimum=0, maximum=12, required=False)
    night = WholeNumberField(minimum=1, maximum=99)
    cards = CardNumbersField(minimum=1, maximum=104, max_count=10)


def test_the_fields_give_numbers_and_lists() -> None:
    form = NumbersForm({"count": "３", "night": "7", "cards": "5, 9"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data == {"count": 3, "night": 7, "cards": [5, 9]}


def test_the_fields_take_empty_values_as_none_and_an_empty_list() -> None:
    form = NumbersForm({"count": "", "night": "1", "cards": ""})
    assert form.is_valid(), form.errors
    assert form.cleaned_data == {"count": None, "night": 1, "cards": []}


def test_the_fields_show_the_message_at_the_field() -> None:
    with translation.override("en"):
        form = NumbersForm({"count": "¹", "night": "", "cards": "4 4"})
        assert not form.is_valid()
        assert form.errors == {
            "count": ["Enter a whole number with the digits 0–9."],
            "night": ["This field is required."],
            "cards": ["Card 4 is in the list twice."],
        }


def test_the_number_field_renders_its_range_for_the_phone_keyboard() -> None:
    html = str(NumbersForm()["count"])
    assert 'type="number"' in html
    assert 'min="0"' in html
    assert 'max="12"' in html
    assert 'inputmode="numeric"' in html


def test_the_card_field_shows_a_stored_list_as_text() -> None:
    form = NumbersForm(initial={"cards": [5, 9, 12]})
    assert 'value="5, 9, 12"' in str(form["cards"])


def test_the_card_field_refuses_overlong_text_before_reading_it() -> None:
    with translation.override("en"):
        form = NumbersForm({"night": "1", "cards": "1 " * 5000})
        assert not form.is_valid()
        assert form.errors["cards"] == ["Enter at most 10 cards."]


# ----------------------------------------------------------------------------- views


def test_a_view_reads_a_number_or_its_default() -> None:
    assert number_from({"revision": "4"}, "revision", minimum=0, maximum=9) == 4
    assert number_from({"revision": ""}, "revision", minimum=0, maximum=9, default=-1) == -1
    assert number_from({}, "revision", minimum=0, maximum=9) is None
    assert refusal(number_from, {"revision": "x"}, "revision", minimum=0, maximum=9)[0] == (
        "not_a_number"
    )


@pytest.mark.parametrize("raw", ["abc", "0", "-3", "¹", "9" * 40, "1\x00"])
def test_a_malformed_id_is_not_found(raw: str) -> None:
    with pytest.raises(Http404):
        id_from({"night": raw}, "night")


def test_an_id_is_read() -> None:
    assert id_from({"night": "12"}, "night") == 12
    assert id_from({}, "night") is None


# ------------------------------------------------------------- the parser in the app


@pytest.mark.django_db
@pytest.mark.parametrize(("typed", "language", "message"), [
    ("²", "en", "Enter a whole number with the digits 0–9."),
    ("9" * 5000, "en", "Enter a number of at most 999."),
    ("①", "de", "Gib eine ganze Zahl mit den Ziffern 0–9 ein."),
])
def test_a_deal_count_that_is_no_number_gets_a_message_at_its_field(
    anna_client, group, players, typed: str, language: str, message: str
) -> None:
    from companion.models import Deal
    from tests.companion.test_sheet_views import start, url

    match = start(group, players, "x-nimmt")
    response = anna_client.post(url("deal_new", match), {
        "number": "1", "mode": "counts", "s0-hand": typed, "s0-x_stack": "0",
        "s1-hand": "0", "s1-x_stack": "0", "s2-hand": "0", "s2-x_stack": "0",
    }, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_typed_card_numbers_are_read_by_the_parser(anna_client, group, players) -> None:
    from companion.models import Deal
    from tests.companion.test_sheet_views import start, url

    match = start(group, players, "x-nimmt")
    response = anna_client.post(url("deal_new", match), {
        "number": "1", "mode": "cards", "s0-hand_cards": "55 ①", "s0-x_stack_cards": "",
        "s1-hand_cards": "", "s1-x_stack_cards": "", "s2-hand_cards": "",
        "s2-x_stack_cards": "",
    }, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422
    assert "“①” is not a card number." in response.content.decode()
    assert not Deal.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ["²", "9" * 5000, "-3", "1.5"])
def test_the_leaderboard_minimum_is_read_by_the_parser(anna_client, group, raw: str) -> None:
    response = anna_client.get(f"/g/{group.pk}/games/freaky/", {"min": raw},
                               HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "data"), [
    ("/g/{group}/roster/", {"name": "An\x00na"}),
    ("/g/{group}/history/?player=\x00", None),
    ("/join/ab\x00cd/", None),
    ("/groups/new/", {"name": "Runde", "players": "Ben\x00"}),
])
def test_a_nul_character_never_reaches_a_view(
    anna_client, group, url: str, data: dict[str, str] | None
) -> None:
    from companion.models import Group as GroupModel
    from companion.models import Player

    path = url.format(group=group.pk)
    counts = (GroupModel.objects.count(), Player.objects.count())
    if data is None:
        response = anna_client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    else:
        response = anna_client.post(path, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "invisible control character (NUL)" in response.content.decode()
    assert (GroupModel.objects.count(), Player.objects.count()) == counts


@pytest.mark.django_db
def test_the_nul_page_speaks_german(anna_client, group) -> None:
    response = anna_client.post(f"/g/{group.pk}/roster/", {"name": "\x00"},
                                HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert "Diese Eingabe kann nicht gelesen werden" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("etag", ['"1.de.².abc"', '"1.de.' + "9" * 5000 + '.abc"',
                                  '"¹.de.1.abc"', '"1.de.\u200b1.abc"', '"1.de.1"'])
def test_a_malformed_sheet_etag_gives_the_whole_sheet(anna_client, group, players,
                                                      etag: str) -> None:
    from tests.companion.test_sheet_views import start, url

    match = start(group, players, "x-nimmt")
    response = anna_client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
