"""The account menu in the top bar: a <details> menu (no Bootstrap JavaScript) that opens
by tap and keyboard, closes on Escape and on a tap elsewhere, and logs out."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tests.e2e.scenes import log_in
from tests.e2e.test_reach import SMALL_TARGETS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def anna(db: Any) -> User:
    return User.objects.create_user("anna", password="kartenrunde-anna-1")


def _in_german(page: Page, base_url: str, user: User) -> None:
    page.set_extra_http_headers({"Accept-Language": "de"})
    log_in(page, base_url, user)


def _open_menu(page: Page, base_url: str, user: User) -> None:
    _in_german(page, base_url, user)
    page.goto(base_url + "/rules/")
    page.locator("summary[aria-label='Dein Konto']").click()
    expect(page.get_by_role("button", name="Abmelden")).to_be_visible()


def test_the_menu_opens_with_44_px_entries_and_closes_on_escape(
    live_server: Any, page: Page, anna: User
) -> None:
    _open_menu(page, live_server.url, anna)
    expect(page.get_by_text("Angemeldet als anna")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Abmelden")).to_be_hidden()
    assert page.evaluate("document.querySelector('details.account-menu').open") is False


def test_a_tap_elsewhere_closes_the_menu(live_server: Any, page: Page, anna: User) -> None:
    _open_menu(page, live_server.url, anna)
    page.mouse.click(30, 700)  # the page below, away from the menu at the top right
    expect(page.get_by_role("button", name="Abmelden")).to_be_hidden()


def test_the_menu_works_with_the_keyboard(live_server: Any, page: Page, anna: User) -> None:
    _in_german(page, live_server.url, anna)
    page.goto(live_server.url + "/rules/")
    summary = page.locator("details.account-menu > summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("link", name="Passwort ändern")).to_be_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Dein Konto"
    page.keyboard.press("Escape")
    expect(page.get_by_role("link", name="Passwort ändern")).to_be_hidden()
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"


def test_logging_out_from_the_menu(live_server: Any, page: Page, anna: User) -> None:
    _open_menu(page, live_server.url, anna)
    page.get_by_role("button", name="Abmelden").click()
    page.wait_for_url(live_server.url + "/")
    expect(page.get_by_role("navigation").get_by_role("link", name="Anmelden")).to_be_visible()
    page.goto(live_server.url + "/groups/")
    assert page.url.startswith(live_server.url + "/accounts/login/")


def test_pages_without_the_sheets_script_have_the_js_class_from_the_head(
    live_server: Any, page: Page
) -> None:
    page.goto(live_server.url + "/rules/")
    assert page.evaluate("document.documentElement.classList.contains('js')") is True
