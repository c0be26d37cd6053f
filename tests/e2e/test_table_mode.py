"""Table mode in a real browser at 390×844 and in landscape (844×390): one tap in, the
totals in large type (≥ 40 px computed), the deal and who deals shown; one tap or
Escape out; a deal saved meanwhile shows up in it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from companion.services import deals as deal_services
from tests.e2e.scenes import Evening, evening, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def scene(db: Any) -> Evening:
    return evening()


def smallest_total(page: Page) -> float:
    return float(page.evaluate(
        "Math.min(...[...document.querySelectorAll('#table-view .tv-standings > li > :last-child')]"
        ".map(el => parseFloat(getComputedStyle(el).fontSize)))"
    ))


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844},
                                      {"width": 844, "height": 390}])
def test_table_mode_goes_in_shows_large_totals_and_the_dealer_and_goes_out(
    live_server: Any, page: Page, scene: Evening, viewport: dict[str, int]
) -> None:
    page.set_viewport_size(viewport)
    page.set_extra_http_headers({"Accept-Language": "en"})
    log_in(page, live_server.url, scene.user)
    page.goto(live_server.url + scene.sheet(scene.running["dreizehn"]))
    view = page.locator("#table-view")
    expect(view).to_be_hidden()

    page.get_by_role("link", name="Table mode").click()
    expect(view).to_be_visible()
    expect(page.locator("html")).to_have_class(re.compile(r"\btable-mode\b"))
    assert page.url.endswith(scene.sheet(scene.running["dreizehn"]))  # no page load
    expect(page.locator("#tv-deal")).to_have_text("Deal 2 of 6")
    # 13 with six players, Ben dealt deal 1: Cem deals deal 2, Dora starts.
    expect(page.locator("#tv-turn")).to_have_text("Cem deals, Dora starts")
    expect(view.locator(".tv-standings > li")).to_have_count(6)
    assert smallest_total(page) >= 40
    box = view.bounding_box()
    assert box == {"x": 0, "y": 0, "width": viewport["width"], "height": viewport["height"]}
    # Every row fits on the screen without scrolling.
    last = view.locator(".tv-standings > li").last.bounding_box()
    assert last is not None and last["y"] + last["height"] <= viewport["height"]

    page.get_by_role("link", name="Leave table mode").click()
    expect(view).to_be_hidden()
    expect(page.locator("html")).not_to_have_class(re.compile(r"\btable-mode\b"))

    page.get_by_role("link", name="Table mode").click()
    expect(view).to_be_visible()
    page.keyboard.press("Escape")
    expect(view).to_be_hidden()


def test_table_mode_follows_a_saved_deal_and_works_without_javascript(
    live_server: Any, page: Page, scene: Evening
) -> None:
    page.set_extra_http_headers({"Accept-Language": "de"})
    log_in(page, live_server.url, scene.user)
    sheet = scene.sheet(scene.running["x-nimmt"])
    page.goto(live_server.url + sheet + "?view=table")
    expect(page.locator("#table-view")).to_be_visible()
    expect(page.locator("#tv-deal")).to_have_text("Durchgang 2 von 2")
    assert smallest_total(page) >= 40
    page.get_by_role("link", name="Tischansicht verlassen").click()
    expect(page.locator("#table-view")).to_be_hidden()
    assert page.url == live_server.url + sheet

    # Saving deal 2 swaps in a new sheet partial: its table view shows the new state.
    page.evaluate("document.documentElement.classList.remove('table-mode')")
    form = page.locator("#deal-form form")
    for name, value in {"s0-hand": "1", "s1-hand": "2", "s2-hand": "3", "s3-x_stack": "2"}.items():
        form.locator(f'input[name="{name}"]').fill(value)
    form.get_by_role("button", name="Durchgang speichern").click()
    expect(page.locator("#deal-2")).to_be_visible()
    page.evaluate("document.documentElement.classList.add('table-mode')")
    expect(page.locator("#tv-deal")).to_have_text("Alle Durchgänge erfasst")
    expect(page.locator("#table-view .tv-standings > li")).to_have_count(4)


def test_table_mode_follows_a_deal_recorded_on_another_phone(
    live_server: Any, page: Page, scene: Evening
) -> None:
    page.set_extra_http_headers({"Accept-Language": "en"})
    log_in(page, live_server.url, scene.user)
    match = scene.running["dreizehn"]
    page.goto(live_server.url + scene.sheet(match))
    page.get_by_role("link", name="Table mode").click()
    expect(page.locator("#tv-deal")).to_have_text("Deal 2 of 6")
    # Another phone records deal 2: the sheet's poll (every 2 s) brings it into table mode.
    deal_services.deal_record(match=match, number=2, entries={
        player.pk: {"red": 8 if index == 0 else 0}
        for index, player in enumerate(scene.players[:6])
    })
    expect(page.locator("#tv-deal")).to_have_text("Deal 3 of 6", timeout=10_000)
    expect(page.locator("#tv-turn")).to_have_text("Dora deals, Emil starts")
    expect(page.locator("#table-view")).to_be_visible()
    anna = page.locator("#table-view .tv-standings > li", has_text="Anna").locator(":last-child")
    expect(anna).to_have_text("20")  # 2 red 4s, then all 8: 2×2 + 8×2
