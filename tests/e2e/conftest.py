"""Where the browser journeys go: Django's live server, or a running server when
KARTENRUNDE_E2E_URL names one (.ci/two-servers runs the X nimmt! journey against
gunicorn with the production settings)."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from companion.models import Group, Membership, Player

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
