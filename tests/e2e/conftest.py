"""Where the browser journeys go: Django's live server, or a running server when
KARTENRUNDE_E2E_URL names one (.ci/two-servers runs the X nimmt! journey against
gunicorn with the production settings)."""

from __future__ import annotations

import datetime as dt
import os
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from companion.models import Group, Membership, Player
from companion.services import passes as pass_services

EXTERNAL_URL = os.environ.get("KARTENRUNDE_E2E_URL", "").rstrip("/")


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


@pytest.fixture(autouse=True)
def passes_made_in_the_evening(monkeypatch: pytest.MonkeyPatch) -> None:
    """A journey takes a minute or two and runs at any hour; a pass made at 05:59 rightly
    stops working at 06:00, the end of that game night (one such run failed). Here passes
    live as one made at 20:00 does: ten hours (companion/services/passes.py, whose hours
    tests/companion/test_table_passes.py checks)."""
    def ten_hours(now: dt.datetime | None = None) -> dt.datetime:
        return (now or timezone.now()) + dt.timedelta(hours=10)

    monkeypatch.setattr(pass_services, "pass_expiry", ten_hours)
