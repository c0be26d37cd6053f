"""Woken polls answered in the event loop (companion/trusted_polls.py): when a change wakes
the phones of a match, the first phone of a kind asks Django and the others, each checked
by Django a moment before, get the same answer without it. Nothing that ends a viewer's
access lets them have it: a logout, a changed account, a removed member, a revoked or
expired table pass, a restored backup."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.utils import timezone

from companion import asgi, trusted_polls, waiting
from companion.models import Group, Match, Membership, Player, TablePass
from companion.services import groups as group_services
from companion.services import matches as match_services
from companion.services import passes as pass_services
from tests.companion.test_async_poll import (
    Answer,
    django_calls,  # noqa: F401  (a fixture: the requests that reached Django)
    get,
    in_thread,
    quiet_waiting,  # noqa: F401  (a fixture: only what a test does wakes a poll)
    record,
    sheet_url,
)
from tests.companion.test_table_passes import guest_with
from tests.event_loops import run_apart

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def nothing_trusted_yet(monkeypatch: pytest.MonkeyPatch,
                        django_calls: list[str]) -> list[str]:  # noqa: F811
    """Every test starts with nothing checked or kept; the list names the requests that
    reached Django."""
    monkeypatch.setattr(trusted_polls, "_state", trusted_polls._State())
    return django_calls


@pytest.fixture
def running(group: Group, players: list[Player]) -> Match:
    return match_services.match_start(group=group, game="x-nimmt", players=players)


def logged_in(user: User) -> Client:
    return browser(Client(), user)


def browser(client: Client, user: User | None = None) -> Client:
    """A phone as the sheet's page left it: logged in (unless a guest), with the CSRF
    cookie the page set."""
    if user is not None:
        client.force_login(user)
    client.cookies["csrftoken"] = "k" * 32
    return client


async def sheet(phone: Client, match: Match, **headers: str) -> Answer:
    """The sheet's poll as the page sends it (htmx, aimed at ``#sheet``)."""
    return await get(sheet_url(match), phone, hx_target="sheet", **headers)


async def watch(phones: list[Client], match: Match, then: Callable[[], Any], *,
                pause: float = 0.0, meanwhile: Callable[[], None] | None = None,
                ) -> list[Answer]:
    """Each phone shows the sheet (Django answers it, checking the phone), then, after
    ``pause`` seconds and ``meanwhile``, holds its poll; ``then`` runs in another thread
    while they wait; their answers."""
    shown = [await sheet(phone, match) for phone in phones]
    assert [status for status, *_ in shown] == [200] * len(phones)
    await asyncio.sleep(pause)
    if meanwhile is not None:
        meanwhile()
    polls = await hold_polls(phones, match, shown)
    await in_thread(then)
    return list(await asyncio.wait_for(asyncio.gather(*polls), 10))


async def hold_polls(phones: list[Client], match: Match, shown: list[Answer],
                     **headers: str) -> list[asyncio.Task[Answer]]:
    """Each phone's poll of the sheet it was ``shown`` (with ``headers``), held until the
    match changes: started one after the other, so a change wakes them in this order."""
    polls: list[asyncio.Task[Answer]] = []
    for phone, (_, seen, _, _) in zip(phones, shown, strict=True):
        polls.append(asyncio.create_task(sheet(phone, match, if_none_match=seen["etag"],
                                               kr_wait="1", **headers)))
        while waiting.waiting_count() < len(polls):
            await asyncio.sleep(0.01)
    return polls


def test_of_a_kind_only_the_first_woken_poll_asks_django(
    anna_client: Client, ben: User, running: Match, players: list[Player],
    nothing_trusted_yet: list[str],
) -> None:
    phones = [logged_in(ben), logged_in(ben), logged_in(ben)]
    answers = run_apart(watch(phones, running, lambda: record(running.pk, players)))
    assert [status for status, *_ in answers] == [200, 200, 200]
    assert all(b'id="deal-1"' in body for *_, body, _ in answers)
    assert len({body for *_, body, _ in answers}) == 1
    assert len({headers["etag"] for _, headers, *_ in answers}) == 1
    # Three pages shown, then one woken poll through Django; the other two from the loop.
    assert len(nothing_trusted_yet) == 4
    assert trusted_polls.answered_count() == 2
    assert not any("set-cookie" in headers for _, headers, *_ in answers)


def test_kinds_of_viewer_get_their_own_answers(
    anna_client: Client, ben: User, running: Match, players: list[Player], anna: User,
) -> None:
    """The group's owner (who may delete the match) and a member, and a guest who may only
    follow: each kind asks Django once, and nobody gets another kind's sheet."""
    follower = pass_services.table_pass_create(created_by=anna, may_write=False, match=running)
    phones = [browser(anna_client), logged_in(ben), browser(guest_with(follower))]
    answers = run_apart(watch(phones, running, lambda: record(running.pk, players)))
    assert [status for status, *_ in answers] == [200, 200, 200]
    kinds = [headers["etag"].split(".")[2] for _, headers, *_ in answers]
    assert len(set(kinds)) == 3
    assert b'id="deal-form"' not in answers[2][2]
    assert trusted_polls.answered_count() == 0


def ends_session(phone: Client, user: User) -> Callable[[], None]:
    key = phone.cookies["sessionid"].value
    return lambda: SessionStore(key).flush()


def changes_password(_phone: Client, user: User) -> Callable[[], None]:
    def change() -> None:
        user.set_password("a-new-password-for-ben")
        user.save()
    return change


def deactivates(_phone: Client, user: User) -> Callable[[], None]:
    def deactivate() -> None:
        user.is_active = False
        user.save()
    return deactivate


def removes_member(_phone: Client, user: User) -> Callable[[], None]:
    def remove() -> None:
        membership = Membership.objects.select_related("group").get(user=user)
        group_services.member_remove(membership=membership, by=membership.group.owner)
    return remove


@pytest.mark.parametrize("ending", [ends_session, changes_password, deactivates,
                                    removes_member])
def test_a_phone_whose_access_ended_while_it_waited_is_refused(
    ben: User, group: Group, running: Match, players: list[Player],
    ending: Callable[[Client, User], Callable[[], None]],
) -> None:
    """Ben's phone was checked by Django a moment ago, and another member's phones (of the
    same kind: their answer is the one Ben's would be) ask Django first: Ben's poll still
    goes to Django, which refuses it."""
    cem = User.objects.create_user("cem", password="kartenrunde-cem-1")
    Membership.objects.create(group=group, user=cem, role=Membership.Role.MEMBER)
    bens = logged_in(ben)
    end = ending(bens, ben)

    def then() -> None:
        end()
        record(running.pk, players)

    answers = run_apart(watch([logged_in(cem), logged_in(cem), bens], running, then))
    assert [status for status, *_ in answers[:2]] == [200, 200]
    status, _, body, _ = answers[2]
    assert status != 200 and b"deal-1" not in body


def test_a_revoked_table_pass_is_refused_at_its_next_woken_poll(
    anna: User, running: Match, players: list[Player],
) -> None:
    """Two guests of the same kind, each with a pass of their own; one pass is revoked
    while they wait: the other guest asks Django first, the revoked one gets no sheet."""
    kept, revoked = (pass_services.table_pass_create(created_by=anna, may_write=True,
                                                     match=running) for _ in range(2))
    phones = [browser(guest_with(kept, "Zoe")), browser(guest_with(revoked, "Yuri"))]

    def then() -> None:
        pass_services.table_pass_revoke(table_pass=TablePass.objects.get(pk=revoked.pk))
        record(running.pk, players)

    answers = run_apart(watch(phones, running, then))
    assert [status for status, *_ in answers] == [200, 410]
    assert b"deal-1" not in answers[1][2]


def test_a_table_pass_is_trusted_no_longer_than_it_lasts(
    anna: User, running: Match, players: list[Player],
) -> None:
    """A pass that ends while its phone waits (nothing is saved: its time is up): the
    phone's woken poll goes to Django, which says the pass ended."""
    lasting, ending = (pass_services.table_pass_create(created_by=anna, may_write=True,
                                                       match=running) for _ in range(2))
    phones = [browser(guest_with(lasting, "Zoe")), browser(guest_with(ending, "Yuri"))]
    TablePass.objects.filter(pk=ending.pk).update(
        expires_at=timezone.now() + timezone.timedelta(seconds=1.5))
    answers = run_apart(watch(phones, running, lambda: record(running.pk, players),
                              pause=1.6))
    assert [status for status, *_ in answers] == [200, 410]


def test_a_session_is_trusted_no_longer_than_it_lasts(
    ben: User, running: Match, players: list[Player],
) -> None:
    """A session that runs out by age while its phone waits (nothing announces that): the
    phone's woken poll goes to Django, which no longer knows the session, and it gets no
    sheet; another phone of the same member, whose session lasts, gets it."""
    from django.contrib.sessions.models import Session

    lasting, ending = logged_in(ben), logged_in(ben)
    Session.objects.filter(session_key=ending.cookies["sessionid"].value).update(
        expire_date=timezone.now() + timezone.timedelta(seconds=3))
    answers = run_apart(watch([lasting, ending], running, lambda: record(running.pk, players),
                              pause=3.1))
    assert answers[0][0] == 200 and b'id="deal-1"' in answers[0][2]
    assert answers[1][0] in (302, 401, 403, 404)
    assert b"deal-1" not in answers[1][2]


def test_a_check_is_trusted_for_a_while_only(
    ben: User, running: Match, players: list[Player], monkeypatch: pytest.MonkeyPatch,
    nothing_trusted_yet: list[str],
) -> None:
    monkeypatch.setattr(trusted_polls, "TRUST", 0.3)
    answers = run_apart(watch([logged_in(ben), logged_in(ben)], running,
                              lambda: record(running.pk, players), pause=0.5))
    assert [status for status, *_ in answers] == [200, 200]
    assert trusted_polls.answered_count() == 0
    assert len(nothing_trusted_yet) == 4


def test_a_phone_that_sends_other_cookies_is_checked_again(
    ben: User, running: Match, players: list[Player], nothing_trusted_yet: list[str],
) -> None:
    """The trust is in a poll exactly as Django saw it: another language, another cookie
    (here: the entry mode the phone last saved in) is another request."""
    phones = [logged_in(ben), logged_in(ben)]

    def other_mode() -> None:
        phones[1].cookies["kr-mode-x-nimmt"] = "grid"

    answers = run_apart(watch(phones, running, lambda: record(running.pk, players),
                              meanwhile=other_mode))
    assert [status for status, *_ in answers] == [200, 200]
    assert trusted_polls.answered_count() == 0


def test_nothing_is_trusted_where_the_access_epoch_cannot_be_kept(
    ben: User, running: Match, players: list[Player], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(trusted_polls, "_epoch_path", lambda: None)
    answers = run_apart(watch([logged_in(ben), logged_in(ben)], running,
                              lambda: record(running.pk, players)))
    assert [status for status, *_ in answers] == [200, 200]
    assert trusted_polls.answered_count() == 0


def test_a_restored_backup_ends_every_check(tmp_path: Any) -> None:
    before = trusted_polls.epoch()
    assert before is not None
    from companion import backups

    backups._forget_shared_renders()
    assert trusted_polls.epoch() not in (None, before)


def test_an_answer_another_process_got_from_django_is_taken_from_the_shared_folder(
    ben: User, running: Match, players: list[Player], nothing_trusted_yet: list[str],
) -> None:
    """The phones of a table are spread over the server's processes: the first woken poll
    of a kind asks Django in one of them, and the others take its answer from the folder
    the processes share (companion/shared_renders.py's)."""
    from django.utils import translation

    from companion.views.sheet import sheet_etag

    phones = [logged_in(ben), logged_in(ben)]

    async def scenario() -> tuple[list[Answer], Answer]:
        woken = await watch(phones, running, lambda: record(running.pk, players))
        await asyncio.sleep(0.3)  # written for the other processes, in a thread
        trusted_polls._state.kept.clear()  # as the other process: nothing kept here
        with translation.override("de"):
            shown = sheet_etag(running.pk, running.revision, "m")
        return woken, await sheet(phones[1], running, if_none_match=shown, kr_wait="1")

    woken, again = run_apart(scenario())
    assert [status for status, *_ in woken] == [200, 200]
    assert again[0] == 200 and again[2] == woken[0][2]
    assert trusted_polls.answered_count() == 2
    assert len(nothing_trusted_yet) == 3  # the two pages, the first woken poll


def test_a_server_told_to_trust_nothing_sends_every_woken_poll_to_django(
    ben: User, running: Match, players: list[Player], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(trusted_polls, "TRUST", 0.0)  # KARTENRUNDE_POLL_TRUST=0
    answers = run_apart(watch([logged_in(ben), logged_in(ben)], running,
                              lambda: record(running.pk, players)))
    assert [status for status, *_ in answers] == [200, 200]
    assert trusted_polls.answered_count() == 0


def test_an_answer_that_sets_a_cookie_is_not_learnt_from() -> None:
    """An answer of Django's that sets a cookie is meant for that phone alone: it is
    neither kept for others nor taken as a check (the same answer without the cookie is)."""
    scope = {"type": "http", "path": "/g/1/matches/1/", "query_string": b"",
             "headers": [(b"cookie", b"sessionid=x"), (b"accept-encoding", b"gzip")]}

    async def learnt(*cookie: tuple[bytes, bytes]) -> tuple[int, int]:
        trusted_polls.forget()
        through = trusted_polls.Through(scope, 1)
        through.scope(scope)[trusted_polls.SLOT].update(
            match=1, revision=2, kind="m", language="de", mode="", ends=time.time() + 60)
        through.seen({"type": "http.response.start", "status": 200,
                      "headers": [(b"etag", b'"2.de.m.x"'), *cookie]})
        through.seen({"type": "http.response.body", "body": b"<div id=sheet>"})
        through.done()
        return len(trusted_polls._state.checked), len(trusted_polls._state.kept)

    assert run_apart(learnt()) == (1, 1)
    assert run_apart(learnt((b"set-cookie", b"csrftoken=abc; Path=/"))) == (0, 0)


def test_a_leader_goes_ahead_of_the_polls_waiting_for_django(
    anna_client: Client, ben: User, running: Match, players: list[Player],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The woken poll the others of its kind wait for does not queue behind polls that
    nobody waits for: with Django's one place for polls taken, it gets the next."""
    monkeypatch.setattr(asgi, "POLL_THREADS", 1)
    monkeypatch.setattr(asgi, "_poll_lanes", {})
    inner = asgi.django_application
    order: list[str] = []
    blocker_in = asyncio.Event()
    let_go = asyncio.Event()

    async def marked(scope: dict[str, Any], receive: Any, send: Any) -> None:
        names = dict(scope["headers"])
        mark = names.get(b"kr-test", b"").decode()
        order.append(mark or ("woken" if b"if-none-match" in names else "first look"))
        if mark == "blocker":
            blocker_in.set()
            await let_go.wait()
        await inner(scope, receive, send)

    monkeypatch.setattr(asgi, "django_application", marked)
    phones = [logged_in(ben), logged_in(ben), logged_in(ben)]

    async def scenario() -> list[Answer]:
        shown = [await sheet(phone, running) for phone in phones]
        polls = await hold_polls(phones, running, shown)
        # Django's place for polls is taken, and two polls nobody waits for queue for it.
        blocker = asyncio.create_task(sheet(anna_client, running, kr_test="blocker"))
        await asyncio.wait_for(blocker_in.wait(), 5)
        queued = [asyncio.create_task(sheet(anna_client, running, kr_test=f"queued {n}"))
                  for n in (1, 2)]
        while asgi._poll_lane().waiting() < 2:
            await asyncio.sleep(0.01)
        await in_thread(lambda: record(running.pk, players))
        while asgi._poll_lane().waiting() < 3:  # the leader of ben's phones joins the line
            await asyncio.sleep(0.01)
        let_go.set()
        await asyncio.wait_for(asyncio.gather(blocker, *queued), 10)
        return list(await asyncio.wait_for(asyncio.gather(*polls), 10))

    answers = run_apart(scenario())
    assert [status for status, *_ in answers] == [200, 200, 200]
    assert order == ["first look"] * 3 + ["blocker", "woken", "queued 1", "queued 2"]
    assert trusted_polls.answered_count() == 2


def test_a_follower_whose_leader_is_late_is_told_to_ask_again_not_sent_to_django(
    anna_client: Client, ben: User, running: Match, players: list[Player],
    monkeypatch: pytest.MonkeyPatch, nothing_trusted_yet: list[str],
) -> None:
    """When Django is so busy that the first poll of a kind gets no answer within
    FOLLOW_WAIT, the others of its kind are answered 304 (the phone asks again at once)
    instead of queueing for Django behind it."""
    monkeypatch.setattr(trusted_polls, "FOLLOW_WAIT", 0.3)
    counted = asgi.django_application
    let_go = asyncio.Event()

    async def busy(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if b"if-none-match" in dict(scope["headers"]):
            await let_go.wait()  # the woken poll that leads its kind: Django is busy
        await counted(scope, receive, send)

    monkeypatch.setattr(asgi, "django_application", busy)
    phones = [logged_in(ben), logged_in(ben), logged_in(ben)]

    async def scenario() -> list[Answer]:
        shown = [await sheet(phone, running) for phone in phones]
        polls = await hold_polls(phones, running, shown)
        await in_thread(lambda: record(running.pk, players))
        for _ in range(500):
            if sum(poll.done() for poll in polls) >= 2:
                break
            await asyncio.sleep(0.01)
        # The followers are answered; the leader still waits for Django.
        assert sum(poll.done() for poll in polls) == 2
        let_go.set()
        return list(await asyncio.wait_for(asyncio.gather(*polls), 10))

    answers = run_apart(scenario())
    assert sorted(status for status, *_ in answers) == [200, 304, 304]
    # Three pages shown, then only the leader's woken poll reached Django.
    assert len(nothing_trusted_yet) == 4


def test_a_step_is_answered_from_the_loop_only_to_phones_that_show_the_version_before(
    anna_client: Client, ben: User, running: Match, nothing_trusted_yet: list[str],
) -> None:
    """A save's step of the sheet (companion/views/sheet.py, ``step_answer``) fits only a page
    that shows the version just before it: kept in the loop for the others of its kind, it
    is not sent to a phone that shows an older one (that one gets both deals' steps)."""
    phones = [logged_in(ben), logged_in(ben), logged_in(ben)]

    def save() -> None:
        save_from_form(anna_client, running)

    async def scenario() -> tuple[list[Answer], Answer]:
        older = await sheet(phones[2], running, kr_steps="1")
        await in_thread(save)
        shown = [await sheet(phone, running, kr_steps="1") for phone in phones]
        polls = await hold_polls(phones[:2], running, shown[:2], kr_steps="1")
        await in_thread(save)
        woken = list(await asyncio.wait_for(asyncio.gather(*polls), 10))
        # The third phone still shows the sheet from before the first save.
        return woken, await sheet(phones[2], running, kr_steps="1", kr_wait="1",
                                  if_none_match=older[1]["etag"])

    woken, behind = run_apart(scenario())
    assert [status for status, *_ in woken] == [200, 200]
    assert all(headers.get("kr-step") == "end" for _, headers, *_ in woken)  # deal 2 of 2
    assert woken[0][2] == woken[1][2] and b'id="sheet"' not in woken[0][2]
    # The first woken poll asked Django; the second and the one behind were answered in the
    # loop, the one behind with both deals' steps, not the second deal's alone.
    assert len(nothing_trusted_yet) == 5
    assert trusted_polls.answered_count() == 2
    assert behind[0] == 200 and behind[1].get("kr-step") == "end"
    assert behind[2] != woken[0][2] and b'id="deal-1"' not in woken[0][2]
    assert b'id="deal-1"' in behind[2] and b'id="deal-2"' in behind[2]


@pytest.mark.real_clock  # the marks' ages: their files' times against time.time()
@pytest.mark.parametrize("other", ["shares its answer", "shares none", "takes too long"])
def test_a_poll_another_process_asks_django_for_waits_for_its_answer(
    ben: User, running: Match, players: list[Player], monkeypatch: pytest.MonkeyPatch,
    nothing_trusted_yet: list[str], other: str,
) -> None:
    """The first woken poll of a kind in one process leaves a mark in the shared folder
    while it asks Django; a poll of its kind woken in another process waits for the answer
    it shares instead of asking Django too. When the other poll shares none (its mark
    goes), or its mark is older than FOLLOW_WAIT (a process that ended, or a Django that
    busy), this one asks Django itself."""
    # As in the server's other process: the change is not announced here (nor through
    # PostgreSQL's notification); the recheck of the waited-for matches finds it.
    monkeypatch.setattr(waiting, "RECHECK", 0.05)
    monkeypatch.setattr(waiting, "RECHECK_SQLITE", 0.05)
    monkeypatch.setattr(waiting, "changed", lambda *args, **kwargs: None)
    phone = logged_in(ben)

    def recorded_elsewhere() -> None:
        record(running.pk, players)

    async def scenario() -> Answer:
        shown = await sheet(phone, running)  # Django checks the phone
        (checked,) = trusted_polls._state.checked.values()
        (poll,) = await hold_polls([phone], running, [shown])
        mark = trusted_polls._mark(checked.group)  # the other process's first poll
        assert mark is not None
        await in_thread(recorded_elsewhere)
        await asyncio.sleep(0.3)
        assert not poll.done()  # woken, waiting for the other process, not in Django
        if other == "shares its answer":
            current = waiting.known_revision(running.pk)
            assert current is not None
            kept = trusted_polls.Kept(current, 200, [(b"etag", b'"from-the-other"')],
                                      b"<div>the other process's answer</div>", 0.0)
            await in_thread(lambda: trusted_polls._share(checked.group, kept, mark))
        elif other == "shares none":
            os.unlink(mark)
        else:  # its mark grows older than FOLLOW_WAIT
            then = time.time() - trusted_polls.FOLLOW_WAIT - 1
            os.utime(mark, (then, then))
        return await asyncio.wait_for(poll, 10)

    status, _, body, _ = run_apart(scenario())
    if other == "shares its answer":
        assert (status, body) == (200, b"<div>the other process's answer</div>")
        assert len(nothing_trusted_yet) == 1  # only the page
    else:
        assert status == 200 and b'id="deal-1"' in body
        assert len(nothing_trusted_yet) == 2  # the page, then the poll asked Django itself


STEPPING = {"kr_steps": "1", "accept_encoding": "gzip"}
"""A page that takes steps, in a browser that takes gzip."""


def save_from_form(client: Client, match: Match) -> None:
    """The next deal, saved from the sheet's form with htmx (its step is put for the
    watching phones)."""
    from django.urls import reverse

    response = client.post(reverse("deal_new", args=[match.group_id, match.pk]), {
        "mode": "counts", "number": match.deals.count() + 1, "s0-hand": "5"},
        HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200


async def woken_by(phones: list[Client], match: Match, shown: list[Answer],
                   change: Callable[[], Any], **headers: str) -> list[Answer]:
    """The phones' polls of what they were ``shown``, held until ``change`` (in another
    thread) wakes them."""
    polls = await hold_polls(phones, match, shown, **headers)
    await in_thread(change)
    return list(await asyncio.wait_for(asyncio.gather(*polls), 10))


def test_a_new_deals_step_is_made_in_the_loop_as_django_makes_it(
    anna_client: Client, ben: User, running: Match, nothing_trusted_yet: list[str],
) -> None:
    """Once Django answered a kind's poll with a step, the next new deal's step reaches
    every phone of the kind without Django: made in the loop from the step the save put
    and that answer's headers. It is what Django answers a phone it has not seen yet."""
    import gzip

    phones = [logged_in(ben) for _ in range(3)]
    newcomer = logged_in(ben)

    async def scenario() -> tuple[list[Answer], list[Answer], Answer]:
        shown = [await sheet(phone, running, **STEPPING) for phone in phones]
        first = await woken_by(phones, running, shown, lambda: save_from_form(anna_client,
                                                                              running),
                               **STEPPING)
        reached = len(nothing_trusted_yet)
        second = await woken_by(phones, running, first,
                                lambda: save_from_form(anna_client, running), **STEPPING)
        assert len(nothing_trusted_yet) == reached  # none of them asked Django
        # A phone Django has not checked, showing the same version: Django's own answer.
        return first, second, await sheet(newcomer, running, if_none_match=first[0][1]["etag"],
                                          **STEPPING)

    first, second, django = run_apart(scenario())
    assert len(nothing_trusted_yet) == 3 + 1 + 1  # the pages, one woken poll, the newcomer
    assert trusted_polls.answered_count() == 2 + 3
    assert [status for status, *_ in first + second] == [200] * 6
    assert django[0] == 200 and django[1]["kr-step"] == "end"
    for _status, headers, body, _ in second:
        assert {k: v for k, v in headers.items() if k != "content-length"} == \
            {k: v for k, v in django[1].items() if k != "content-length"}
        assert int(headers["content-length"]) == len(body)
        assert gzip.decompress(body) == gzip.decompress(django[2])
    text = gzip.decompress(second[0][2])
    assert b'id="deal-2"' in text and b'id="deal-1"' not in text


def test_a_change_that_is_no_new_deal_is_answered_by_django(
    anna_client: Client, ben: User, running: Match, players: list[Player],
    nothing_trusted_yet: list[str],
) -> None:
    """A change whose save put no step (here a deal that did not come from the form; the
    same for a correction or an undo): nothing to make in the loop, the woken poll asks
    Django at once for the whole sheet."""
    import gzip

    phone = logged_in(ben)

    async def scenario() -> tuple[Answer, Answer]:
        shown = await sheet(phone, running, **STEPPING)
        (stepped,) = await woken_by([phone], running, [shown],
                                    lambda: save_from_form(anna_client, running), **STEPPING)
        assert stepped[1]["kr-step"] == "next"  # a step learnt from Django: the kind takes them
        (whole,) = await woken_by([phone], running, [stepped],
                                  lambda: record(running.pk, players, 2), **STEPPING)
        return stepped, whole

    _stepped, whole = run_apart(scenario())
    assert whole[0] == 200 and "kr-step" not in whole[1]
    assert b'id="sheet"' in gzip.decompress(whole[2])
    assert whole[3] < 1.0  # no wait for a step that never comes
    assert len(nothing_trusted_yet) == 3  # the page and both woken polls


def test_a_page_that_takes_no_steps_gets_no_step_from_the_loop(
    anna_client: Client, ben: User, running: Match, nothing_trusted_yet: list[str],
) -> None:
    """Steps kept for a kind are sent only to a page that asks for them (``KR-Steps``)."""
    stepping, plain = logged_in(ben), logged_in(ben)

    async def scenario() -> list[Answer]:
        shown = [await sheet(stepping, running, kr_steps="1"), await sheet(plain, running)]
        polls = [asyncio.create_task(sheet(stepping, running, kr_wait="1", kr_steps="1",
                                           if_none_match=shown[0][1]["etag"]))]
        while waiting.waiting_count() < 1:
            await asyncio.sleep(0.01)
        polls.append(asyncio.create_task(sheet(plain, running, kr_wait="1",
                                               if_none_match=shown[1][1]["etag"])))
        while waiting.waiting_count() < 2:
            await asyncio.sleep(0.01)
        await in_thread(lambda: save_from_form(anna_client, running))
        return list(await asyncio.wait_for(asyncio.gather(*polls), 10))

    stepped, whole = run_apart(scenario())
    assert stepped[1]["kr-step"] == "next" and b'id="sheet"' not in stepped[2]
    assert "kr-step" not in whole[1] and b'id="sheet"' in whole[2]


def test_a_poll_woken_before_the_save_put_its_step_waits_for_it_in_the_loop(
    anna_client: Client, ben: User, running: Match, nothing_trusted_yet: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A save announces its change when it commits and puts its step after that, holding
    its lock meanwhile: a woken poll looks for the step again until the save lets go,
    and does not ask Django for it."""
    from companion.shared_renders import sheets

    phone = logged_in(ben)
    put = sheets.put

    def slow_put(key: Any, text: str) -> None:
        time.sleep(0.3)  # a busy server: the poll is woken well before the step is there
        put(key, text)

    async def scenario() -> tuple[Answer, Answer]:
        shown = await sheet(phone, running, **STEPPING)
        (first,) = await woken_by([phone], running, [shown],
                                  lambda: save_from_form(anna_client, running), **STEPPING)
        monkeypatch.setattr(sheets, "put", slow_put)
        (second,) = await woken_by([phone], running, [first],
                                   lambda: save_from_form(anna_client, running), **STEPPING)
        return first, second

    first, second = run_apart(scenario())
    assert first[1]["kr-step"] == "next" and second[1]["kr-step"] == "end"
    assert len(nothing_trusted_yet) == 2  # the page and the first woken poll
    assert trusted_polls.answered_count() == 1
