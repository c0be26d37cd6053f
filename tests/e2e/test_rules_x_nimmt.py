"""Browser journey at 390×844: the X nimmt! round check settles the rulebook's
59 (full 4-row) and 43 (too low for every row) examples, in place via htmx."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_round_check_settles_the_59_and_the_43(page: Page, live_server: object) -> None:
    page.set_extra_http_headers({"Accept-Language": "de"})
    page.goto(f"{live_server.url}/rules/x-nimmt/check/")  # type: ignore[attr-defined]
    assert page.viewport_size == {"width": 390, "height": 844}
    page.evaluate("window.__stillThisPage = true")

    # Round 1: the 59 would be the 4th card of the 4-row (rule 3).
    page.fill("#id_round-row_3", "62")
    page.fill("#id_round-row_4", "31 40 45")
    page.fill("#id_round-row_5", "70")
    page.fill("input[name=round-card_1]", "59")
    page.fill("input[name=round-card_2]", "81")
    page.fill("input[name=round-card_3]", "94")
    page.click("#check-round button[type=submit]:not([name])")
    pending = page.locator(".pending")
    expect(pending).to_contain_text("Mit der 59 nimmt Anna mehrere Karten")
    expect(pending).to_contain_text("Noch offen: 81, 94")
    page.click("button[value='59:40']")
    steps = page.locator(".step")
    expect(steps).to_have_count(3)
    expect(steps.nth(0)).to_contain_text("Anna: 59 → 4er-Reihe")
    expect(steps.nth(0)).to_contain_text("Anna nimmt 3:")
    expect(steps.nth(0)).to_contain_text("In die X-Reihe: 40 · auf die Hand: 31, 45")
    expect(steps.nth(0).locator("a[href='/rules/x-nimmt/#rule-full-row']")).to_be_visible()
    expect(steps.nth(2)).to_contain_text("Cem: 94 → 5er-Reihe")

    # Round 2 on the table round 1 left: the 43 is lower than every row's last card (rule 4).
    page.click("button[name=round-next]")
    expect(page.locator("#id_round-row_4")).to_have_value("59")
    expect(page.locator("#id_round-row_5")).to_have_value("70 81 94")
    page.fill("input[name=round-card_1]", "43")
    page.fill("input[name=round-card_2]", "66")
    page.fill("input[name=round-card_3]", "89")
    page.click("#check-round button[type=submit]:not([name])")
    expect(page.locator(".pending")).to_contain_text(
        "Die 43 von Anna ist niedriger als die letzte Karte jeder Reihe")
    page.click("button[value='43:1']")  # the middle row, holding only the 59
    first = page.locator(".step").nth(0)
    expect(first).to_contain_text("Anna: 43 → 4er-Reihe")
    expect(first).to_contain_text("Anna nimmt 1:")
    expect(first).to_contain_text("In die X-Reihe: 59")
    expect(first.locator("a[href='/rules/x-nimmt/#rule-low-card']")).to_be_visible()
    # The 89 then fills the 3-row: Cem chooses the X-Reihe card.
    expect(page.locator(".pending")).to_contain_text("Mit der 89 nimmt Cem mehrere Karten")
    page.click("button[value='89:66']")
    expect(page.locator(".step")).to_have_count(3)
    expect(page.locator(".step").nth(2)).to_contain_text("In die X-Reihe: 66 · auf die Hand: 62")

    # Everything happened in place (htmx), and the page fits the phone.
    assert page.evaluate("window.__stillThisPage") is True
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
