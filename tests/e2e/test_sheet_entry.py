"""Recording a deal with few taps, in a real browser at 390×844: the card grid, the
score preview before saving, the 3 sind einer zuviel! count form, and a table
helper's result taken over into the deal form.

Taps are counted as a phone user makes them: a tap on the screen, or a key on
the on-screen keyboard (typing "12" is two taps). Each test prints its count
(``pytest -s``); the asserted numbers are the counts for these deals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from companion.models import Deal, DealScore, Group, Match, Membership, Player
from companion.services import matches as match_services
from tests.e2e.scenes import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Anna", "Ben", "Cem", "Dora")


@dataclass
class Taps:
    count: int = 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.count += 1

    def type(self, field: Locator, keys: str) -> None:
        """Tap the field, then one tap per key."""
        field.click()
        field.press_sequentially(keys)
        self.count += 1 + len(keys)

    def choose(self, select: Locator, label: str) -> None:
        """A select: one tap opens it, one tap picks the option."""
        select.select_option(label=label)
        self.count += 2


def table(game: str, page: Page, base_url: str, players: int = 4, **options: Any) -> Match:
    user = User.objects.create_user("anna", password="kartenrunde-anna-1")
    group = Group.objects.create(name="Donnerstagsgruppe", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    seated = [Player.objects.create(group=group, name=name) for name in NAMES[:players]]
    match = match_services.match_start(group=group, game=game, players=seated, **options)
    log_in(page, base_url, user)
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{base_url}/g/{group.pk}/matches/{match.pk}/")
    return match


def scores(match: Match) -> dict[str, int]:
    return {s.player.name: s.score for s in DealScore.objects.filter(deal__match=match)}


def save(taps: Taps, page: Page) -> None:
    taps.tap(page.locator("#deal-form").get_by_role("button", name="Save deal"))
    expect(page.locator("#deal-1")).to_be_visible()


def test_an_x_nimmt_deal_on_the_card_grid(live_server: Any, page: Page) -> None:
    match = table("x-nimmt", page, live_server.url)
    taps = Taps()
    form = page.locator("#deal-form")
    taps.tap(form.get_by_role("button", name="Card grid"))
    expect(form.locator(".grid-panel.gp-0.gk-hand_cards")).to_be_visible()

    def card(seat: int, pile: str, number: int) -> Locator:
        return form.locator(f'label.gc:has(> input[name="s{seat}-{pile}"][value="{number}"])')

    def pick(who: str | None, pile: str | None, seat: int, field: str, numbers: list[int]) -> None:
        if who:
            taps.tap(form.locator(".grid-players").get_by_text(who, exact=True))
        if pile:
            taps.tap(form.locator(".grid-piles").get_by_text(pile, exact=True))
        for number in numbers:
            taps.tap(card(seat, field, number))

    # Anna went out (no hand cards) with 12 and 47 in her X-stack; the grid opens on her hand.
    pick(None, "Cards in the X-stack", 0, "x_stack_cards", [12, 47])
    pick("Ben", None, 1, "x_stack_cards", [90])
    pick(None, "Cards in hand", 1, "hand_cards", [3, 15, 66])
    # Ben's 66 is greyed out and locked on the others' grids.
    expect(card(2, "hand_cards", 66)).to_have_class(re.compile(r"\btaken\b"))
    expect(form.locator('input[name="s2-hand_cards"][value="66"]')).to_be_disabled()
    pick("Cem", None, 2, "hand_cards", [8, 55])
    pick("Dora", None, 3, "hand_cards", [21, 34, 70, 81])
    pick(None, "Cards in the X-stack", 3, "x_stack_cards", [5, 33])
    # The preview is there before saving: Dora 6 + 2 × 7 = 20.
    expect(page.locator("#deal-preview")).to_contain_text("Dora")
    expect(page.locator("#deal-preview tr", has_text="Dora")).to_contain_text("20")
    save(taps, page)

    assert scores(match) == {"Anna": 4, "Ben": 14, "Cem": 8, "Dora": 20}
    # In the sheet swapped in after saving, Dora's 20 says why it is 20.
    page.locator("#deal-1 .why > summary").nth(3).click()
    why = page.locator("#deal-1 .why[open] .why-body")
    expect(why).to_be_visible()
    expect(why).to_contain_text("6 Hornochsen in hand")
    expect(why).to_contain_text("2 × 7 Hornochsen in the X-stack")
    expect(why).to_contain_text("5 (2), 33 (5)")
    print(f"\nTAPS X nimmt! 4 players, card grid: {taps.count}")
    assert taps.count == 22


def test_an_x_nimmt_deal_by_counts_with_the_preview_before_saving(
    live_server: Any, page: Page
) -> None:
    match = table("x-nimmt", page, live_server.url)
    taps = Taps()
    form = page.locator("#deal-form")
    # The same deal as on the card grid, as Hornochsen counted by the players.
    taps.type(form.locator('input[name="s0-x_stack"]'), "2")
    taps.type(form.locator('input[name="s1-hand"]'), "8")
    taps.type(form.locator('input[name="s1-x_stack"]'), "3")
    taps.type(form.locator('input[name="s2-hand"]'), "8")
    taps.type(form.locator('input[name="s3-hand"]'), "6")
    taps.type(form.locator('input[name="s3-x_stack"]'), "7")
    preview = page.locator("#deal-preview")
    expect(preview.locator("tr", has_text="Dora")).to_contain_text("20")
    expect(preview.locator("tr", has_text="Anna")).to_contain_text("4")
    assert not Deal.objects.filter(match=match).exists()  # shown before anything is saved
    save(taps, page)

    assert scores(match) == {"Anna": 4, "Ben": 14, "Cem": 8, "Dora": 20}
    print(f"\nTAPS X nimmt! 4 players, counts: {taps.count}")
    assert taps.count == 13


def test_a_3_sind_einer_zuviel_deal_as_a_table_fits_two_screens_with_every_name_whole(
    live_server: Any, page: Page
) -> None:
    match = table("drei-sind-einer-zuviel", page, live_server.url)
    Player.objects.filter(name="Dora").update(name="Daniela")  # was cut to "Da…" at 390 px
    page.reload()
    form = page.locator("#deal-form")
    form.get_by_role("button", name="Table").click()
    expect(form.locator(".colour-table")).to_be_visible()
    expect(form).to_contain_text("all cards of the colour, the open ones and the face-down ones")
    height = form.bounding_box()["height"]  # type: ignore[index]
    print(f"\n3 sind einer zuviel! count table, 4 players: {height:.0f} px high (screen 844)")
    assert height <= 2 * 844
    heads = form.locator(".colour-table thead th")
    assert heads.all_inner_texts()[1:] == ["Anna", "Ben", "Cem", "Daniela"]
    cut = form.locator(".colour-table thead th").evaluate_all(
        "heads => heads.filter(h => h.scrollWidth > h.clientWidth).map(h => h.textContent)")
    assert cut == []
    taps = Taps()
    takes = {
        0: {"orange": "2", "flieder": "1", "hellblau": "1", "rot": "4", "tuerkis": "2",
            "magenta": "1", "olivgruen": "3"},
        1: {"orange": "1", "rot": "2", "magenta": "5", "olivgruen": "1"},
        2: {"flieder": "4", "hellblau": "2", "tuerkis": "1"},
        3: {"orange": "3", "hellblau": "1", "rot": "1", "magenta": "2", "olivgruen": "2"},
    }
    for seat, colours in takes.items():
        for colour, count in colours.items():
            taps.type(form.locator(f'input[name="s{seat}-{colour}"]'), count)
    taps.choose(form.locator('select[name="s0-interim_bonus"]'), "10")
    expect(page.locator("#deal-preview tr", has_text="Anna")).to_contain_text("23")
    save(taps, page)

    # Anna: 5 + 1 + 1 + (1 − 3) + 5 + 1 − 3 = 8, six colours open +5, Zwischenwertung +10.
    assert scores(match) == {"Anna": 23, "Ben": 9, "Cem": 4, "Daniela": 9}
    print(f"\nTAPS 3 sind einer zuviel! 4 players, as a table: {taps.count}")
    assert taps.count == 41


def test_the_target_helpers_tally_goes_into_the_deal_form_with_one_tap(
    live_server: Any, page: Page
) -> None:
    match = table("dreizehn", page, live_server.url, players=3)
    page.get_by_role("link", name="Target totals").click()
    expect(page).to_have_url(re.compile(r"/tools/targets/\?players=Anna%2CBen%2CCem"))
    tool = page.locator("#tool")

    def play(who: str, target: str, card: str) -> None:
        tool.locator("fieldset", has_text="Who plays?").get_by_text(who, exact=True).click()
        tool.locator("fieldset", has_text="On which target?").get_by_text(
            target, exact=True).click()
        tool.locator("fieldset", has_text="Which card?").get_by_text(card, exact=True).click()
        tool.get_by_role("button", name="Play the card").click()

    # Yellow target: 7 + 5 = 12, Cem's 2 makes 14 > 13: Cem takes the 7 and the 5;
    # then 2 + 7 = 9 and Ben's 5 makes 14: Ben takes the 2 and the 7.
    for who, card in (("Anna", "7"), ("Ben", "5"), ("Cem", "2"), ("Anna", "7"), ("Ben", "5")):
        play(who, "yellow", card)
    expect(tool.locator(".tally tbody tr", has_text="Ben")).to_contain_text("2")
    page.get_by_role("link", name="Take over into the score sheet").click()

    form = page.locator("#deal-form")
    expect(form.locator('input[name="s1-yellow"][value="2"]')).to_be_checked()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/(#deal-form)?$"))  # no ?s1-yellow
    expect(form.locator('input[name="s2-yellow"][value="2"]')).to_be_checked()
    expect(form.locator('input[name="s0-yellow"][value="0"]')).to_be_checked()
    # Ben and Cem tie for the most yellow: nobody is spared, both pay 2.
    expect(page.locator("#deal-preview tr", has_text="Cem")).to_contain_text("2")
    save(Taps(), page)
    assert scores(match) == {"Anna": 0, "Ben": 2, "Cem": 2}


def test_offline_the_preview_stays_quiet_and_queues_nothing(live_server: Any, page: Page) -> None:
    match = table("x-nimmt", page, live_server.url)
    form = page.locator("#deal-form")
    form.locator('input[name="s1-hand"]').fill("8")
    expect(page.locator("#deal-preview tr", has_text="Ben")).to_contain_text("8")
    page.context.set_offline(True)
    form.locator('input[name="s2-hand"]').fill("5")
    expect(page.locator(".deal-preview-box")).to_have_text(
        "No preview right now: the server cannot be reached.")
    # Typing offline is not a save: the form keeps what was typed and nothing is queued.
    expect(form.locator('input[name="s1-hand"]')).to_have_value("8")
    expect(form.locator('input[name="s2-hand"]')).to_have_value("5")
    queued = page.evaluate(f"localStorage.getItem('kartenrunde:queue:{match.pk}') || '[]'")
    assert queued == "[]"
    page.context.set_offline(False)
    form.locator('input[name="s3-hand"]').fill("2")
    expect(page.locator("#deal-preview tr", has_text="Dora")).to_contain_text("2")
    assert not Deal.objects.filter(match=match).exists()


def test_the_card_grid_works_without_javascript(live_server: Any, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False,
                                  viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        match = table("elf-nimmt", page, live_server.url, players=3)
        form = page.locator("#deal-form")
        form.get_by_role("button", name="Card grid").click()
        form.locator("fieldset", has_text="Went out").get_by_text("Ben", exact=True).click()
        form.locator('label.gc:has(> input[name="s0-hand_cards"][value="55"])').click()
        form.locator('label.gc:has(> input[name="s0-hand_cards"][value="10"])').click()
        form.locator(".grid-players").get_by_text("Cem", exact=True).click()
        expect(form.locator(".grid-panel.gp-2")).to_be_visible()
        expect(form.locator(".grid-panel.gp-0")).to_be_hidden()
        form.locator('label.gc:has(> input[name="s2-hand_cards"][value="1"])').click()
        form.get_by_role("button", name="Save deal").click()
        expect(page.locator("#deal-1")).to_be_visible()
        assert scores(match) == {"Anna": 10, "Ben": 0, "Cem": 1}
    finally:
        context.close()
