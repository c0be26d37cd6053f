"""Browser journey at 390×844: rules search shows results while typing (htmx),
with the matches marked, and a result leads to the anchored rule."""

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
