"""No control looks ready before it works (issue 20, defect 2): a "+8" tapped while the
page's scripts are still loading must not be lost. Buttons that need JavaScript are
drawn disabled until their script has taken them over; the live board's buttons are
forms that work without it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, Route, expect

from companion.models import Group, Match, Membership, Player
from companion.selectors.live import live_board_for
from companion.services import matches as match_services
from tests.e2e.scenes import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def freaky(page: Page, base_url: str) -> Match:
    user = User.objects.create_user("anna", password="kartenrunde-anna-1")
    group = Group.objects.create(name="Donnerstagsgruppe", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    players = [Player.objects.create(group=group, name=name) for name in ("Anna", "Ben", "Cem")]
    match = match_services.match_start(group=group, game="freaky", players=players)
    log_in(page, base_url, user)
    page.set_extra_http_headers({"Accept-Language": "en"})
    return match


class Held:
    """The page's own scripts (not htmx) are held back until :meth:`set`."""

    def __init__(self, page: Page, pattern: str) -> None:
        self.routes: list[Route] = []
        self.released = False
        page.route(pattern, self._hold)

    def _hold(self, route: Route) -> None:
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def set(self) -> None:
        self.released = True
        for route in self.routes:
            route.continue_()


def hold_scripts(page: Page, pattern: str = "**/static/js/*.js") -> Held:
    return Held(page, pattern)


def test_the_sheets_plus_buttons_are_disabled_until_their_script_runs(
    live_server: Any, page: Page
) -> None:
    match = freaky(page, live_server.url)
    release = hold_scripts(page)
    page.goto(f"{live_server.url}/g/{match.group_id}/matches/{match.pk}/",
              wait_until="commit")
    plus = page.locator("#deal-form .entry-field").first.get_by_role("button", name="+8")
    expect(plus).to_be_visible()
    expect(plus).to_be_disabled()  # shown, but not ready: a tap now would do nothing
    release.set()
    expect(plus).to_be_enabled()
    field = page.locator('#deal-form input[name="s0-collected"]')
    field.fill("15")
    plus.click()
    expect(field).to_have_value("23")


def test_a_tap_on_the_live_boards_plus_8_before_the_scripts_run_counts(
    live_server: Any, page: Page
) -> None:
    match = freaky(page, live_server.url)
    release = hold_scripts(page, "**/*.js")  # htmx too: the board's forms work without it
    page.goto(f"{live_server.url}/g/{match.group_id}/matches/{match.pk}/live/",
              wait_until="commit")
    anna = page.locator("section", has_text="Anna")
    anna.get_by_role("button", name="Anna collects a row of 8").click()
    release.set()
    expect(page.locator("section", has_text="Anna").locator(".fs-5")).to_have_text("8")
    match.refresh_from_db()
    assert [row.collected for row in live_board_for(match).game.players] == [8, 0, 0]
