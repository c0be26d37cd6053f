"""Browser journeys at 390×844: a rules question typed on a rules page gets its answers
while typing (htmx), with the matches marked; an answer leads to the anchored rule, and a
question naming cards opens the check with them filled in."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_typing_finds_the_rule_and_the_link_jumps_to_it(page: Page, live_server: object) -> None:
    page.set_extra_http_headers({"Accept-Language": "de"})
    page.goto(f"{live_server.url}/rules/")  # type: ignore[attr-defined]
    page.locator("#rules-q").press_sequentially("dritte Karte", delay=20)
    first = page.locator(".search-hits li").first
    expect(first).to_contain_text("Die dritte Karte einer Farbe")
    expect(first.locator("mark").first).to_have_text("dritte")
    assert page.url.endswith("/rules/")  # results came in place, no page load
    first.locator("a").first.click()
    page.wait_for_url("**/rules/drei-sind-einer-zuviel/#third-card")
    expect(page.locator("#third-card")).to_be_in_viewport()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_question_asked_on_a_game_page_is_answered_for_that_game_and_opens_the_rule(
    page: Page, live_server: object,
) -> None:
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{live_server.url}/rules/freaky/")  # type: ignore[attr-defined]
    page.locator("#rules-q").press_sequentially("how does the game end?", delay=15)
    first = page.locator(".search-hits li").first
    expect(first.locator("a.fw-semibold")).to_have_attribute("href", "/rules/freaky/#end")
    expect(first.locator(".answer-sentence mark").first).to_be_visible()
    assert page.url.endswith("/rules/freaky/")
    first.locator("a.fw-semibold").click()
    page.wait_for_url("**/rules/freaky/#end")
    expect(page.locator("#end")).to_be_in_viewport()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_question_naming_cards_opens_the_check_filled_in(
    page: Page, live_server: object,
) -> None:
    page.set_extra_http_headers({"Accept-Language": "de"})
    page.goto(f"{live_server.url}/rules/")  # type: ignore[attr-defined]
    page.locator("#rules-q").press_sequentially("darf ich die 23 auf die 18 legen", delay=15)
    offer = page.locator(".check-offer").first
    expect(offer).to_have_text("Diesen Zug prüfen")
    offer.click()
    page.wait_for_url("**/rules/elf-nimmt/check/**")
    expect(page.locator('input[name="play-tops"]')).to_have_value("18")
    expect(page.locator('input[name="play-hand"]')).to_have_value("23")
    page.locator("#check-play button[type=submit]").click()
    expect(page.locator("#answer-play")).to_contain_text("23")
