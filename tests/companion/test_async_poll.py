"""Held polls under the ASGI server (companion/asgi.py, companion/waiting.py): they wait in
the event loop, in front of Django, holding no thread; a change answers them at once, the
wait's end with 304, the server's stop at once with 304; and a poll whose session ended
while it waited is refused, not answered with the new sheet (issue 30.7)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import Client
from django.urls import reverse

from companion import asgi, waiting
from companion.asgi import application
from companion.models import Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from scoring import GAMES
from tests.event_loops import run_apart

pytestmark = pytest.mark.django_db(transaction=True)

SQLITE_RECHECK = waiting.RECHECK_SQLITE
"""As the server has it (the tests turn the recheck off unless they test it)."""

Answer = tuple[int, dict[str, str], bytes, float]
T = TypeVar("T")


@pytest.fixture(autouse=True)
def quiet_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only what a test does wakes a poll (no recheck), and every test starts afresh."""
    monkeypatch.setattr(waiting, "RECHECK", 60.0)
    monkeypatch.setattr(waiting, "RECHECK_SQLITE", 60.0)
    monkeypatch.setattr(waiting, "POLL_WAIT", 10.0)
    monkeypatch.setattr(waiting, "_state", waiting._State())


def sheet_url(match: Match) -> str:
    return reverse("match_sheet", kwargs={"group_id": match.group_id, "match_id": match.pk})


async def get(path: str, client: Client, **headers: str) -> Answer:
    """One GET through the ASGI application as a phone's browser sends it."""
    sent = {"host": "testserver", "hx-request": "true", "accept-language": "de",
            "cookie": "; ".join(f"{k}={v.value}" for k, v in client.cookies.items()),
            **{name.replace("_", "-").lower(): value for name, value in headers.items()}}
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
        "headers": [(k.encode(), v.encode()) for k, v in sent.items()],
    }
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the phone stays connected
        return {"type": "http.disconnect"}

    status = 0
    answer_headers: dict[str, str] = {}
    body = b""

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, body
        if message["type"] == "http.response.start":
            status = message["status"]
            answer_headers.update({k.decode().lower(): v.decode()
                                   for k, v in message["headers"]})
        elif message["type"] == "http.response.body":
            body += message.get("body", b"")

    began = time.monotonic()
    await application(scope, receive, send)
    return status, answer_headers, body, time.monotonic() - began


def in_thread(action: Callable[[], object]) -> Awaitable[object]:
    """What another phone (another request's thread) does."""
    def run() -> object:
        try:
            return action()
        finally:
            connection.close()
    return asyncio.to_thread(run)


def record(match_id: int, players: list[Player], number: int = 1) -> None:
    deal_services.deal_record(match=Match.objects.get(pk=match_id), number=number,
                              entries={p.pk: {"hand": 1 if i else 0}
                                       for i, p in enumerate(players)})


@pytest.fixture
def django_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths of the requests that reached Django (not answered in the event loop)."""
    calls: list[str] = []
    django = asgi.django_application

    async def counted(scope: Any, receive: Any, send: Any) -> None:
        calls.append(scope["path"])
        await django(scope, receive, send)

    monkeypatch.setattr(asgi, "django_application", counted)
    return calls


@pytest.fixture
def running(group: Group, players: list[Player]) -> Match:
    return match_services.match_start(group=group, game="x-nimmt", players=players)


async def held(client: Client, match: Match, then: Callable[[], Awaitable[object]],
               after: float = 0.3) -> Answer:
    """The sheet as shown, then its held poll; ``then`` runs ``after`` seconds into it.
    The answer's time is counted from the moment ``then`` is done."""
    status, headers, _, _ = await get(sheet_url(match), client)
    assert status == 200
    poll = asyncio.create_task(get(sheet_url(match), client, if_none_match=headers["etag"],
                                   kr_wait="1"))
    await asyncio.sleep(after)
    assert not poll.done()
    assert waiting.waiting_count() == 1
    await then()
    done = time.monotonic()
    status, headers, body, _ = await asyncio.wait_for(poll, 8)
    return status, headers, body, time.monotonic() - done


def test_a_held_poll_answers_at_once_when_another_phone_saves(
    anna_client: Client, running: Match, players: list[Player]
) -> None:
    async def scenario() -> Answer:
        return await held(anna_client, running,
                          lambda: in_thread(lambda: record(running.pk, players)))

    status, headers, body, took = run_apart(scenario())
    assert status == 200
    assert b'id="deal-1"' in body
    assert (waiting.verified(running.pk, headers["etag"]) or 0) > running.revision
    assert took < 5  # not after the wait (10 s)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL notifies every process")
def test_on_sqlite_a_change_in_another_process_wakes_a_held_poll_within_a_quarter_second(
    anna_client: Client, running: Match, players: list[Player],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`make run` serves with one process per core: a save in one process is announced in
    that process only; the phones waiting in the other learn of it from the recheck."""
    monkeypatch.setattr(waiting, "RECHECK_SQLITE", SQLITE_RECHECK)
    monkeypatch.setattr(waiting, "changed", lambda *args, **kwargs: None)  # another process

    async def scenario() -> Answer:
        return await held(anna_client, running,
                          lambda: in_thread(lambda: record(running.pk, players)))

    status, _, body, took = run_apart(scenario())
    assert status == 200 and b'id="deal-1"' in body
    assert took < 5  # the recheck's quarter second and the answer, not the wait (10 s)


def test_a_held_poll_of_an_unchanged_sheet_answers_304_after_the_wait_without_django(
    anna_client: Client, running: Match, monkeypatch: pytest.MonkeyPatch,
    django_calls: list[str],
) -> None:
    monkeypatch.setattr(waiting, "POLL_WAIT", 0.8)

    async def scenario() -> tuple[Answer, Answer]:
        _, headers, _, _ = await get(sheet_url(running), anna_client)
        etag = headers["etag"]
        waited = await get(sheet_url(running), anna_client, if_none_match=etag, kr_wait="1")
        waiting.POLL_WAIT = 10.0  # (the fixture puts it back) a wait is not taken for at once
        return waited, await get(sheet_url(running), anna_client, if_none_match=etag)

    (status, _, body, took), (quick, _, _, quick_took) = run_apart(scenario())
    assert (status, body) == (304, b"")
    assert 0.7 < took < 8
    assert quick == 304 and quick_took < 5  # without KR-Wait: at once
    # The first load and the quick poll went to Django; the wait's 304 did not.
    assert len(django_calls) == 2


def test_a_held_poll_is_answered_304_at_once_when_the_server_stops(
    anna_client: Client, running: Match
) -> None:
    async def stop() -> None:
        waiting.stop()

    status, _, body, took = run_apart(held(anna_client, running, stop))
    assert (status, body) == (304, b"")
    assert took < 5  # not after the wait (10 s)


def logout(client: Client) -> Callable[[], None]:
    key = client.cookies["sessionid"].value
    return lambda: SessionStore(key).flush()


def change_password(_client: Client) -> Callable[[], None]:
    from django.contrib.auth.models import User

    def change() -> None:
        user = User.objects.get(username="anna")
        user.set_password("a-new-password-for-anna")
        user.save()
    return change


def deactivate(_client: Client) -> Callable[[], None]:
    from django.contrib.auth.models import User

    return lambda: User.objects.filter(username="anna").update(is_active=False)


@pytest.mark.parametrize("ending", [logout, change_password, deactivate])
def test_a_held_poll_whose_session_ended_meanwhile_is_refused_when_it_wakes(
    anna_client: Client, running: Match, players: list[Player],
    ending: Callable[[Client], Callable[[], None]],
) -> None:
    end_session = ending(anna_client)

    async def both() -> None:
        await in_thread(end_session)
        await in_thread(lambda: record(running.pk, players))

    status, _headers, body, took = run_apart(held(anna_client, running, both))
    assert status != 200
    assert status in (302, 401, 403, 404)
    assert b"deal-1" not in body
    assert took < 5  # not after the wait (10 s)


def test_an_etag_the_app_did_not_sign_for_the_match_is_not_held(
    anna_client: Client, running: Match, group: Group, players: list[Player]
) -> None:
    other = match_services.match_start(group=group, game="x-nimmt", players=players)

    async def scenario() -> tuple[Answer, Answer]:
        _, headers, _, _ = await get(sheet_url(other), anna_client)
        forged = f'"{running.revision}.de.1.0123456789abcdef"'
        return (await get(sheet_url(running), anna_client, if_none_match=forged, kr_wait="1"),
                # another match's ETag (the viewer may see both): not this one's
                await get(sheet_url(running), anna_client, if_none_match=headers["etag"],
                          kr_wait="1"))

    for status, _, _, took in run_apart(scenario()):
        assert status == 200  # answered by the view at once: its ETag differs
        assert took < 5  # not after the wait (10 s)
    assert waiting.verified(running.pk, '"1.de.1.0123456789abcdef"') is None


def test_waiting_polls_hold_no_thread(
    anna_client: Client, running: Match, players: list[Player]
) -> None:
    async def scenario() -> tuple[int, int, list[Answer]]:
        _, headers, _, _ = await get(sheet_url(running), anna_client)
        # The first poll starts the event loop's helpers (its executor, the recheck).
        first = asyncio.create_task(get(sheet_url(running), anna_client,
                                        if_none_match=headers["etag"], kr_wait="1"))
        await asyncio.sleep(0.3)
        before = threading.active_count()
        polls = [asyncio.create_task(get(sheet_url(running), anna_client,
                                         if_none_match=headers["etag"], kr_wait="1"))
                 for _ in range(60)]
        while waiting.waiting_count() < 61:
            await asyncio.sleep(0.05)
        during = threading.active_count()
        await in_thread(lambda: record(running.pk, players))
        return before, during, await asyncio.wait_for(asyncio.gather(first, *polls), 20)

    before, during, answers = run_apart(scenario())
    assert during - before <= 2, (before, during)
    assert [status for status, *_ in answers] == [200] * 61


def test_a_wave_of_polls_leaves_threads_for_every_other_page(
    anna_client: Client, running: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change wakes every watching phone at once: their polls take at most POLL_THREADS
    of Django's threads at a time (the others wait in the event loop), so the rest of the
    threads stay free for every other page."""
    from companion import asgi

    monkeypatch.setattr(asgi, "POLL_THREADS", 2)
    monkeypatch.setattr(asgi, "_poll_lanes", {})
    inner = asgi.django_application
    busy = {"polls": 0, "most": 0}

    async def slow_polls(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["path"] != sheet_url(running):
            await inner(scope, receive, send)
            return
        busy["polls"] += 1
        busy["most"] = max(busy["most"], busy["polls"])
        await asyncio.sleep(0.3)  # as if rendering in a thread
        busy["polls"] -= 1
        await inner(scope, receive, send)

    monkeypatch.setattr(asgi, "django_application", slow_polls)

    async def scenario() -> list[Answer]:
        polls = [asyncio.create_task(get(sheet_url(running), anna_client)) for _ in range(8)]
        return await asyncio.wait_for(asyncio.gather(*polls), 20)

    answers = run_apart(scenario())
    assert busy["most"] == 2
    assert [answer[0] for answer in answers] == [200] * 8


def test_the_poll_lane_lets_a_leader_go_first_and_loses_no_place() -> None:
    """A poll whose answer other phones wait for (it leads its kind) goes ahead of the
    polls waiting for a place in Django; the others keep their order, and a poll that
    gives up while waiting takes no place with it."""
    from companion.asgi import Lane

    async def scenario() -> list[str]:
        lane = Lane(1)
        order: list[str] = []
        await lane.acquire()  # the place is taken

        async def poll(name: str, first: bool = False) -> None:
            await lane.acquire(first=first)
            order.append(name)
            await asyncio.sleep(0)
            lane.release()

        waiting = [asyncio.create_task(poll("a")), asyncio.create_task(poll("b"))]
        gone = asyncio.create_task(poll("gone"))
        waiting.append(asyncio.create_task(poll("leader", first=True)))
        await asyncio.sleep(0.01)
        assert lane.waiting() == 4
        gone.cancel()
        await asyncio.sleep(0.01)
        lane.release()
        await asyncio.wait_for(asyncio.gather(*waiting), 5)
        assert lane.free == 1 and lane.waiting() == 0
        return order

    assert run_apart(scenario()) == ["leader", "a", "b"]


class HeldDjango:
    """Django as the lines in front of it see it: a request that ``held`` picks stays in
    Django until :attr:`go` is set (as if in a thread: waiting for the write lock, rendering
    a long sheet); every request is answered 204 and named in :attr:`answered`, in order.
    :attr:`most`: how many were held in Django at once."""

    def __init__(self, held: Callable[[dict[str, Any]], bool]) -> None:
        self.held = held
        self.go = asyncio.Event()
        self.now = 0
        self.most = 0
        self.answered: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self.held(scope):
            self.now += 1
            self.most = max(self.most, self.now)
            await self.go.wait()
            self.now -= 1
        self.answered.append(f"{scope['method']} {scope['path']}")
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def bare(method: str, path: str) -> None:
    """A request without headers or body through the ASGI application."""
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        return None

    await application({"type": "http", "method": method, "path": path, "headers": [],
                       "query_string": b""}, receive, send)


async def until(condition: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    """Wait until ``condition()`` holds; an AssertionError naming ``what`` after ``timeout``."""
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    try:
        await asyncio.wait_for(poll(), timeout)
    except TimeoutError:
        raise AssertionError(f"not within {timeout:g} s: {what}") from None


def test_a_rush_of_changes_leaves_threads_for_every_other_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """More changes than the database writes wait in the event loop: at most WRITE_THREADS
    of them are in Django at once, and a page, a poll or a move check (a POST that only
    reads) goes on meanwhile."""
    monkeypatch.setattr(asgi, "WRITE_THREADS", 2)
    monkeypatch.setattr(asgi, "_write_lanes", {})
    django = HeldDjango(lambda scope: scope["method"] == "POST" and "/deals/" in scope["path"])
    monkeypatch.setattr(asgi, "django_application", django)
    check = reverse("rules_check", args=[next(iter(GAMES))])

    async def scenario() -> None:
        saves = [asyncio.create_task(bare("POST", f"/g/1/matches/{n}/deals/new/"))
                 for n in range(1, 6)]
        try:
            await until(lambda: asgi._write_lane().waiting() >= 3,
                        "two changes in Django, three waiting in their line")
            await asyncio.wait_for(asyncio.gather(
                bare("GET", "/rules/"), bare("POST", check), bare("POST", "/i18n/setlang/"),
            ), 5)
            assert django.answered == ["GET /rules/", f"POST {check}", "POST /i18n/setlang/"]
        finally:
            django.go.set()
            await asyncio.wait_for(asyncio.gather(*saves), 5)

    run_apart(scenario())
    assert django.most == 2
    assert len(django.answered) == 8


def test_a_rush_of_pages_leaves_threads_for_the_games_under_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hundred phones opening their pages at once take at most PAGE_THREADS of Django's
    threads; a save goes on meanwhile."""
    monkeypatch.setattr(asgi, "PAGE_THREADS", 2)
    monkeypatch.setattr(asgi, "_page_lanes", {})
    django = HeldDjango(lambda scope: scope["method"] == "GET")
    monkeypatch.setattr(asgi, "django_application", django)

    async def scenario() -> None:
        pages = [asyncio.create_task(bare("GET", f"/g/{n}/")) for n in range(1, 6)]
        try:
            await until(lambda: asgi._page_lane().waiting() >= 3,
                        "two pages in Django, three waiting in their line")
            await asyncio.wait_for(bare("POST", "/g/1/matches/1/deals/new/"), 5)
        finally:
            django.go.set()
            await asyncio.wait_for(asyncio.gather(*pages), 5)

    run_apart(scenario())
    assert django.most == 2
    assert django.answered[0] == "POST /g/1/matches/1/deals/new/"
    assert len(django.answered) == 6


def test_an_announced_revision_is_known_and_an_overtaken_announcement_wakes_nothing() -> None:
    """A change that knows the revision it made announces it: the process knows it as the
    match's current one (a woken poll's answer need not ask Django for it). Two saves'
    threads may announce in the other order: the older one, coming last, changes nothing."""
    loop = asyncio.new_event_loop()
    try:
        waiting._changed_here(7, 5)
        assert waiting.known_revision(7) == 5
        at_five: asyncio.Future[waiting.Outcome] = loop.create_future()
        waiting._state.waiters[7] = {at_five: 5}
        waiting._changed_here(7, 4)  # the save before, announced late
        assert waiting.known_revision(7) == 5 and not at_five.done()
        waiting._changed_here(7, 6)
        assert at_five.result() == "changed" and waiting.known_revision(7) == 6
        waiting._changed_here(7, None)  # a change that does not know its revision
        assert waiting.known_revision(7) is None
        # A Django answer's ETag taught the process revision 8 before 8 was announced
        # (learnt, not announced: nobody was woken): the announcement wakes who is behind.
        behind: asyncio.Future[waiting.Outcome] = loop.create_future()
        current: asyncio.Future[waiting.Outcome] = loop.create_future()
        waiting._state.waiters[7] = {behind: 7, current: 8}
        waiting.learned(7, 8, waiting.tick())
        assert not behind.done()
        waiting._changed_here(7, 8)
        assert behind.result() == "changed" and not current.done()
    finally:
        loop.close()


def test_a_notification_names_the_revision_its_change_made() -> None:
    assert waiting.changed_elsewhere(waiting.notice(3, 9)) is None  # this process's own
    other = os.getpid() + 1
    assert waiting.changed_elsewhere(f"3:{other}:9") == (3, 9)
    assert waiting.changed_elsewhere(f"3:{other}") == (3, None)
    assert waiting.changed_elsewhere("3") == (3, None)
    assert waiting.changed_elsewhere(f"3:{other}:nine") is None
    assert waiting.changed_elsewhere("x:1:9") is None


def test_a_poll_that_shows_a_change_its_process_has_not_read_yet_waits(
    anna_client: Client, running: Match, players: list[Player], django_calls: list[str],
) -> None:
    """With several server processes a phone may show a version its poll's process has not
    read yet (another process answered it): the poll reads the revision and waits for the
    next change, instead of going to Django as changed only to be told it is up to date."""
    async def woken(etag: str, number: int) -> tuple[int, Answer]:
        poll = asyncio.create_task(get(sheet_url(running), anna_client, if_none_match=etag,
                                       kr_wait="1"))
        for _ in range(200):
            if waiting.waiting_count() or poll.done():
                break
            await asyncio.sleep(0.01)
        held = waiting.waiting_count()
        await in_thread(lambda: record(running.pk, players, number))
        return held, await asyncio.wait_for(poll, 10)

    async def scenario() -> tuple[int, Answer]:
        _, headers, _, _ = await get(sheet_url(running), anna_client)
        held, (status, headers, _, _) = await woken(headers["etag"], 1)
        assert (held, status) == (1, 200)
        shown = waiting.verified(running.pk, headers["etag"])
        assert shown is not None and waiting.known_revision(running.pk) == shown
        waiting._state.known[running.pk] = shown - 1  # as if another process had answered it
        return await woken(headers["etag"], 2)

    held, (status, _, body, _) = run_apart(scenario())
    assert held == 1
    assert status == 200 and b'id="deal-2"' in body
    assert len(django_calls) == 3  # the page and the two woken polls


@pytest.mark.parametrize("announced", [6, None])
def test_a_change_announced_while_a_poll_reads_the_revision_is_not_missed(
    monkeypatch: pytest.MonkeyPatch, announced: int | None,
) -> None:
    """A poll whose process does not know the match's revision reads it (in a thread); a
    change announced meanwhile is newer than that read: the poll does not wait for a
    change that already came (with the revision it made, or without one)."""
    def stale_read(match_ids: list[int]) -> dict[int, int]:
        waiting.changed(7, announced)  # another request's save, committed meanwhile
        time.sleep(0.1)
        return {7: 5}

    monkeypatch.setattr(waiting, "_read_revisions", stale_read)

    async def scenario() -> str:
        return await waiting.hold(7, 5, timeout=3)

    assert run_apart(scenario()) == "changed"


def test_reading_the_revisions_keeps_sqlite_s_connection_and_no_server_s(
    running: Match,
) -> None:
    """The waiting polls' reads of their matches' revisions run in a few threads of the
    loop: SQLite's connection stays open there (opening one for each read was 7 % of a
    process at 1,000 phones); a database server's goes back at once (waiting holds none)."""
    revision = Match.objects.get(pk=running.pk).revision

    def read_twice() -> tuple[object, object, bool]:
        assert waiting._read_revisions([running.pk]) == {running.pk: revision}
        first = connection.connection
        waiting._read_revisions([running.pk])
        return first, connection.connection, connection.connection is None

    outcome: dict[str, tuple[object, object, bool]] = {}
    thread = threading.Thread(target=lambda: outcome.update(read=read_twice()))
    thread.start()
    thread.join(10)
    first, second, closed = outcome["read"]
    if connection.vendor == "sqlite":
        assert first is not None and first is second
    else:
        assert closed
