"""A whole evening in a real browser: sign up, create a group with three players,
record a complete X nimmt! match (two deals) and see the right winner."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from companion.models import Match
from tests.e2e.conftest import EXTERNAL_URL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fill_deal(page: Page, values: dict[str, str]) -> None:
    form = page.locator("#deal-form form")
    for name, value in values.items():
        form.locator(f'input[name="{name}"]').fill(value)
    form.get_by_role("button", name=re.compile("Save deal|Durchgang speichern")).click()


def test_a_group_records_a_complete_x_nimmt_match_and_sees_the_winner(
    app_url: str, page: Page
) -> None:
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(app_url + "/accounts/signup/")
    page.locator('input[name="username"]').fill("erika")
    page.locator('input[name="password1"]').fill("kartenrunde-erika-1")
    page.locator('input[name="password2"]').fill("kartenrunde-erika-1")
    page.locator("main form").get_by_role("button").click()

    expect(page).to_have_url(re.compile(r"/groups/new/$"))
    page.locator('input[name="name"]').fill("Freitagsrunde")
    page.locator('textarea[name="players"]').fill("Ben\nCem")
    page.locator("main form").get_by_role("button").click()
    expect(page).to_have_url(re.compile(r"/g/\d+/$"))

    page.get_by_role("link", name=re.compile("New match|Neue Partie")).first.click()
    expect(page).to_have_url(re.compile(r"/matches/new/$"))
    page.get_by_label("X nimmt!").check()
    page.locator('select[name="seat_0"]').select_option(label="erika")
    page.locator('select[name="seat_1"]').select_option(label="Ben")
    page.locator('select[name="seat_2"]').select_option(label="Cem")
    page.locator('select[name="seat_3"]').select_option(label="—")
    page.get_by_role("button", name="Start match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("#deal-form h2")).to_have_text("Deal 1")

    page.evaluate("window.stillTheSamePage = true")
    # Deal 1: erika 5 in hand and 9 in the X-stack (5 + 2×9 = 23), Ben 3, Cem went out
    # with 2 in the X-stack (2×2 = 4).
    fill_deal(page, {"s0-hand": "5", "s0-x_stack": "9", "s1-hand": "3", "s2-x_stack": "2"})
    expect(page.locator("#deal-form h2")).to_have_text("Deal 2")  # swapped in place by htmx
    expect(page.locator("#deal-1")).to_be_visible()
    assert page.evaluate("window.stillTheSamePage === true")

    # Deal 2 by card numbers: erika holds 55 (7), Ben 10 (3) and 20 (3), Cem went out
    # and has 22 (5) in the X-stack → erika 23 + 7 = 30, Ben 3 + 6 = 9, Cem 4 + 10 = 14.
    page.locator("#deal-form").get_by_role("button", name="Card numbers").click()
    expect(page.locator('input[name="s0-hand_cards"]')).to_be_visible()
    fill_deal(page, {"s0-hand_cards": "55", "s1-hand_cards": "10, 20",
                     "s2-x_stack_cards": "22"})

    finish = page.get_by_role("button", name="All deals recorded: finish the match")
    expect(finish).to_be_visible()
    standings = page.locator("#standings li")
    expect(standings.nth(0)).to_contain_text("Ben")
    expect(standings.nth(0)).to_contain_text("9")
    expect(standings.nth(1)).to_contain_text("Cem")
    expect(standings.nth(1)).to_contain_text("14")
    expect(standings.nth(2)).to_contain_text("erika")
    expect(standings.nth(2)).to_contain_text("30")
    finish.click()

    expect(page.locator("#winners")).to_contain_text("Winner: Ben")
    if EXTERNAL_URL:
        return  # the server's database is not the test database; the page said it all
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED
    assert [(s.player.name, s.total, s.place, s.is_winner) for s in match.seats.all()] == [
        ("erika", 30, 3, False), ("Ben", 9, 1, True), ("Cem", 14, 2, False),
    ]
