"""The group import reads a file a match at a time (issue 30, item 6): the first batch is
written before the last match is read; a file whose parts come in another order than an
export's is read the same; damage, a key given twice or a broken match found late leave
nothing behind and say where."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from companion.models import Group
from companion.services.transfer import TransferError, importer
from companion.services.transfer import matches as match_checks
from companion.services.transfer.document import read_document
from companion.services.transfer.export import group_export, group_export_json
from companion.services.transfer.reader import Streamed
from tests.companion.test_history_helpers import night, play
from tests.companion.test_import_limits import nights_of

Doc = dict[str, Any]


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="kartenrunde-bob-1")


@pytest.fixture
def exported(group: Group) -> Doc:
    """Four game nights of two finished Freaky matches each."""
    evening = night(group, "2026-01-10", "Bei Anna")
    play(group, "freaky", [{"Anna": {"collected": 30}, "Ben": {"collected": 20},
                            "Cem": {"collected": 10}}], on=evening)
    return nights_of(group_export(group), 4, matches=2)


def refused(content: str, user: User) -> str:
    groups = Group.objects.count()
    with translation.override("en"), pytest.raises(TransferError) as caught:
        importer.group_import(user=user, content=content)
    assert Group.objects.count() == groups, "nothing is left of it"
    return str(caught.value)


@pytest.mark.django_db(transaction=True)
def test_the_first_batch_is_written_before_the_last_match_is_read(
    exported: Doc, bob: User, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(importer, "BATCH_ROWS", 20)
    steps: list[str] = []
    check, write = match_checks.check_match, importer._write

    def checked(*args: Any) -> Any:
        steps.append("check")
        return check(*args)

    def written(*args: Any) -> None:
        steps.append("write")
        write(*args)

    monkeypatch.setattr(match_checks, "check_match", checked)
    monkeypatch.setattr("companion.services.transfer.validate.check_match", checked)
    monkeypatch.setattr(importer, "_write", written)

    imported = importer.group_import(user=bob, content=json.dumps(exported))

    assert steps.count("check") == 8
    assert steps.index("write") < len(steps) - 1 - steps[::-1].index("check")
    assert group_export(imported)["game_nights"] == exported["game_nights"]


def test_the_nights_and_matches_are_streamed_the_rest_read_whole(exported: Doc) -> None:
    document = read_document(json.dumps(exported))
    assert document["players"] == exported["players"]
    assert isinstance(document["game_nights"], Streamed)
    read = []
    for part in document["game_nights"]:  # one pass: a night's matches before the next
        assert isinstance(part["matches"], Streamed)
        read.append({**part, "matches": list(part["matches"])})
    assert read == exported["game_nights"]


@pytest.mark.django_db
def test_a_file_in_another_order_than_an_export_imports_the_same(
    exported: Doc, bob: User,
) -> None:
    # The game nights before the players, a night's date after its matches.
    reordered = {"game_nights": [{"matches": part["matches"], **part}
                                 for part in exported["game_nights"]],
                 **{key: value for key, value in exported.items() if key != "game_nights"}}
    assert next(iter(reordered)) == "game_nights"
    assert next(iter(reordered["game_nights"][0])) == "matches"

    imported = importer.group_import(user=bob, content=json.dumps(reordered, indent=2))

    assert group_export_json(imported) == json.dumps(
        exported, ensure_ascii=False, separators=(",", ":")) + "\n"


@pytest.mark.django_db
@pytest.mark.parametrize(("damage", "message"), [
    (lambda text: text[:-40] + "}}}", "This file is damaged or not JSON (line 1, column"),
    (lambda text: text + "[]", "This file is damaged or not JSON (line 1, column"),
    (lambda text: text[:-1] + ',"group":{}}', "This file gives “group” twice in one place"),
    (lambda text: text.replace('"notes":""', '"notes":"","notes":""', 4),
     "This file gives “notes” twice in one place"),
])
def test_damage_found_late_leaves_nothing_and_says_where(
    exported: Doc, bob: User, damage: Any, message: str,
) -> None:
    text = json.dumps(exported, separators=(",", ":"))
    assert refused(damage(text), bob).startswith(message)


@pytest.mark.django_db
def test_a_broken_match_in_the_last_night_leaves_nothing_behind(
    exported: Doc, bob: User, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(importer, "BATCH_ROWS", 5)
    exported["game_nights"][3]["matches"][1] = {
        **exported["game_nights"][3]["matches"][1], "first_dealer": 70000}
    assert refused(json.dumps(exported), bob) == (
        "Game night 2020-01-04, match 2: “first_dealer” must be between 0 and 32767.")
