"""Decisions of ../shared/rules/*.md that the score sheet's deal form enforces, each posted
through the form and its message read in both languages (the engine's checks themselves:
tests/scoring/)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from companion.models import Deal, Group, Match, Player
from companion.services import matches as match_services

pytestmark = pytest.mark.django_db

EVERY_COLOUR = {f"s0-{colour}": "1" for colour in (
    "orange", "flieder", "hellblau", "rot", "tuerkis", "magenta", "olivgruen")}


def _post(client: Client, match: Match, data: dict[str, Any], language: str) -> Any:
    return client.post(reverse("deal_new", args=[match.group_id, match.pk]),
                       {"number": 1, **data}, HTTP_ACCEPT_LANGUAGE=language)


def _start(group: Group, players: list[Player], game: str) -> Match:
    return match_services.match_start(group=group, game=game, players=players)


# ------------------------------------------------------------- 3 sind einer zuviel!
# "interim bonus values are distinct across players and drawn from 10/7/5/3 in order
# (a 7 requires someone to hold the 10)"

@pytest.mark.parametrize(("language", "message"), [
    ("en", "Anna has the interim bonus 7, but nobody has the 10."),
    ("de", "Anna hat die Zwischenwertung 7, aber niemand hat die 10."),
])
def test_a_7_without_anybody_holding_the_10_is_refused(
    anna_client: Client, group: Group, players: list[Player], language: str, message: str,
) -> None:
    match = _start(group, players, "drei-sind-einer-zuviel")
    response = _post(anna_client, match, {**EVERY_COLOUR, "s0-interim_bonus": "7"}, language)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Deal.objects.exists()


@pytest.mark.parametrize(("language", "message"), [
    ("en", "Anna and Ben both have the interim bonus 10; there is one of each."),
    ("de", "Anna und Ben haben beide die Zwischenwertung 10; jede gibt es nur einmal."),
])
def test_one_interim_card_held_by_two_players_is_refused(
    anna_client: Client, group: Group, players: list[Player], language: str, message: str,
) -> None:
    match = _start(group, players, "drei-sind-einer-zuviel")
    ben = {key.replace("s0-", "s1-"): value for key, value in EVERY_COLOUR.items()}
    response = _post(anna_client, match, {**EVERY_COLOUR, **ben, "s0-interim_bonus": "10",
                                          "s1-interim_bonus": "10"}, language)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Deal.objects.exists()


def test_the_interim_cards_in_their_order_are_recorded(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    match = _start(group, players, "drei-sind-einer-zuviel")
    ben = {key.replace("s0-", "s1-"): value for key, value in EVERY_COLOUR.items()}
    response = _post(anna_client, match, {**EVERY_COLOUR, **ben, "s0-interim_bonus": "7",
                                          "s1-interim_bonus": "10"}, "en")
    assert response.status_code == 302
    # Seven open colours: 7 points and the final bonus 10, plus the interim card.
    assert [s.total for s in match.seats.order_by("number")] == [24, 27, 0]


# ---------------------------------------------------------------------- 11 nimmt!
# "A deal in which the last pile is taken while the draw pile is empty and no card can be
# turned up ends at once ("blocked"): everybody scores their hand, nobody went out."

def test_a_blocked_deal_with_every_card_in_the_hands_is_recorded_with_nobody_out(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    match = _start(group, players, "elf-nimmt")
    response = _post(anna_client, match, {"mode": "counts", "s0-hand": "100", "s1-hand": "60",
                                          "s2-hand": "7"}, "en")
    assert response.status_code == 302
    assert [s.total for s in match.seats.order_by("number")] == [100, 60, 7]


@pytest.mark.parametrize(("language", "message"), [
    ("en", "Nobody went out, but the hands show only 12 of the 167 Hornochsen: a deal ends "
           "when one player goes out, or, blocked, with every card in the hands."),
    ("de", "Niemand hat ausgespielt, aber die Hände zeigen nur 12 der 167 Hornochsen: Ein "
           "Durchgang endet, wenn ein Spieler ausspielt, oder blockiert mit allen Karten auf "
           "der Hand."),
])
def test_a_deal_nobody_went_out_of_says_it_could_only_have_been_blocked(
    anna_client: Client, group: Group, players: list[Player], language: str, message: str,
) -> None:
    match = _start(group, players, "elf-nimmt")
    response = _post(anna_client, match, {"mode": "counts", "s0-hand": "3", "s1-hand": "4",
                                          "s2-hand": "5"}, language)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Deal.objects.exists()


def test_more_hornochsen_than_the_deck_with_nobody_out_is_said_as_such(
    anna_client: Client, group: Group, players: list[Player],
) -> None:
    match = _start(group, players, "elf-nimmt")
    response = _post(anna_client, match, {"mode": "counts", "s0-hand": "100", "s1-hand": "60",
                                          "s2-hand": "8"}, "en")
    assert response.status_code == 422
    html = response.content.decode()
    assert "The hands show 168 Hornochsen, but all cards together show only 167." in html
    assert "show only 168 of the 167" not in html


# ------------------------------------------------------------------------------- 13
# "Validation: ≤ 14 per colour, ≤ 8 red 4s across all players"

@pytest.mark.parametrize(("language", "message"), [
    ("en", "15 yellow cards taken in this deal, but there are only 14."),
    ("de", "15 Karten der Farbe Gelb in diesem Durchgang genommen, aber es gibt nur 14."),
])
def test_more_cards_of_a_colour_than_13_has_are_refused_across_the_players(
    anna_client: Client, group: Group, players: list[Player], language: str, message: str,
) -> None:
    match = _start(group, players, "dreizehn")
    refused = _post(anna_client, match, {"mode": "counts", "s0-yellow": "8", "s1-yellow": "7"},
                    language)
    assert refused.status_code == 422
    assert message in refused.content.decode()
    assert not Deal.objects.filter(match=match).exists()
    kept = _post(anna_client, match, {"mode": "counts", "s0-yellow": "8", "s1-yellow": "6"},
                 language)
    assert kept.status_code == 302
