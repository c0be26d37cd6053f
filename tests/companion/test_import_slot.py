"""One import at a time per server (issue 30, item 6): while one import holds the slot,
another waits a moment in line, then is refused with a message that says so; nothing of
it is written, and the same file goes through once the slot is free."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from companion.bgstats import BGStatsError, bgstats_plan
from companion.models import Group, Match
from companion.services import import_slot as slot
from companion.services.bgstats import bgstats_import
from companion.services.transfer import TransferError
from companion.services.transfer.export import group_export
from companion.services.transfer.importer import group_import
from tests.companion.test_history_helpers import freaky

pytestmark = pytest.mark.django_db

BUSY_EN = "Another import is running on this server right now; nothing was imported."
BUSY_DE = "Gerade läuft auf diesem Server ein anderer Import; es wurde nichts importiert."


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The slot held by another import (another thread) while the test runs; a waiting
    import gives up after a fifth of a second."""
    monkeypatch.setattr(slot, "WAIT", 0.2)
    taken, done = threading.Event(), threading.Event()

    def other_import() -> None:
        from django.db import connection

        try:
            with slot.import_slot():
                taken.set()
                done.wait(600)  # until the test ends (teardown sets it)
        finally:
            connection.close()  # the thread's own connection (PostgreSQL's test database)

    thread = threading.Thread(target=other_import)
    thread.start()
    assert taken.wait(10)
    yield
    done.set()
    thread.join()


@pytest.fixture
def export(group: Group) -> bytes:
    freaky(group, "2026-01-10", Anna=30, Ben=20, Cem=10)
    return json.dumps(group_export(group)).encode()


def test_a_second_import_is_refused_while_one_runs(export: bytes, held: None) -> None:
    bob = User.objects.create_user("bob", password="kartenrunde-bob-1")
    groups = Group.objects.count()
    with translation.override("en"), pytest.raises(TransferError) as refused:
        group_import(user=bob, content=export)
    assert str(refused.value).startswith(BUSY_EN)
    assert "try again in a moment" in str(refused.value)
    assert Group.objects.count() == groups


def test_the_slot_once_free_takes_the_next_import(export: bytes) -> None:
    bob = User.objects.create_user("bob", password="kartenrunde-bob-1")
    with slot.import_slot():
        pass
    assert group_import(user=bob, content=export).matches.count() == 1


def test_the_import_page_says_so_in_german(export: bytes, client: Client, held: None) -> None:
    client.force_login(User.objects.create_user("bob", password="kartenrunde-bob-1"))
    response = client.post("/groups/import/", {"file": SimpleUploadedFile(
        "export.json", export, content_type="application/json")})
    assert response.status_code == 200
    assert BUSY_DE in response.content.decode()


def test_a_bg_stats_upload_and_import_wait_their_turn(
    group: Group, anna_client: Client, held: None
) -> None:
    document = {"games": [{"id": 1, "name": "Freaky", "bggId": 0}],
                "players": [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Ben"}],
                "plays": [{"uuid": "p1", "gameRefId": 1, "playDate": "2025-05-01 20:00:00",
                           "playerScores": [{"playerRefId": 1, "score": "3"},
                                            {"playerRefId": 2, "score": "5"}]}]}
    content = json.dumps(document).encode()
    response = anna_client.post(f"/g/{group.pk}/import/bgstats/", {"file": SimpleUploadedFile(
        "BGStatsExport.json", content, content_type="application/json")})
    assert response.status_code == 200
    assert BUSY_DE in response.content.decode()
    with translation.override("en"), pytest.raises(BGStatsError) as refused:
        bgstats_import(group=group, plan=bgstats_plan(content, group=group))
    assert str(refused.value).startswith(BUSY_EN)
    assert not Match.objects.filter(group=group).exists()
