"""The table flow in a real browser at 390×844: correcting a deal of a complete and of a
reopened match in every game, undo → redo, the rematch, abandoning a match."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from companion.models import DealScore, Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services import sheet as sheet_services
from tests.e2e.scenes import enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/shots/flow"


def sheet_url(live_server: Any, match: Match) -> str:
    return f"{live_server.url}/g/{match.group_id}/matches/{match.pk}/"


# Per game: one deal's entries for Anna, Ben, Cem, and the field that corrects Anna's.
GAMES = {
    "drei-sind-einer-zuviel": ([{"taken": {"rot": 1}}, {}, {}], "s0-rot", "2"),
    "x-nimmt": ([{"hand": 5}, {"hand": 1}, {}], "s0-hand", "6"),
    "freaky": ([{"collected": 5}, {}, {}], "s0-collected", "6"),
    "elf-nimmt": ([{"hand": 5}, {"went_out": True}, {"hand": 2}], "s0-hand", "6"),
    "dreizehn": ([{"red": 1}, {}, {}], "s0-red", "2"),
}


def correct_deal_1(page: Page, field: str, value: str) -> None:
    page.locator("#deal-1 .deal-edit").click()
    form = page.locator("#deal-form")
    expect(form.locator("h2")).to_have_text("Correct deal 1")
    enter(form, field, value)
    form.get_by_role("button", name="Save correction").click()
    expect(page.locator("#notice")).to_contain_text("Deal 1 corrected.")
    expect(page.locator("#notice")).to_have_class(re.compile("alert-success"))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_deal_of_a_complete_and_of_a_reopened_match_can_be_corrected(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User], game: str
) -> None:
    group, players, anna = annas_table
    datas, field, value = GAMES[game]
    match = match_services.match_start(group=group, game=game, players=players, user=anna)
    for number in range(1, sheet_services.deals_needed(match, 3) + 1):
        deal_services.deal_record(
            match=match, number=number,
            entries={p.pk: d for p, d in zip(players, datas, strict=True)},
        )
    page.goto(sheet_url(live_server, match))
    expect(page.locator("#deal-form")).to_have_count(0)  # complete: no next deal's form
    correct_deal_1(page, field, value)
    assert anna_value(match, players[0], field) == value

    page.get_by_role("button", name="All deals recorded: finish the match").click()
    expect(page.locator("#winners")).to_be_visible()
    page.get_by_role("button", name="Reopen to correct").click()
    expect(page.locator("#notice")).to_contain_text("Match reopened")
    correct_deal_1(page, field, str(int(value) + 1))
    assert anna_value(match, players[0], field) == str(int(value) + 1)


def anna_value(match: Match, anna: Player, field: str) -> str:
    """What deal 1 holds for Anna in the form field ``field`` (e.g. ``s0-rot``)."""
    data = DealScore.objects.get(deal__match=match, deal__number=1, player=anna).data
    key = field.split("-", 1)[1]
    return str(data.get(key, data.get("taken", {}).get(key)))


def test_undo_asks_in_place_and_redo_brings_the_deal_back(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User]
) -> None:
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    page.goto(sheet_url(live_server, match))
    form = page.locator("#deal-form form")
    form.locator('input[name="s0-hand"]').fill("5")
    form.get_by_role("button", name="Save deal").click()
    expect(page.locator("#notice")).to_contain_text("Deal 1 saved. Scores: Anna 5, Ben 0, Cem 0.")
    expect(page.locator("#deal-1")).to_have_class(re.compile("saved-row"))

    page.locator("#undo summary").click()
    confirm = page.locator("#undo").get_by_role("button", name="Yes, undo")
    expect(confirm).to_be_visible()
    page.screenshot(path=f"{SHOTS}/e2e-undo-confirm-en-light.png")
    confirm.click()
    expect(page.locator("#notice")).to_contain_text("Undone: recorded deal 1.")
    expect(page.locator("#deal-1")).to_have_count(0)
    page.locator("#redo").get_by_role("button").click()
    expect(page.locator("#notice")).to_contain_text("Redone: recorded deal 1.")
    expect(page.locator("#deal-1")).to_be_visible()
    assert [s.total for s in match.seats.order_by("number")] == [5, 0, 0]
    # The undo and the redo are in the log, as entries of their own.
    assert list(match.changes.order_by("id").values_list("kind", flat=True)) == [
        "record", "undo", "redo"]


def test_a_rematch_is_one_tap_from_the_finished_match(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User]
) -> None:
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="freaky", players=players, user=anna)
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"collected": 5}, players[1].pk: {}, players[2].pk: {}})
    match_services.match_finish(match=match)
    page.goto(sheet_url(live_server, match))
    expect(page.locator("#rematch")).to_contain_text("Seats: Ben, Cem, Anna. Ben starts")
    page.screenshot(path=f"{SHOTS}/e2e-rematch-en-light.png")
    page.get_by_role("button", name="Rematch").click()
    new = Match.objects.exclude(pk=match.pk).get()
    expect(page).to_have_url(sheet_url(live_server, new))
    expect(page.locator("#messages")).to_contain_text("Rematch started.")
    assert list(new.seats.values_list("player__name", flat=True)) == ["Ben", "Cem", "Anna"]
    assert new.created_by == anna


def test_a_running_match_is_abandoned_after_a_yes(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User]
) -> None:
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    page.goto(sheet_url(live_server, match))
    page.locator("#abandon summary").click()
    page.screenshot(path=f"{SHOTS}/e2e-abandon-confirm-en-light.png", full_page=True)
    page.locator("#abandon").get_by_role("button", name="Yes, abandon").click()
    expect(page.locator("#notice")).to_contain_text("Match abandoned.")
    expect(page.locator("#sheet .badge")).to_have_text("abandoned")
    expect(page.locator("#deal-form")).to_have_count(0)
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert match.changes.get().kind == "abandon"


def test_switching_the_entry_mode_keeps_what_was_typed(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User]
) -> None:
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    page.goto(sheet_url(live_server, match))
    form = page.locator("#deal-form form")
    form.locator('input[name="s0-hand"]').fill("4")
    form.get_by_role("button", name="Card numbers").click()
    expect(page.locator('input[name="s1-hand_cards"]')).to_be_visible()
    page.locator('input[name="s1-hand_cards"]').fill("55, 10")
    page.locator("#deal-form").get_by_role("button", name="Hornochsen").click()
    # Anna's count came along hidden; Ben's cards became 7 + 3 Hornochsen.
    expect(page.locator('input[name="s0-hand"]')).to_have_value("4")
    expect(page.locator('input[name="s1-hand"]')).to_have_value("10")
    assert not match.deals.exists()


def test_after_saving_a_long_form_the_saved_message_and_standings_are_in_view(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User]
) -> None:
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="dreizehn", players=players, user=anna)
    page.goto(sheet_url(live_server, match))
    form = page.locator("#deal-form form")
    enter(form, "s2-red", "1")
    save = form.get_by_role("button", name="Save deal")
    save.scroll_into_view_if_needed()
    save.click()
    notice = page.locator("#notice")
    expect(notice).to_contain_text("Deal 1 saved. Scores: Anna 0, Ben 0, Cem 2.")
    expect(notice).to_be_focused()
    expect(notice).to_be_in_viewport()
    expect(page.locator("#standings")).to_be_in_viewport()
    expect(page.locator("#progress")).to_contain_text("Ben deals, Cem starts")
    expect(page.locator("#progress")).to_be_in_viewport()
