"""6 nimmt! at the table, in a real browser on a phone (390×844): a whole 4-player match
to 66 with every total checked by hand, and a 10-player deal in few taps by counts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from companion.models import DealScore, Group, Match, Membership, Player
from companion.services import matches as match_services
from tests.e2e.scenes import log_in
from tests.e2e.test_sheet_entry import Taps

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Anna", "Ben", "Cem", "Dora", "Emil", "Fritzi", "Gabi", "Hans", "Ida", "Jan")


def sechs_nimmt_table(page: Page, base_url: str, players: int) -> Match:
    user = User.objects.create_user("anna", password="kartenrunde-anna-1")
    group = Group.objects.create(name="Donnerstagsgruppe", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    seated = [Player.objects.create(group=group, name=name) for name in NAMES[:players]]
    match = match_services.match_start(group=group, game="sechs-nimmt", players=seated)
    log_in(page, base_url, user)
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{base_url}/g/{group.pk}/matches/{match.pk}/")
    return match


def standings(page: Page) -> Locator:
    return page.locator("#standings li")


def expect_standings(page: Page, rows: list[tuple[str, int]]) -> None:
    """The standings in order, each name with its total (fewest first)."""
    expect(standings(page)).to_have_count(len(rows))
    for index, (name, total) in enumerate(rows):
        row = standings(page).nth(index)
        expect(row.locator("b")).to_contain_text(name)
        expect(row.locator("span").last).to_have_text(str(total))


def fill_and_save(page: Page, values: dict[str, str], number: int) -> None:
    form = page.locator("#deal-form form")
    for name, value in values.items():
        form.locator(f'input[name="{name}"]').fill(value)
    form.get_by_role("button", name="Save deal").click()
    expect(page.locator(f"#deal-{number}")).to_be_visible()


def test_a_whole_4_player_match_to_66_on_a_phone(live_server: Any, page: Page) -> None:
    match = sechs_nimmt_table(page, live_server.url, 4)
    expect(page.locator("#deal-form h2")).to_have_text("Deal 1")

    # Deal 1 by counts: 12, 3, 20, 8.
    fill_and_save(page, {"s0-hornochsen": "12", "s1-hornochsen": "3", "s2-hornochsen": "20",
                         "s3-hornochsen": "8"}, 1)
    expect_standings(page, [("Ben", 3), ("Dora", 8), ("Anna", 12), ("Cem", 20)])
    expect(page.locator("#progress")).to_contain_text("1 deal recorded")

    # Deal 2 by card numbers: Anna 55 (7) + 10 (3) = 10 → 22; Ben 11, 22, 33 (5 each)
    # = 15 → 18; Cem 104 (1) → 21; Dora nothing → 8.
    page.locator("#deal-form").get_by_role("button", name="Card numbers").click()
    expect(page.locator('input[name="s0-cards"]')).to_be_visible()
    fill_and_save(page, {"s0-cards": "55, 10", "s1-cards": "11 22 33", "s2-cards": "104"}, 2)
    expect_standings(page, [("Dora", 8), ("Ben", 18), ("Cem", 21), ("Anna", 22)])

    # Deal 3 by counts: 30, 9, 40, 2 → 52, 27, 61, 10: nobody has 66 yet.
    page.locator("#deal-form").get_by_role("button", name="Hornochsen count").click()
    expect(page.locator('input[name="s0-hornochsen"]')).to_be_visible()
    fill_and_save(page, {"s0-hornochsen": "30", "s1-hornochsen": "9", "s2-hornochsen": "40",
                         "s3-hornochsen": "2"}, 3)
    expect_standings(page, [("Dora", 10), ("Ben", 27), ("Anna", 52), ("Cem", 61)])
    expect(page.locator("#deal-form h2")).to_have_text("Deal 4")

    # Deal 4: 14, 11, 4, 0 → Anna reaches 66 exactly (Cem 65 does not): the match is over.
    fill_and_save(page, {"s0-hornochsen": "14", "s1-hornochsen": "11", "s2-hornochsen": "4"}, 4)
    expect_standings(page, [("Dora", 10), ("Ben", 38), ("Cem", 65), ("Anna", 66)])
    finish = page.get_by_role("button", name="All deals recorded: finish the match")
    expect(finish).to_be_visible()
    expect(page.locator("#deal-form form")).to_have_count(0)
    finish.click()
    expect(page.locator("#winners")).to_contain_text("Winner: Dora")

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert [(s.player.name, s.total, s.place, s.is_winner)
            for s in match.seats.order_by("number")] == [
        ("Anna", 66, 4, False), ("Ben", 38, 2, False), ("Cem", 65, 3, False),
        ("Dora", 10, 1, True),
    ]
    per_deal = [[s.score for s in DealScore.objects.filter(deal__match=match, deal__number=n)
                 .order_by("player__name")] for n in range(1, 5)]
    assert per_deal == [[12, 3, 20, 8], [10, 15, 1, 0], [30, 9, 40, 2], [14, 11, 4, 0]]


def test_a_10_player_deal_by_counts_takes_at_most_25_taps(live_server: Any, page: Page) -> None:
    match = sechs_nimmt_table(page, live_server.url, 10)
    form = page.locator("#deal-form")
    taps = Taps()
    # Seven of the ten took cards; three took none (their 0 is the empty field).
    for seat, keys in ((0, "12"), (1, "5"), (2, "23"), (3, "7"), (5, "9"), (6, "31"),
                       (8, "3")):
        taps.type(form.locator(f'input[name="s{seat}-hornochsen"]'), keys)
    taps.tap(form.get_by_role("button", name="Save deal"))
    expect(page.locator("#deal-1")).to_be_visible()
    assert {s.player.name: s.score for s in DealScore.objects.filter(deal__match=match)} == {
        "Anna": 12, "Ben": 5, "Cem": 23, "Dora": 7, "Emil": 0, "Fritzi": 9, "Gabi": 31,
        "Hans": 0, "Ida": 3, "Jan": 0,
    }
    expect(page.locator("#deal-form h2")).to_have_text(re.compile("Deal 2"))
    print(f"\nTAPS 6 nimmt! 10 players, counts: {taps.count}")
    assert taps.count == 18 <= 25  # 7 fields, 10 digits, Save


def test_the_start_form_shows_the_6_nimmt_options_only_for_6_nimmt(
    live_server: Any, page: Page,
) -> None:
    match = sechs_nimmt_table(page, live_server.url, 2)
    page.goto(f"{live_server.url}/g/{match.group_id}/matches/new/")
    target = page.locator('input[name="sechs_nimmt-target"]')
    page.locator('input[name="game"][value="x-nimmt"]').check()
    expect(target).to_be_hidden()
    page.locator('input[name="game"][value="sechs-nimmt"]').check()
    expect(target).to_be_visible()
    expect(target).to_have_value("66")
    target.fill("100")
    page.locator('input[name="sechs_nimmt-profi"]').check()
    page.locator('select[name="seat_0"]').select_option(label="Anna")
    page.locator('select[name="seat_1"]').select_option(label="Ben")
    page.get_by_role("button", name="Start match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("#deal-form h2")).to_have_text("Deal 1")
    started = Match.objects.exclude(pk=match.pk).get()
    assert (started.game, started.options) == ("sechs-nimmt", {"target": 100, "profi": True})
