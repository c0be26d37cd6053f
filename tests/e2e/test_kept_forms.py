"""A deal form another phone's save takes away (issue 20, defect 1): nothing typed, or
exactly what the other phone saved, is no error; other entries are kept as an error card
that offers "as the next deal" only while the match takes another deal."""

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


def freaky(page: Page, base_url: str) -> tuple[Match, list[Player]]:
    """A Freaky match (one deal: the first deal is the last) open on this phone, in English."""
    user = User.objects.create_user("anna", password="kartenrunde-anna-1")
    group = Group.objects.create(name="Donnerstagsgruppe", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    players = [Player.objects.create(group=group, name=name) for name in ("Anna", "Ben", "Cem")]
    match = match_services.match_start(group=group, game="freaky", players=players)
    log_in(page, base_url, user)
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{base_url}/g/{group.pk}/matches/{match.pk}/")
    return match, players


def saved_elsewhere(match: Match, players: list[Player], *collected: int) -> None:
    """Phone A saves the match's last deal."""
    deal_services.deal_record(match=match, number=1, entries={
        player.pk: {"collected": n} for player, n in zip(players, collected, strict=True)})


def queue(page: Page, match: Match) -> str:
    return str(page.evaluate(f"localStorage.getItem('kartenrunde:queue:{match.pk}') || '[]'"))


def test_a_form_typed_into_and_emptied_again_leaves_no_error_card(
    live_server: Any, page: Page
) -> None:
    match, players = freaky(page, live_server.url)
    field = page.locator('#deal-form input[name="s1-collected"]')
    field.fill("5")
    field.fill("")  # deleted again: nothing typed, but the form was used
    page.locator("body").click()
    saved_elsewhere(match, players, 12, 8, 4)
    expect(page.locator("#standings")).to_contain_text("12")  # the poll brought the deal
    expect(page.locator("#deal-form")).to_have_count(0)
    page.wait_for_timeout(1500)
    expect(page.locator(".queue-row")).to_have_count(0)
    assert queue(page, match) == "[]"
    page.reload()  # and it does not come back with the finished match
    expect(page.locator(".queue-row")).to_have_count(0)


def test_what_the_other_phone_saved_typed_here_too_is_no_error(
    live_server: Any, page: Page
) -> None:
    match, players = freaky(page, live_server.url)
    form = page.locator("#deal-form")
    for seat, value in enumerate(("12", "8", "4")):
        form.locator(f'input[name="s{seat}-collected"]').fill(value)
    saved_elsewhere(match, players, 12, 8, 4)
    expect(page.locator("#net-toast")).to_contain_text(
        "Deal 1 was saved on another phone with exactly these entries")
    expect(page.locator(".queue-row")).to_have_count(0)
    assert queue(page, match) == "[]"


@pytest.mark.script_errors(
    r"status of 409 \(Conflict\).*/deals/new/",
    reason="the save of a deal the other phone made unnecessary is refused with 409 (the "
           "browser logs every refused request); what the page then keeps is tested")
def test_other_entries_are_kept_but_a_complete_match_offers_no_next_deal(
    live_server: Any, page: Page
) -> None:
    match, players = freaky(page, live_server.url)
    form = page.locator("#deal-form")
    for seat, value in enumerate(("20", "8", "4")):
        form.locator(f'input[name="s{seat}-collected"]').fill(value)
    saved_elsewhere(match, players, 12, 8, 4)
    card = page.locator(".queue-row")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Anna: Cards collected 20")
    expect(card).to_contain_text("these entries were not saved. The match takes no further deal.")
    expect(card.get_by_role("button", name="Enter as the next deal")).to_have_count(0)
    card.get_by_role("button", name="Discard").click()
    expect(page.locator(".queue-row")).to_have_count(0)
    assert match.deals.count() == 1
