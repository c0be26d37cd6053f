"""Browser journey at 390×844: Anna signs up and creates her group with two more
players, makes an invite link; Ben opens it logged out, signs up and joins in one
step as the player Ben already on the roster. Cora has an account: she logs in from
the invite and joins. Copying the link works without the Clipboard API (plain HTTP)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
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
    # Logged out: the invite says which group and who invites; account and join in one step.
    expect(ben.locator("h1")).to_have_text("„Donnerstagsrunde“ beitreten?")
    expect(ben.locator("main")).to_contain_text("anna hat dich eingeladen.")
    ben.fill("#id_username", "ben")
    ben.fill("#id_password1", PASSWORD)
    ben.fill("#id_password2", PASSWORD)
    ben.get_by_label("Ben", exact=True).check()
    ben.click("#signup-join button[type=submit]")
    expect(ben.locator("h1")).to_have_text("Donnerstagsrunde")
    expect(ben.locator(".alert-success")).to_contain_text("Willkommen in „Donnerstagsrunde“!")
    ben.click("nav.group-nav >> text=Spieler")
    expect(ben.locator("summary", has_text="Ben").locator(".badge")).to_have_text("ben")
    friend.close()

    # Cora has an account already: from the invite she logs in, then joins.
    User.objects.create_user("cora", password=PASSWORD)
    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    cora = other.new_page()
    cora.set_extra_http_headers({"Accept-Language": "de"})
    cora.goto(invite_url)
    cora.click("main >> text=Anmelden und beitreten")
    cora.fill("#id_username", "cora")
    cora.fill("#id_password", PASSWORD)
    cora.click("main button[type=submit]")
    expect(cora.locator("h1")).to_have_text("„Donnerstagsrunde“ beitreten?")
    cora.click("main button[type=submit]")
    expect(cora.locator("h1")).to_have_text("Donnerstagsrunde")
    other.close()

    # No Clipboard API (plain HTTP on the LAN): "Kopieren" selects and copies all the same.
    expect(page.locator("[data-copy]")).to_be_visible()
    page.evaluate("Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined})")
    page.click("[data-copy]")
    expect(page.locator("[data-copy]")).to_have_text("Kopiert")
    assert page.evaluate("getSelection().toString() || document.activeElement.value") == invite_url

    page.click("text=Widerrufen")  # hx-confirm asks first
    # Playwright dismisses dialogs by default: the link stays.
    expect(page.locator("input.invite-link")).to_have_count(1)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("text=Widerrufen")
    expect(page.locator("input.invite-link")).to_have_count(0)
