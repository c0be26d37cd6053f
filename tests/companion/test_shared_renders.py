"""A sheet is rendered once per change for all phones that watch it (companion/shared_renders.py):
nothing of one phone is in it (tests/companion/test_leaks.py checks that no member sees another's
token or key), and each page fills in its forms' token and keys (tests/e2e)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from companion.models import Group, Match, Membership, Player
from companion.services import matches as match_services
from companion.shared_renders import SharedRenders, sheets

POLL = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "sheet"}


def slow_render(text: str, calls: list[int]) -> Callable[[], str]:
    def render() -> str:
        calls.append(1)
        time.sleep(0.25)
        return text

    return render


def texts_at_once(processes: list[SharedRenders], key: Any, render: Callable[[], str]) -> list[str]:
    """``key``'s text, asked for at the same moment by a thread per entry of ``processes``."""
    texts: list[str] = []
    threads = [threading.Thread(target=lambda p=p: texts.append(p.text(key, render)))
               for p in processes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    return texts


def test_one_render_for_many_waiting_requests() -> None:
    shared = SharedRenders()
    calls: list[int] = []
    texts = texts_at_once([shared] * 8, "k", slow_render("<div>sheet</div>", calls))
    assert len(calls) == 1 and shared.renders == 1
    assert texts == ["<div>sheet</div>"] * 8


def test_a_failed_render_is_tried_again_by_the_next_request() -> None:
    shared = SharedRenders()

    def broken() -> str:
        raise RuntimeError("template error")

    with pytest.raises(RuntimeError):
        shared.text("k", broken)
    assert shared.text("k", lambda: "fine") == "fine"


def test_kept_texts_are_bounded_and_expire() -> None:
    shared = SharedRenders(max_chars=100, ttl=60, shared=None)
    for number in range(5):
        shared.text(number, lambda: "x" * 40)
    assert shared.renders == 5
    shared.text(4, lambda: "new")  # kept: the newest two fit into 100 characters
    shared.text(0, lambda: "y" * 40)  # dropped long ago: rendered again
    assert shared.renders == 6
    expiring = SharedRenders(ttl=0, shared=None)
    expiring.text("k", lambda: "a")
    assert expiring.text("k", lambda: "b") == "b"


def test_a_text_rendered_in_one_process_is_taken_by_the_others() -> None:
    """Two processes (each its own memory; the same ``renders`` cache folder): a text
    both want at the same moment is rendered once, by one of them."""
    processes = [SharedRenders(), SharedRenders()]
    calls: list[int] = []
    texts = texts_at_once(processes * 3, ("m", 7), slow_render("<div>sheet 7</div>", calls))
    assert texts == ["<div>sheet 7</div>"] * 6
    assert len(calls) == 1
    assert sorted(p.renders for p in processes) == [0, 1]
    # A third process, started later, takes it too; another key is rendered anew.
    later = SharedRenders()
    assert later.text(("m", 7), lambda: "not rendered") == "<div>sheet 7</div>"
    assert later.text(("m", 8), lambda: "<div>sheet 8</div>") == "<div>sheet 8</div>"
    assert later.renders == 1


def test_a_shared_text_stays_its_time_while_many_others_are_shared() -> None:
    """At 1,000 phones saving every 5 s the server shares 150-200 texts a second (steps,
    answers). A step is still there for a phone a few deals behind when another process
    looks for it: Django's file cache kept 300 files and dropped a third of them at random
    when full, and the whole sheets rendered in their place were a quarter of the
    server's CPU."""
    saving = SharedRenders()
    saving.put(("step", 1), "<div>step 1</div>")
    for number in range(2, 1200):
        saving.put(("step", number), f"<div>step {number}</div>")
    other = SharedRenders()  # another process: its own memory, the same folder
    assert other.find(("step", 1)) == "<div>step 1</div>"
    assert other.find(("step", 600)) == "<div>step 600</div>"


@pytest.fixture
def table(group: Group, players: list[Player], anna: User) -> tuple[Match, list[Client]]:
    """Anna (the owner, who may delete the match) and two members, Ben and Cem."""
    clients = []
    for user in (anna, User.objects.create_user("ben"), User.objects.create_user("cem")):
        if user != anna:
            Membership.objects.create(group=group, user=user)
        client = Client()
        client.force_login(user)
        clients.append(client)
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    return match, clients


def sheet_url(match: Match) -> str:
    return reverse("match_sheet", args=[match.group_id, match.pk])


def test_the_phones_of_a_table_share_one_render_per_change(
    table: tuple[Match, list[Client]]
) -> None:
    match, clients = table
    sheets.clear()
    before = sheets.renders
    answers = [client.get(sheet_url(match), **POLL) for client in clients[1:]]
    assert sheets.renders == before + 1  # two members who may delete nothing: one kind
    assert answers[0].content == answers[1].content
    assert answers[0]["ETag"] == answers[1]["ETag"]
    text = answers[0].content.decode()
    # Every write form's token and key are left for the page to fill in.
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', text)
    assert tokens and set(tokens) == {""}
    assert 'name="client_key"' in text
    assert not re.findall(r'name="client_key"[^>]*value="[^"]+"', text)
    assert 'data-etag="{}"'.format(answers[0]["ETag"].replace('"', "&quot;")) in text
    # A full page is each viewer's own, with its token and keys filled in by the server.
    page = clients[1].get(sheet_url(match)).content.decode()
    assert re.findall(r'name="client_key"[^>]*value="\w+"', page)
    assert not re.findall(r'name="csrfmiddlewaretoken" value=""', page)
    # Anna may delete the match: another kind of viewer, rendered once more.
    clients[0].get(sheet_url(match), **POLL)
    assert sheets.renders == before + 2
    # A change: the next polls render the new sheet once, for both members.
    saved = clients[1].post(reverse("deal_new", args=[match.group_id, match.pk]), {
        "mode": "counts", "number": 1, "s0-hand": "5", "s0-x_stack": "9", "s1-hand": "3",
        "s2-x_stack": "1"})
    assert saved.status_code == 302
    for client in clients[1:]:
        assert 'id="deal-1"' in client.get(sheet_url(match), **POLL).content.decode()
    assert sheets.renders == before + 3


@pytest.mark.parametrize("game", ["x-nimmt", "drei-sind-einer-zuviel"])
def test_a_shared_answer_reads_only_who_asks_and_the_revision(
    anna_client: Client, group: Group, players: list[Player], game: str
) -> None:
    """The phones after the first get the kept text: their queries are the access checks,
    the same for a sheet of 1 deal and of 40; a woken poll (it names the sheet it shows,
    an older one) reads only the match's revision with the access check."""
    from tests.companion.test_sheet_queries import a_match, sheet_queries

    counts = []
    for deals in (1, 40):
        match = a_match(group, players, game, deals, "running")
        sheets.clear()
        first, _ = sheet_queries(anna_client, match, POLL)
        kept, html = sheet_queries(anna_client, match, POLL)
        assert f'id="deal-{deals}"' in html
        etag = anna_client.get(sheet_url(match), **POLL)["ETag"]
        match.revision += 1
        match.save(update_fields=["revision"])  # a change: the phone's sheet is older
        woken_first, _ = sheet_queries(anna_client, match, {**POLL, "HTTP_IF_NONE_MATCH": etag})
        woken, html = sheet_queries(anna_client, match, {**POLL, "HTTP_IF_NONE_MATCH": etag})
        assert f'id="deal-{deals}"' in html
        counts.append((kept, woken))
        assert kept < first and woken < woken_first
    assert counts[0] == counts[1]
    assert counts[0][0] <= 3 and counts[0][1] == 1


def test_a_folder_that_cannot_be_written_leaves_each_process_its_own_render(
    tmp_path: object, settings: object, caplog: pytest.LogCaptureFixture
) -> None:
    """A read-only or full disk (KARTENRUNDE_RENDERS_DIR unset on a read-only app folder):
    every sheet is still answered, rendered in this process; the log says so once."""
    from pathlib import Path

    blocked = Path(str(tmp_path)) / "a-file"
    blocked.write_text("not a folder")
    settings.CACHES = {**settings.CACHES, "renders": {  # type: ignore[attr-defined]
        **settings.CACHES["renders"], "LOCATION": str(blocked / "renders")}}  # type: ignore[attr-defined]
    shared = SharedRenders()
    assert shared.text(("m", 1), lambda: "<div>1</div>") == "<div>1</div>"
    assert shared.text(("m", 2), lambda: "<div>2</div>") == "<div>2</div>"
    assert shared.renders == 2 and shared.unshared == 2
    assert len([r for r in caplog.records if "cannot be shared" in r.getMessage()]) == 1
