"""The import's checks: values in range, parts consistent, one message naming the place."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from companion.models import Group, Match, MatchChange
from companion.services import live as live_services
from companion.services import matches as match_services
from companion.services.transfer import TransferError
from companion.services.transfer.export import group_export, group_export_json
from companion.services.transfer.importer import group_import
from tests.companion.test_history_helpers import night, play

pytestmark = pytest.mark.django_db

Doc = dict[str, Any]


@pytest.fixture
def document(group: Group) -> Doc:
    """Two matches: a finished Freaky and a running X nimmt! with a corrected deal."""
    evening = night(group, "2026-01-10", "Bei Anna")
    play(group, "freaky", [{"Anna": {"collected": 30}, "Ben": {"collected": 20},
                            "Cem": {"collected": 10}}], on=evening)
    x = play(group, "x-nimmt", [
        {"Anna": {"hand": 5, "x_stack": 1}, "Ben": {"hand": 0, "x_stack": 1}},
        {"Anna": {"hand": 1, "x_stack": 0}, "Ben": {"hand": 0, "x_stack": 2}},
    ], on=evening, finished=False)
    anna = group.players.get(name="Anna")
    MatchChange.objects.create(
        match=x, kind=MatchChange.Kind.EDIT, deal_number=2,
        before={str(anna.pk): {"hand": 4, "x_stack": 0, "hand_cards": None,
                               "x_stack_cards": None}},
        after={str(anna.pk): {"hand": 1, "x_stack": 0, "hand_cards": None,
                              "x_stack_cards": None}},
    )
    return group_export(group)


def refused(document: Doc, bob: User, language: str = "en") -> str:
    with translation.override(language):
        with pytest.raises(TransferError) as caught:
            group_import(user=bob, content=json.dumps(document, ensure_ascii=False))
        return str(caught.value)


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="kartenrunde-bob-1")


def changed(document: Doc, change: Callable[[Doc], None]) -> Doc:
    copied = copy.deepcopy(document)
    change(copied)
    return copied


def freaky_match(doc: Doc) -> Doc:
    return doc["game_nights"][0]["matches"][0]


def x_match(doc: Doc) -> Doc:
    return doc["game_nights"][0]["matches"][1]


def test_the_log_with_its_new_fields_round_trips(group: Group, document: Doc, bob: User) -> None:
    x = group.matches.get(game="x-nimmt")
    change = x.changes.get()
    change.undone_at = change.created_at
    change.client_key = "phone-1234-abcd"
    change.save(update_fields=["undone_at", "client_key"])
    exported = group_export_json(group)
    assert '"client_key":"phone-1234-abcd"' in exported
    assert group_export_json(group_import(user=bob, content=exported)) == exported


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["game_nights"][0].update(place="Bei\x00Anna"),
     "At /game_nights/0/place in the file: text with a NUL character."),
    (lambda d: d["players"][1].update(name="Be\ud800n"),
     "At /players/1/name in the file: text that is not valid Unicode (a lone surrogate)."),
    (lambda d: freaky_match(d)["seats"][0].update(total=1.5),
     "At /game_nights/0/matches/0/seats/0/total in the file: a fractional number (1.5); "
     "only whole numbers are allowed."),
    (lambda d: freaky_match(d).update(options={"x": [[[[[[[[[[[[1]]]]]]]]]]]]}),
     "At /game_nights/0/matches/0/options/x/0/0/0/0/0/0/0/0/0/0/0 in the file: the file nests "
     "more than 16 levels deep here."),
    (lambda d: freaky_match(d).update(first_dealer=70000),
     "Game night 2026-01-10, match 1: “first_dealer” must be between 0 and 32767."),
    (lambda d: d["game_nights"][0].update(date="0001-01-01"),
     "Game night 1: “date” must lie between the years 1900 and 2999."),
    (lambda d: d["group"].update(created_at="2026-02-30T10:00:00+00:00"),
     "The group: “created_at” must be a date and time with time zone."),
    (lambda d: d["players"][1].update(name="ＡＮＮＡ"),
     "Player 2: the name “ANNA” is used twice (as “Anna”)."),
    (lambda d: d["players"][1].update(name="\u200b\u202e"),
     "Player 2: “name”: Please enter a name."),
    (lambda d: x_match(d)["deals"][1].update(number=3),
     "Game night 2026-01-10, match 2, deal 2: the deals must be numbered 1, 2, 3, … in order; "
     "this one should be 2."),
    (lambda d: freaky_match(d)["deals"].clear(),
     "Game night 2026-01-10, match 1: it is finished with 0 deals, but a match of Freaky with 3 "
     "players has 1."),
    (lambda d: x_match(d)["changes"][0].update(deal_number=9),
     "Game night 2026-01-10, match 2, change 1: the change names deal 9, but the match has 2 "
     "deals."),
    (lambda d: x_match(d)["changes"][0].update(after={"p3": {"hand": 1}}),
     "Game night 2026-01-10, match 2, change 1: “after” names a player who is not seated."),
    (lambda d: freaky_match(d)["seats"][2].update(number=5),
     "Game night 2026-01-10, match 1: the seats must be numbered 0, 1, 2, … without gaps."),
])
def test_it_refuses_a_broken_file_naming_the_place(
    document: Doc, bob: User, change: Callable[[Doc], None], message: str
) -> None:
    groups = Group.objects.count()
    assert refused(changed(document, change), bob) == message
    assert Group.objects.count() == groups


def test_it_says_so_in_german(document: Doc, bob: User) -> None:
    broken = changed(document, lambda d: freaky_match(d).update(first_dealer=70000))
    assert refused(broken, bob, "de") == (
        "Spieleabend 2026-01-10, Partie 1: „first_dealer“ muss zwischen 0 und 32767 liegen."
    )
    broken = changed(document, lambda d: d["game_nights"][0].update(notes="a\x00"))
    assert refused(broken, bob, "de") == (
        "An der Stelle /game_nights/0/notes der Datei: Text mit einem NUL-Zeichen."
    )


@pytest.mark.parametrize(("text", "message"), [
    ('{"format": "kartenrunde-history", "version": 1, "x": NaN}',
     "This file holds “NaN”, which is not a number Kartenrunde can store."),
    ('{"format": "kartenrunde-history", "version": 1, "x": -Infinity}',
     "This file holds “-Infinity”, which is not a number Kartenrunde can store."),
    ('{"format": "kartenrunde-history", "version": 1, "x": ' + "9" * 5000 + "}",
     "This file holds a number too long to be read: it is damaged."),
    ("[" * 100_000, "This file is damaged or not JSON."),
])
def test_it_refuses_numbers_json_allows_but_nobody_can_store(
    bob: User, text: str, message: str
) -> None:
    with translation.override("en"), pytest.raises(TransferError) as caught:
        group_import(user=bob, content=text)
    assert str(caught.value) == message


def test_a_live_record_the_engine_refuses_is_refused(group: Group, players, bob: User) -> None:
    match = match_services.match_start(group=group, game="freaky", players=players)
    live_services.live_step(
        match=match, revision=0, action="collect", data={"player": players[0].pk, "cards": 5},
    )
    document = group_export(group)
    live = document["game_nights"][0]["matches"][0]
    assert live["options"]["live_rows"] == [["p1", 5]]
    live["options"]["live_rows"] = [["p1", 5], ["p9", 4]]
    assert refused(document, bob).endswith(
        "the live record “live_rows” names a player who is not seated, or a row that cannot be."
    )
    live["options"]["live_rows"] = [["p1", 5]]
    live["status"] = Match.Status.ABANDONED
    assert refused(document, bob).endswith("only a running match can have a live record.")



def test_a_live_turn_of_a_player_not_seated_is_refused(
    group: Group, players, bob: User
) -> None:
    match_services.match_start(group=group, game="drei-sind-einer-zuviel", players=players)
    document = group_export(group)
    live = document["game_nights"][0]["matches"][0]
    live["options"]["live_turns"] = [["p1", ["rot"], False], ["p9", ["rot"], False]]

    assert refused(document, bob).endswith(
        "the live record “live_turns” names a player who is not seated, or a turn that "
        "cannot be."
    )


def test_a_13_match_imports_its_variant_and_refuses_an_unknown_one(
    group: Group, players, bob: User
) -> None:
    match_services.match_start(group=group, game="dreizehn", players=players,
                               options={"variant": "first-card"})
    document = group_export(group)
    assert group_import(user=bob, content=json.dumps(document)).matches.get().options == {
        "variant": "first-card"}
    document["game_nights"][0]["matches"][0]["options"]["variant"] = "upside-down"

    assert refused(document, bob).endswith("the 13 variant “upside-down” is unknown.")


def undone_edit(number: int) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        stamp = x_match(doc)["changes"][0]["created_at"]
        x_match(doc)["changes"].append({
            "kind": "edit", "deal_number": number, "before": None, "after": None,
            "created_at": stamp, "undone_at": stamp, "client_key": None,
        })
    return change


def test_the_change_redo_would_apply_must_fit_the_deals(document: Doc, bob: User) -> None:
    assert refused(changed(document, undone_edit(7)), bob) == (
        "Game night 2026-01-10, match 2, change 2: the change names deal 7, but the match has "
        "2 deals."
    )


def test_a_log_whose_next_undo_and_redo_fit_is_imported(document: Doc, bob: User) -> None:
    group = group_import(user=bob, content=json.dumps(changed(document, undone_edit(2))))
    x = group.matches.get(game="x-nimmt")
    assert [(c.kind, c.deal_number, c.undone_at is not None)
            for c in x.changes.order_by("id")] == [("edit", 2, False), ("edit", 2, True)]

