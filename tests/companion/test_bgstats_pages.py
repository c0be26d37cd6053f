"""The BG Stats journey in the browser's terms: upload, confirm (games, players), import,
the result; a second import adds nothing; broken and hostile files get one message and
change nothing; the group's plays out again as BG Stats JSON and as CSV."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from companion import limits
from companion.bgstats import MATCHES_CSV_HEADERS, bgstats_plan
from companion.models import Group, Match, Player
from companion.services.bgstats import bgstats_import
from tests.companion.test_history_helpers import freaky, night, x_nimmt

pytestmark = pytest.mark.django_db

EXPORT = Path(__file__).parent / "data" / "BGStatsExport.json"


def _upload(content: bytes, name: str = "BGStatsExport.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/json")


def _state(group: Group) -> tuple[int, int, int]:
    return (Match.objects.filter(group=group).count(), Player.objects.filter(group=group).count(),
            group.game_nights.count())


def _confirm_data(body: str) -> dict[str, str]:
    """The confirm form's fields as the page sets them (hidden, and each select's choice)."""
    data = dict(re.findall(r'<input type="hidden" name="(plan_id)" value="([^"]*)"', body))
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', body, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', options)
        data[name] = chosen.group(1) if chosen else ""
    return data


def _uploaded(client: Client, group: Group) -> str:
    response = client.post(f"/g/{group.pk}/import/bgstats/",
                           {"file": _upload(EXPORT.read_bytes())})
    assert response.status_code == 302
    assert response["Location"] == f"/g/{group.pk}/import/bgstats/confirm/"
    return client.get(response["Location"]).content.decode()


# --- The journey ----------------------------------------------------------------------------


def test_the_history_page_links_to_the_bg_stats_import_and_exports(
    anna_client: Client, group: Group
) -> None:
    body = anna_client.get(f"/g/{group.pk}/history/").content.decode()

    for path in ("import/bgstats/", "export/bgstats.json", "export/matches.csv"):
        assert f'href="/g/{group.pk}/{path}"' in body


def test_an_upload_stores_nothing_and_the_confirm_screen_shows_what_the_file_holds(
    anna_client: Client, group: Group
) -> None:
    before = _state(group)

    body = _uploaded(anna_client, group)

    assert _state(group) == before
    assert "Die Datei enthält 14 Partien." in body
    assert "3 andere Spiele (3 Partien) kennt Kartenrunde nicht" in body
    # Per BG Stats game a choice, preset from the BoardGameGeek id or the name.
    data = _confirm_data(body)
    assert {data[f"game-{ref}"] for ref in (1, 2, 3, 4, 5)} == {
        "elf-nimmt", "drei-sind-einer-zuviel", "x-nimmt", "freaky", "dreizehn"}
    assert data["game-6"] == data["game-7"] == data["game-8"] == ""
    # Per BG Stats player a choice: the roster player of the same name, else a new one.
    anna, ben = (group.players.get(name=name).pk for name in ("Anna", "Ben"))
    assert (data["player-1"], data["player-2"], data["player-4"]) == (str(anna), str(ben), "new")
    preview = body[body.index('class="list-group mb-2 bgstats-preview"'):]
    assert "11 nimmt!" in preview and "2 Partien" in preview
    assert "1 Partie: doppelt in der Datei" in body


def test_confirming_imports_the_plays_and_the_result_page_counts_them(
    anna_client: Client, group: Group
) -> None:
    data = _confirm_data(_uploaded(anna_client, group))

    response = anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/",
                                {**data, "action": "import"})

    assert response.status_code == 302
    assert response["Location"] == f"/g/{group.pk}/import/bgstats/done/"
    imported = Match.objects.filter(group=group, source=Match.Source.BGSTATS)
    assert imported.count() == 7
    assert set(group.players.values_list("name", flat=True)) == {
        "Anna", "Ben", "Cem", "Dora", "Emil (Nachbar)"}
    body = anna_client.get(response["Location"]).content.decode()
    assert '<dd class="fs-3 mb-0" data-count="matches">7</dd>' in body
    assert '<dd class="fs-3 mb-0" data-count="players">2</dd>' in body
    assert "Dora, Emil (Nachbar)" in body
    skipped = body[body.index("bgstats-skipped"):]
    assert "keins der Spiele von Kartenrunde" in skipped and "3 Partien" in skipped
    # The plan is used up: the confirm screen asks for the file again.
    again = anna_client.get(f"/g/{group.pk}/import/bgstats/confirm/")
    assert again.status_code == 302 and again["Location"] == f"/g/{group.pk}/import/bgstats/"


def test_importing_the_same_file_again_adds_nothing(anna_client: Client, group: Group) -> None:
    data = _confirm_data(_uploaded(anna_client, group))
    anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/", {**data, "action": "import"})
    after_first = _state(group)

    body = _uploaded(anna_client, group)
    assert "7 Partien: schon in der Gruppe" in body
    assert "Es würde keine Partie importiert." in body
    response = anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/",
                                {**_confirm_data(body), "action": "import"})

    assert _state(group) == after_first
    # Posted anyway (the button is disabled): the result says so.
    result = anna_client.get(response["Location"]).content.decode()
    assert '<dd class="fs-3 mb-0" data-count="matches">0</dd>' in result
    assert "schon in der Gruppe" in result
    assert 'name="action" value="import" disabled' in body


def test_the_choices_map_players_onto_the_roster_and_leave_games_out(
    anna_client: Client, group: Group
) -> None:
    data = _confirm_data(_uploaded(anna_client, group))
    cem = group.players.get(name="Cem")
    data.update({"player-4": str(cem.pk), "game-3": ""})  # Dora is Cem; no X nimmt!

    anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/", {**data, "action": "import"})

    assert not group.players.filter(name="Dora").exists()
    assert not Match.objects.filter(group=group, game="x-nimmt").exists()
    assert Match.objects.filter(group=group, seats__player=cem).exists()


def test_a_game_chosen_for_an_unknown_one_brings_its_players_before_importing(
    anna_client: Client, group: Group
) -> None:
    def play(uuid: str, game: int, scores: dict[int, str]) -> dict[str, Any]:
        return {"uuid": uuid, "gameRefId": game, "playDate": "2025-05-01 20:00:00",
                "playerScores": [{"playerRefId": ref, "score": score}
                                 for ref, score in scores.items()]}

    document = {
        "games": [{"id": 1, "name": "11 nimmt!", "bggId": 63706},
                  {"id": 2, "name": "Elfer raus!", "bggId": 0}],
        "players": [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Ben"},
                    {"id": 3, "name": "Zoe"}],
        "plays": [play("a", 1, {1: "12", 2: "20"}), play("b", 2, {1: "4", 3: "9"})],
    }
    response = anna_client.post(f"/g/{group.pk}/import/bgstats/",
                                {"file": _upload(json.dumps(document).encode())})
    data = _confirm_data(anna_client.get(response["Location"]).content.decode())
    assert "player-3" not in data  # Zoe played Elfer raus! only: skipped, nobody to map
    data["game-2"] = "elf-nimmt"  # "Elfer raus!" is not 11 nimmt!, but say it is

    refreshed = anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/", data,
                                 HTTP_HX_REQUEST="true")
    imported = anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/",
                                {**data, "action": "import"})

    assert refreshed.status_code == 200
    part = refreshed.content.decode()
    assert "<html" not in part and 'name="player-3"' in part and "Zoe" in part
    assert "2 Partien" in part  # the preview counts the chosen game's play
    # Importing at once, with Zoe's choice never shown, would guess: the page asks first.
    assert imported.status_code == 200
    assert "bringen weitere Spieler mit" in imported.content.decode()
    assert not Match.objects.filter(group=group).exists()
    data["player-3"] = "new"
    anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/", {**data, "action": "import"})
    assert Match.objects.filter(group=group, game="elf-nimmt").count() == 2
    assert group.players.filter(name="Zoe").exists()


def test_without_javascript_applying_the_game_choices_shows_the_whole_page(
    anna_client: Client, group: Group
) -> None:
    data = _confirm_data(_uploaded(anna_client, group))
    data["game-1"] = ""

    response = anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/",
                                {**data, "action": "refresh"})

    body = response.content.decode()
    assert response.status_code == 200 and "<html" in body
    assert _confirm_data(body)["game-1"] == ""
    assert not Match.objects.filter(group=group).exists()


def test_choices_for_a_file_replaced_in_another_tab_are_not_imported(
    anna_client: Client, group: Group
) -> None:
    data = _confirm_data(_uploaded(anna_client, group))
    data["plan_id"] = "from-another-upload"

    response = anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/",
                                {**data, "action": "import"})

    assert response.status_code == 200
    assert "Inzwischen wurde eine andere BG-Stats-Datei hochgeladen" in response.content.decode()
    assert not Match.objects.filter(group=group).exists()


def test_a_mapping_onto_a_player_of_another_group_is_refused(
    anna_client: Client, group: Group, outsider: Any
) -> None:
    data = _confirm_data(_uploaded(anna_client, group))
    stranger = Player.objects.create(group=Group.objects.get(name="Andere Runde"), name="Zora")
    data["player-4"] = str(stranger.pk)

    response = anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/",
                                {**data, "action": "import"})

    assert response.status_code == 200
    assert (f"Bitte eine gültige Auswahl treffen. {stranger.pk} ist keine gültige Auswahl."
            in response.content.decode())
    assert not Match.objects.filter(group=group).exists()


def test_the_confirm_screen_without_an_upload_asks_for_the_file(
    anna_client: Client, group: Group
) -> None:
    response = anna_client.get(f"/g/{group.pk}/import/bgstats/confirm/")

    assert response.status_code == 302
    assert response["Location"] == f"/g/{group.pk}/import/bgstats/"


def test_a_plan_uploaded_for_one_group_is_not_confirmed_in_another(
    anna_client: Client, group: Group, anna: Any
) -> None:
    other = Group.objects.create(name="Zweite Runde", owner=anna)
    other.memberships.create(user=anna, role="owner")
    _uploaded(anna_client, group)

    response = anna_client.get(f"/g/{other.pk}/import/bgstats/confirm/")

    assert response.status_code == 302


def test_outsiders_reach_none_of_the_bg_stats_pages(
    outsider_client: Client, group: Group
) -> None:
    for path in ("import/bgstats/", "import/bgstats/confirm/", "import/bgstats/done/",
                 "export/bgstats.json", "export/matches.csv"):
        assert outsider_client.get(f"/g/{group.pk}/{path}").status_code == 404
    response = outsider_client.post(f"/g/{group.pk}/import/bgstats/",
                                    {"file": _upload(EXPORT.read_bytes())})
    assert response.status_code == 404


# --- Broken and hostile files ---------------------------------------------------------------


HOSTILE = {
    "not JSON": b"<html>not json</html>",
    "not text": bytes(range(256)) * 4,
    "a list": b"[1, 2, 3]",
    "a group export": json.dumps({"format": "kartenrunde-history", "version": 1}).encode(),
    "wrong types": json.dumps({"games": {"1": "x"}, "players": [], "plays": []}).encode(),
    "a score as an object": json.dumps({
        "games": [{"id": 1, "name": "Freaky", "bggId": 0}], "players": [{"id": 1, "name": "A"}],
        "plays": [{"uuid": "u", "gameRefId": 1, "playDate": "2025-01-01 20:00:00",
                   "playerScores": [{"playerRefId": 1, "score": {"points": 3}}]}],
    }).encode(),
    "a string of a million digits": b'{"games": [{"id": 1' + b"0" * 1_000_000 + b"}]}",
    "deeply nested": b"[" * 50_000 + b"]" * 50_000,
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_broken_or_hostile_upload_gets_one_message_and_changes_nothing(
    anna_client: Client, group: Group, name: str
) -> None:
    before = _state(group)

    response = anna_client.post(f"/g/{group.pk}/import/bgstats/",
                                {"file": _upload(HOSTILE[name])})

    assert response.status_code == 200
    body = response.content.decode()
    assert body.count("invalid-feedback") == 1
    assert _state(group) == before
    assert "bgstats-plan" not in anna_client.session


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(
    anna_client: Client, group: Group, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "IMPORT_BYTES", limits.Limit(1024, limits.IMPORT_BYTES.message))

    response = anna_client.post(f"/g/{group.pk}/import/bgstats/",
                                {"file": _upload(EXPORT.read_bytes())})

    assert response.status_code == 200
    body = response.content.decode()
    assert "Die Datei ist zu groß" in body and body.count("invalid-feedback") == 1
    assert "bgstats-plan" not in anna_client.session


def test_an_empty_upload_or_none_gets_a_message(anna_client: Client, group: Group) -> None:
    empty = anna_client.post(f"/g/{group.pk}/import/bgstats/", {"file": _upload(b"")})
    missing = anna_client.post(f"/g/{group.pk}/import/bgstats/", {})

    assert empty.status_code == missing.status_code == 200
    assert empty.content.decode().count("invalid-feedback") == 1
    assert missing.content.decode().count("invalid-feedback") == 1


# --- Out again ------------------------------------------------------------------------------


@pytest.fixture
def history(group: Group) -> Group:
    evening = night(group, "2026-02-14", "Bei Cem")
    freaky(group, evening, Anna=15, Ben=35, Cem=30)
    x_nimmt(group, evening, {"Anna": (5, 9), "Ben": (0, 1)}, {"Anna": (1, 0), "Ben": (0, 3)})
    return group


def test_the_bg_stats_download_reads_back_as_the_same_plays(
    anna_client: Client, history: Group
) -> None:
    response = anna_client.get(f"/g/{history.pk}/export/bgstats.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].endswith('-bgstats.json"')
    content = response.getvalue()  # sent as it is written (StreamingHttpResponse)
    document = json.loads(content)
    assert {game["name"] for game in document["games"]} == {"Freaky", "X nimmt!"}
    assert len(document["plays"]) == 2
    # Read back into the group it came from, it adds nothing.
    plan = bgstats_plan(content, group=history)
    assert bgstats_import(group=history, plan=plan).matches == 0


def test_the_csv_download_has_a_row_per_match_and_player(
    anna_client: Client, history: Group
) -> None:
    response = anna_client.get(f"/g/{history.pk}/export/matches.csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = response.getvalue().decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert tuple(rows[0]) == MATCHES_CSV_HEADERS
    assert [(row[3], row[6], row[8]) for row in rows[1:]] == [
        ("freaky", "Anna", "15"), ("freaky", "Ben", "35"), ("freaky", "Cem", "30"),
        ("x-nimmt", "Anna", "24"), ("x-nimmt", "Ben", "8"),
    ]


@pytest.mark.parametrize("path", ["export/bgstats.json", "export/matches.csv"])
def test_the_downloads_run_the_same_queries_however_long_the_history(
    anna_client: Client, group: Group, path: str,
    django_assert_max_num_queries: Callable[[int], DjangoAssertNumQueries],
) -> None:
    def grow(count: int) -> None:
        for index in range(count):
            evening = night(group, f"2025-{index % 12 + 1:02d}-{index % 27 + 1:02d}")
            freaky(group, evening, Anna=10 + index, Ben=20, Cem=4)

    grow(2)
    with django_assert_max_num_queries(1000) as small:
        assert anna_client.get(f"/g/{group.pk}/{path}").status_code == 200
    grow(10)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert anna_client.get(f"/g/{group.pk}/{path}").status_code == 200


@pytest.mark.parametrize("step", ["upload", "confirm"])
def test_the_import_pages_run_the_same_queries_however_long_the_history(
    anna_client: Client, group: Group, step: str,
    django_assert_max_num_queries: Callable[[int], DjangoAssertNumQueries],
) -> None:
    def grow(count: int) -> None:
        for index in range(count):
            freaky(group, night(group, f"2025-03-{index + 1:02d}"), Anna=10 + index, Ben=20)

    url = f"/g/{group.pk}/import/bgstats/" + ("confirm/" if step == "confirm" else "")
    _uploaded(anna_client, group)
    grow(2)
    with django_assert_max_num_queries(1000) as small:
        assert anna_client.get(url).status_code == 200
    grow(10)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert anna_client.get(url).status_code == 200


def test_a_long_history_of_other_games_keeps_the_confirm_form_within_djangos_limits(
    anna_client: Client, group: Group
) -> None:
    games = [{"id": 1, "name": "Freaky", "bggId": 0}]
    games += [{"id": ref, "name": f"Spiel {ref}", "bggId": 0} for ref in range(2, 1202)]
    plays = [{"uuid": f"p{ref}", "gameRefId": ref, "playDate": "2025-05-01 20:00:00",
              "playerScores": [{"playerRefId": 1, "score": "3"}, {"playerRefId": 2,
                                                                  "score": "5"}]}
             for ref in range(1, 1202)]
    document = {"games": games, "plays": plays,
                "players": [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Ben"}]}
    response = anna_client.post(f"/g/{group.pk}/import/bgstats/",
                                {"file": _upload(json.dumps(document).encode())})
    body = anna_client.get(response["Location"]).content.decode()
    data = _confirm_data(body)

    assert len([name for name in data if name.startswith("game-")]) == 201
    assert "1000 weitere Spiele mit weniger Partien werden übersprungen." in body
    imported = anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/",
                                {**data, "action": "import"})
    assert imported.status_code == 302
    assert Match.objects.filter(group=group).count() == 1


# --- The plan computed once (issue 30, item 10) ---------------------------------------------


def _many_plays(count: int) -> bytes:
    """A BG Stats file of ``count`` plays of Freaky by Anna and Ben."""
    plays = [{"uuid": f"play-{index}", "gameRefId": 1, "playDate": "2025-05-01 20:00:00",
              "playerScores": [{"playerRefId": 1, "score": str(index % 50)},
                               {"playerRefId": 2, "score": "5"}]}
             for index in range(count)]
    return json.dumps({"games": [{"id": 1, "name": "Freaky", "bggId": 0}], "plays": plays,
                       "players": [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Ben"}]}
                      ).encode()


def test_the_confirm_page_reads_the_plan_kept_on_upload_not_the_file(
    anna_client: Client, group: Group, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is read once, on the upload; the session keeps only the plan's id."""
    from companion.bgstats import plan

    reads: list[int] = []
    read = plan.bgstats_read
    monkeypatch.setattr(plan, "bgstats_read", lambda content: reads.append(1) or read(content))
    response = anna_client.post(f"/g/{group.pk}/import/bgstats/",
                                {"file": _upload(_many_plays(2_000))})
    assert reads == [1]
    for _view in range(2):
        body = anna_client.get(response["Location"]).content.decode()
        assert re.search(r"Die Datei enthält 2\.?000 Partien\.", body)
    assert reads == [1], "the confirm page did not read the file again"
    assert len(json.dumps(anna_client.session["bgstats-plan"])) < 200

    data = _confirm_data(body)
    imported = anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/",
                                {**data, "action": "import"})
    assert imported.status_code == 302
    assert Match.objects.filter(group=group).count() == 2_000
    assert reads == [1]


def test_the_kept_plan_is_read_against_the_group_as_it_is_now(
    anna_client: Client, group: Group
) -> None:
    """Plays imported meanwhile (in another tab) count as imported on the confirm page."""
    response = anna_client.post(f"/g/{group.pk}/import/bgstats/",
                                {"file": _upload(_many_plays(3))})
    bgstats_import(group=group, plan=bgstats_plan(_many_plays(2), group=group))
    body = anna_client.get(response["Location"]).content.decode()
    assert "Die Datei enthält 3 Partien." in body
    data = _confirm_data(body)
    anna_client.post(f"/g/{group.pk}/import/bgstats/confirm/", {**data, "action": "import"})
    assert Match.objects.filter(group=group).count() == 3


def test_another_users_upload_is_not_anyone_elses_plan(
    anna_client: Client, group: Group, client: Client
) -> None:
    from django.contrib.auth.models import User

    from companion.models import Membership

    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=group, user=ben, role=Membership.Role.MEMBER)
    anna_client.post(f"/g/{group.pk}/import/bgstats/", {"file": _upload(_many_plays(3))})
    ben_client = Client()
    ben_client.force_login(ben)
    response = ben_client.get(f"/g/{group.pk}/import/bgstats/confirm/")
    assert response.status_code == 302
    assert response["Location"] == f"/g/{group.pk}/import/bgstats/"
