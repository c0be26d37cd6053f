"""The history in a real browser: the filter swaps the list in place (htmx) and the
address follows, so the filtered page can be reloaded and shared."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from companion.models import Group, Membership, Player
from tests.companion.test_history_helpers import freaky, night, x_nimmt

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_filtering_the_history_by_game_updates_the_list_in_place(
    live_server: Any, page: Page
) -> None:
    user = User.objects.create_user("erika", password="kartenrunde-erika-1")
    group = Group.objects.create(name="Freitagsrunde", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    for name in ("Erika", "Ben"):
        Player.objects.create(group=group, name=name)
    freaky(group, "2026-01-09", Erika=12, Ben=20)
    evening = night(group, "2026-01-16", "Bei Ben")
    x_nimmt(group, evening, {"Erika": (0, 2), "Ben": (5, 3)}, {"Erika": (1, 0), "Ben": (0, 0)})

    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(live_server.url + "/accounts/login/")
    page.locator('input[name="username"]').fill("erika")
    page.locator('input[name="password"]').fill("kartenrunde-erika-1")
    page.locator("main form").get_by_role("button").click()
    page.goto(f"{live_server.url}/g/{group.pk}/history/")
    results = page.locator("#history-results")
    expect(results.locator(".list-group-item-action")).to_have_count(2)

    page.evaluate("window.stillTheSamePage = true")
    page.locator("details.filter summary").click()
    page.locator('select[name="game"]').select_option("x-nimmt")
    page.get_by_role("button", name="Show").click()
    expect(results.locator(".list-group-item-action")).to_have_count(1)
    expect(results).to_contain_text("X nimmt!")
    expect(results).to_contain_text("Bei Ben")
    expect(page).to_have_url(re.compile(r"/history/\?.*game=x-nimmt"))
    assert page.evaluate("window.stillTheSamePage === true")

    # The X nimmt! match opens its score sheet with one tap.
    href = results.locator(".list-group-item-action").get_attribute("href")
    assert href is not None and re.fullmatch(rf"/g/{group.pk}/matches/\d+/", href)
