"""Browser journey at 390×844: Anna signs up and creates her group with two more
players, makes an invite link; Ben opens it, signs up on the way and joins as
the player Ben already on the roster."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

PASSWORD = "Doppelkopf-und-Skat-9"


def _sign_up(page: Page, username: str) -> None:
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_invited_friend_signs_up_and_joins_as_a_roster_player(
    page: Page, browser: Browser, live_server: object
) -> None:
    base = live_server.url  # type: ignore[attr-defined]
    page.set_extra_http_headers({"Accept-Language": "de"})
    page.goto(f"{base}/")
    page.click("main >> text=Registrieren")
    _sign_up(page, "anna")
    page.wait_for_url("**/groups/new/")
    page.fill("#id_name", "Donnerstagsrunde")
    page.fill("#id_players", "Ben\nCem")
    page.click("main button[type=submit]")
    expect(page.locator("h1")).to_have_text("Donnerstagsrunde")
    expect(page.locator(".btn-cta")).to_have_text("Neue Partie")

    page.click("nav.group-nav >> text=Einstellungen")
    page.click("text=Einladungslink erstellen")
    link = page.locator("input.invite-link")
    expect(link).to_have_count(1)  # added in place by htmx
    invite_url = link.input_value()
    assert "/join/" in invite_url

    friend = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    ben = friend.new_page()
    ben.set_extra_http_headers({"Accept-Language": "de"})
    ben.goto(invite_url)
    ben.wait_for_url(re.compile(r".*/accounts/login/\?next=/join/"))
    ben.click("main >> text=Konto anlegen")
    _sign_up(ben, "ben")
    expect(ben.locator("h1")).to_have_text("„Donnerstagsrunde“ beitreten?")
    ben.check("label:has-text('Ben') >> xpath=preceding-sibling::input")
    ben.click("main button[type=submit]")
    expect(ben.locator("h1")).to_have_text("Donnerstagsrunde")
    expect(ben.locator(".alert-success")).to_contain_text("Willkommen in „Donnerstagsrunde“!")
    ben.click("nav.group-nav >> text=Spieler")
    expect(ben.locator("summary", has_text="Ben").locator(".badge")).to_have_text("ben")
    friend.close()

    page.click("text=Widerrufen")  # hx-confirm asks first
    # Playwright dismisses dialogs by default: the link stays.
    expect(page.locator("input.invite-link")).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("text=Widerrufen")
    expect(page.locator("input.invite-link")).to_have_count(0)
