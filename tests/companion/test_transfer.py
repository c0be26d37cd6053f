"""Export (JSON, CSV) and import: the round trip, broken files, all or nothing."""

from __future__ import annotations

import copy
import csv
import datetime as dt
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from companion.games.live import live_steps
from companion.models import Deal, DealScore, GameNight, Group, Match, MatchChange, Membership
from companion.services.transfer import FORMAT, TransferError
from companion.services.transfer.export import (
    CSV_HEADERS,
    group_export,
    group_export_csv,
    group_export_json,
)
from companion.services.transfer.importer import group_import
from tests.companion.test_history_helpers import freaky, night, play, x_nimmt

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(group: Group) -> Group:
    first = night(group, "2026-01-10", "Bei Anna")
    first.notes = "Pizza; Ben kam später."
    first.save(update_fields=["notes"])
    freaky(group, first, Anna=30, Ben=20, Cem=10)
    x = x_nimmt(group, first, {"Anna": (5, 9), "Ben": (0, 1)}, {"Anna": (0, 1), "Ben": (3, 1)})
    second_deal = x.deals.get(number=2)
    second_deal.version = 3
    second_deal.save(update_fields=["version"])
    anna = group.players.get(name="Anna")
    MatchChange.objects.create(
        match=x, kind=MatchChange.Kind.EDIT, deal_number=2,
        before={str(anna.pk): {"hand": 2, "x_stack": 0, "hand_cards": None,
                               "x_stack_cards": None}},
    )
    MatchChange.objects.create(match=x, kind=MatchChange.Kind.RECORD, deal_number=1, before=None)
    play(group, "x-nimmt", [{"Anna": {"hand_cards": [55, 3], "x_stack_cards": [10]},
                             "Cem": {"hand": 0, "x_stack": 1}}], on="2026-02-01",
         finished=False)
    night(group, "2026-03-01", "=SUMME(A1)")  # an empty night, a place that looks like a formula
    return group


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="kartenrunde-bob-1")


def test_the_export_names_its_format_and_holds_no_database_ids(history: Group) -> None:
    document = group_export(history)
    assert (document["format"], document["version"]) == (FORMAT, 1)
    assert document["group"]["name"] == "Donnerstagsrunde"
    assert [p["key"] for p in document["players"]] == ["p1", "p2", "p3"]
    assert [p["name"] for p in document["players"]] == ["Anna", "Ben", "Cem"]
    text = json.dumps(document)
    assert '"id"' not in text and '"pk"' not in text
    evening = document["game_nights"][0]
    assert (evening["date"], evening["place"], evening["notes"]) == (
        "2026-01-10", "Bei Anna", "Pizza; Ben kam später."
    )
    x = evening["matches"][1]
    assert x["game"] == "x-nimmt" and x["status"] == "finished"
    assert x["seats"] == [
        {"player": "p1", "number": 0, "total": 25, "place": 2, "is_winner": False},
        {"player": "p2", "number": 1, "total": 7, "place": 1, "is_winner": True},
    ]
    assert x["deals"][1]["version"] == 3
    assert x["deals"][0]["scores"][0] == {
        "player": "p1", "score": 23,
        "data": {"hand": 5, "x_stack": 9, "hand_cards": None, "x_stack_cards": None},
    }
    assert [c["kind"] for c in x["changes"]] == ["edit", "record"]
    assert x["changes"][0]["before"] == {
        "p1": {"hand": 2, "x_stack": 0, "hand_cards": None, "x_stack_cards": None}
    }


def test_export_import_export_gives_the_same_document(history: Group, bob: User) -> None:
    exported = group_export_json(history)
    imported = group_import(user=bob, content=exported.encode())
    assert imported.pk != history.pk
    assert group_export_json(imported) == exported
    # And the copy is a real group of its own, owned by the importing user.
    assert imported.owner == bob
    assert Membership.objects.get(group=imported).user == bob
    assert imported.players.count() == 3 and imported.game_nights.count() == 3
    assert Match.objects.filter(group=imported).count() == 3
    assert set(imported.players.values_list("user", flat=True)) == {None}
    x = imported.matches.get(game="x-nimmt", status="finished")
    ben = imported.players.get(name="Ben")
    assert x.seats.get(player=ben).is_winner
    anna = imported.players.get(name="Anna")
    assert x.changes.get(kind="edit").before == {
        str(anna.pk): {"hand": 2, "x_stack": 0, "hand_cards": None, "x_stack_cards": None}
    }


def test_an_empty_group_round_trips(group: Group, bob: User) -> None:
    exported = group_export_json(group)
    assert group_export_json(group_import(user=bob, content=exported)) == exported


def test_the_csv_has_one_row_per_player_per_deal(history: Group) -> None:
    rows = list(csv.DictReader(io.StringIO(group_export_csv(history))))
    assert tuple(rows[0]) == CSV_HEADERS
    # Freaky 3 players × 1 deal, X nimmt! 2 × 2, the running X nimmt! 2 × 1.
    assert len(rows) == 3 + 4 + 2
    x_rows = [r for r in rows if r["match"] == "2"]
    assert [(r["deal"], r["player"], r["seat"], r["score"], r["running_total"])
            for r in x_rows] == [
        ("1", "Anna", "1", "23", "23"), ("1", "Ben", "2", "2", "2"),
        ("2", "Anna", "1", "2", "25"), ("2", "Ben", "2", "5", "7"),
    ]
    assert x_rows[0]["date"] == "2026-01-10" and x_rows[0]["game"] == "x-nimmt"
    assert json.loads(x_rows[0]["entry"]) == {
        "hand": 5, "x_stack": 9, "hand_cards": None, "x_stack_cards": None
    }
    running = [r for r in rows if r["status"] == "open"]
    assert [(r["player"], r["score"]) for r in running] == [("Anna", "14"), ("Cem", "2")]


def test_the_csv_defuses_formulas_in_text(group: Group) -> None:
    evening = night(group, "2026-03-01", "=HYPERLINK(1)")
    freaky(group, evening, Anna=4, Ben=5)
    rows = list(csv.DictReader(io.StringIO(group_export_csv(group))))
    assert rows[0]["place"] == "'=HYPERLINK(1)"


def test_the_download_views_send_files(anna_client: Client, history: Group) -> None:
    response = anna_client.get(f"/g/{history.pk}/export.json")
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert 'attachment; filename="kartenrunde-donnerstagsrunde-' in response["Content-Disposition"]
    assert response.streaming  # sent as it is written, a few hundred matches at a time
    content = b"".join(response.streaming_content)
    assert json.loads(content)["format"] == FORMAT
    assert content.decode() == group_export_json(history)
    response = anna_client.get(f"/g/{history.pk}/export.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.streaming
    content = b"".join(response.streaming_content)
    assert content.startswith("\ufeffdate,place,match".encode())
    assert content.decode() == "\ufeff" + group_export_csv(history)


# --- Import through the page ----------------------------------------------------------------


def _upload(content: bytes, name: str = "export.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/json")


def test_the_import_page_creates_a_new_group_for_the_user(
    client: Client, history: Group, bob: User
) -> None:
    client.force_login(bob)
    assert client.get("/groups/import/").status_code == 200
    content = group_export_json(history).encode()
    response = client.post("/groups/import/", {"file": _upload(content)})
    new = Group.objects.get(owner=bob)
    assert response.status_code == 302 and response["Location"] == f"/g/{new.pk}/history/"
    assert new.name == "Donnerstagsrunde"
    page = client.get(response["Location"])
    assert "Bei Anna" in page.content.decode()


def _counts() -> tuple[int, ...]:
    return (Group.objects.count(), GameNight.objects.count(), Match.objects.count(),
            Deal.objects.count(), DealScore.objects.count(), MatchChange.objects.count())


def _broken(history: Group) -> dict[str, Any]:
    return copy.deepcopy(group_export(history))


def _reject(client: Client, content: bytes) -> str:
    before = _counts()
    response = client.post("/groups/import/", {"file": _upload(content)})
    assert response.status_code == 200
    assert _counts() == before
    return response.content.decode()


@pytest.fixture
def bob_client(client: Client, bob: User) -> Client:
    client.force_login(bob)
    return client


def test_a_file_that_is_not_json_is_rejected(bob_client: Client, history: Group) -> None:
    body = _reject(bob_client, b"\x89PNG\r\n\x1a\n\x00\x00")
    assert "Kartenrunde" in body
    body = _reject(bob_client, group_export_json(history).encode()[:-200])
    assert "JSON" in body


def test_a_foreign_json_file_is_rejected(bob_client: Client) -> None:
    body = _reject(bob_client, json.dumps({"players": [], "games": []}).encode())
    assert FORMAT in body
    body = _reject(bob_client, b"[1, 2, 3]")
    assert FORMAT in body


def test_a_newer_format_version_is_rejected(bob_client: Client, history: Group) -> None:
    document = _broken(history)
    document["version"] = 2
    body = _reject(bob_client, json.dumps(document).encode())
    assert "(2)" in body or " 2" in body


def _error(history: Group, change: Any) -> str:
    document = _broken(history)
    change(document)
    before = _counts()
    with pytest.raises(TransferError) as info:
        group_import(user=history.owner, content=json.dumps(document))
    assert _counts() == before
    return str(info.value)


def _x(document: dict[str, Any]) -> dict[str, Any]:
    match: dict[str, Any] = document["game_nights"][0]["matches"][1]
    return match


def test_a_wrong_score_is_rejected_with_its_place(history: Group) -> None:
    def change(document: dict[str, Any]) -> None:
        _x(document)["deals"][0]["scores"][0]["score"] = 22

    message = _error(history, change)
    assert "2026-01-10" in message and "2" in message and "22" in message and "23" in message


def test_a_deal_the_engine_rejects_is_rejected(history: Group) -> None:
    def change(document: dict[str, Any]) -> None:
        # Card 55 twice in one deal.
        _x(document)["deals"][0]["scores"][0]["data"] = {"hand_cards": [55], "x_stack_cards": [55]}

    assert "55" in _error(history, change)


def test_unknown_entry_fields_are_rejected(history: Group) -> None:
    def change(document: dict[str, Any]) -> None:
        document["game_nights"][0]["matches"][0]["deals"][0]["scores"][0]["data"] = {"points": 3}

    message = _error(history, change)
    assert message.startswith("Spieleabend 2026-01-10, Partie 1, Durchgang 1, Eintrag 1: ")
    assert "points" in message


def test_a_total_that_is_not_the_sum_is_rejected(history: Group) -> None:
    def change(document: dict[str, Any]) -> None:
        _x(document)["seats"][0]["total"] = 26

    assert "26" in _error(history, change)


def test_a_false_winner_is_rejected(history: Group) -> None:
    def change(document: dict[str, Any]) -> None:
        _x(document)["seats"][0]["is_winner"] = True

    assert "Anna" in _error(history, change)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["players"].append({"key": "p1", "name": "Dora", "created_at": None}),
        lambda d: d["players"][1].update(name="Anna"),
        lambda d: d.pop("game_nights"),
        lambda d: d["game_nights"][0].update(date="2026-13-01"),
        lambda d: d["game_nights"][0].update(date=20260110),
        lambda d: _x(d).update(game="skat"),
        lambda d: _x(d).update(status="paused"),
        lambda d: _x(d)["seats"][0].update(player="p9"),
        lambda d: _x(d)["seats"][1].update(player="p1"),
        lambda d: _x(d)["seats"].pop(),
        lambda d: _x(d)["deals"][0]["scores"].pop(),
        lambda d: _x(d)["deals"].append(copy.deepcopy(_x(d)["deals"][0])),
        lambda d: _x(d)["deals"][0].update(version=0),
        lambda d: _x(d)["deals"][0].update(created_at="yesterday"),
        lambda d: _x(d).update(first_dealer=5),
        lambda d: _x(d)["changes"][0].update(before={"p9": {}}),
        lambda d: _x(d)["options"].update(live_rows=[["p3", 4]]),
        lambda d: _x(d)["options"].update(live_turns="p1"),
        lambda d: d["group"].update(name="  "),
        lambda d: d.update(players="Anna, Ben"),
    ],
)
def test_a_damaged_document_is_rejected_whole(history: Group, change: Any) -> None:
    assert _error(history, change)


def test_the_file_size_is_limited(bob_client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import limits

    monkeypatch.setattr(limits, "IMPORT_BYTES", limits.Limit(10, limits.IMPORT_BYTES.message))
    body = _reject(bob_client, b'{"format": "kartenrunde-history"}')
    assert "MB" in body


def test_timestamps_round_trip_to_the_microsecond(group: Group, bob: User) -> None:
    evening = night(group, "2026-01-10")
    evening.created_at = dt.datetime(2026, 1, 10, 19, 3, 4, 123456, tzinfo=dt.UTC)
    evening.save(update_fields=["created_at"])
    imported = group_import(user=bob, content=group_export_json(group))
    assert imported.game_nights.get().created_at == evening.created_at


def test_a_history_kept_by_the_score_sheet_round_trips(group: Group, bob: User) -> None:
    """Matches recorded, edited, undone and finished through the sheet's services, and the
    live mode's state of a running match, survive export → import → export."""
    from companion.services import deals as deal_services
    from companion.services import live as live_services
    from companion.services import matches as match_services

    anna, ben, cem = (group.players.get(name=n) for n in ("Anna", "Ben", "Cem"))
    x = match_services.match_start(group=group, game="x-nimmt", players=[anna, ben, cem])
    deal_services.deal_record(match=x, number=1, entries={
        anna.pk: {"hand": 3, "x_stack": 1}, ben.pk: {"hand_cards": [55, 7]}, cem.pk: {}})
    deal_services.deal_edit(match=x, number=1, version=1, entries={
        anna.pk: {"hand": 4, "x_stack": 1}, ben.pk: {"hand_cards": [55, 7]}, cem.pk: {}})
    deal_services.deal_record(match=x, number=2, entries={
        anna.pk: {"hand": 1}, ben.pk: {"x_stack": 2}, cem.pk: {"hand": 9}})
    match_services.match_finish(match=x)
    freaky_match = match_services.match_start(group=group, game="freaky", players=[anna, ben])
    live_services.live_step(
        match=freaky_match, revision=0, action="collect", data={"player": ben.pk, "cards": 5},
    )
    live_services.live_step(
        match=freaky_match, revision=1, action="collect", data={"player": anna.pk, "cards": 4},
    )
    drei = match_services.match_start(
        group=group, game="drei-sind-einer-zuviel", players=[cem, anna]
    )
    live_services.live_step(
        match=drei, revision=0, action="take", data={"player": cem.pk, "colour": "rot"},
    )

    exported = group_export_json(group)
    options = [m["options"] for m in json.loads(exported)["game_nights"][0]["matches"]]
    assert options[1] == {"live_rows": [["p2", 5], ["p1", 4]], "live_rev": 2}
    assert options[2] == {"live_turns": [["p3", ["rot"], False]], "live_rev": 1}
    copy_group = group_import(user=bob, content=exported)
    assert group_export_json(copy_group) == exported
    new_ben = copy_group.players.get(name="Ben")
    new_freaky = copy_group.matches.get(game="freaky")
    new_anna = copy_group.players.get(name="Anna")
    assert live_steps(new_freaky, "live_rows") == [[new_ben.pk, 5], [new_anna.pk, 4]]
    # The copied sheet still works: the live state saves as the deal, the undo log undoes.
    live_services.live_save(match=new_freaky, revision=2)
    new_x = copy_group.matches.get(game="x-nimmt")
    match_services.match_reopen(match=new_x)
    deal_services.match_undo(match=new_x)  # takes back the record of deal 2
    assert new_x.deals.count() == 1


def test_the_export_is_written_a_batch_of_matches_at_a_time(
    history: Group, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion.services.transfer import export

    first = history.game_nights.order_by("id").first()
    assert first is not None
    freaky(history, first, Anna=30, Ben=20, Cem=10)  # a match of the first night, added last
    whole = group_export_json(history)
    table = group_export_csv(history)
    monkeypatch.setattr(export, "EXPORT_BATCH", 1)
    monkeypatch.setattr(export, "CHUNK", 1)

    parts = list(export.group_export_json_chunks(history))
    assert len(parts) > Match.objects.filter(group=history).count()
    assert "".join(parts) == whole
    assert "".join(export.group_export_csv_chunks(history)) == table
    nights = json.loads(whole)["game_nights"]
    assert [len(night["matches"]) for night in nights] == [
        night.matches.count() for night in history.game_nights.order_by("id")]
    assert [night["place"] for night in nights][-1] == "=SUMME(A1)"  # without matches
