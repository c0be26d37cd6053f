"""Taps for one deal of every game, 4 players, in a real browser at 390×844 (issue 20).

A tap is a tap on the screen or a key on the on-screen keyboard (typing "12" into a field
is three: the field, "1", "2"); scrolling is not. Each test prints its count (``pytest -s``)
and asserts it; the checks are the ones the sheet always makes (the engine on save, the
preview before). Counts before issue 20, for the same deals: 3 sind einer zuviel! 53,
X nimmt! by counts 13 and on the card grid 22, Freaky 10, 11 nimmt! 9, 13 25.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from companion.services import matches as match_services
from tests.e2e.test_sheet_entry import Taps, save, scores, table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DREI_DEAL = {
    # Anna and Ben end with all seven colours open: each of them took an interim card.
    0: {"orange": 2, "flieder": 4, "hellblau": 1, "rot": 4, "tuerkis": 2, "magenta": 1,
        "olivgruen": 5},
    1: {"orange": 1, "flieder": 2, "hellblau": 5, "rot": 1, "tuerkis": 4, "magenta": 5,
        "olivgruen": 1},
    2: {"flieder": 5, "hellblau": 3, "tuerkis": 3, "magenta": 4, "rot": 2},
    3: {"orange": 5, "hellblau": 1, "rot": 3, "magenta": 2, "olivgruen": 3},
}
"""24 colour counts (69 cards), and two interim bonus cards: Anna's 10, Ben's 7."""


def chip(form: Locator, seat: int, field: str, value: int) -> Locator:
    return form.locator(f'.chip:has(> input[name="s{seat}-{field}"][value="{value}"])')


def test_a_3_sind_einer_zuviel_deal_takes_25_taps(live_server: Any, page: Page) -> None:
    match = table("drei-sind-einer-zuviel", page, live_server.url)
    form = page.locator("#deal-form")
    taps = Taps()
    for seat, counts in DREI_DEAL.items():
        for colour, count in counts.items():
            taps.tap(chip(form, seat, colour, count))
    # The two interim cards are filled in: both players ended with every colour open,
    # in the order they were entered; shown as filled in, and correctable.
    expect(form.locator('input[name="s0-interim_bonus"][value="10"]')).to_be_checked()
    expect(form.locator('input[name="s1-interim_bonus"][value="7"]')).to_be_checked()
    expect(form.locator('input[name="s2-interim_bonus"][value="0"]')).to_be_checked()
    expect(form.locator('.chip-panel[data-seat="0"] .chip-note')).to_contain_text(
        "all seven colours are open")
    # What the deck leaves: magenta is 1 + 5 + 4 + 2 = 12, so nobody has more left.
    expect(chip(form, 0, "magenta", 2)).to_have_class("chip over")
    expect(chip(form, 0, "magenta", 1)).to_have_class("chip")
    expect(page.locator("#deal-preview tr", has_text="Anna")).to_contain_text("30")
    save(taps, page)

    # Anna: 2 → 5, 4 → −3 + 1, 1, 4 → −3 + 1, 2 → 5, 1, 5 → −3 + 5 = 10, 7 colours open
    # +10, interim card +10.
    assert scores(match) == {"Anna": 30, "Ben": 27, "Cem": -1, "Dora": 2}
    print(f"\nTAPS 3 sind einer zuviel! 4 players: {taps.count}")
    assert taps.count == 25


def test_the_same_deal_as_open_and_face_down_cards_scores_the_same(
    live_server: Any, page: Page
) -> None:
    """The Decision: the end's counts may be totals or open and face-down cards; both
    give the same score. The interim cards are filled in from the open cards here too."""
    match = table("drei-sind-einer-zuviel", page, live_server.url)
    form = page.locator("#deal-form")
    form.get_by_role("button", name="Open/face-down").click()
    expect(form.locator('input[name="s0-orange_open"]').first).to_be_attached()
    assert_no_sideways_swipe(page)
    for seat, counts in DREI_DEAL.items():
        for colour, count in counts.items():
            if count % 3:
                chip(form, seat, f"{colour}_open", count % 3).click()
            if count >= 3:
                chip(form, seat, f"{colour}_down", count - count % 3).click()
    expect(form.locator('input[name="s0-interim_bonus"][value="10"]')).to_be_checked()
    expect(form.locator('input[name="s1-interim_bonus"][value="7"]')).to_be_checked()
    expect(form.locator('input[name="s2-interim_bonus"][value="0"]')).to_be_checked()
    save(Taps(), page)
    assert scores(match) == {"Anna": 30, "Ben": 27, "Cem": -1, "Dora": 2}


REALISTIC_DREI_DEAL = {
    # Each player takes three or four colours, up to 6 cards of one, a triple flipped in most.
    0: {"orange": 6, "rot": 5, "flieder": 4, "hellblau": 2},
    1: {"tuerkis": 6, "magenta": 5, "olivgruen": 4, "orange": 2},
    2: {"hellblau": 6, "flieder": 5, "rot": 4},
    3: {"olivgruen": 6, "tuerkis": 5, "magenta": 4},
}
"""14 colour counts, 64 of the 84 coloured cards (at least 63 are taken by 4 players)."""

NO_SIDEWAYS = """form => {
  const width = document.documentElement.clientWidth;
  const rows = Array.from(form.querySelectorAll(".chip-row"));
  const wide = rows.filter(row => row.scrollWidth > row.clientWidth + 1)
    .map(row => row.dataset.field);
  const out = Array.from(form.querySelectorAll(".chip")).filter(chip => {
    const box = chip.getBoundingClientRect();
    return box.left < 0 || box.right > width + 0.5 || box.width < 44 || box.height < 44;
  }).map(chip => chip.textContent.trim());
  return {rows: rows.length, wide, out, page: document.documentElement.scrollWidth <= width};
}"""
"""Every count button of the deal form lies on the screen, 44 px or more each way: nothing
is reached by swiping sideways (neither a row nor the page scrolls sideways)."""


def assert_no_sideways_swipe(page: Page) -> None:
    found = page.locator("#deal-form").evaluate(NO_SIDEWAYS)
    assert found["rows"] > 0 and found["wide"] == [] and found["out"] == [] and found["page"], (
        found)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_realistic_3_sind_einer_zuviel_deal_takes_15_taps_and_no_swipe(
    live_server: Any, page: Page, language: str
) -> None:
    page.set_extra_http_headers({"Accept-Language": language})
    match = table("drei-sind-einer-zuviel", page, live_server.url)
    form = page.locator("#deal-form")
    assert_no_sideways_swipe(page)  # 0 to 12 for every colour, German labels too
    taps = Taps()
    for seat, counts in REALISTIC_DREI_DEAL.items():
        for colour, count in counts.items():
            taps.tap(chip(form, seat, colour, count))
    assert page.evaluate("window.scrollX") == 0
    save(taps, page)
    # Many cards face down: 12 of Anna's 17 (−12), her open cards in four colours 11.
    assert scores(match) == {"Anna": -1, "Ben": -1, "Cem": -6, "Dora": -6}
    print(f"\nTAPS realistic 3 sind einer zuviel! 4 players: {taps.count}")
    assert taps.count == 15 <= 20


def test_an_interim_card_filled_in_can_be_given_to_the_other_player_first(
    live_server: Any, page: Page
) -> None:
    table("drei-sind-einer-zuviel", page, live_server.url)
    form = page.locator("#deal-form")
    for seat in (0, 1):
        for colour, count in DREI_DEAL[seat].items():
            chip(form, seat, colour, count).click()
    # Ben took his card first: Anna's 10 becomes a 7 in two taps, Ben's 7 a 10.
    chip(form, 1, "interim_bonus", 10).click()
    chip(form, 0, "interim_bonus", 7).click()
    expect(form.locator('input[name="s1-interim_bonus"][value="10"]')).to_be_checked()
    expect(form.locator('input[name="s0-interim_bonus"][value="7"]')).to_be_checked()
    expect(form.locator(".chip-note")).to_have_count(0)
    # A bonus tapped stays as tapped, even when the colours change (olive 6: three face down).
    chip(form, 0, "olivgruen", 6).click()
    expect(form.locator('input[name="s0-interim_bonus"][value="7"]')).to_be_checked()


def test_an_x_nimmt_deal_by_counts_takes_13_taps(live_server: Any, page: Page) -> None:
    match = table("x-nimmt", page, live_server.url)
    form = page.locator("#deal-form")
    taps = Taps()
    for name, keys in (("s0-x_stack", "2"), ("s1-hand", "8"), ("s1-x_stack", "3"),
                       ("s2-hand", "8"), ("s3-hand", "6"), ("s3-x_stack", "7")):
        taps.type(form.locator(f'input[name="{name}"]'), keys)
    save(taps, page)
    assert scores(match) == {"Anna": 4, "Ben": 14, "Cem": 8, "Dora": 20}
    print(f"\nTAPS X nimmt! 4 players, counts: {taps.count}")
    assert taps.count == 13


def test_a_freaky_deal_takes_10_taps(live_server: Any, page: Page) -> None:
    match = table("freaky", page, live_server.url)
    form = page.locator("#deal-form")
    taps = Taps()
    for seat, keys in ((0, "23"), (1, "15"), (2, "12")):
        taps.type(form.locator(f'input[name="s{seat}-collected"]'), keys)
    save(taps, page)
    assert scores(match) == {"Anna": 23, "Ben": 15, "Cem": 12, "Dora": 0}
    print(f"\nTAPS Freaky 4 players: {taps.count}")
    assert taps.count == 10


def test_an_11_nimmt_deal_takes_9_taps(live_server: Any, page: Page) -> None:
    match = table("elf-nimmt", page, live_server.url)
    form = page.locator("#deal-form")
    taps = Taps()
    taps.tap(form.locator("fieldset", has_text="Went out").get_by_text("Ben", exact=True))
    for seat, keys in ((0, "12"), (2, "5"), (3, "3")):
        taps.type(form.locator(f'input[name="s{seat}-hand"]'), keys)
    save(taps, page)
    assert scores(match) == {"Anna": 12, "Ben": 0, "Cem": 5, "Dora": 3}
    print(f"\nTAPS 11 nimmt! 4 players: {taps.count}")
    assert taps.count == 9


DREIZEHN_DEAL = {
    0: {"yellow": 5, "green": 2, "red": 1},
    1: {"yellow": 3, "blue": 6},
    2: {"green": 7, "blue": 2, "red": 2},
    3: {"yellow": 4, "green": 3, "blue": 4, "red": 1},
}
"""12 counts; 40 of the 50 cards taken."""


def test_a_13_deal_takes_13_taps(live_server: Any, page: Page) -> None:
    match = table("dreizehn", page, live_server.url)
    form = page.locator("#deal-form")
    assert_no_sideways_swipe(page)  # 0 to 14 for a colour, 0 to 8 for red
    taps = Taps()
    for seat, counts in DREIZEHN_DEAL.items():
        for colour, count in counts.items():
            taps.tap(chip(form, seat, colour, count))
    save(taps, page)
    # Anna has the most yellow (5): spared; Cem the most green (7), Ben the most blue (6).
    assert scores(match) == {"Anna": 2 + 2, "Ben": 3, "Cem": 2 + 4, "Dora": 4 + 3 + 4 + 2}
    print(f"\nTAPS 13 4 players: {taps.count}")
    assert taps.count == 13


def test_a_phone_that_saved_on_the_card_grid_opens_the_next_match_on_it(
    live_server: Any, page: Page
) -> None:
    first = table("x-nimmt", page, live_server.url)
    form = page.locator("#deal-form")
    form.get_by_role("button", name="Card grid").click()
    form.locator(".grid-players").get_by_text("Ben", exact=True).click()
    form.locator('label.gc:has(> input[name="s1-hand_cards"][value="5"])').click()
    save(Taps(), page)
    players = [seat.player for seat in first.seats.order_by("number")]
    match = match_services.match_start(group=first.group, game="x-nimmt", players=players)
    page.goto(f"{live_server.url}/g/{match.group_id}/matches/{match.pk}/")
    expect(form.locator(".grid-panel.gp-0.gk-hand_cards")).to_be_visible()  # no tap for it
    taps = Taps()

    def card(seat: int, pile: str, number: int) -> Locator:
        return form.locator(f'label.gc:has(> input[name="s{seat}-{pile}"][value="{number}"])')

    def pick(who: str | None, pile: str | None, seat: int, field: str, numbers: list[int]) -> None:
        if who:
            taps.tap(form.locator(".grid-players").get_by_text(who, exact=True))
        if pile:
            taps.tap(form.locator(".grid-piles").get_by_text(pile, exact=True))
        for number in numbers:
            taps.tap(card(seat, field, number))

    # The deal of tests/e2e/test_sheet_entry.py's card grid (22 taps with the tap on
    # "Card grid").
    pick(None, "Cards in the X-stack", 0, "x_stack_cards", [12, 47])
    pick("Ben", None, 1, "x_stack_cards", [90])
    pick(None, "Cards in hand", 1, "hand_cards", [3, 15, 66])
    pick("Cem", None, 2, "hand_cards", [8, 55])
    pick("Dora", None, 3, "hand_cards", [21, 34, 70, 81])
    pick(None, "Cards in the X-stack", 3, "x_stack_cards", [5, 33])
    save(taps, page)
    assert scores(match) == {"Anna": 4, "Ben": 14, "Cem": 8, "Dora": 20}
    print(f"\nTAPS X nimmt! 4 players, card grid, the phone's mode: {taps.count}")
    assert taps.count == 21
