"""Sharing a night's tally in a real browser: the share sheet (Web Share API) gets the text
and the picture; without it the text is copied: through the Clipboard API where there
is one, else (plain HTTP) by selecting the text area and execCommand("copy").

The browser's share sheet and clipboard are stood in for by scripts that note what they
were given (``page.add_init_script`` runs before the page's own scripts)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from companion.models import GameNight, Group, Membership, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHARE_SHEET = """
window.shared = [];
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value: function (data) {
  window.shared.push({title: data.title, text: data.text || null,
                      files: (data.files || []).map(function (f) {
                        return {name: f.name, type: f.type, size: f.size}; })});
  return Promise.resolve();
}});
Object.defineProperty(Navigator.prototype, "canShare", {configurable: true,
  value: function (data) { return true; }});
"""

CLIPBOARD_ONLY = """
window.copied = [];
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value: undefined});
Object.defineProperty(Navigator.prototype, "canShare", {configurable: true, value: undefined});
Object.defineProperty(Navigator.prototype, "clipboard", {configurable: true, get: function () {
  return {writeText: function (text) { window.copied.push(text); return Promise.resolve(); }};
}});
"""

PLAIN_HTTP = """
window.copied = [];
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value: undefined});
Object.defineProperty(Navigator.prototype, "canShare", {configurable: true, value: undefined});
Object.defineProperty(Navigator.prototype, "clipboard", {configurable: true,
  get: function () { return undefined; }});
document.execCommand = function (command) {
  var field = document.activeElement;
  window.copied.push(command + ":" + field.value.slice(field.selectionStart, field.selectionEnd));
  return true;
};
"""


@pytest.fixture
def evening(live_server: Any, page: Page) -> tuple[str, GameNight]:
    """Anna's night of one match of 11 nimmt! (Anna, Ben); the browser logged in as Anna."""
    user = User.objects.create_user("anna", password="kartenrunde-anna-1")
    group = Group.objects.create(name="Donnerstagsrunde", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    anna, ben = (Player.objects.create(group=group, name=name) for name in ("Anna", "Ben"))
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 5), place="bei Anna")
    match = match_services.match_start(group=group, game="elf-nimmt", players=[anna, ben],
                                       game_night=night, user=user)
    for number, (first, second) in enumerate(
        [({"went_out": True}, {"hand": 7}), ({"hand": 3}, {"went_out": True})], 1
    ):
        deal_services.deal_record(match=match, number=number, user=user,
                                  entries={anna.pk: first, ben.pk: second})
    match_services.match_finish(match=match, user=user)

    page.set_viewport_size({"width": 390, "height": 844})
    page.set_extra_http_headers({"Accept-Language": "de"})
    page.goto(live_server.url + "/accounts/login/")
    page.locator('input[name="username"]').fill("anna")
    page.locator('input[name="password"]').fill("kartenrunde-anna-1")
    page.locator("main form").get_by_role("button").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    return f"{live_server.url}/g/{group.pk}/nights/{night.pk}/", night


def test_the_share_sheet_gets_the_evenings_text_and_its_picture(
    page: Page, evening: tuple[str, GameNight]
) -> None:
    url, _night = evening
    page.add_init_script(SHARE_SHEET)
    page.goto(url)
    text = page.locator("#share-text").input_value()

    page.get_by_role("button", name="Als Text teilen").click()
    page.wait_for_function("window.shared.length === 1")
    page.get_by_role("button", name="Als Bild teilen").click()
    page.wait_for_function("window.shared.length === 2")

    as_text, as_picture = page.evaluate("window.shared")
    assert as_text == {"title": "Spieleabend am 5. März 2026", "text": text, "files": []}
    assert text.startswith("Spieleabend am 5. März 2026, bei Anna\n1 Partie: 1× 11 nimmt!\n")
    assert "Anna: 1 Sieg · Platz 1." in text
    (picture,) = as_picture["files"]
    assert (picture["name"], picture["type"]) == ("kartenrunde-2026-03-05.png", "image/png")
    assert picture["size"] > 10_000


def test_without_a_share_sheet_the_text_goes_to_the_clipboard(
    page: Page, evening: tuple[str, GameNight]
) -> None:
    url, _night = evening
    page.add_init_script(CLIPBOARD_ONLY)
    page.goto(url)

    page.get_by_role("button", name="Als Text teilen").click()

    expect(page.locator("[data-share-status]")).to_have_text(
        "Kopiert: Fügt es in euren Chat ein.")
    assert page.evaluate("window.copied") == [page.locator("#share-text").input_value()]
    # No sharing of files without a share sheet: the picture's link remains.
    expect(page.get_by_role("button", name="Als Bild teilen")).to_be_hidden()
    expect(page.get_by_role("link", name="Bild öffnen")).to_be_visible()


def test_on_plain_http_the_copy_button_selects_the_text_and_copies_it(
    page: Page, evening: tuple[str, GameNight]
) -> None:
    url, _night = evening
    page.add_init_script(PLAIN_HTTP)
    page.goto(url)
    text = page.locator("#share-text").input_value()

    page.get_by_role("button", name="Kopieren").click()
    page.get_by_role("button", name="Als Text teilen").click()

    assert page.evaluate("window.copied") == [f"copy:{text}", f"copy:{text}"]
    expect(page.locator("[data-share-status]")).to_have_text(
        "Kopiert: Fügt es in euren Chat ein.")


def test_without_javascript_the_text_and_the_picture_are_there_to_take(
    browser: Any, live_server: Any, evening: tuple[str, GameNight], page: Page
) -> None:
    url, _night = evening
    context = browser.new_context(java_script_enabled=False,
                                  extra_http_headers={"Accept-Language": "de"},
                                  storage_state=page.context.storage_state())
    bare = context.new_page()
    bare.goto(url)

    expect(bare.locator("#share-text")).to_be_visible()
    expect(bare.get_by_role("button", name="Als Text teilen")).to_be_hidden()
    expect(bare.get_by_role("button", name="Kopieren")).to_be_hidden()
    href = bare.get_by_role("link", name="Bild öffnen").get_attribute("href")
    response = bare.request.get(f"{live_server.url}{href}")
    assert response.status == 200 and response.headers["content-type"] == "image/png"
    context.close()
