"""A poll of an unchanged sheet that may wait (``KR-Wait``) is held by the server until
the match changes: another phone's save shows at once, not at the next poll."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from companion import changes
from companion.models import Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.views import sheet as sheet_views

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HTTP_HX_REQUEST": "true"}
HOLD = {**HX, "HTTP_KR_WAIT": "1"}


def url(name: str, match: Match) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk})


def etag_of(client: Client, match: Match, name: str = "match_sheet") -> str:
    response = client.get(url(name, match), **HX)
    assert response.status_code == 200
    return str(response["ETag"])


def later(seconds: float, action: Any) -> threading.Thread:
    """``action`` in another thread (another phone) after ``seconds``."""
    def run() -> None:
        time.sleep(seconds)
        try:
            action()
        finally:
            connection.close()
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def record(match: Match, players: list[Player]) -> None:
    deal_services.deal_record(match=match, number=1,
                              entries={player.pk: {"hand": 1 if i else 0}
                                       for i, player in enumerate(players)})


def test_a_held_poll_answers_as_soon_as_another_phone_saves(
    anna_client: Client, group: Group, players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sheet_views, "POLL_WAIT", 10)
    monkeypatch.setattr(changes, "RECHECK", 10.0)  # only the announcement can wake it
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    etag = etag_of(anna_client, match)
    saver = later(0.5, lambda: record(Match.objects.get(pk=match.pk), players))
    began = time.monotonic()
    response = anna_client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HOLD)
    took = time.monotonic() - began
    saver.join()
    assert response.status_code == 200
    assert 'id="deal-1"' in response.content.decode()
    assert response["ETag"] != etag
    assert 0.4 < took < 5


def test_a_held_poll_of_a_sheet_nobody_changes_answers_304_after_the_wait(
    anna_client: Client, group: Group, players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sheet_views, "POLL_WAIT", 1)
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    etag = etag_of(anna_client, match)
    began = time.monotonic()
    response = anna_client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HOLD)
    assert response.status_code == 304
    assert time.monotonic() - began >= 0.9
    # Without KR-Wait (an older page, a finished sheet) it answers at once, not after a
    # wait (of 10 s here: a loaded machine's pause is not taken for one).
    monkeypatch.setattr(sheet_views, "POLL_WAIT", 10)
    began = time.monotonic()
    response = anna_client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HX)
    assert response.status_code == 304
    assert time.monotonic() - began < 5


def test_a_held_poll_learns_at_once_that_the_match_was_deleted(
    anna_client: Client, anna: Any, group: Group, players: list[Player],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sheet_views, "POLL_WAIT", 10)
    monkeypatch.setattr(changes, "RECHECK", 10.0)
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    etag = etag_of(anna_client, match)
    deleter = later(0.3, lambda: match_services.match_delete(
        match=Match.objects.select_related("group").get(pk=match.pk), user=anna))
    began = time.monotonic()
    response = anna_client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HOLD)
    deleter.join()
    assert response.status_code == 410
    assert time.monotonic() - began < 5


def test_the_live_board_poll_is_held_too(
    anna_client: Client, group: Group, players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.services import live as live_services

    monkeypatch.setattr(sheet_views, "POLL_WAIT", 10)
    monkeypatch.setattr(changes, "RECHECK", 10.0)
    match = match_services.match_start(group=group, game="freaky", players=players)
    etag = etag_of(anna_client, match, "match_live")
    tapper = later(0.3, lambda: live_services.live_step(
        match=Match.objects.get(pk=match.pk), revision=0, action="collect",
        data={"player": players[0].pk, "cards": 5}))
    response = anna_client.get(url("match_live", match), HTTP_IF_NONE_MATCH=etag, **HOLD)
    tapper.join()
    assert response.status_code == 200
    assert "5 Karten gesammelt" in response.content.decode()


def test_when_too_many_polls_wait_the_next_answers_at_once(
    anna_client: Client, group: Group, players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sheet_views, "POLL_WAIT", 10)
    monkeypatch.setattr(changes, "MAX_WAITING", 0)
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    etag = etag_of(anna_client, match)
    began = time.monotonic()
    response = anna_client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HOLD)
    assert response.status_code == 304
    assert time.monotonic() - began < 5  # not after the wait of 10 s


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's")
def test_on_postgresql_a_change_made_by_another_process_wakes_the_held_poll(
    anna_client: Client, group: Group, players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg
    from django.db.models import F

    monkeypatch.setattr(sheet_views, "POLL_WAIT", 10)
    monkeypatch.setattr(changes, "RECHECK", 10.0)  # only the notification can wake it
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    etag = etag_of(anna_client, match)

    def another_process() -> None:
        # As another app process would: the change, then its NOTIFY on a connection of its
        # own (nothing is announced in this process).
        Match.objects.filter(pk=match.pk).update(revision=F("revision") + 1)
        params = connection.get_connection_params()
        with psycopg.connect(**params, autocommit=True) as other:
            other.execute("SELECT pg_notify(%s, %s)", [changes.CHANNEL, str(match.pk)])

    anna_client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HX)  # warm up
    notifier = later(1.0, another_process)
    began = time.monotonic()
    response = anna_client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HOLD)
    notifier.join()
    assert response.status_code == 200
    assert 0.9 < time.monotonic() - began < 5


def test_when_the_server_ends_every_waiting_poll_is_answered_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A test's live server ending: its held polls answer now (as unchanged) instead of
    waiting on, past the test database (tests/conftest.py), and no poll waits after it."""
    monkeypatch.setattr(changes, "_stopped", False)
    ended: list[tuple[bool, float]] = []

    def poll() -> None:
        started = time.monotonic()
        ended.append((changes.wait_for_change(1, lambda: False, 10), time.monotonic() - started))

    waiting = [threading.Thread(target=poll) for _ in range(3)]
    for thread in waiting:
        thread.start()
    time.sleep(0.3)
    changes.stop_waiting()
    for thread in waiting:
        thread.join(2)
    assert [changed for changed, _ in ended] == [False] * 3
    assert all(seconds < 5 for _, seconds in ended)  # not after their wait of 10 s
    started = time.monotonic()
    assert changes.wait_for_change(1, lambda: False, 10) is False
    assert time.monotonic() - started < 5


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's")
def test_on_postgresql_the_listening_connection_closes_when_the_server_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Left open, the listening connection kept the test database from being removed at the
    end of a run ("database is being accessed by other users")."""
    monkeypatch.setattr(changes, "_stopped", False)
    assert changes.wait_for_change(1, lambda: False, 0.1) is False  # starts the listener
    listener = changes._listener
    assert listener is not None and listener.is_alive()
    changes.stop_waiting()
    assert not listener.is_alive()
