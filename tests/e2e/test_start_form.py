"""The start form shows as many seat pickers as the chosen game has players at most
(issue 20: seven pickers for a game of 2–4), and keeps a filled-in one in view."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring import GAMES
from tests.e2e.test_sheet_entry import table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_start_form_offers_the_chosen_games_seats(live_server: Any, page: Page) -> None:
    match = table("x-nimmt", page, live_server.url)
    page.goto(f"{live_server.url}/g/{match.group_id}/matches/new/")
    seats = page.locator('select[name^="seat_"]')
    for slug, info in GAMES.items():
        page.locator(f'input[name="game"][value="{slug}"]').check()
        visible = [seat.is_visible() for seat in seats.all()]
        assert sum(visible) == info.max_players, slug
        assert visible == sorted(visible, reverse=True)  # seat 1 on, without gaps
    # A fifth player chosen for 11 nimmt! stays in view when X nimmt! (2–4) is chosen:
    # the form says why there are too many.
    page.locator('input[name="game"][value="elf-nimmt"]').check()
    page.locator('select[name="seat_4"]').select_option(label="Anna")
    page.locator('input[name="game"][value="x-nimmt"]').check()
    expect(page.locator('select[name="seat_4"]')).to_be_visible()
    expect(page.locator('select[name="seat_5"]')).to_be_hidden()
