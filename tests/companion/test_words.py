"""The words and numbers as shown: one minus sign (U+2212) wherever a number can be
negative, ordinals as the language writes them ("1st" in English, "1." in German), the
night page's column of finishing places headed "Platz" (not the night's "Ort"), and the
ended table pass's German sentence whole."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from companion.models import GameNight, Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from tests.companion.test_night_page import _body, _url, evening  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


@pytest.fixture
def below_zero(group: Group, players: list[Player], anna: User) -> Match:
    """A finished 3 sind einer zuviel! match in which Anna took three red cards: face
    down, −3."""
    night = GameNight.objects.create(group=group, date="2026-03-05")
    match = match_services.match_start(group=group, game="drei-sind-einer-zuviel",
                                       players=players, game_night=night, user=anna)
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        players[0].pk: {"taken": {"rot": 3}}, players[1].pk: {"taken": {"orange": 2}},
        players[2].pk: {"taken": {"hellblau": 1}}})
    match_services.match_finish(match=match, user=anna)
    return match


def _numbers(html: str) -> list[str]:
    """Every signed number written between tags (or after "Σ ")."""
    return re.findall(r"(?:>|Σ )\s*([-−]\d+)\s*<", html)


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_negative_score_is_written_with_the_minus_sign_on_the_sheet_and_the_night(
    anna_client: Client, below_zero: Match, language: str
) -> None:
    anna_client.cookies["django_language"] = language
    sheet = _body(anna_client, f"/g/{below_zero.group_id}/matches/{below_zero.pk}/")
    night = _body(anna_client, f"/g/{below_zero.group_id}/nights/{below_zero.game_night_id}/")
    history = _body(anna_client, f"/g/{below_zero.group_id}/history/")
    for page in (sheet, night):
        shown = _numbers(page)
        assert f"{MINUS}3" in shown, shown
        assert all(number.startswith(MINUS) for number in shown), shown
    assert all(number.startswith(MINUS) for number in _numbers(history))


def test_the_english_night_page_writes_english_ordinals_and_the_german_one_german(
    anna_client: Client, evening: GameNight  # noqa: F811 (fixture)
) -> None:
    german = _body(anna_client, _url(evening))
    assert "Plätze 2., 1." in german and "Platz 1." in german
    anna_client.cookies["django_language"] = "en"
    english = _body(anna_client, _url(evening))
    assert "places 2nd, 1st" in english and "place 1st" in english
    assert not re.search(r"\d\.(?:,|<)", english.split("<main", 1)[1])  # no "1." left


def test_the_column_of_finishing_places_is_headed_platz_not_ort(
    anna_client: Client, evening: GameNight  # noqa: F811 (fixture)
) -> None:
    german = _body(anna_client, _url(evening))
    assert '<th scope="col">Platz</th>' in german
    assert '<th scope="col">Ort</th>' not in german
    assert "bei Anna" in german  # the night's place itself
    anna_client.cookies["django_language"] = "en"
    assert '<th scope="col">Place</th>' in _body(anna_client, _url(evening))


def test_the_ended_table_pass_asks_for_a_new_one_in_a_whole_german_sentence() -> None:
    with translation.override("de"):
        text = translation.gettext(
            "Ask someone at the table with an account to show a new one: scan it and you "
            "are back in.")
    assert text == ("Bitte jemanden am Tisch mit Konto, dir einen neuen zu zeigen: scannen, "
                    "und du bist wieder dabei.")
