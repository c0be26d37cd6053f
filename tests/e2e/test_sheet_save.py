"""A deal saved with htmx in a real browser at 390×844: the sheet then shows what a reload
shows (standings and who deals / starts next, the new row and the totals, the next deal's
form or the finish button, undo, the table mode), for every game."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from companion.models import Group, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from tests.e2e.scenes import enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/shots/save"

# Per game: the field of Anna's entry typed in the browser and its value, and an earlier deal.
GAMES = {
    "drei-sind-einer-zuviel": ("s0-rot", "2", None),
    "x-nimmt": ("s0-hand", "5", [{"hand": 3}, {"hand": 1}, {}]),
    "freaky": ("s0-collected", "5", None),
    "elf-nimmt": ("s0-hand", "4", [{"hand": 5}, {"went_out": True}, {"hand": 2}]),
    "dreizehn": ("s0-red", "1", [{"red": 1}, {}, {}]),
}

SHOWN = ("#standings", "#match-actions", "#table-view", ".sheet-scroll", ".progression")
"""What a save changes on the sheet, compared with a reload by what it says."""


TEXT = """node => {
  const copy = node.cloneNode(true);
  copy.querySelectorAll("noscript").forEach(hidden => hidden.remove());
  return copy.textContent.split(/\\s+/).join(" ").trim();
}"""
"""An element's text without <noscript> (inserted by htmx its content is parsed as elements,
loaded with the page it is raw text; with JavaScript on it shows neither way)."""

FIELDS = """form => Array.from(form.elements).filter(field => field.name !== "client_key"
  && field.name !== "csrfmiddlewaretoken").map(field => [field.name, field.type, field.value,
  field.checked, field.disabled, field.className].join("|"))"""
"""The deal form's fields as they are now: value, ticked, locked (not the key: new per form)."""


DRAWN = """figure => Array.from(figure.querySelectorAll("*")).map(node => [node.namespaceURI,
  node.localName, ...Array.from(node.attributes).map(a => a.name + "=" + a.value).sort()]
  .join(" "))"""
"""Every element of the chart with its namespace (an SVG shape parsed as HTML draws nothing)."""
SVG_NS = "http://www.w3.org/2000/svg"


def shown(page: Page) -> dict[str, str]:
    """The text of what a save changes (the table mode's too, though it is hidden)."""
    texts = {}
    for selector in (*SHOWN, "#deal-form"):
        found = page.locator(f"#sheet {selector}")
        texts[selector] = found.first.evaluate(TEXT) if found.count() else ""
    texts["finish"] = str(page.locator("#sheet form[action$='/finish/']").count())
    form = page.locator("#deal-form form")
    texts["fields"] = "\n".join(form.evaluate(FIELDS)) if form.count() else ""
    return texts


def started(table: tuple[Group, list[Player], User], game: str) -> Any:
    """Anna's match of ``game``, with the earlier deal :data:`GAMES` names for it."""
    group, players, anna = table
    match = match_services.match_start(group=group, game=game, players=players, user=anna)
    earlier = GAMES[game][2]
    if earlier is not None:
        deal_services.deal_record(match=match, number=1, entries={
            player.pk: entry for player, entry in zip(players, earlier, strict=True)})
    return match


@pytest.mark.parametrize("game", list(GAMES))
def test_after_an_htmx_save_the_sheet_shows_what_a_reload_shows(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User], game: str
) -> None:
    group, _players, _anna = annas_table
    field, value, _earlier = GAMES[game]
    match = started(annas_table, game)
    number = match.deals.count() + 1
    page.goto(f"{live_server.url}/g/{group.pk}/matches/{match.pk}/")
    etag = page.locator("#sheet").get_attribute("data-etag")
    form = page.locator("#deal-form form")
    enter(form, field, value)
    if game == "elf-nimmt":  # Ben went out; Cem still holds a card
        form.locator("fieldset label.btn", has_text="Ben").click()
        form.locator('input[name="s2-hand"]').fill("1")
    with page.expect_response(lambda r: r.request.method == "POST"
                              and r.url.endswith("/deals/new/")) as answer:
        form.get_by_role("button", name="Save deal").click()
    expect(page.locator("#notice")).to_contain_text(f"Deal {number} saved.")
    if page.locator("#deal-form").count():  # another deal follows
        # the page kept its fresh form: the answer names the next one instead of carrying it
        assert 'id="deal-form"' not in answer.value.text()
        assert "kr:form" in answer.value.headers["hx-trigger-after-swap"]
    expect(page.locator(f"#deal-{number}")).to_have_class(re.compile("saved-row"))
    expect(page.locator("#notice")).to_be_focused()
    if number > 1:  # the row saved before is not marked any more
        expect(page.locator(f"#deal-{number - 1}")).not_to_have_class(re.compile("saved-row"))
    sheet = page.locator("#sheet")
    expect(sheet).to_have_attribute("data-next", str(number + 1))
    assert sheet.get_attribute("data-etag") != etag
    page.screenshot(path=f"{SHOTS}/{game}-saved-en-light.png", full_page=True)
    after_save = shown(page)
    chart = page.locator("#sheet .progression figure")
    drawn = chart.evaluate(DRAWN)
    assert f"{SVG_NS} polyline" in " ".join(drawn) or number == 1

    match.refresh_from_db()
    assert sheet.get_attribute("data-etag").startswith(f'"{match.revision}.')
    page.reload()
    expect(page.locator(f"#deal-{number}")).to_be_visible()
    assert shown(page) == after_save
    # The chart (its plot sent anew, its legend kept): the same SVG elements, attributes and all.
    assert chart.evaluate(DRAWN) == drawn


def save_first_deal(live_server: Any, page: Page, table: tuple[Group, list[Player], User],
                    before: str = "") -> Any:
    """Anna's X nimmt! match opened on the page (``before`` run on it), deal 1 saved."""
    group, players, anna = table
    match = match_services.match_start(group=group, game="x-nimmt", players=players, user=anna)
    page.goto(f"{live_server.url}/g/{group.pk}/matches/{match.pk}/")
    if before:
        page.evaluate(before)
    form = page.locator("#deal-form form")
    form.locator('input[name="s0-hand"]').fill("5")
    form.get_by_role("button", name="Save deal").click()
    return match


@pytest.mark.script_errors(
    r"htmx:oobErrorNoTarget, #sheet \.sheet-table tbody",
    r"htmx:oobErrorNoTarget, #sheet \.sheet-table tfoot",
    reason="the test removes the deals table before the save: htmx logs the parts of the "
           "answer that find no place, and sync.js fetches the sheet anew (what is tested)")
def test_a_page_without_a_place_for_a_part_of_the_answer_gets_the_sheet_anew(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User]
) -> None:
    # A page loaded before the deals table waited, empty, for the first deal.
    save_first_deal(live_server, page, annas_table,
                    before="document.querySelector('#sheet .sheet-scroll').remove()")
    expect(page.locator("#deal-1")).to_be_visible()
    expect(page.locator("#sheet .sheet-scroll")).to_have_count(1)


def test_the_poll_after_an_htmx_save_is_answered_not_modified(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User]
) -> None:
    match = save_first_deal(live_server, page, annas_table)
    expect(page.locator("#notice")).to_contain_text("Deal 1 saved.")
    expect(page.locator("#sheet")).to_have_attribute("data-next", "2")
    # The sheet's ETag after the save is the server's: a poll naming it (without waiting
    # for a change) is answered 304, and the page stays as it is.
    status = page.evaluate("""url => fetch(url, {headers: {"HX-Request": "true",
        "If-None-Match": document.getElementById("sheet").dataset.etag}}).then(r => r.status)""",
        f"{live_server.url}/g/{match.group_id}/matches/{match.pk}/")
    assert status == 304
    expect(page.locator("#notice")).to_contain_text("Deal 1 saved.")


CONTRAST = """cell => {
  const rgb = text => text.match(/rgba?\\(([^)]+)\\)/)[1].split(",").slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const text = lum(rgb(getComputedStyle(cell.querySelector("summary")).color));
  const ground = lum(rgb(getComputedStyle(cell).boxShadow));  // Bootstrap paints cells so
  return (Math.max(text, ground) + 0.05) / (Math.min(text, ground) + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_row_just_saved_is_readable_light_and_dark(
    live_server: Any, page: Page, annas_table: tuple[Group, list[Player], User], scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)
    save_first_deal(live_server, page, annas_table)
    row = page.locator("#deal-1.saved-row")
    expect(row).to_be_visible()
    for cell in row.locator("td:has(summary)").all():
        assert cell.evaluate(CONTRAST) >= 4.5
