"""Bounded imports (issue 21): a file over a limit of ``companion/limits.py`` is refused
before anything is written, with a message that names the limit; a long import is
written in short transactions, and its group appears only when it is complete.

The import bombs of the issue (200,000 empty game nights, 60,000 matches, 250,000 log
entries, 30 MB of options) are sent here at the real limits where that is cheap, and
with the limits made small where a file at the real limit would take long to build.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import sqlite3
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from companion import limits
from companion.models import GameNight, Group, Match, MatchChange, Membership
from companion.services.transfer import TransferError, importer
from companion.services.transfer.export import group_export
from companion.services.transfer.importer import group_import
from tests.companion.test_history_helpers import night, play

Doc = dict[str, Any]


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="kartenrunde-bob-1")


@pytest.fixture
def freaky_night(group: Group) -> Doc:
    """An export with one game night and one finished Freaky match."""
    evening = night(group, "2026-01-10", "Bei Anna")
    play(group, "freaky", [{"Anna": {"collected": 30}, "Ben": {"collected": 20},
                            "Cem": {"collected": 10}}], on=evening)
    return group_export(group)


def nights_of(document: Doc, count: int, *, matches: int = 1, days: int = 1) -> Doc:
    """``document`` with ``count`` game nights, ``days`` apart, each a copy of its first
    night with ``matches`` copies of that night's first match (0: empty nights)."""
    first = document["game_nights"][0]
    copied = copy.deepcopy(document)
    start = dt.date(2020, 1, 1)
    copied["game_nights"] = [
        {**first, "date": (start + dt.timedelta(days=days * index)).isoformat(),
         "matches": [first["matches"][0]] * matches}
        for index in range(count)
    ]
    return copied


def refused(document: Doc, user: User) -> str:
    groups = Group.objects.count()
    with translation.override("en"), pytest.raises(TransferError) as caught:
        group_import(user=user, content=json.dumps(document))
    assert Group.objects.count() == groups, "nothing is written"
    return str(caught.value)


def smaller(monkeypatch: pytest.MonkeyPatch, name: str, maximum: int) -> None:
    """The limit ``name`` of companion.limits lowered to ``maximum`` for one test."""
    monkeypatch.setattr(limits, name, limits.Limit(maximum, getattr(limits, name).message))


# ---------------------------------------------------------------------- counts and sizes


@pytest.mark.django_db
def test_five_thousand_and_one_empty_game_nights_are_refused_at_once(
    freaky_night: Doc, bob: User
) -> None:
    document = nights_of(freaky_night, limits.NIGHTS.maximum + 1, matches=0)
    began = time.perf_counter()
    message = refused(document, bob)
    assert time.perf_counter() - began < 5
    assert message == ("This file holds 5,001 game nights; an import takes at most 5,000 "
                       "game nights.")


@pytest.mark.django_db
def test_more_game_nights_in_a_year_than_evenings_are_refused(
    freaky_night: Doc, bob: User
) -> None:
    # 401 nights, 18 hours apart on average: all in one year of history.
    document = nights_of(freaky_night, 401, matches=0, days=0)
    assert refused(document, bob) == (
        "This file holds 401 game nights, 401 per year of its history; an import takes at "
        "most 400 game nights per year."
    )


@pytest.mark.django_db
def test_four_hundred_game_nights_a_year_for_two_years_are_fine_for_the_count(
    freaky_night: Doc, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    smaller(monkeypatch, "NIGHTS_PER_YEAR", 2)
    # Three nights over two years: two a year are allowed, so four would be.
    document = nights_of(freaky_night, 3, matches=0, days=300)
    assert group_import(user=bob, content=json.dumps(document)).game_nights.count() == 3


@pytest.mark.django_db
def test_more_matches_than_the_limit_are_refused_naming_it(
    freaky_night: Doc, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    smaller(monkeypatch, "MATCHES", 5)
    assert refused(nights_of(freaky_night, 2, matches=3), bob) == (
        "This file holds 6 matches; an import takes at most 5 matches."
    )
    imported = group_import(user=bob, content=json.dumps(nights_of(freaky_night, 5)))
    assert imported.matches.count() == 5


@pytest.mark.django_db
def test_more_deals_than_the_limit_are_refused_naming_it(
    freaky_night: Doc, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    smaller(monkeypatch, "DEALS", 3)
    assert refused(nights_of(freaky_night, 4), bob) == (
        "This file holds 4 deals; an import takes at most 3 deals."
    )


def with_log(document: Doc, entries: int) -> Doc:
    """``document`` with ``entries`` "finished" log entries on each match."""
    copied = copy.deepcopy(document)
    for evening in copied["game_nights"]:
        for match in evening["matches"]:
            match["changes"] = [
                {"kind": "finish", "deal_number": None, "before": None, "after": None,
                 "created_at": match["created_at"], "undone_at": None, "client_key": None}
            ] * entries
    return copied


@pytest.mark.django_db
def test_a_match_with_more_log_entries_than_a_match_may_have_is_refused(
    freaky_night: Doc, bob: User
) -> None:
    document = with_log(freaky_night, limits.CHANGES_PER_MATCH.maximum + 1)
    assert refused(document, bob) == (
        "Game night 1, match 1: the match has 1,001 log entries; an import takes at most "
        "1,000 per match."
    )


@pytest.mark.django_db
def test_more_log_entries_in_all_than_the_limit_are_refused(
    freaky_night: Doc, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    smaller(monkeypatch, "CHANGES", 10)
    assert refused(with_log(nights_of(freaky_night, 3), 4), bob) == (
        "This file holds 12 log entries; an import takes at most 10 log entries."
    )


@pytest.mark.django_db
def test_options_larger_than_a_live_record_of_a_whole_game_are_refused(
    freaky_night: Doc, bob: User
) -> None:
    document = copy.deepcopy(freaky_night)
    # Options a match of Freaky does not know, each short enough on its own.
    document["game_nights"][0]["matches"][0]["options"] = {
        f"note{index}": "x" * 200 for index in range(50)
    }
    assert refused(document, bob) == (
        "Game night 1, match 1: the match's options take 10,591 bytes; an import takes at "
        "most 8,192 bytes per match."
    )


@pytest.mark.django_db
def test_the_limits_speak_german_with_german_digit_grouping(
    freaky_night: Doc, bob: User
) -> None:
    document = nights_of(freaky_night, limits.NIGHTS.maximum + 1, matches=0)
    with translation.override("de"), pytest.raises(TransferError) as caught:
        group_import(user=bob, content=json.dumps(document))
    assert str(caught.value) == (
        "Diese Datei enthält 5.001 Spieleabende; ein Import nimmt höchstens 5.000 "
        "Spieleabende."
    )


def test_a_file_over_the_size_limit_is_refused_by_the_upload_form_naming_it(
    bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "IMPORT_BYTES",
                        limits.Limit(1024 * 1024, limits.IMPORT_BYTES.message))
    client = Client()
    client.force_login(bob)
    upload = SimpleUploadedFile("runde.json", b" " * (1024 * 1024 + 1),
                                content_type="application/json")
    response = client.post(reverse("group_import"), {"file": upload},
                           headers={"Accept-Language": "en"})
    assert response.status_code == 200
    assert ("The file is too large: 1.0 MB; an import takes files of at most 1.0 MB."
            in response.content.decode())
    assert not Group.objects.exists()


def test_a_file_over_the_size_limit_is_refused_by_the_import_itself(
    bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "IMPORT_BYTES", limits.Limit(100, limits.IMPORT_BYTES.message))
    with translation.override("en"), pytest.raises(TransferError) as caught:
        group_import(user=bob, content=b" " * 101)
    assert str(caught.value).startswith("The file is too large")


# ------------------------------------------------------------ short transactions, hidden group


@pytest.mark.django_db(transaction=True)
def test_a_long_import_lets_other_phones_write_and_shows_its_group_only_when_complete(
    group: Group, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another connection tries to write (without waiting) whenever the import begins a
    transaction: it always gets the lock, and until the last transaction the new group
    has no member, so no page shows it half-written."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's one write lock is what this is about")
    evening = night(group, "2026-01-10")
    play(group, "freaky", [{"Anna": {"collected": 30}, "Ben": {"collected": 20},
                            "Cem": {"collected": 10}}], on=evening)
    document = nights_of(group_export(group), 12, matches=3)
    monkeypatch.setattr(importer, "BATCH_ROWS", 20, raising=False)
    phone = sqlite3.connect(connection.settings_dict["NAME"], timeout=0, isolation_level=None)
    seen: list[tuple[bool, int]] = []

    def watch(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.startswith("BEGIN"):
            try:
                phone.execute("BEGIN IMMEDIATE")
                phone.execute("ROLLBACK")
                wrote = True
            except sqlite3.OperationalError:  # "database is locked"
                wrote = False
            members = phone.execute(
                "SELECT count(*) FROM companion_membership m JOIN companion_group g "
                "ON g.id = m.group_id WHERE g.name = 'Donnerstagsrunde' AND m.user_id = ?",
                (bob.pk,)).fetchone()[0]
            seen.append((wrote, members))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        imported = group_import(user=bob, content=json.dumps(document))
    phone.close()
    assert len(seen) > 5, "the import is written in several transactions"
    assert all(wrote for wrote, _members in seen), "no transaction of it holds the lock long"
    assert {members for _wrote, members in seen} == {0}, "nobody sees the group meanwhile"
    assert Membership.objects.filter(group=imported, user=bob).exists()
    assert imported.matches.count() == 36 and GameNight.objects.filter(group=imported).count() == 12


@pytest.mark.django_db(transaction=True)
def test_one_game_night_of_many_matches_is_written_in_several_transactions(
    freaky_night: Doc, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A night of 10,000 matches was one transaction (38 s of SQLite's write lock): its
    matches are split over batches like any others, the night written once."""
    monkeypatch.setattr(importer, "BATCH_ROWS", 20, raising=False)
    batches: list[int] = []
    real = importer._write

    def counted(group: Group, players: Any, nights: Any) -> None:
        batches.append(sum(len(matches) for _night, matches in nights))
        real(group, players, nights)

    monkeypatch.setattr(importer, "_write", counted)
    imported = group_import(user=bob, content=json.dumps(nights_of(freaky_night, 1, matches=30)))
    assert len(batches) >= 5 and max(batches) <= 5, batches
    assert GameNight.objects.filter(group=imported).count() == 1
    assert imported.matches.count() == 30
    assert group_export(imported)["game_nights"][0]["matches"] == (
        nights_of(freaky_night, 1, matches=30)["game_nights"][0]["matches"])


@pytest.mark.django_db(transaction=True)
def test_an_import_that_fails_while_writing_leaves_nothing_behind(
    freaky_night: Doc, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "BATCH_ROWS", 5, raising=False)
    document = nights_of(freaky_night, 6, matches=2)
    calls = []

    def failing(*args: Any, **kwargs: Any) -> None:
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("the disk is full")
        real(*args, **kwargs)

    real = importer._write
    monkeypatch.setattr(importer, "_write", failing)
    groups, matches = Group.objects.count(), Match.objects.count()
    with pytest.raises(RuntimeError):
        group_import(user=bob, content=json.dumps(document))
    assert (Group.objects.count(), Match.objects.count()) == (groups, matches)
    assert not MatchChange.objects.exclude(match__group__name="Donnerstagsrunde").exists()


# ------------------------------------------- read as a stream before loading (issue 30, item 6)


def _peak(call: Any) -> tuple[int, Exception | None]:
    """The most memory Python held during ``call()`` (tracemalloc), and what it raised."""
    import tracemalloc

    tracemalloc.start()
    try:
        call()
    except Exception as err:  # handed back to the test
        raised: Exception | None = err
    else:
        raised = None
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, raised


@pytest.mark.django_db
def test_a_list_of_a_million_empty_objects_is_refused_without_loading_it(bob: User) -> None:
    """4 MB of ``[{},{},…]``: loaded whole it took 90 MB (16 MB took 420 MB)."""
    content = b"[" + b"{}," * (1_400_000 - 1) + b"{}]"
    with translation.override("en"):
        peak, raised = _peak(lambda: group_import(user=bob, content=content))
    assert isinstance(raised, TransferError)
    assert str(raised).startswith("This file is not a Kartenrunde export")
    assert peak < 3 * len(content), f"{peak / 2**20:.0f} MB"


@pytest.mark.django_db
def test_an_export_padded_with_empty_objects_is_refused_naming_the_limit(
    freaky_night: Doc, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    smaller(monkeypatch, "IMPORT_CONTAINERS", 50_000)
    document = {**freaky_night, "padding": [{}] * 300_000}  # 20 MB once loaded
    content = json.dumps(document).encode()
    with translation.override("en"):
        peak, raised = _peak(lambda: group_import(user=bob, content=content))
    assert str(raised) == ("This file holds more than 50,000 lists and objects; an export "
                           "within the limits holds fewer.")
    assert peak < 8 * 2**20, f"{peak / 2**20:.0f} MB"


@pytest.mark.django_db
def test_too_many_game_nights_are_counted_before_the_file_is_loaded(
    freaky_night: Doc, bob: User
) -> None:
    document = nights_of(freaky_night, limits.NIGHTS.maximum + 1, matches=1)
    content = json.dumps(document).encode()
    with translation.override("en"):
        peak, raised = _peak(lambda: group_import(user=bob, content=content))
    assert str(raised) == ("This file holds 5,001 game nights; an import takes at most 5,000 "
                           "game nights.")
    assert peak < 3 * len(content), f"{peak / 2**20:.0f} MB"
