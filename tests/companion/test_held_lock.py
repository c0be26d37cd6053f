"""A stored change is never answered as failed (issue 21).

Another connection (an import, a backup, another process) holds SQLite's write lock
while a phone saves. If it takes the lock right after the phone's change is stored,
the answer must still say "saved" (nothing after the write may wait for the lock);
if it holds the lock the whole time, the answer must say "nothing was saved" (503, not
a server error), and the same form sent again later is stored once.

The lock is held by a plain sqlite3 connection on the test database file, the way an
import in another gunicorn worker holds it; the app's lock timeout is 1 s here (20 s
when serving).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from companion.models import Deal, Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


class Lock:
    """SQLite's write lock, held by another connection until :meth:`release`."""

    def __init__(self) -> None:
        self.taken = threading.Event()
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def take(self) -> None:
        self.thread = threading.Thread(target=self._hold, daemon=True)
        self.thread.start()
        assert self.taken.wait(5), "the lock was taken"

    def _hold(self) -> None:
        other = sqlite3.connect(connection.settings_dict["NAME"], timeout=5,
                                isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        self.taken.set()
        self.done.wait(30)
        other.execute("ROLLBACK")
        other.close()

    def release(self) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join(5)


@pytest.fixture
def lock() -> Iterator[Lock]:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's one write lock is what this is about")
    held = Lock()
    # The app waits 1 s for the lock here (reconnecting with that timeout).
    options = connection.settings_dict["OPTIONS"]
    timeout = options.get("timeout")
    connection.close()
    options["timeout"] = 1
    yield held
    held.release()
    connection.close()
    options["timeout"] = timeout


def taken_after(monkeypatch: pytest.MonkeyPatch, lock: Lock, module: Any, name: str) -> None:
    """``module.name`` (a service) as it is, but the lock is taken the moment its change
    is committed: whatever the request writes after that waits and fails."""
    service = getattr(module, name)

    def then_locked(*args: Any, **kwargs: Any) -> Any:
        result = service(*args, **kwargs)
        transaction.on_commit(lock.take)
        return result

    monkeypatch.setattr(module, name, then_locked)


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


@pytest.fixture
def match(group: Group, players: list[Player]) -> Match:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"hand": 5}, players[1].pk: {"hand": 1}, players[2].pk: {"hand": 0}})
    return match


CORRECTION = {"number": 1, "version": 1, "s0-hand": 9, "s1-hand": 1, "s2-hand": 0,
              "client_key": "correction-0001"}


@pytest.mark.parametrize("headers", [EN, HX], ids=["page", "htmx"])
def test_a_correction_stored_just_before_the_lock_is_taken_is_answered_as_saved(
    anna_client: Client, match: Match, lock: Lock, monkeypatch: pytest.MonkeyPatch,
    headers: dict[str, str],
) -> None:
    taken_after(monkeypatch, lock, deal_services, "deal_edit")
    response = anna_client.post(url("deal_edit", match, number=1), CORRECTION, **headers)
    assert lock.taken.is_set()
    lock.release()
    assert response.status_code == (302 if headers is EN else 200)
    assert Deal.objects.get(match=match, number=1).version == 2
    if headers is EN:
        page = anna_client.get(response["Location"], **EN).content.decode()
        assert "Deal 1 corrected." in page and 'class="table-success saved-row"' in page


def test_a_new_deal_stored_just_before_the_lock_is_taken_is_answered_as_saved(
    anna_client: Client, match: Match, lock: Lock, monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken_after(monkeypatch, lock, deal_services, "deal_append")
    response = anna_client.post(url("deal_new", match), {
        "number": 2, "s0-hand": 1, "s1-hand": 2, "s2-x_stack": 3,
        "client_key": "new-deal-0001"}, **EN)
    lock.release()
    assert response.status_code == 302
    assert match.deals.count() == 2


def test_finishing_stored_just_before_the_lock_is_taken_is_answered_as_saved(
    anna_client: Client, match: Match, players: list[Player], lock: Lock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deal_services.deal_record(match=match, number=2, entries={
        players[0].pk: {"hand": 1}, players[1].pk: {"hand": 1}, players[2].pk: {"hand": 0}})
    taken_after(monkeypatch, lock, match_services, "match_finish")
    response = anna_client.post(url("match_finish", match), {"client_key": "finish-0001"}, **EN)
    lock.release()
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def test_a_correction_sent_while_the_lock_is_held_says_nothing_was_saved_and_is_stored_once_later(
    anna_client: Client, match: Match, lock: Lock,
) -> None:
    lock.take()
    busy = anna_client.post(url("deal_edit", match, number=1), CORRECTION, **EN)
    assert busy.status_code == 503
    assert busy["Retry-After"] == "5"
    assert "nothing of it was saved" in busy.content.decode()
    assert Deal.objects.get(match=match, number=1).version == 1
    lock.release()

    saved = anna_client.post(url("deal_edit", match, number=1), CORRECTION, **HX)
    again = anna_client.post(url("deal_edit", match, number=1), CORRECTION, **HX)
    assert (saved.status_code, again.status_code) == (200, 200)
    assert "Deal 1 was corrected already." in again.content.decode()
    assert Deal.objects.get(match=match, number=1).version == 2
