"""A new deal's step of the sheet (issue 31): the save renders the parts it changes once,
for every phone that may write and watches the match; a watching phone's poll that shows
a version a few new deals before gets those steps instead of the whole sheet (no render of
its own). Any other poll gets the whole sheet: one that is too many deals behind, one of a
page that does not take steps, one in another language, a read-only guest's, and any after
a change that is not a new deal. Nothing of the saving phone is in a step."""

from __future__ import annotations

import re
import secrets
import threading
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from companion.models import Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services import passes as pass_services
from companion.shared_renders import SharedRenders, sheets
from companion.views import sheet as sheet_views
from tests.companion.test_table_passes import guest_with

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
POLL = {**HX, "HTTP_HX_TARGET": "sheet"}
STEPS = {**POLL, "HTTP_KR_STEPS": "1"}


@pytest.fixture
def running(group: Any, players: list[Player], anna: User) -> Match:
    return match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)


@pytest.fixture
def phone(ben: User) -> Client:
    """Ben's phone: a member who may not delete the match (another kind of viewer than
    Anna, who saves)."""
    client = Client()
    client.force_login(ben)
    return client


def sheet_url(match: Match) -> str:
    return reverse("match_sheet", args=[match.group_id, match.pk])


def shown_etag(phone: Client, match: Match, **headers: Any) -> str:
    """The ETag of the sheet the phone shows (its poll's answer)."""
    response = phone.get(sheet_url(match), **POLL, **headers)
    assert response.status_code == 200
    return response["ETag"]


def save(phone: Client, match: Match, hand: str = "5", **headers: Any) -> Any:
    """The next deal, saved from the sheet's form with htmx (as its page sends it)."""
    response = phone.post(reverse("deal_new", args=[match.group_id, match.pk]), {
        "mode": "counts", "number": match.deals.count() + 1, "s0-hand": hand,
        "client_key": f"key-of-the-saving-phone-{secrets.token_hex(8)}"}, **HX,
        HTTP_KR_FRESH_FORM="counts", **headers)
    assert response.status_code == 200, response.content.decode()[:300]
    return response


def poll(phone: Client, match: Match, etag: str, **headers: Any) -> Any:
    return phone.get(sheet_url(match), **{**STEPS, **headers}, HTTP_IF_NONE_MATCH=etag)


def test_a_watching_phone_gets_the_saves_step_not_the_sheet(
    anna_client: Client, phone: Client, running: Match
) -> None:
    etag = shown_etag(phone, running)
    saved = save(anna_client, running)
    renders = sheets.renders
    with CaptureQueriesContext(connection) as queries:
        answer = poll(phone, running, etag)
    assert answer.status_code == 200
    assert answer["KR-Step"] == "next"
    assert answer["HX-Reswap"] == "none"
    body = answer.content.decode()
    assert 'id="deal-1"' in body and 'id="standings"' in body
    assert 'id="deal-form"' not in body  # the page puts its fresh form back
    assert body.startswith('<div id="sheet-notice" hx-swap-oob="true"></div>')
    # The same parts as the saving phone got (its notice aside), rendered once.
    assert body.removeprefix('<div id="sheet-notice" hx-swap-oob="true"></div>') in \
        saved.content.decode()
    assert sheets.renders == renders
    assert len(queries) <= 4  # session, user, access: no sheet read
    running.refresh_from_db()
    events = answer["HX-Trigger-After-Swap"]
    assert '"next": 2' in events and '"step": true' in events
    assert answer["ETag"] in events.replace('\\"', '"')
    assert answer["ETag"].startswith(f'"{running.revision}.')
    assert answer["ETag"] != saved["ETag"]  # Ben's kind of viewer, not Anna's


def test_nothing_of_the_saving_phone_is_in_a_step(
    anna_client: Client, phone: Client, running: Match
) -> None:
    assert anna_client.get(sheet_url(running)).status_code == 200  # her page: her CSRF cookie
    save(anna_client, running)
    deal_services.match_undo(match=running, user=running.group.owner)  # undo offered: a form
    etag = shown_etag(phone, running)
    save(anna_client, running)
    answer = poll(phone, running, etag)
    assert answer["KR-Step"] == "next"
    body = answer.content.decode()
    assert re.search(r'name="csrfmiddlewaretoken" value=""', body)  # the undo form's
    assert not re.search(r'name="csrfmiddlewaretoken" value="[^"]', body)
    assert not re.search(r'name="client_key" value="[^"]', body)
    assert anna_client.cookies["csrftoken"].value not in body
    assert not re.search(r"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])", body)  # no token
    assert "key-of-the-saving-phone" not in body


def test_a_phone_two_deals_behind_gets_both_steps_in_order(
    anna_client: Client, phone: Client, running: Match
) -> None:
    etag = shown_etag(phone, running)
    save(anna_client, running)
    save(anna_client, running, hand="2")
    renders = sheets.renders
    answer = poll(phone, running, etag)
    assert answer["KR-Step"] == "end"  # X nimmt! of three players has two deals
    body = answer.content.decode()
    assert 'id="sheet"' not in body
    assert 'id="deal-1"' in body and body.index('id="deal-1"') < body.index('id="deal-2"')
    # Step after step: the second step's standings (the current ones) come last.
    assert body.index('id="deal-1"') < body.rindex('id="standings"') < body.index('id="deal-2"')
    assert sheets.renders == renders
    running.refresh_from_db()
    assert answer["ETag"].startswith(f'"{running.revision}.')
    assert '"next": 3' in answer["HX-Trigger-After-Swap"]


def test_a_phone_behind_a_deal_and_a_correction_or_too_many_deals_gets_the_whole_sheet(
    monkeypatch: pytest.MonkeyPatch, anna_client: Client, phone: Client, running: Match
) -> None:
    etag = shown_etag(phone, running)
    save(anna_client, running)
    deal_services.match_undo(match=running, user=running.group.owner)
    answer = poll(phone, running, etag)
    assert "KR-Step" not in answer and 'id="sheet"' in answer.content.decode()
    monkeypatch.setattr(sheet_views, "STEPS_AT_MOST", 1)
    etag = shown_etag(phone, running)
    for hand in ("1", "2"):
        save(anna_client, running, hand=hand)
    answer = poll(phone, running, etag)
    assert "KR-Step" not in answer and 'id="sheet"' in answer.content.decode()


def test_a_page_that_takes_no_steps_and_another_language_get_the_whole_sheet(
    anna_client: Client, phone: Client, running: Match
) -> None:
    etag = shown_etag(phone, running)
    save(anna_client, running)  # in German (the default)
    plain = phone.get(sheet_url(running), **POLL, HTTP_IF_NONE_MATCH=etag)
    assert "KR-Step" not in plain and 'id="sheet"' in plain.content.decode()
    english = poll(phone, running, shown_etag(phone, running, HTTP_ACCEPT_LANGUAGE="en")
                   .replace(f"{running.revision + 1}.", f"{running.revision}.", 1),
                   HTTP_ACCEPT_LANGUAGE="en")
    assert "KR-Step" not in english


def test_a_following_guest_gets_the_whole_sheet(
    anna_client: Client, anna: User, running: Match
) -> None:
    follower = pass_services.table_pass_create(created_by=anna, may_write=False, match=running)
    guest = guest_with(follower)  # in English
    etag = shown_etag(guest, running)
    save(anna_client, running, HTTP_ACCEPT_LANGUAGE="en")
    answer = poll(guest, running, etag)
    assert answer.status_code == 200 and "KR-Step" not in answer
    assert 'id="deal-form"' not in answer.content.decode()


def test_after_a_correction_the_whole_sheet_answers(
    anna_client: Client, phone: Client, running: Match
) -> None:
    save(anna_client, running)
    etag = shown_etag(phone, running)
    deal_services.match_undo(match=running, user=running.group.owner)
    answer = poll(phone, running, etag)
    assert "KR-Step" not in answer and 'id="sheet"' in answer.content.decode()


def test_a_poll_told_of_the_change_before_its_step_was_put_waits_for_it() -> None:
    """The change is announced when it commits; the save puts its step a moment later. A
    poll that looks for the step meanwhile (in this process or another) waits for that save;
    one that looks when no save is under way does not wait."""
    writer, watcher = SharedRenders(), SharedRenders()  # two processes, one folder
    started = threading.Event()

    def save() -> None:
        with writer.writing(7):
            started.set()
            time.sleep(0.3)
            writer.put(("step", 7, 2, "de"), "the step")

    thread = threading.Thread(target=save)
    thread.start()
    started.wait(5)
    began = time.monotonic()
    assert watcher.find(("step", 7, 2, "de"), writing=7) == "the step"
    assert time.monotonic() - began >= 0.2
    thread.join(5)
    began = time.monotonic()
    assert watcher.find(("step", 7, 3, "de"), writing=7) is None
    assert time.monotonic() - began < 0.2
    assert watcher.find(("step", 7, 3, "de")) is None  # without a writer to wait for
