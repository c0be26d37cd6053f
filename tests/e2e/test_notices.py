"""What the sheet says stays true (issue 20, defects 4 and 5): a match deleted on another
phone is reported by the next poll with a way on, and a notice lasts until the next
action, no longer (nor does "the server cannot be reached" once it answers again)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from companion.models import Group, Match, Membership, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from tests.e2e.scenes import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def table(page: Page, base_url: str, game: str = "x-nimmt") -> tuple[Match, list[Player], User]:
    user = User.objects.create_user("anna", password="kartenrunde-anna-1")
    group = Group.objects.create(name="Donnerstagsgruppe", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    players = [Player.objects.create(group=group, name=name) for name in ("Anna", "Ben", "Cem")]
    match = match_services.match_start(group=group, game=game, players=players, user=user)
    log_in(page, base_url, user)
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{base_url}/g/{group.pk}/matches/{match.pk}/")
    return match, players, user


@pytest.mark.script_errors(
    r"status of 410 \(Gone\)",
    reason="the match is deleted on another phone: the poll is answered 410 (the browser "
           "logs it), and the notice it brings is what is tested")
def test_a_match_deleted_on_another_phone_is_reported_by_the_next_poll(
    live_server: Any, page: Page
) -> None:
    match, _players, user = table(page, live_server.url)
    expect(page.locator(".badge", has_text="running")).to_be_visible()
    group_id = match.group_id
    match_services.match_delete(match=match, user=user)  # on the other phone
    notice = page.locator("#notice")
    expect(notice).to_have_text(
        "This match was deleted on another phone. Nothing more can be recorded in it.")
    expect(page.get_by_text("running")).to_have_count(0)
    page.get_by_role("link", name="To Donnerstagsgruppe").last.click()
    expect(page).to_have_url(f"{live_server.url}/g/{group_id}/")


def test_a_notice_lasts_until_the_next_action(live_server: Any, page: Page) -> None:
    match, players, _user = table(page, live_server.url, game="freaky")
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"collected": 12}, players[1].pk: {"collected": 8},
        players[2].pk: {"collected": 4}})
    match_services.match_finish(match=match)
    page.reload()
    page.get_by_role("button", name="Rematch").click()
    expect(page.locator("#messages")).to_contain_text("Rematch started.")
    page.locator("#abandon > summary").click()
    page.get_by_role("button", name="Yes, abandon").click()
    expect(page.locator("#notice")).to_contain_text("Match abandoned.")
    expect(page.get_by_text("Rematch started.")).to_have_count(0)


def test_the_preview_is_asked_again_when_the_server_answers_again(
    live_server: Any, page: Page
) -> None:
    table(page, live_server.url)
    form = page.locator("#deal-form")
    form.locator('input[name="s1-hand"]').fill("8")
    expect(page.locator("#deal-preview tr", has_text="Ben")).to_contain_text("8")
    page.context.set_offline(True)
    form.locator('input[name="s0-x_stack"]').fill("5")
    box = page.locator(".deal-preview-box")
    expect(box).to_have_text("No preview right now: the server cannot be reached.")
    page.context.set_offline(False)  # nothing typed since: the preview comes by itself
    expect(box).not_to_contain_text("cannot be reached")
    expect(page.locator("#deal-preview tr", has_text="Anna")).to_contain_text("10")
