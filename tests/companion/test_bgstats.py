"""BG Stats in and out (companion.bgstats, companion.services.bgstats), with a realistic
export (tests/companion/data/BGStatsExport.json): plays of the five games and of
others, six players, ties, start players, a play given twice, an ignored play, a play
without a score, a solo play, a play whose BG Stats winner contradicts its scores, a
play after midnight."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from companion.bgstats import (
    MAX_BYTES,
    BGStatsError,
    ImportMapping,
    bgstats_export,
    bgstats_export_json,
    bgstats_plan,
    match_uuid,
    matches_csv,
)
from companion.models import (
    Deal,
    GameNight,
    GameRecord,
    Group,
    Match,
    Player,
    Rating,
    RatingStep,
    Seat,
    SeatResult,
)
from companion.selectors.nights import night_summary
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services.bgstats import bgstats_import
from companion.services.ratings import ratings_rebuild

EXPORT = Path(__file__).parent / "data" / "BGStatsExport.json"


@pytest.fixture
def content() -> bytes:
    return EXPORT.read_bytes()


def _document() -> dict[str, Any]:
    return json.loads(EXPORT.read_text(encoding="utf-8"))


def _seats(match: Match) -> list[tuple[str, int, int, bool]]:
    return [(seat.player.name, seat.total, seat.place or 0, seat.is_winner)
            for seat in match.seats.select_related("player").order_by("number")]


# --- The plan -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_plan_finds_the_five_games_by_boardgamegeek_id_or_by_name(
    content: bytes, group: Group,
) -> None:
    plan = bgstats_plan(content, group=group)

    assert [(g.name, g.suggested, g.found_by, g.plays) for g in plan.games] == [
        ("3 sind eine zu viel!", "drei-sind-einer-zuviel", "bgg", 1),
        ("X nimmt!", "x-nimmt", "name", 3),
        ("Freaky", "freaky", "name", 1),
        ("11 nimmt!", "elf-nimmt", "bgg", 4),
        ("Poison", "dreizehn", "bgg", 1),  # Amigo's 13 is Knizia's Poison on BoardGameGeek
        ("Catan", None, "", 1),
        ("Elfer raus!", None, "", 1),
        ("Wingspan", None, "", 1),
    ]
    assert (plan.unknown_games, plan.unknown_plays, plan.duplicates) == (3, 3, 1)
    assert plan.by_game() == {"drei-sind-einer-zuviel": 1, "x-nimmt": 2, "freaky": 1,
                              "elf-nimmt": 2, "dreizehn": 1}


@pytest.mark.django_db
def test_the_plan_suggests_roster_players_by_name(content: bytes, group: Group,
                                                  players: list[Player]) -> None:
    plan = bgstats_plan(content, group=group)

    anna, ben, cem = players
    assert [(p.name, p.suggested) for p in plan.players] == [
        ("Anna", anna.pk), ("Anonymous player", None), ("Ben", ben.pk), ("Cem", cem.pk),
        ("Dora", None), ("Emil (Nachbar)", None),
    ]


@pytest.mark.django_db
def test_the_plan_says_which_plays_would_be_left_out_and_why(content: bytes,
                                                             group: Group) -> None:
    prepared = bgstats_plan(content, group=group).prepare()

    assert len(prepared.ready) == 7
    assert dict(prepared.skipped) == {"duplicate": 1, "game": 3, "ignored": 1, "score": 1,
                                      "players": 1}


@pytest.mark.django_db
def test_a_plan_kept_as_a_small_document_reads_back_to_the_same_plan(
    content: bytes, group: Group,
) -> None:
    plan = bgstats_plan(content, group=group)

    again = bgstats_plan(json.dumps(plan.document()), group=group)

    assert (again.games, again.players, again.plays) == (plan.games, plan.players, plan.plays)
    assert again.prepare() == plan.prepare()


# --- The import -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_import_stores_the_plays_as_matches_with_final_scores_only(
    content: bytes, group: Group, anna: User,
) -> None:
    imported = bgstats_import(group=group, plan=bgstats_plan(content, group=group), user=anna)

    assert imported.matches == 7
    assert imported.players == ("Dora", "Emil (Nachbar)")
    assert imported.winners_differ == 1
    matches = Match.objects.filter(group=group).order_by("created_at", "pk")
    assert [m.game for m in matches] == [
        "elf-nimmt", "x-nimmt", "elf-nimmt", "drei-sind-einer-zuviel", "freaky", "dreizehn",
        "x-nimmt",
    ]
    assert {(m.source, m.status) for m in matches} == {("bgstats", "finished")}
    assert not Deal.objects.filter(match__group=group).exists()
    first = matches[0]
    assert first.external_id == "5D1C2E7A-94B3-4C1F-8E2D-000000000001"
    assert first.created_at == timezone.make_aware(dt.datetime(2025, 3, 7, 20, 15))
    assert first.finished_at == first.created_at + dt.timedelta(minutes=30)  # durationMin
    assert first.created_by == anna
    assert _seats(first) == [("Anna", 17, 1, True), ("Ben", 23, 2, False),
                             ("Cem", 23, 2, False)]
    assert first.first_dealer == 1  # Ben started


@pytest.mark.django_db
def test_places_and_winners_follow_the_scores_and_the_seat_order_bg_stats_kept(
    content: bytes, group: Group,
) -> None:
    bgstats_import(group=group, plan=bgstats_plan(content, group=group))
    by_uuid = {m.external_id[-2:]: m for m in Match.objects.filter(group=group)}

    assert _seats(by_uuid["03"]) == [("Ben", 31, 1, True), ("Anna", 24, 2, False)]
    assert by_uuid["03"].first_dealer == 0
    assert _seats(by_uuid["04"]) == [("Anna", 9, 1, True), ("Cem", 9, 1, True),
                                     ("Emil (Nachbar)", 4, 3, False)]
    # BG Stats marked Anna's 20 the winner; in X nimmt! fewer points win.
    assert _seats(by_uuid["12"]) == [("Anna", 20, 2, False), ("Ben", 9, 1, True)]


@pytest.mark.django_db
def test_the_plays_join_the_nights_of_their_dates_after_midnight_too(
    content: bytes, group: Group,
) -> None:
    earlier = GameNight.objects.create(group=group, date=dt.date(2025, 3, 14), place="Bei Ben")

    bgstats_import(group=group, plan=bgstats_plan(content, group=group))

    nights = {n.date: n for n in GameNight.objects.filter(group=group)}
    assert sorted(nights) == [dt.date(2025, 3, 7), dt.date(2025, 3, 14), dt.date(2025, 3, 21),
                              dt.date(2025, 4, 4)]
    assert nights[dt.date(2025, 3, 14)] == earlier
    assert nights[dt.date(2025, 3, 7)].place == "Bei Anna"
    assert nights[dt.date(2025, 3, 7)].matches.count() == 3  # 00:40 is still that evening


@pytest.mark.django_db
def test_importing_the_same_file_twice_adds_nothing(content: bytes, group: Group) -> None:
    bgstats_import(group=group, plan=bgstats_plan(content, group=group))
    counts = (Match.objects.count(), Seat.objects.count(), Player.objects.count(),
              GameNight.objects.count())

    plan = bgstats_plan(content, group=group)
    again = bgstats_import(group=group, plan=plan)

    assert again.matches == 0
    assert plan.by_game() == {}
    assert again.skipped["already"] == 7
    assert (Match.objects.count(), Seat.objects.count(), Player.objects.count(),
            GameNight.objects.count()) == counts


@pytest.mark.django_db
def test_imported_matches_count_in_the_statistics_and_the_ratings_but_not_in_deals(
    content: bytes, group: Group,
) -> None:
    bgstats_import(group=group, plan=bgstats_plan(content, group=group))

    assert SeatResult.objects.filter(group=group).count() == 19
    assert RatingStep.objects.filter(group=group).count() == 19
    ratings = sorted(Rating.objects.filter(group=group).values_list("player_id", "game", "mu",
                                                                     "sigma", "matches"))
    ratings_rebuild(group_id=group.pk)
    assert sorted(Rating.objects.filter(group=group).values_list(
        "player_id", "game", "mu", "sigma", "matches")) == ratings
    record = GameRecord.objects.get(group=group, game="x-nimmt")
    assert (record.matches, record.deals) == (2, 0)
    night = GameNight.objects.get(group=group, date=dt.date(2025, 3, 7))
    summary = night_summary(night)
    assert (summary.matches, summary.without_deals) == (3, 3)
    assert summary.games[0].best_deal is None


@pytest.mark.django_db
def test_the_mapping_picks_games_and_maps_players_onto_the_roster(
    content: bytes, group: Group, players: list[Player],
) -> None:
    anna, ben, cem = players
    plan = bgstats_plan(content, group=group)
    mapping = ImportMapping(
        games={8: "elf-nimmt", 3: None},  # "Elfer raus!" is 11 nimmt! here; no X nimmt!
        players={4: ben.pk, 5: None},  # Dora is Ben's second BG Stats name; Emil joins
    )

    imported = bgstats_import(group=group, plan=plan, mapping=mapping)

    assert imported.matches == 5
    assert imported.players == ("Emil (Nachbar)",)
    games = dict(Match.objects.filter(group=group).values_list("external_id", "game"))
    assert games["5D1C2E7A-94B3-4C1F-8E2D-000000000013"] == "elf-nimmt"
    assert "x-nimmt" not in games.values()
    # Poison had Ben and Dora, now both Ben: left out rather than seating Ben twice.
    assert "dreizehn" not in games.values()
    assert imported.skipped["same_player"] == 1
    assert not Player.objects.filter(group=group, name="Dora").exists()
    assert Seat.objects.filter(match__group=group, player=anna).count() == 5
    assert Seat.objects.filter(match__group=group, player=cem).count() == 3


@pytest.mark.django_db
def test_a_mapping_onto_another_groups_player_is_refused(
    content: bytes, group: Group, outsider: User,
) -> None:
    stranger = Player.objects.create(group=Group.objects.get(name="Andere Runde"), name="Olaf")
    plan = bgstats_plan(content, group=group)

    with pytest.raises(BGStatsError):
        bgstats_import(group=group, plan=plan, mapping=ImportMapping({}, {1: stranger.pk}))

    assert not Match.objects.filter(group=group).exists()


@pytest.mark.django_db
def test_a_new_player_whose_name_is_taken_is_refused_before_anything_is_stored(
    content: bytes, group: Group, players: list[Player],
) -> None:
    plan = bgstats_plan(content, group=group)

    with pytest.raises(BGStatsError, match="Anna"):
        bgstats_import(group=group, plan=plan, mapping=ImportMapping({}, {1: None}))

    assert not Match.objects.filter(group=group).exists()
    assert Player.objects.filter(group=group).count() == 3


@pytest.mark.django_db
def test_an_imported_match_cannot_be_reopened(content: bytes, group: Group,
                                              anna: User) -> None:
    bgstats_import(group=group, plan=bgstats_plan(content, group=group))
    match = Match.objects.filter(group=group).first()
    assert match is not None

    with pytest.raises(ValidationError) as caught:
        match_services.match_reopen(match=match, user=anna)

    assert caught.value.code == "imported"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


# --- Hostile and broken files ---------------------------------------------------------------


def _broken(change: Any) -> bytes:
    document = _document()
    change(document)
    return json.dumps(document).encode()


BROKEN = {
    "not JSON": b"{\"games\": [",
    "not text": b"\xff\xfe\x00\x00\xff",
    "a list": b"[]",
    "no plays": json.dumps({"games": [], "players": []}).encode(),
    "NaN": b'{"games": [], "players": [], "plays": [], "x": NaN}',
    "too deep": b"[" * 100_000 + b"]" * 100_000,
    "a huge number": b'{"games": [{"id": 1' + b"0" * 5000 + b'}], "players": [], "plays": []}',
    "a game twice": _broken(lambda d: d["games"].append(dict(d["games"][0]))),
    "an unknown game": _broken(lambda d: d["plays"][0].update(gameRefId=99)),
    "an unknown player": _broken(lambda d: d["plays"][0]["playerScores"][0].update(
        playerRefId=99)),
    "a player twice in a play": _broken(lambda d: d["plays"][0]["playerScores"].append(
        dict(d["plays"][0]["playerScores"][0]))),
    "a game id as text": _broken(lambda d: d["games"][0].update(id="1")),
    "a negative id": _broken(lambda d: d["players"][0].update(id=-1)),
    "a score as an object": _broken(lambda d: d["plays"][0]["playerScores"][0].update(
        score={"points": 3})),
    "a winner as text": _broken(lambda d: d["plays"][0]["playerScores"][0].update(
        winner="yes")),
    "a bad date": _broken(lambda d: d["plays"][0].update(playDate="7.3.2025")),
    "a date in year 3000": _broken(lambda d: d["plays"][0].update(
        playDate="3000-01-01 20:00:00")),
    "an empty uuid": _broken(lambda d: d["plays"][0].update(uuid=" ")),
    "a long uuid": _broken(lambda d: d["plays"][0].update(uuid="x" * 65)),
    "a NUL in a name": _broken(lambda d: d["players"][0].update(name="An\x00na")),
    "a long name": _broken(lambda d: d["players"][0].update(name="A" * 501)),
    "too many scores": _broken(lambda d: d["plays"][0].update(
        playerScores=[{"playerRefId": 1}] * 101)),
    "plays not a list": _broken(lambda d: d.update(plays={"0": d["plays"][0]})),
    "a play not an object": _broken(lambda d: d["plays"].append("play")),
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", BROKEN)
def test_a_broken_or_hostile_file_gets_one_message_and_changes_nothing(
    name: str, group: Group,
) -> None:
    with pytest.raises(BGStatsError) as caught:
        plan = bgstats_plan(BROKEN[name], group=group)
        bgstats_import(group=group, plan=plan)

    assert str(caught.value)
    assert "\n" not in str(caught.value)
    assert not Match.objects.filter(group=group).exists()


@pytest.mark.django_db
def test_a_file_too_large_is_refused_before_it_is_read(group: Group) -> None:
    with translation.override("en"), pytest.raises(BGStatsError, match="too large"):
        bgstats_plan(b" " * (MAX_BYTES + 1), group=group)


@pytest.mark.django_db
def test_a_message_names_where_the_file_is_broken(group: Group) -> None:
    content = _broken(lambda d: d["plays"][3]["playerScores"][1].update(playerRefId=42))

    with translation.override("en"), pytest.raises(BGStatsError) as caught:
        bgstats_plan(content, group=group)

    assert str(caught.value) == (
        "Play 4, player score 2: its player 42 is not among the file's players.")


# --- Out again ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_export_is_written_a_batch_of_matches_at_a_time_as_one_json_text(
    content: bytes, group: Group, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The download is sent as it is written (memory per batch, not per group); its text
    is what one json.dumps of the whole export gives, for a group without plays too."""
    from companion.bgstats import export

    def whole() -> str:
        return json.dumps(bgstats_export(group), ensure_ascii=False, indent=1) + "\n"

    def dated(text: str) -> str:  # the export's own time: the two may be a second apart
        return re.sub(r'"exportDate": "[^"]*"', '"exportDate": ""', text)

    assert dated(bgstats_export_json(group)) == dated(whole())  # no plays yet
    bgstats_import(group=group, plan=bgstats_plan(content, group=group))
    monkeypatch.setattr(export, "EXPORT_BATCH", 3)
    chunks = list(export.bgstats_export_chunks(group))
    plays = len(bgstats_export(group)["plays"])
    assert plays > 6 and len(chunks) == 2 + -(-plays // 3)
    assert dated("".join(chunks)) == dated(whole())


@pytest.mark.django_db
def test_the_export_has_the_shape_of_a_bg_stats_export(
    content: bytes, group: Group, monkeypatch: pytest.MonkeyPatch,
) -> None:
    bgstats_import(group=group, plan=bgstats_plan(content, group=group))
    # Both exports below are stamped with the same moment (the date is to the second).
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)

    document = bgstats_export(group)

    assert {"games", "players", "plays", "locations"} <= set(document)
    games = {g["name"]: g for g in document["games"]}
    assert games["11 nimmt!"]["bggId"] == 63706 and games["11 nimmt!"]["highestWins"] is False
    play = next(p for p in document["plays"]
                if p["uuid"] == "5D1C2E7A-94B3-4C1F-8E2D-000000000001")
    names = {p["id"]: p["name"] for p in document["players"]}
    assert play["playDate"] == "2025-03-07 20:15:00"
    assert [(names[s["playerRefId"]], s["score"], s["winner"], s["rank"], s["startPlayer"])
            for s in play["playerScores"]] == [
        ("Anna", "17", True, 1, False), ("Ben", "23", False, 2, True),
        ("Cem", "23", False, 2, False),
    ]
    assert json.loads(bgstats_export_json(group)) == json.loads(json.dumps(document))


@pytest.mark.django_db
def test_our_own_export_read_back_into_the_group_adds_nothing(
    group: Group, players: list[Player], anna: User,
) -> None:
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 5))
    match = match_services.match_start(group=group, game="elf-nimmt", players=players[:2],
                                 game_night=night, user=anna)
    for number, entries in enumerate([[{"went_out": True}, {"hand": 7}],
                                      [{"hand": 3}, {"went_out": True}]], 1):
        deal_services.deal_record(match=match, number=number, user=anna, entries={
            p.pk: e for p, e in zip(players[:2], entries, strict=True)})
    match_services.match_finish(match=match, user=anna)

    plan = bgstats_plan(bgstats_export_json(group), group=group)

    assert plan.plays[0].uuid == match_uuid(match.pk)
    assert bgstats_import(group=group, plan=plan).matches == 0


@pytest.mark.django_db
def test_the_export_brought_into_another_group_gives_the_same_matches(
    content: bytes, group: Group, outsider: User,
) -> None:
    bgstats_import(group=group, plan=bgstats_plan(content, group=group))
    other = Group.objects.get(name="Andere Runde")

    bgstats_import(group=other, plan=bgstats_plan(bgstats_export_json(group), group=other))

    def shape(g: Group) -> list[tuple[Any, ...]]:
        return sorted(Seat.objects.filter(match__group=g).values_list(
            "match__external_id", "match__game", "player__name", "number", "total", "place",
            "is_winner", "match__game_night__date"))

    assert shape(other) == shape(group)


@pytest.mark.django_db
def test_the_csv_has_a_row_per_match_and_player(content: bytes, group: Group) -> None:
    bgstats_import(group=group, plan=bgstats_plan(content, group=group))
    Player.objects.filter(group=group, name="Dora").update(name="=SUM(A1)")

    rows = list(csv.reader(io.StringIO(matches_csv(group))))

    assert rows[0] == ["date", "place", "match", "game", "status", "source", "player", "seat",
                       "score", "rank", "winner", "start_player"]
    assert len(rows) == 1 + 19
    assert rows[1] == ["2025-03-07", "Bei Anna", "1", "elf-nimmt", "finished", "bgstats",
                       "Anna", "1", "17", "1", "1", "0"]
    assert "'=SUM(A1)" in {row[6] for row in rows}


@pytest.mark.django_db
def test_an_imported_match_shows_its_final_scores_read_only_on_the_sheet(
    content: bytes, group: Group, anna_client: Client,
) -> None:
    bgstats_import(group=group, plan=bgstats_plan(content, group=group))
    match = Match.objects.filter(group=group, game="elf-nimmt").first()
    assert match is not None
    response = anna_client.get(reverse("match_sheet", args=[group.pk, match.pk]),
                               HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert "imported from BG Stats: final scores only, no deals" in html
    for seat in match.seats.select_related("player"):
        assert f"<b>{seat.player.name}" in html
        assert f"<span>{seat.total}</span></li>" in html
    assert "of 2 deals" not in html
    assert 'id="deal-form"' not in html
    assert "match_reopen" not in html and "/reopen/" not in html
    assert "/rematch/" in html


# --- Read as a stream before it is loaded (issue 30, item 6) ----------------------------------


@pytest.mark.parametrize("content", [
    pytest.param(b"[" + b"{}," * (1_400_000 - 1) + b"{}]", id="a list of objects"),
    pytest.param(b'{"games": [], "players": [], "plays": [], "x": ['
                 + b"{}," * 1_400_000 + b"{}]}", id="an object padded with objects"),
])
def test_a_file_of_a_million_empty_objects_is_refused_without_loading_it(
    group: Group, content: bytes
) -> None:
    """4 MB of ``{}``: loaded whole it took 90 MB (16 MB took 420 MB)."""
    import tracemalloc

    from companion.bgstats import BGStatsError, bgstats_plan

    tracemalloc.start()
    with translation.override("en"), pytest.raises(BGStatsError) as refused:
        bgstats_plan(content, group=group)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert str(refused.value).startswith(("This file is not a BG Stats export",
                                          "This file holds more than 1,000,000 lists"))
    assert peak < 3 * len(content), f"{peak / 2**20:.0f} MB"


@pytest.mark.django_db
def test_import_then_export_keeps_durations_names_and_ids(group: Group, outsider: User) -> None:
    source = _document()
    source["plays"][0]["durationMin"] = 35
    bgstats_import(group=group, plan=bgstats_plan(json.dumps(source), group=group))

    document = bgstats_export(group)

    imported: dict[str, Any] = {}
    for play in source["plays"]:  # a uuid given twice: the first play counts
        if not play["ignored"]:
            imported.setdefault(play["uuid"], play)
    exported = {p["uuid"]: p for p in document["plays"]}
    kept = set(exported) & set(imported)
    assert len(kept) == 7  # the plays of the five games (not Catan, Wingspan, Elfer raus!)
    assert {uuid: exported[uuid]["durationMin"] for uuid in kept} == {
        uuid: imported[uuid]["durationMin"] for uuid in kept}
    assert exported["5D1C2E7A-94B3-4C1F-8E2D-000000000001"]["durationMin"] == 35
    # Games: BoardGameGeek's id and name as the file had them; a game without an id as BG
    # Stats writes a custom game (id 0, its own name, year 0).
    source_games = {g["bggName"]: g for g in source["games"]}
    games = {g["name"]: g for g in document["games"]}
    for ours, theirs in (("11 nimmt!", "11 nimmt!"), ("3 sind einer zuviel!",
                         "3 sind eine zu viel!"), ("13", "Poison")):
        assert (games[ours]["bggId"], games[ours]["bggName"]) == (
            source_games[theirs]["bggId"], source_games[theirs]["bggName"]), ours
    for custom in ("X nimmt!", "Freaky"):
        assert {key: games[custom][key] for key in ("bggId", "bggName", "bggYear")} == {
            "bggId": 0, "bggName": custom, "bggYear": 0}
    # Players and places by name.
    names = {p["id"]: p["name"] for p in document["players"]}
    source_names = {p["id"]: p["name"] for p in source["players"]}
    for uuid in kept:
        assert sorted(names[s["playerRefId"]] for s in exported[uuid]["playerScores"]) == sorted(
            source_names[s["playerRefId"]] for s in imported[uuid]["playerScores"])
    assert {loc["name"] for loc in document["locations"]} <= {
        loc["name"] for loc in source["locations"]}

    # Once more, through another group: the same again.
    other = Group.objects.get(name="Andere Runde")
    bgstats_import(group=other, plan=bgstats_plan(bgstats_export_json(group), group=other))
    again = {p["uuid"]: p["durationMin"] for p in bgstats_export(other)["plays"]}
    assert again == {uuid: p["durationMin"] for uuid, p in exported.items()}
