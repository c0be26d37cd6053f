"""The rules' decisions where the score sheet applies them: an X nimmt! deal by card numbers
that cannot have ended, and the tie for the next 11 nimmt! starter."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from companion.models import Deal, Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services


def _url(name: str, match: Match) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk})


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "message"), [
    ("en", "Every player still holds hand cards, so this deal has not ended: a deal ends "
           "after a round at whose end someone holds no hand cards."),
    ("de", "Alle Spieler haben noch Handkarten, also ist dieser Durchgang nicht zu Ende: ein "
           "Durchgang endet nach einer Runde, an deren Ende jemand keine Handkarten mehr hat."),
])
def test_an_x_nimmt_deal_by_card_numbers_with_every_hand_held_is_refused(
    client: Client, anna: Any, group: Group, players: list[Player], language: str, message: str,
) -> None:
    client.force_login(anna)
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    response = client.post(_url("deal_new", match), {
        "number": 1, "mode": "cards", "s0-hand_cards": "55", "s1-hand_cards": "10, 20",
        "s2-hand_cards": "1", "s2-x_stack_cards": "22"}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_an_x_nimmt_deal_by_card_numbers_with_an_empty_hand_is_recorded(
    client: Client, anna: Any, group: Group, players: list[Player],
) -> None:
    client.force_login(anna)
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    client.post(_url("deal_new", match), {
        "number": 1, "mode": "cards", "s0-hand_cards": "55", "s1-hand_cards": "10, 20",
        "s2-x_stack_cards": "22"}, HTTP_ACCEPT_LANGUAGE="en")
    assert [s.total for s in match.seats.order_by("number")] == [7, 6, 10]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "starts", "note"), [
    ("en", "Ben starts", "(a tie: Ben and Cem have the most minus points; the first in seat order "
                         "starts unless you decide otherwise)"),
    ("de", "Ben beginnt", "(Gleichstand: Ben und Cem haben die meisten Minuspunkte; es beginnt, "
                          "wer in der Sitzreihenfolge zuerst kommt, außer ihr entscheidet anders)"),
])
def test_the_sheet_says_when_the_next_11_nimmt_starter_won_a_tie(
    client: Client, anna: Any, group: Group, players: list[Player], language: str, starts: str,
    note: str,
) -> None:
    client.force_login(anna)
    match = match_services.match_start(group=group, game="elf-nimmt", players=players)
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"went_out": True}, players[1].pk: {"hand": 9},
        players[2].pk: {"hand": 9}})
    html = client.get(reverse("match_sheet", args=[group.pk, match.pk]),
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert starts in html
    assert note in html


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["x-nimmt", "dreizehn"])
def test_the_sheet_asks_rules_questions_with_its_game_preferred(
    anna_client: Client, group: Group, players: list[Player], game: str
) -> None:
    match = match_services.match_start(group=group, game=game, players=players)
    html = anna_client.get(reverse("match_sheet", args=[group.pk, match.pk]),
                           HTTP_ACCEPT_LANGUAGE="en").content.decode()
    box = html[html.index('id="rules-question"'):html.index("</details>",
                                                          html.index('id="rules-question"'))]
    assert f'<form method="get" action="{reverse("rules_search")}" role="search"' in box
    assert f'<input type="hidden" name="game" value="{game}">' in box
    # Asked from there (without JavaScript), the answers prefer the sheet's game.
    answers = anna_client.get(reverse("rules_search"), {"q": "who wins", "game": game},
                              HTTP_ACCEPT_LANGUAGE="en").content.decode()
    first = answers[answers.index('<ol class="list-group mb-3 search-hits">'):]
    first = first[:first.index("</li>")]
    assert f'href="{reverse("rules_game", args=[game])}#' in first
    assert f'<input type="hidden" name="game" value="{game}">' in answers  # asked again
