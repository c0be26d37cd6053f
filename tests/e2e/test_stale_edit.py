"""Two phones correct the same deal: the second one's save is refused (HTTP 409) and
htmx swaps the current data into the page in place, with the message."""

from __future__ import annotations

import re
import urllib.parse

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, Response, expect

from companion.models import Group, Membership, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.script_errors(
    r"status of 409 \(Conflict\).*/deals/1/",
    reason="the correction of a deal changed meanwhile on another phone is refused with 409 "
           "(the browser logs it); the current data shown in place is what is tested")
def test_a_stale_correction_shows_the_current_data_in_place(
    live_server: object, page: Page
) -> None:
    anna = User.objects.create_user("anna")
    group = Group.objects.create(name="Donnerstagsrunde", owner=anna)
    Membership.objects.create(group=group, user=anna, role=Membership.Role.OWNER)
    players = [Player.objects.create(group=group, name=name) for name in ("Anna", "Ben", "Cem")]
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    empty: dict[int, dict[str, object]] = {p.pk: {} for p in players}
    deal_services.deal_record(match=match, number=1, entries={**empty, players[0].pk: {"hand": 5}})
    client = Client()
    client.force_login(group.owner)
    base = str(live_server.url)  # type: ignore[attr-defined]
    page.context.add_cookies([{
        "name": "sessionid", "value": client.cookies["sessionid"].value,
        "domain": urllib.parse.urlparse(base).hostname or "", "path": "/",
    }])
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{base}/g/{group.pk}/matches/{match.pk}/deals/1/?mode=counts")
    page.evaluate("window.stillTheSamePage = true")
    form = page.locator("#deal-form form")
    form.locator('input[name="s0-hand"]').fill("50")

    # Meanwhile another phone corrects deal 1: Anna 7.
    deal_services.deal_edit(match=match, number=1, version=1,
                       entries={**empty, players[0].pk: {"hand": 7}})
    answers: list[Response] = []
    page.on("response", lambda response: answers.append(response))
    form.get_by_role("button", name=re.compile("Save")).first.click()

    expect(page.locator("#notice")).to_contain_text(
        "Deal 1 was changed on another phone meanwhile"
    )
    expect(page.locator('#deal-form input[name="s0-hand"]')).to_have_value("7")
    assert page.evaluate("window.stillTheSamePage === true")
    assert [r.status for r in answers if "/deals/1/" in r.url and r.request.method == "POST"] == [
        409
    ]
