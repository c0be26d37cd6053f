"""The service worker only helps: online, a page it answers is the network's answer to
one request, the navigation preload that the browser starts while the worker starts.
(Offline, the stored copy: tests/e2e/test_offline.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.signals import request_started
from playwright.sync_api import Page, expect

from companion.models import Group, Membership, Player
from companion.services import matches as match_services
from tests.e2e.scenes import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.browser_context_args(service_workers="allow")]


@pytest.fixture
def sheet(live_server: Any) -> tuple[str, User]:
    user = User.objects.create_user("anna", password="kartenrunde-anna-1")
    group = Group.objects.create(name="Donnerstagsrunde", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    players = [Player.objects.create(group=group, name=name) for name in ("Anna", "Ben", "Cem")]
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    return f"{live_server.url}/g/{group.pk}/matches/{match.pk}/", user


@pytest.fixture
def requests_seen() -> Iterator[list[dict[str, str]]]:
    """The path and navigation-preload header of every page request the live server gets
    (not the sheet's polls, htmx requests to the same path)."""
    seen: list[dict[str, str]] = []

    def note(sender: object, environ: dict[str, str], **kwargs: object) -> None:
        if environ.get("HTTP_HX_REQUEST"):
            return
        seen.append({"path": environ.get("PATH_INFO", ""),
                     "preload": environ.get("HTTP_SERVICE_WORKER_NAVIGATION_PRELOAD", "")})

    request_started.connect(note)
    yield seen
    request_started.disconnect(note)


def controlled_sheet(page: Page, url: str, user: User) -> None:
    """The sheet opened, and again once the service worker has taken over."""
    page.set_extra_http_headers({"Accept-Language": "en"})
    log_in(page, url, user)
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.offlineReady === '1'")
    page.reload()
    expect(page.locator("#deal-form h2")).to_have_text("Deal 1")
    assert page.evaluate("!!navigator.serviceWorker.controller")


def test_the_worker_turns_navigation_preload_on(page: Page, sheet: tuple[str, User]) -> None:
    controlled_sheet(page, *sheet)
    state = page.evaluate("navigator.serviceWorker.ready.then(r => r.navigationPreload.getState())")
    assert state["enabled"] is True


def test_online_a_page_through_the_worker_is_one_request_the_navigation_preload(
    page: Page, sheet: tuple[str, User], requests_seen: list[dict[str, str]]
) -> None:
    url, user = sheet
    controlled_sheet(page, url, user)
    path = url.split("//", 1)[1].split("/", 1)[1]
    requests_seen.clear()

    response = page.reload()

    assert response is not None and response.from_service_worker and response.status == 200
    expect(page.locator("#deal-form h2")).to_have_text("Deal 1")
    pages = [seen for seen in requests_seen if seen["path"] == "/" + path]
    assert pages == [{"path": "/" + path, "preload": "true"}]
