"""The standings show a saved deal as the tap leaves (from the score preview on screen),
and go back when the save fails; another phone shows the deal as soon as it is saved
(its poll is held by the server until the match changes)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from companion.models import Group, Player
from companion.services import matches as match_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def standings(page: Page) -> list[str]:
    return [" ".join(text.split()) for text in
            page.locator("#standings ol.standings > li").all_inner_texts()]


def open_x_nimmt(page: Page, live_server: Any, group: Group, players: list[Player],
                 anna: User) -> str:
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    url = f"{live_server.url}/g/{group.pk}/matches/{match.pk}/"
    page.goto(url)
    page.locator('input[name="s0-hand"]').fill("5")
    page.locator('input[name="s1-hand"]').fill("0")
    page.locator('input[name="s2-hand"]').fill("2")
    expect(page.locator("#deal-preview")).to_contain_text("Anna")  # the engine's preview
    return url


def second_phone(page: Page, browser: Browser, url: str) -> tuple[BrowserContext, Page]:
    """Another phone of the same user showing the sheet at ``url``, its poll held."""
    other = browser.new_context(viewport={"width": 390, "height": 844})
    other.add_cookies(page.context.cookies())
    phone = other.new_page()
    phone.goto(url)
    phone.wait_for_timeout(2500)  # its poll is held by now
    return other, phone


@pytest.mark.script_errors(
    r"htmx:sendError", r"htmx:afterRequest", r"net::ERR_FAILED .*/deals/new/",
    reason="the test cuts the save's answer off (route.abort): htmx logs the failed request, "
           "and the standings coming back is what is tested")
def test_the_standings_show_the_deal_before_the_answer_and_come_back_when_it_fails(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User]
) -> None:
    group, players, anna = annas_table
    open_x_nimmt(page, live_server, group, players, anna)
    before = standings(page)
    held: list[Route] = []
    page.route("**/deals/new/", lambda route: held.append(route))  # the answer waits
    page.get_by_role("button", name="Save deal").click()
    expect(page.locator("#standings ol.standings > li").first).to_contain_text("Ben")
    assert standings(page) == ["1st Ben 0", "2nd Cem 2", "3rd Anna 5"]  # English ordinals
    for _ in range(50):
        if held:
            break
        time.sleep(0.1)
    held[0].abort()  # no answer: the save failed
    expect(page.locator("#standings ol.standings > li").first).to_contain_text("Anna")
    assert standings(page) == before
    assert page.locator("#standings ol[data-optimistic]").count() == 0


def test_another_phone_shows_a_saved_deal_within_a_second(
    live_server: Any, page: Page, browser: Browser,
    annas_table: tuple[Group, list[Player], User],
) -> None:
    group, players, anna = annas_table
    url = open_x_nimmt(page, live_server, group, players, anna)
    other, phone_b = second_phone(page, browser, url)
    page.get_by_role("button", name="Save deal").click()
    began = time.monotonic()
    expect(phone_b.locator("#deal-1")).to_be_visible(timeout=5000)
    assert time.monotonic() - began < 1.5
    other.close()


def test_the_sheet_another_phones_save_brings_has_working_forms(
    live_server: Any, page: Page, browser: Browser,
    annas_table: tuple[Group, list[Player], User],
) -> None:
    """The sheet a poll brings is one text for every phone watching the match, with its
    forms' CSRF fields and keys empty (companion/shared_renders.py): the phone fills them in
    (static/js/net.js), so the next deal's form has a key of its own and a plain form (the
    match's deletion, not sent by htmx) is accepted."""
    group, players, anna = annas_table
    url = open_x_nimmt(page, live_server, group, players, anna)
    other, phone_b = second_phone(page, browser, url)
    # htmx settles new content 20 ms after it shows it; widened, so that a form shown before
    # its fields are filled in is seen every time, not one run in many
    phone_b.evaluate("htmx.config.defaultSettleDelay = 1000")
    page.get_by_role("button", name="Save deal").click()
    expect(phone_b.locator("#deal-1")).to_be_visible(timeout=5000)
    key_b = phone_b.locator("#deal-form [name=client_key]").input_value()
    expect(page.locator("#deal-1")).to_be_visible()
    key_a = page.locator("#deal-form [name=client_key]").input_value()
    assert len(key_b) >= 32 and key_b != key_a
    tokens = phone_b.locator("#sheet [name=csrfmiddlewaretoken]")
    assert tokens.count() > 0
    assert all(tokens.nth(n).input_value() for n in range(tokens.count()))
    page.goto("about:blank")  # its poll would learn of the deletion (410, logged as an error)
    phone_b.locator("#delete-match summary").click()
    phone_b.get_by_role("button", name="Delete for good").click()
    expect(phone_b).to_have_url(f"{live_server.url}/g/{group.pk}/", timeout=5000)
    other.close()
