"""Hostile input beyond the fuzzers: forged forms, doctored import files, foreign backups.

Each case is one an attacker (or a damaged file) brings: the answer is a clear
message in the user's language or our own error page, never Django's bare page
or a traceback, and nothing is saved.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from companion.models import Deal, GameNight, Group, Invite, Membership, Player
from companion.services.transfer.export import group_export_json
from tests.companion.test_backups import everything
from tests.companion.test_history_helpers import play


def import_file(client: Client, content: bytes) -> str:
    upload = SimpleUploadedFile("runde.json", content, content_type="application/json")
    response = client.post(reverse("group_import"), {"file": upload},
                           headers={"Accept-Language": "de"})
    assert response.status_code == 200
    return response.content.decode()


# ------------------------------------------------------------------ forms without their token


@pytest.mark.django_db
def test_a_form_sent_without_its_security_token_gets_our_page_in_german_and_saves_nothing(
    anna: User,
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(anna)
    response = client.post(reverse("group_create"), {"name": "Geklaute Runde"},
                           headers={"Accept-Language": "de"})
    page = response.content.decode()
    assert response.status_code == 403
    assert "Das Formular wurde nicht angenommen" in page
    assert "darum wurde nichts gespeichert" in page
    assert 'href="/"' in page
    assert "CSRF verification failed" not in page
    assert not Group.objects.filter(name="Geklaute Runde").exists()


@pytest.mark.django_db
def test_the_refused_form_page_speaks_english_to_an_english_browser(anna: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(anna)
    response = client.post(reverse("group_create"), {"name": "X"},
                           headers={"Accept-Language": "en"})
    assert response.status_code == 403
    assert "The form was not accepted" in response.content.decode()


# ------------------------------------------------------------------ a button's address opened


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "heading"), [
    ("de", "Das geht nur über den Knopf"),
    ("en", "This works only through its button"),
])
def test_a_buttons_address_opened_as_a_page_says_so_instead_of_a_blank_page(
    anna_client: Client, group: Group, language: str, heading: str
) -> None:
    # A link shared from the address bar or an old tab: GET on what only a form may send.
    response = anna_client.get(f"/g/{group.pk}/leave/", headers={"Accept-Language": language})
    page = response.content.decode()
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert heading in page
    assert 'href="/"' in page
    assert Membership.objects.filter(group=group).exists()


# ------------------------------------------------------------------ damaged hidden fields


X_DEAL = {"mode": "count", "s0-hand": "4", "s0-x_stack": "0", "s1-hand": "2",
          "s1-x_stack": "0", "s2-hand": "0", "s2-x_stack": "1"}


@pytest.mark.django_db
@pytest.mark.parametrize("version", ["-1", "1e3", "①", "9" * 30])
def test_a_correction_with_a_damaged_hidden_version_says_so_above_the_form(
    group: Group, anna_client: Client, version: str,
) -> None:
    match = play(group, "x-nimmt", [{"Anna": {"hand": 3, "x_stack": 1},
                                     "Ben": {"hand": 0, "x_stack": 0},
                                     "Cem": {"hand": 7, "x_stack": 2}}],
                 on="2026-02-05", finished=False)
    url = reverse("deal_edit", args=[group.pk, match.pk, 1])
    response = anna_client.post(url, {**X_DEAL, "number": "1", "version": version},
                                headers={"HX-Request": "true", "Accept-Language": "de"})
    assert response.status_code == 422
    assert ("Das Formular kam beschädigt an (ein verborgener Wert ist unlesbar). Bitte die "
            "Seite neu laden und den Durchgang noch einmal eingeben."
            in response.content.decode())
    assert Deal.objects.get(match=match, number=1).scores.get(player__name="Anna").score == 5


@pytest.mark.django_db
def test_a_new_deal_with_a_damaged_hidden_number_says_so_and_records_nothing(
    group: Group, anna_client: Client,
) -> None:
    match = play(group, "x-nimmt", [], on="2026-02-05", finished=False,
                 players=["Anna", "Ben", "Cem"])
    url = reverse("deal_new", args=[group.pk, match.pk])
    response = anna_client.post(url, {**X_DEAL, "number": "-3"},
                                headers={"Accept-Language": "de"})
    page = response.content.decode()
    assert response.status_code == 422
    assert "ein verborgener Wert ist unlesbar" in page
    assert 'value="-3"' not in page
    assert not Deal.objects.filter(match=match).exists()
    # Sent again as shown (without the damaged number), the entries are the next deal.
    again = anna_client.post(url, X_DEAL)
    assert again.status_code == 302
    assert list(Deal.objects.filter(match=match).values_list("number", flat=True)) == [1]


# ------------------------------------------------------------------ doctored import files


@pytest.mark.django_db
def test_an_import_file_giving_a_key_twice_is_refused_not_read_as_the_last_one(
    group: Group, anna_client: Client,
) -> None:
    document = group_export_json(group)
    doctored = document.replace('"name":"Donnerstagsrunde"',
                                '"name":"Donnerstagsrunde","name":"Zweite Runde"', 1)
    assert doctored != document
    page = import_file(anna_client, doctored.encode())
    assert ("Diese Datei nennt „name“ an einer Stelle zweimal, darum ist unklar, was gilt"
            in page)
    assert Group.objects.count() == 1
    assert not Group.objects.filter(name="Zweite Runde").exists()


@pytest.mark.django_db
def test_a_key_given_twice_with_a_lone_surrogate_is_named_readably(
    group: Group, anna_client: Client,
) -> None:
    document = json.loads(group_export_json(group))
    text = json.dumps(document)[:-1] + ', "\\ud800": 1, "\\ud800": 2}'
    page = import_file(anna_client, text.encode())
    assert "Diese Datei nennt „\\ud800“ an einer Stelle zweimal" in page


@pytest.mark.django_db
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_an_export_saved_as_utf16_or_utf32_with_a_byte_order_mark_is_imported(
    group: Group, anna_client: Client, encoding: str,
) -> None:
    content = group_export_json(group).encode(encoding)
    if encoding == "utf-16-be":
        content = b"\xfe\xff" + content
    assert content[:2] in (b"\xff\xfe", b"\xfe\xff")
    upload = SimpleUploadedFile("runde.json", content, content_type="application/json")
    response = anna_client.post(reverse("group_import"), {"file": upload})
    imported = Group.objects.exclude(pk=group.pk).get(name="Donnerstagsrunde")
    assert response.status_code == 302
    assert response.url == reverse("history", args=[imported.pk])
    assert sorted(Player.objects.filter(group=imported).values_list("name", flat=True)) == [
        "Anna", "Ben", "Cem"]


# ------------------------------------------------------------------ hostile backups


HOSTILE_BACKUPS = {
    "not-json": "[{{{",
    "unknown-model": '[{"model": "nope.nope", "pk": 1, "fields": {}}]',
    "bad-value": '[{"model": "auth.user", "pk": 1, "fields": {"username": "x", '
                 '"password": "y", "is_superuser": "maybe"}}]',
    "dangling-reference": '[{"model": "companion.group", "pk": 1, "fields": {'
                          '"name": "X", "owner": 4242, "created_at": "2026-01-01T00:00:00Z"}}]',
    "not-a-list": '{"model": "auth.user"}',
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("suffix", [".json.xz", ".json.gz", ".json.bz2"])
def test_restoring_a_compressed_backup_that_is_not_compressed_says_so_in_one_line(
    tmp_path: Path, suffix: str,
) -> None:
    path = tmp_path / f"kartenrunde{suffix}"
    path.write_bytes(b"BZh not compressed at all")
    with pytest.raises(CommandError, match="is not a backup this app can read, or it is damaged"):
        call_command("restore", str(path), verbosity=0)
    assert all(rows == [] for rows in everything().values())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", sorted(HOSTILE_BACKUPS))
def test_restoring_a_damaged_or_foreign_file_says_so_in_one_line_and_restores_nothing(
    tmp_path: Path, name: str,
) -> None:
    path = tmp_path / "kartenrunde.json"
    path.write_text(HOSTILE_BACKUPS[name])
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), verbosity=0)
    assert str(refused.value).startswith(
        f"{path} is not a backup this app can read, or it is damaged; nothing was restored. ("
    )
    assert all(rows == [] for rows in everything().values())


# ------------------------------------------------------------------ forged rules checks


@pytest.mark.django_db
@pytest.mark.parametrize("check", ["①", "", "../round", "x" * 300])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_rules_check_naming_no_check_of_the_game_gets_our_400_page(
    client: Client, check: str, htmx: bool,
) -> None:
    headers = {"Accept-Language": "de", **({"HX-Request": "true"} if htmx else {})}
    response = client.post(reverse("rules_check", args=["x-nimmt"]), {"check": check},
                           headers=headers)
    page = response.content.decode()
    assert response.status_code == 400
    assert "Die Anfrage ist unterwegs beschädigt worden." in page
    assert page.count("<html") == 1


# ------------------------------------------------------------------ dates an export cannot hold


@pytest.mark.django_db
@pytest.mark.parametrize("date", ["0001-01-01", "1899-12-31", "3000-01-01", "9999-12-31"])
def test_a_game_night_outside_the_years_an_export_holds_is_refused(
    group: Group, anna_client: Client, date: str,
) -> None:
    response = anna_client.post(reverse("night_new", args=[group.pk]),
                                {"date": date, "place": "Bei Ben", "notes": ""},
                                headers={"Accept-Language": "de"})
    assert response.status_code == 200
    assert "Wähle ein Datum zwischen den Jahren 1900 und 2999." in response.content.decode()
    assert not GameNight.objects.filter(group=group).exists()


@pytest.mark.django_db
def test_a_game_night_cannot_be_moved_outside_those_years_either(
    group: Group, anna_client: Client,
) -> None:
    evening = GameNight.objects.create(group=group, date=dt.date(2026, 2, 5), place="Bei Ben")
    response = anna_client.post(reverse("night_edit", args=[group.pk, evening.pk]),
                                {"date": "9999-12-31", "place": "Bei Ben", "notes": ""},
                                headers={"Accept-Language": "de"})
    assert "Wähle ein Datum zwischen den Jahren 1900 und 2999." in response.content.decode()
    evening.refresh_from_db()
    assert evening.date == dt.date(2026, 2, 5)


@pytest.mark.django_db
@pytest.mark.parametrize("date", ["1900-01-01", "2999-12-31"])
def test_a_game_night_on_the_edge_years_is_saved_and_its_export_imports_again(
    group: Group, anna_client: Client, date: str,
) -> None:
    response = anna_client.post(reverse("night_new", args=[group.pk]),
                                {"date": date, "place": "Bei Ben", "notes": ""})
    assert response.status_code == 302
    assert GameNight.objects.get(group=group).date.isoformat() == date
    upload = SimpleUploadedFile("runde.json", group_export_json(group).encode(),
                                content_type="application/json")
    imported = anna_client.post(reverse("group_import"), {"file": upload})
    assert imported.status_code == 302
    assert GameNight.objects.filter(date=date).count() == 2


@pytest.mark.django_db
def test_game_night_notes_longer_than_an_export_may_hold_are_refused(
    group: Group, anna_client: Client,
) -> None:
    response = anna_client.post(reverse("night_new", args=[group.pk]),
                                {"date": "2026-02-05", "place": "", "notes": "x" * 10_001},
                                headers={"Accept-Language": "de"})
    assert response.status_code == 200
    assert ("Bitte sicherstellen, dass der Wert aus höchstens 10000 Zeichen besteht. "
            "(Er besteht aus 10001 Zeichen.)") in response.content.decode()
    assert not GameNight.objects.filter(group=group).exists()


# ------------------------------------------------------------------ rosters too large to use


@pytest.mark.django_db
def test_a_new_group_with_more_names_than_a_roster_holds_is_refused_quickly(
    anna_client: Client,
) -> None:
    names = "\n".join(f"Spieler {n}" for n in range(1, 20_001))
    started = time.perf_counter()
    response = anna_client.post(reverse("group_create"), {"name": "Riesenrunde", "players": names},
                                headers={"Accept-Language": "de"})
    assert time.perf_counter() - started < 5
    assert response.status_code == 200
    assert "Die Spielerliste einer Gruppe hat höchstens 500 Spieler." in response.content.decode()
    assert not Group.objects.filter(name="Riesenrunde").exists()


@pytest.mark.django_db
def test_a_new_group_with_a_full_roster_is_still_created(anna_client: Client) -> None:
    names = "\n".join(f"Spieler {n}" for n in range(1, 500))
    response = anna_client.post(reverse("group_create"), {"name": "Große Runde", "players": names})
    assert response.status_code == 302
    assert Player.objects.filter(group__name="Große Runde").count() == 500


@pytest.mark.django_db
def test_a_full_roster_takes_no_further_player(group: Group, anna_client: Client) -> None:
    Player.objects.bulk_create(Player(group=group, name=f"Spieler {n}") for n in range(497))
    assert group.players.count() == 500
    response = anna_client.post(reverse("roster", args=[group.pk]), {"name": "Zora"},
                                headers={"Accept-Language": "de"})
    assert "Die Spielerliste einer Gruppe hat höchstens 500 Spieler." in response.content.decode()
    assert group.players.count() == 500


@pytest.mark.django_db
def test_an_import_with_more_players_than_a_roster_holds_is_refused(
    group: Group, anna_client: Client,
) -> None:
    document = json.loads(group_export_json(group))
    template = document["players"][0]
    document["players"] = [{**template, "key": f"p{n}", "name": f"Spieler {n}"}
                           for n in range(1, 502)]
    page = import_file(anna_client, json.dumps(document).encode())
    assert "Die Spielerliste einer Gruppe hat höchstens 500 Spieler." in page
    assert Group.objects.count() == 1


@pytest.mark.django_db
def test_joining_a_full_roster_as_a_new_player_is_refused_and_makes_no_member(
    group: Group, anna: User, outsider: User,
) -> None:
    Player.objects.bulk_create(Player(group=group, name=f"Spieler {n}") for n in range(497))
    invite = Invite.objects.create(group=group, created_by=anna)
    client = Client()
    client.force_login(outsider)
    response = client.post(reverse("group_join", args=[invite.token]), {"player": "new"},
                           headers={"Accept-Language": "de"})
    assert response.status_code == 200
    assert "Die Spielerliste einer Gruppe hat höchstens 500 Spieler." in response.content.decode()
    assert not Membership.objects.filter(group=group, user=outsider).exists()
    assert group.players.count() == 500
