"""The validations of the rules' Decisions hold however a deal arrives (issue 20): in every
entry mode of the sheet, on the live board and in an imported file. They are the engine's
(``validate_deal``), which every way in asks:

- X nimmt!: a deal in which every player still holds Hornochsen in hand has not ended
  (counts, card numbers and the card grid alike);
- Freaky: at most 108 − 3 × (players − 1) cards collected in all;
- 13: at least one card of the deck untaken (the card played last stays on its target).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from companion.models import Deal, Group, Match, Player
from companion.services import live as live_services
from companion.services import matches as match_services
from companion.services.transfer import TransferError
from companion.services.transfer.export import group_export
from companion.services.transfer.importer import group_import
from scoring import ScoringError
from tests.companion.test_history_helpers import play

pytestmark = pytest.mark.django_db

NOT_ENDED = "Every player still holds hand cards, so this deal has not ended"
HANDS_LEFT = "104 cards collected in total, but with 3 players at most 102 can be"
DECK_TAKEN = "All 50 cards are taken in this deal, but the card played last always stays"

SHEET_CASES = [
    ("x-nimmt", {"mode": "counts", "s0-hand": "3", "s1-hand": "5", "s1-x_stack": "2",
                 "s2-hand": "1"}, NOT_ENDED),
    ("x-nimmt", {"mode": "cards", "s0-hand_cards": "55", "s1-hand_cards": "10, 20",
                 "s2-hand_cards": "1"}, NOT_ENDED),
    ("x-nimmt", {"mode": "grid", "s0-hand_cards": ["55"], "s1-hand_cards": ["10", "20"],
                 "s2-hand_cards": ["1"]}, NOT_ENDED),
    ("freaky", {"mode": "counts", "s0-collected": "60", "s1-collected": "40",
                "s2-collected": "4"}, HANDS_LEFT),
    ("dreizehn", {"mode": "players", "s0-yellow": "14", "s0-green": "14", "s1-blue": "14",
                  "s2-red": "8"}, DECK_TAKEN),
    ("dreizehn", {"mode": "counts", "s0-yellow": "14", "s0-green": "14", "s1-blue": "14",
                  "s2-red": "8"}, DECK_TAKEN),
]


@pytest.mark.parametrize(("game", "data", "message"), SHEET_CASES,
                         ids=[f"{game}-{data['mode']}" for game, data, _ in SHEET_CASES])
def test_the_sheet_refuses_it_in_every_entry_mode(
    anna_client: Client, group: Group, players: list[Player], game: str,
    data: dict[str, Any], message: str,
) -> None:
    match = match_services.match_start(group=group, game=game, players=players)
    url = reverse("deal_new", args=[group.pk, match.pk])
    response = anna_client.post(url, {"number": 1, **data}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Deal.objects.filter(match=match).exists()


@pytest.mark.parametrize(("game", "data"), [(game, data) for game, data, _ in SHEET_CASES[:1]
                                            + SHEET_CASES[3:5]])
def test_it_is_said_in_german_too(
    anna_client: Client, group: Group, players: list[Player], game: str, data: dict[str, Any]
) -> None:
    match = match_services.match_start(group=group, game=game, players=players)
    url = reverse("deal_new", args=[group.pk, match.pk])
    html = anna_client.post(url, {"number": 1, **data},
                            HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert any(german in html for german in (
        "Alle Spieler haben noch Handkarten", "können es höchstens 102 sein",
        "sind alle 50 Karten genommen"))


def test_the_freaky_live_board_refuses_a_row_the_last_hands_leave_no_room_for(
    group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="freaky", players=players)
    revision = 0
    for _row in range(11):  # 11 rows of 9: 99 cards collected by Anna
        live_services.live_step(match=match, revision=revision, action="collect",
                                data={"player": str(players[0].pk), "cards": "9"})
        revision += 1
    with pytest.raises(ScoringError, match="at most 102 can be"):
        live_services.live_step(match=match, revision=revision, action="collect",
                                data={"player": str(players[1].pk), "cards": "4"})
    match.refresh_from_db()
    assert sum(cards for _pid, cards in match.options["live_rows"]) == 99


@pytest.fixture
def exported(group: Group) -> dict[str, Any]:
    on = "2026-01-10"
    play(group, "x-nimmt", [{"Anna": {"hand": 3}, "Ben": {"x_stack": 2}, "Cem": {"hand": 1}}],
         on=on, finished=False)
    play(group, "freaky", [{"Anna": {"collected": 60}, "Ben": {"collected": 30},
                            "Cem": {"collected": 4}}], on=on)
    play(group, "dreizehn", [{"Anna": {"yellow": 14, "green": 14}, "Ben": {"blue": 13},
                              "Cem": {"red": 8}}], on=on, finished=False)
    return group_export(group)


def _refused(document: dict[str, Any], game: str, change: Any) -> str:
    broken = copy.deepcopy(document)
    match = next(m for night in broken["game_nights"] for m in night["matches"]
                 if m["game"] == game)
    change(match["deals"][0]["scores"])
    bob = User.objects.create_user("bob", password="kartenrunde-bob-1")
    with translation.override("en"), pytest.raises(TransferError) as caught:
        group_import(user=bob, content=json.dumps(broken, ensure_ascii=False))
    return str(caught.value)


def test_the_import_refuses_an_x_nimmt_deal_in_which_every_hand_holds_cards(
    exported: dict[str, Any]
) -> None:
    def everybody_holds(scores: list[dict[str, Any]]) -> None:
        scores[1]["data"].update(hand=2, x_stack=0)  # Ben's empty hand: 2 Hornochsen in it

    assert NOT_ENDED in _refused(exported, "x-nimmt", everybody_holds)


def test_the_import_refuses_more_freaky_cards_than_the_last_hands_leave(
    exported: dict[str, Any]
) -> None:
    def more(scores: list[dict[str, Any]]) -> None:
        scores[1]["data"]["collected"] = 40
        scores[1]["score"] = 40

    assert HANDS_LEFT in _refused(exported, "freaky", more)


def test_the_import_refuses_a_13_deal_that_took_every_card(exported: dict[str, Any]) -> None:
    def every_card(scores: list[dict[str, Any]]) -> None:
        scores[1]["data"]["blue"] = 14

    assert DECK_TAKEN in _refused(exported, "dreizehn", every_card)


def test_what_was_exported_imports(exported: dict[str, Any], group: Group) -> None:
    bob = User.objects.create_user("bob", password="kartenrunde-bob-1")
    imported = group_import(user=bob, content=json.dumps(exported, ensure_ascii=False))
    assert Match.objects.filter(group=imported).count() == 3
