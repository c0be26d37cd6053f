"""Where the browser journeys go: Django's live server, or a running server when
KARTENRUNDE_E2E_URL names one (.ci/two-servers runs the X nimmt! journey against
gunicorn with the production settings)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Error, Page, expect

from companion.models import Group, Membership, Player

EXTERNAL_URL = os.environ.get("KARTENRUNDE_E2E_URL", "").rstrip("/")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "script_errors(*patterns, reason): console errors this browser test causes on purpose "
        "(regular expressions searched in the message; the reason is required)",
    )


@pytest.fixture(autouse=True)
def no_script_errors(
    request: pytest.FixtureRequest, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[str]]:
    """Every page of every browser context the test opens (the ``page`` fixture's and those
    from ``browser.new_context()``) is watched: an uncaught script error (``pageerror``) or a
    console message of type "error" (htmx's own errors, a failed resource load, a CSP
    refusal) fails the test. A test that causes one on purpose names it with
    ``@pytest.mark.script_errors(pattern, ..., reason="why")`` (only that test may log
    what its patterns match; a pattern that matches nothing is no failure: some of the
    failures a test causes on purpose are logged or not as the browser's timing has it)."""
    allowed: list[re.Pattern[str]] = []
    for marker in request.node.iter_markers("script_errors"):
        assert marker.kwargs.get("reason"), "script_errors needs a reason"
        allowed += [re.compile(pattern) for pattern in marker.args]
    errors: list[str] = []

    closing: set[int] = set()  # contexts and pages being closed by the test or its teardown

    def watch(page: Page) -> None:
        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error" and not {id(page), id(page.context)} & closing:
                location = message.location.get("url", "") if message.location else ""
                errors.append(f"console: {message.text} ({location})")

        def on_pageerror(error: Error) -> None:
            if not {id(page), id(page.context)} & closing:
                errors.append(f"pageerror: {error}")

        page.on("console", on_console)
        page.on("pageerror", on_pageerror)
        closes_on_purpose(page)

    def closes_on_purpose(target: Page | BrowserContext) -> None:
        """Closing a page cuts off its held poll, which htmx logs as an error (htmx:sendAbort):
        the harness's doing, not the page's; a person leaving the page is covered by
        sync.js (beforeunload)."""
        close = target.close

        def closed(*args: Any, **kwargs: Any) -> Any:
            closing.add(id(target))
            return close(*args, **kwargs)

        target.close = closed  # type: ignore[method-assign]

    original = browser.new_context

    def new_context(*args: Any, **kwargs: Any) -> BrowserContext:
        context = original(*args, **kwargs)
        context.on("page", watch)
        closes_on_purpose(context)
        return context

    monkeypatch.setattr(browser, "new_context", new_context)
    yield errors
    monkeypatch.undo()
    unexpected = [e for e in errors if not any(pattern.search(e) for pattern in allowed)]
    if unexpected:
        pytest.fail("script errors in the browser:\n" + "\n".join(unexpected), pytrace=False)


@pytest.fixture
def app_url(request: pytest.FixtureRequest) -> str:
    """The base URL of the app under test (no trailing slash)."""
    if EXTERNAL_URL:
        return EXTERNAL_URL
    return str(request.getfixturevalue("live_server").url)


@pytest.fixture
def annas_table(live_server: Any, page: Page) -> tuple[Group, list[Player], User]:
    """Anna's group with Anna, Ben and Cem; the browser logged in as Anna, in English."""
    anna = User.objects.create_user("anna", password="kartenrunde-anna-1")
    group = Group.objects.create(name="Donnerstagsgruppe", owner=anna)
    Membership.objects.create(group=group, user=anna, role=Membership.Role.OWNER)
    players = [Player.objects.create(group=group, name=name) for name in ("Anna", "Ben", "Cem")]
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(live_server.url + "/accounts/login/")
    page.locator('input[name="username"]').fill("anna")
    page.locator('input[name="password"]').fill("kartenrunde-anna-1")
    page.locator("main form").get_by_role("button").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    return group, players, anna
