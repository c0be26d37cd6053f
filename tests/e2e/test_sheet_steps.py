"""Another phone's saved deal comes to a watching phone as that save's step of the sheet
(issue 31): the parts it changes, rendered once by the save for every phone that watches,
instead of the whole sheet. The watching phone then shows what a reload shows, for every
game; a form in use there stays; the next deal's form has a key of its own."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect

from companion.models import Group, Match, Membership, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from tests.e2e.scenes import enter, log_in
from tests.e2e.test_sheet_save import DRAWN, GAMES, shown, started

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def bens_phone(browser: Browser, base_url: str, group: Group) -> tuple[BrowserContext, Page]:
    """Ben, another member (who may not delete the match: another kind of viewer than
    Anna), on a phone of his own, in English."""
    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=group, user=ben, role=Membership.Role.MEMBER)
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  extra_http_headers={"Accept-Language": "en"})
    phone = context.new_page()
    log_in(phone, base_url, ben)
    return context, phone


def watched(live_server: Any, page: Page, browser: Browser, match: Match,
            ) -> tuple[BrowserContext, Page]:
    """``match``'s sheet open on Anna's phone (``page``) and on Ben's, whose poll is held."""
    url = f"{live_server.url}/g/{match.group_id}/matches/{match.pk}/"
    page.goto(url)
    context, phone = bens_phone(browser, live_server.url, match.group)
    watching(phone, url)
    return context, phone


def watching(phone: Page, url: str) -> None:
    phone.goto(url)
    phone.wait_for_timeout(2500)  # its poll is held by now


def step_of(phone: Page, save: Any, timeout: float = 5000) -> Any:
    """The answer of the watching phone's poll that ``save()`` wakes (or lets through)."""
    with phone.expect_response(lambda r: r.request.method == "GET" and r.status == 200
                               and "/matches/" in r.url, timeout=timeout) as answer:
        save()
    return answer.value


def shows_what_a_reload_shows(phone: Page, number: int) -> None:
    """The watching phone, once settled, shows what it shows after a reload, whose last
    deal is ``number``: the parts a save changes, the form's fields and the chart."""
    phone.wait_for_timeout(300)  # settled
    before = shown(phone)
    drawn = phone.locator("#sheet .progression figure").evaluate(DRAWN)
    phone.reload()
    expect(phone.locator(f"#deal-{number}")).to_be_visible()
    assert shown(phone) == before
    assert phone.locator("#sheet .progression figure").evaluate(DRAWN) == drawn


@pytest.mark.parametrize("game", list(GAMES))
def test_a_watching_phone_shows_what_a_reload_shows_after_another_phones_save(
    live_server: Any, page: Page, browser: Browser,
    annas_table: tuple[Group, list[Player], User], game: str,
) -> None:
    field, value, _earlier = GAMES[game]
    match = started(annas_table, game)
    number = match.deals.count() + 1
    context, phone = watched(live_server, page, browser, match)
    form = page.locator("#deal-form form")
    enter(form, field, value)
    if game == "elf-nimmt":  # Ben went out; Cem still holds a card
        form.locator("fieldset label.btn", has_text="Ben").click()
        form.locator('input[name="s2-hand"]').fill("1")
    answer = step_of(phone, lambda: form.get_by_role("button", name="Save deal").click())
    assert answer.headers["kr-step"] in ("next", "end")
    assert 'id="deal-form"' not in answer.text() or answer.headers["kr-step"] == "end"
    expect(phone.locator(f"#deal-{number}")).to_be_visible()
    expect(phone.locator("#sheet")).to_have_attribute("data-next", str(number + 1))
    match.refresh_from_db()
    assert phone.locator("#sheet").get_attribute("data-etag").startswith(f'"{match.revision}.')
    if answer.headers["kr-step"] == "next":
        expect(phone.locator("#deal-form h2")).to_have_text(f"Deal {number + 1}")
    shows_what_a_reload_shows(phone, number)
    context.close()


def test_a_phone_that_missed_two_deals_gets_both_steps_and_shows_what_a_reload_shows(
    live_server: Any, page: Page, browser: Browser,
    annas_table: tuple[Group, list[Player], User],
) -> None:
    """Ben's phone is offline while Anna saves both deals of the match: back online, its
    poll gets the two steps, the last one ending the match."""
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    context, phone = watched(live_server, page, browser, match)
    context.set_offline(True)
    for number, hand in ((1, "5"), (2, "3")):
        page.locator('#deal-form input[name="s0-hand"]').fill(hand)
        page.get_by_role("button", name="Save deal").click()
        expect(page.locator(f"#deal-{number}")).to_be_visible()
    answer = step_of(phone, lambda: context.set_offline(False), timeout=15000)
    assert answer.headers["kr-step"] == "end"
    expect(phone.locator("#deal-2")).to_be_visible()
    expect(phone.get_by_role("button", name="All deals recorded: finish the match")).to_be_visible()
    shows_what_a_reload_shows(phone, 2)
    context.close()


def test_a_form_in_use_on_the_watching_phone_stays_and_is_marked_as_taken(
    live_server: Any, page: Page, browser: Browser,
    annas_table: tuple[Group, list[Player], User],
) -> None:
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    context, phone = watched(live_server, page, browser, match)
    phone.locator('#deal-form input[name="s1-hand"]').fill("4")  # Ben types deal 1 too
    page.locator('#deal-form input[name="s0-hand"]').fill("5")
    answer = step_of(phone, lambda: page.get_by_role("button", name="Save deal").click())
    assert answer.headers["kr-step"] == "next"
    expect(phone.locator("#deal-1")).to_be_visible()
    expect(phone.locator('#deal-form input[name="s1-hand"]')).to_have_value("4")
    expect(phone.locator("#deal-form .stale-form")).to_contain_text("Deal 1")
    phone.locator("#deal-form .stale-form button").click()  # "use it for deal 2"
    expect(phone.locator("#deal-form h2")).to_have_text("Deal 2")
    phone.get_by_role("button", name="Save deal").click()
    expect(phone.locator("#deal-2")).to_be_visible()
    expect(page.locator("#deal-2")).to_be_visible(timeout=5000)
    assert [deal.number for deal in match.deals.order_by("number")] == [1, 2]
    context.close()


def test_a_fresh_form_comes_back_with_the_next_number_and_a_key_of_its_own_until_the_last_deal(
    live_server: Any, page: Page, browser: Browser,
    annas_table: tuple[Group, list[Player], User],
) -> None:
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    context, phone = watched(live_server, page, browser, match)
    page.locator('#deal-form input[name="s0-hand"]').fill("5")
    answer = step_of(phone, lambda: page.get_by_role("button", name="Save deal").click())
    assert answer.headers["kr-step"] == "next"
    expect(phone.locator("#deal-form h2")).to_have_text("Deal 2")
    expect(phone.locator("#deal-form [name=number]")).to_have_value("2")
    key_b = phone.locator("#deal-form [name=client_key]").input_value()
    key_a = page.locator("#deal-form [name=client_key]").input_value()
    assert len(key_b) >= 32 and key_b != key_a
    tokens = phone.locator("#sheet [name=csrfmiddlewaretoken]")
    assert tokens.count() > 0
    assert all(tokens.nth(n).input_value() for n in range(tokens.count()))
    phone.locator('#deal-form input[name="s2-hand"]').fill("3")  # Ben saves deal 2, the last
    answer = step_of(page, lambda: phone.get_by_role("button", name="Save deal").click())
    assert answer.headers["kr-step"] == "end"  # and Anna's phone takes his step
    expect(page.locator("#deal-2")).to_be_visible()
    expect(page.locator("#deal-form")).to_have_count(0)
    expect(page.get_by_role("button", name="All deals recorded: finish the match")).to_be_visible()
    context.close()


def test_a_form_sent_without_htmx_that_leaves_the_page_where_it_was_keeps_the_sheet_live(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User],
) -> None:
    """A plain form (no htmx) cuts the held poll off, since the page is about to go; when
    its answer keeps the page where it is (a download, here a 204), the poll starts again."""
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    page.goto(f"{live_server.url}/g/{group.pk}/matches/{match.pk}/")
    page.wait_for_timeout(2500)  # its poll is held by now
    page.route("**/stays-here/", lambda route: route.fulfill(status=204))
    page.evaluate("""() => {
      const form = document.createElement("form");
      form.method = "post"; form.action = "/stays-here/"; form.id = "plain";
      form.appendChild(document.createElement("button"));
      document.body.appendChild(form);
    }""")
    page.locator("#plain button").click()
    page.wait_for_timeout(5500)
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"hand": 4}, players[1].pk: {}, players[2].pk: {}})
    expect(page.locator("#deal-1")).to_be_visible(timeout=5000)
