"""The group export and import carry matches imported from BG Stats: their source and play
id, final scores without deals; a round trip keeps them, their ratings and the ids that
stop a second BG Stats import."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from companion.bgstats import bgstats_plan
from companion.models import Group, Match, Rating
from companion.selectors.ratings import leaderboard
from companion.services.bgstats import bgstats_import
from companion.services.transfer import TransferError
from companion.services.transfer.export import group_export, group_export_json
from companion.services.transfer.importer import group_import
from tests.companion.test_history_helpers import freaky, night, x_nimmt

pytestmark = pytest.mark.django_db

EXPORT = Path(__file__).parent / "data" / "BGStatsExport.json"


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="kartenrunde-bob-1")


@pytest.fixture
def mixed(group: Group) -> Group:
    """Matches from the score sheet and plays imported from BG Stats."""
    evening = night(group, "2026-01-10", "Bei Anna")
    freaky(group, evening, Anna=30, Ben=20, Cem=10)
    x_nimmt(group, evening, {"Anna": (5, 9), "Ben": (0, 1)}, {"Anna": (1, 0), "Ben": (0, 3)})
    bgstats_import(group=group, plan=bgstats_plan(EXPORT.read_bytes(), group=group))
    return group


def _imported(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [match for evening in document["game_nights"] for match in evening["matches"]
            if match["source"] == "bgstats"]


def test_the_export_names_each_matchs_source_and_play_id(mixed: Group) -> None:
    document = group_export(mixed)

    imported = _imported(document)
    assert len(imported) == 7
    assert all(match["deals"] == [] and match["status"] == "finished" for match in imported)
    assert {match["external_id"] for match in imported} == set(
        Match.objects.filter(group=mixed, source="bgstats").values_list("external_id", flat=True))
    sheet = [match for evening in document["game_nights"] for match in evening["matches"]
             if match["source"] == "sheet"]
    assert len(sheet) == 2 and {match["external_id"] for match in sheet} == {None}


def test_export_import_export_keeps_the_imported_matches(mixed: Group, bob: User) -> None:
    exported = group_export_json(mixed)

    copy = group_import(user=bob, content=exported.encode())

    assert group_export_json(copy) == exported
    assert Match.objects.filter(group=copy, source="bgstats").count() == 7
    # The same ratings from the same history (the players are new rows: compare by name).
    mine = [(line.name, round(line.value, 9)) for line in leaderboard(mixed).lines]
    theirs = [(line.name, round(line.value, 9)) for line in leaderboard(copy).lines]
    assert mine == theirs and Rating.objects.filter(group=copy).exists()


def test_the_copy_recognises_the_bg_stats_file_it_came_from(mixed: Group, bob: User) -> None:
    copy = group_import(user=bob, content=group_export_json(mixed).encode())

    again = bgstats_import(group=copy, plan=bgstats_plan(EXPORT.read_bytes(), group=copy))

    assert again.matches == 0 and again.skipped["already"] == 7


def test_a_file_written_before_imports_existed_still_reads(mixed: Group, bob: User) -> None:
    document = group_export(mixed)
    for evening in document["game_nights"]:
        evening["matches"] = [match for match in evening["matches"]
                              if match["source"] == "sheet"]
        for match in evening["matches"]:
            del match["source"], match["external_id"]

    copy = group_import(user=bob, content=json.dumps(document))

    assert set(Match.objects.filter(group=copy).values_list("source", flat=True)) == {"sheet"}


def _refused(group: Group, change: Any) -> str:
    document = group_export(group)
    change(document)
    before = Match.objects.count(), Group.objects.count()
    # In German, whatever language a request before this test left active.
    with pytest.raises(TransferError) as info, translation.override("de"):
        group_import(user=group.owner, content=json.dumps(document))
    assert (Match.objects.count(), Group.objects.count()) == before
    return str(info.value)


def _sheet_match(document: dict[str, Any]) -> dict[str, Any]:
    return next(match for evening in document["game_nights"] for match in evening["matches"]
                if match["source"] == "sheet" and match["game"] == "x-nimmt")


def test_a_match_from_the_sheet_still_needs_all_its_deals(mixed: Group) -> None:
    message = _refused(mixed, lambda d: _sheet_match(d).update(deals=[], changes=[]))

    assert "mit 0 Durchgängen beendet" in message


def test_an_imported_match_with_deals_is_refused(mixed: Group) -> None:
    def change(document: dict[str, Any]) -> None:
        match = _sheet_match(document)
        match.update(source="bgstats", external_id="made-up")

    assert "nur Endstände, keine Durchgänge" in _refused(mixed, change)


def test_a_running_imported_match_is_refused(mixed: Group) -> None:
    def change(document: dict[str, Any]) -> None:
        _imported(document)[0].update(status="open", finished_at=None)

    assert "ist beendet" in _refused(mixed, change)


def test_an_imported_match_whose_places_do_not_follow_its_scores_is_refused(
    mixed: Group
) -> None:
    def change(document: dict[str, Any]) -> None:
        seats = _imported(document)[0]["seats"]
        seats[0]["total"], seats[1]["total"] = seats[1]["total"] + 50, seats[0]["total"]

    assert "Platz oder Sieg von" in _refused(mixed, change)


def test_two_imported_matches_with_one_play_id_are_refused(mixed: Group) -> None:
    def change(document: dict[str, Any]) -> None:
        first, second = _imported(document)[:2]
        second["external_id"] = first["external_id"]

    assert "dieselbe Kennung" in _refused(mixed, change)


@pytest.mark.parametrize("value", [7, "", "x" * 65, ["id"]])
def test_a_play_id_that_is_not_short_text_is_refused(mixed: Group, value: Any) -> None:
    assert _refused(mixed, lambda d: _imported(d)[0].update(external_id=value))


def test_an_unknown_source_is_refused(mixed: Group) -> None:
    assert "source" in _refused(mixed, lambda d: _imported(d)[0].update(source="ludopedia"))
