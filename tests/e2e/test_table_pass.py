"""Two phones at one table, 390×844: Anna (a member) starts an X nimmt! match and shows
its table pass; Zoe's phone, never logged in, opens the pass's link (what scanning the
QR code does), picks her name, follows the sheet live, enters a deal that Anna's phone
shows, and loses access the moment Anna revokes the pass. A read-only pass shows the
sheet without a deal form; an expired pass gets a clear page."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, Route, expect

from companion.models import Group, Match, MatchChange, Player, TablePass
from companion.services import matches as match_services
from companion.services import passes as pass_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
POLL = 10_000
"""How long a change may take to show on the other phone (it polls every 2 s)."""


def fill_deal(page: Page, values: dict[str, str]) -> None:
    form = page.locator("#deal-form form")
    for name, value in values.items():
        form.locator(f'input[name="{name}"]').fill(value)
    form.get_by_role("button", name=re.compile("Save deal|Durchgang speichern")).click()


def a_phone(browser: Browser) -> Page:
    """A phone that never logged in here: its own cookies, English."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    phone = context.new_page()
    phone.set_extra_http_headers({"Accept-Language": "en"})
    return phone


@pytest.mark.script_errors(
    r"status of 410 \(Gone\)",
    reason="Anna revokes Zoe's pass: Zoe's poll and her reload are answered 410 Gone (the "
           "browser logs each), and the page that says so is what is tested")
def test_a_phone_without_an_account_joins_the_table_in_one_scan(
    annas_table: tuple[Group, list[Player], User], page: Page, browser: Browser,
    live_server: Any,
) -> None:
    group, _players, _anna = annas_table
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/g/{group.pk}/matches/new/")
    page.get_by_label("X nimmt!").check()
    for seat, name in enumerate(["Anna", "Ben", "Cem", "—"]):
        page.locator(f'select[name="seat_{seat}"]').select_option(label=name)
    page.get_by_role("button", name="Start match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))

    # Anna shows the table pass, in place on the sheet: QR code and link.
    page.locator("#table-pass summary").click()
    page.get_by_label("follow the sheet and enter deals").check()
    page.get_by_role("button", name="Make a table pass").click()
    expect(page.locator("#passes svg.qr-code")).to_be_visible()
    link = page.locator("input.pass-link")
    expect(link).to_have_count(1)
    pass_url = link.input_value()
    assert "/t/" in pass_url

    # Zoe's phone opens it, picks her name and is on the sheet: no account, no login.
    zoe = a_phone(browser)
    zoe.goto(pass_url)
    expect(zoe.locator("h1")).to_have_text("Join at the table")
    expect(zoe.locator("#pass-what")).to_have_text("X nimmt! of the group “Donnerstagsgruppe”")
    zoe.get_by_label("Or type your name").fill("Zoe")
    zoe.get_by_role("button", name="Join in").click()
    expect(zoe).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(zoe.locator("#guest-bar")).to_contain_text("Table pass: you play along as Zoe.")
    expect(zoe.locator("#table-pass")).to_have_count(0)  # no passes made by guests

    # She follows live: Anna's deal shows on her phone by itself...
    fill_deal(page, {"s0-hand": "5", "s0-x_stack": "9", "s1-hand": "3", "s2-x_stack": "1"})
    expect(zoe.locator("#deal-1")).to_be_visible(timeout=POLL)
    # ...and hers on Anna's.
    expect(zoe.locator("#deal-form h2")).to_have_text("Deal 2", timeout=POLL)
    fill_deal(zoe, {"s0-hand": "2", "s1-hand": "4", "s2-x_stack": "6"})
    expect(zoe.locator("#deal-2")).to_be_visible()
    expect(page.locator("#deal-2")).to_be_visible(timeout=POLL)
    match = Match.objects.get()
    change = MatchChange.objects.get(match=match, deal_number=2)
    assert (change.created_by, change.created_by_guest) == (None, "Zoe")
    page.goto(f"{live_server.url}/g/{group.pk}/matches/{match.pk}/changes/")
    expect(page.locator("#changes li").first).to_contain_text("via table pass (Zoe)")
    # Back to the sheet by loading it: "back" may restore the page from the browser's
    # back/forward cache with the pass panel still open (a tap would close it), or load it
    # anew with the panel closed, depending on whether its held poll was answered in time.
    page.goto(f"{live_server.url}/g/{group.pk}/matches/{match.pk}/")

    # Anna revokes the pass: Zoe's phone says so with its next poll.
    page.locator("#table-pass summary").click()
    page.locator(".confirm-revoke summary").click()
    page.get_by_role("button", name="Yes, revoke").click()
    expect(page.locator("input.pass-link")).to_have_count(0)
    expect(zoe.locator("h1")).to_have_text("This table pass no longer works", timeout=POLL)
    expect(zoe.locator("main")).to_contain_text("It was revoked at the table.")
    zoe.goto(f"{live_server.url}/g/{group.pk}/matches/{match.pk}/")
    expect(zoe.locator("h1")).to_have_text("This table pass no longer works")
    assert match.deals.count() == 2
    zoe.context.close()


def test_a_table_pass_opened_before_the_page_s_scripts_ran_still_loads(
    annas_table: tuple[Group, list[Player], User], page: Page, live_server: Any,
) -> None:
    """A tap on "Join at the table" while htmx is still loading (a slow phone, a loaded
    machine) opens the details before htmx listens for their toggle: htmx asks for the pass
    when it starts, since the details are open by then."""
    group, players, _anna = annas_table
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    held: list[Route] = []
    page.route("**/django_htmx/htmx-*.js", lambda route: held.append(route))
    page.goto(f"{live_server.url}/g/{group.pk}/matches/{match.pk}/", wait_until="commit")
    page.locator("#table-pass summary").click()
    expect(page.locator("#table-pass")).to_have_attribute("open", "")
    assert len(held) == 1  # htmx has not run yet
    held[0].continue_()
    expect(page.get_by_label("follow the sheet and enter deals")).to_be_visible()


@pytest.mark.script_errors(
    r"status of 410 \(Gone\)",
    reason="the pass expires: the reload and the pass's address are answered 410 Gone (the "
           "browser logs each), and the clear page is what is tested")
def test_a_read_only_pass_follows_and_an_expired_one_gets_a_clear_page(
    annas_table: tuple[Group, list[Player], User], browser: Browser, live_server: Any,
) -> None:
    group, players, anna = annas_table
    match = match_services.match_start(group=group, game="freaky", players=players)
    following = pass_services.table_pass_create(created_by=anna, may_write=False, match=match)
    phone = a_phone(browser)
    phone.goto(f"{live_server.url}/t/{pass_services.pass_token(following)}/")
    phone.get_by_label("Cem", exact=True).check()
    phone.get_by_role("button", name="Join in").click()
    expect(phone.locator("#guest-bar")).to_contain_text("Table pass: you follow as Cem.")
    expect(phone.locator("#sheet")).to_be_visible()
    expect(phone.locator("#deal-form")).to_have_count(0)
    expect(phone.locator("#live-link a")).to_have_count(0)

    TablePass.objects.filter(pk=following.pk).update(
        expires_at=timezone.now() - dt.timedelta(minutes=1))
    phone.reload()
    expect(phone.locator("h1")).to_have_text("This table pass no longer works")
    expect(phone.locator("main")).to_contain_text(
        "a table pass works until the end of the game night")
    phone.goto(f"{live_server.url}/t/{pass_services.pass_token(following)}/")
    expect(phone.locator("h1")).to_have_text("This table pass no longer works")
    phone.context.close()
