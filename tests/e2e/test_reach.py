"""Readable and reachable at 390×844: every tap target of the main pages is at least
44 × 44 CSS px, and text on buttons and links reaches WCAG AA contrast (4.5:1) in light
and dark mode, measured from the browser's computed styles.

The one exception to the 44 px rule is WCAG 2.5.5's "Inline" exception: a link
rendered inline (computed ``display: inline``) inside a block that has text of its
own beside the link, i.e. a link in a sentence. Such a link's height is the line's.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from companion.services import passes as pass_services
from scoring import GAMES
from tests.e2e.scenes import Evening, evening, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


SMALL_TARGETS = """
() => {
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
                 + 'label.btn';
  function inSentence(el) {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    let block = el.parentElement;
    while (block && getComputedStyle(block).display.startsWith('inline')) {
      block = block.parentElement;
    }
    const own = block ? block.textContent.replace(el.textContent, '') : '';
    return own.trim().length > 0;
  }
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    let target = el;
    // A radio or checkbox is tapped through its label (Bootstrap's btn-check hides the input).
    if (el.matches('input[type=radio], input[type=checkbox]') && el.labels && el.labels.length) {
      target = el.labels[0];
    }
    const box = target.getBoundingClientRect();
    const style = getComputedStyle(target);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    if (inSentence(el)) continue;
    if (box.width < 44 - 0.01 || box.height < 44 - 0.01) {
      const text = (target.innerText || target.value || target.getAttribute('aria-label') || '')
        .trim();
      small.push(`${el.tagName.toLowerCase()}.${el.className} "${text.slice(0, 30)}" `
                 + `${box.width.toFixed(1)}×${box.height.toFixed(1)}`);
    }
  }
  return small;
}
"""

LOW_CONTRAST = """
(selector) => {
  function rgba(text) {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  function over(top, bottom) {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  }
  function background(el) {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const colour = rgba(getComputedStyle(node).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    let result = [255, 255, 255, 1];
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  }
  function luminance(c) {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  const found = [];
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || !el.innerText.trim()) continue;
    const back = background(el);
    const text = over(rgba(getComputedStyle(el).color), back);
    const [hi, lo] = [luminance(text), luminance(back)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    found.push({text: el.innerText.trim().slice(0, 30), ratio: Math.round(ratio * 100) / 100,
                colour: getComputedStyle(el).color});
  }
  return found;
}
"""

CONTRAST_TARGETS = (
    ".btn-outline-secondary, .btn-secondary, .link-secondary, .btn-outline-primary, "
    ".btn-link, .live-colour .label, .live-colour .counts, main a:not(.btn), .nav-link, "
    ".badge, .text-body-secondary, .form-text"
)


def main_pages(scene: Evening) -> list[str]:
    pages = [f"/g/{scene.group.pk}/", f"/g/{scene.group.pk}/roster/", scene.sheet(scene.finished)]
    pages += [scene.sheet(match) for match in scene.running.values()]
    pages += [scene.live("drei-sind-einer-zuviel"), scene.live("freaky")]
    pages += [f"/rules/{game}/check/" for game in GAMES]  # every game's, from the registry
    return pages


def other_pages(scene: Evening) -> list[str]:
    """The rest of the app a player reaches from the main pages."""
    group = f"/g/{scene.group.pk}/"
    night = scene.finished.game_night_id
    pages = ["/", "/groups/", "/groups/new/", "/accounts/", "/rules/", "/tools/bulls/",
             "/tools/targets/", group + "settings/", group + "history/", group + "head-to-head/",
             group + f"nights/{night}/", group + f"players/{scene.players[4].pk}/",
             group + "matches/new/", scene.sheet(scene.finished) + "?view=table"]
    pages += [f"/rules/{game}/" for game in GAMES]
    pages += [group + f"games/{game}/" for game in GAMES]
    pages += [group + "ratings/", group + "ratings/elf-nimmt/", group + "import/bgstats/"]
    return pages


@pytest.fixture
def scene(db: Any) -> Evening:
    return evening()


def test_every_tap_target_of_the_main_pages_is_at_least_44_px(
    live_server: Any, page: Page, scene: Evening
) -> None:
    assert page.viewport_size == {"width": 390, "height": 844}
    log_in(page, live_server.url, scene.user)
    small: dict[str, list[str]] = {}
    for path in main_pages(scene) + other_pages(scene):
        for language in ("de", "en"):
            page.set_extra_http_headers({"Accept-Language": language})
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, path
            found = page.evaluate(SMALL_TARGETS)
            if page.evaluate("document.documentElement.scrollWidth") > 390:
                found.append("the page is wider than the phone")
            if found:
                small[f"{language} {path}"] = found
    assert small == {}, "\n".join(f"{where}: {target}" for where, targets in small.items()
                                   for target in targets)


def test_the_sheets_head_buttons_stay_inside_the_page_in_german(
    live_server: Any, page: Page, scene: Evening
) -> None:
    # Rules, Dispute?, the game's helper and "Keep screen on" do not fit one 390 px line in
    # German: they wrap instead of running past the page's edge and squeezing their words.
    log_in(page, live_server.url, scene.user)
    page.set_extra_http_headers({"Accept-Language": "de"})
    outside = {}
    for game in scene.running:
        page.goto(live_server.url + scene.sheet(scene.running[game]))
        page.locator("#wake-lock").evaluate("el => { el.hidden = false; }")  # as on a phone
        outside[game] = page.evaluate("""() => {
          const main = document.querySelector('main').getBoundingClientRect();
          const edge = main.right - parseFloat(getComputedStyle(document.querySelector('main'))
                                              .paddingRight);
          return [...document.querySelectorAll('.head-links .btn')]
            .filter(b => b.getBoundingClientRect().right > edge + 0.5)
            .map(b => b.innerText.trim());
        }""")
    assert outside == {game: [] for game in scene.running}


def test_the_entry_mode_switch_and_the_freaky_row_buttons_are_44_px(
    live_server: Any, page: Page, scene: Evening
) -> None:
    log_in(page, live_server.url, scene.user)
    page.goto(live_server.url + scene.sheet(scene.running["x-nimmt"]))
    switch = page.locator("#deal-form .mode-switch .btn")
    assert switch.count() >= 2
    for index in range(switch.count()):
        box = switch.nth(index).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    page.goto(live_server.url + scene.sheet(scene.running["freaky"]))
    quick = page.locator("#deal-form button[data-step]")
    assert quick.count() > 5
    for index in range(quick.count()):
        box = quick.nth(index).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44


def test_with_seven_players_the_names_and_deal_numbers_stay_in_view_while_scrolling(
    live_server: Any, page: Page, scene: Evening
) -> None:
    log_in(page, live_server.url, scene.user)
    page.goto(live_server.url + scene.sheet(scene.running["elf-nimmt"]))
    scroller = page.locator(".sheet-scroll")
    heads = page.locator(".sheet-table thead th")
    assert heads.count() == 8
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    width = scroller.evaluate("el => el.scrollWidth - el.clientWidth")
    assert width > 0  # seven players need more than 390 px: the table scrolls sideways
    scroller.evaluate("el => { el.scrollLeft = el.scrollWidth; el.scrollTop = el.scrollHeight; }")
    box = scroller.bounding_box()
    last_name = heads.last.bounding_box()
    deal = page.locator("#deal-3 th").bounding_box()
    corner = heads.first.bounding_box()
    assert box is not None and last_name is not None and deal is not None and corner is not None
    # The header row sticks to the top and the deal column to the left of the scroll area
    # (within the borders: 1 px frame, the colour stripe above the names).
    assert abs(corner["x"] - box["x"]) <= 1 and abs(corner["y"] - box["y"]) <= 6
    assert abs(deal["x"] - box["x"]) <= 1
    assert last_name["y"] - box["y"] <= 6
    assert last_name["x"] + last_name["width"] <= box["x"] + box["width"] + 1  # fully in view
    assert heads.last.inner_text() == "Gül"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_buttons_links_and_live_labels_reach_wcag_aa_contrast(
    live_server: Any, browser: Browser, scene: Evening, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    log_in(page, live_server.url, scene.user)
    measured: dict[str, list[dict[str, Any]]] = {}
    for path in [scene.sheet(scene.running["x-nimmt"]), scene.sheet(scene.finished),
                 scene.live("drei-sind-einer-zuviel"), scene.live("freaky"),
                 f"/g/{scene.group.pk}/", f"/g/{scene.group.pk}/roster/",
                 f"/g/{scene.group.pk}/history/", f"/g/{scene.group.pk}/settings/",
                 "/rules/freaky/check/", "/rules/x-nimmt/"]:
        page.goto(live_server.url + path)
        theme = page.evaluate("document.documentElement.getAttribute('data-bs-theme')")
        assert theme == scheme
        measured[path] = page.evaluate(LOW_CONTRAST, CONTRAST_TARGETS)
    context.close()
    labels = measured[scene.live("drei-sind-einer-zuviel")]
    assert len([m for m in labels if m["text"] in ("rot", "red")]) == 4  # four players' red
    too_low = {path: [m for m in found if m["ratio"] < 4.5] for path, found in measured.items()}
    assert too_low == {path: [] for path in measured}
    assert all(found for found in measured.values())


def longest_name(name: str) -> str:
    """``name`` made one word as long as the roster allows (40 letters)."""
    return (name.lower() * 40)[:40].capitalize()


def wider_than_the_phone(page: Page, base: str, paths: list[str]) -> dict[str, int]:
    """The pages among ``paths`` wider than the 390 px phone, with their widths."""
    wide = {}
    for path in paths:
        page.goto(base + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[path] = width
    return wide


def test_a_player_name_as_long_as_the_roster_allows_stays_inside_the_phone(
    live_server: Any, page: Page, scene: Evening
) -> None:
    # 40 letters without a space or hyphen (the roster takes that much): the name breaks
    # inside the word where it must, instead of pushing the page (and the score beside the
    # name on the live boards) past the phone's right edge.
    for player in (scene.players[0], scene.players[4]):
        player.name = longest_name(player.name)
        player.save(update_fields=["name"])
    log_in(page, live_server.url, scene.user)
    group = f"/g/{scene.group.pk}/"
    pages = [scene.sheet(match) for match in scene.running.values()]
    pages += [scene.live("drei-sind-einer-zuviel"), scene.live("freaky"),
              scene.sheet(scene.running["x-nimmt"]) + "changes/", group + "roster/",
              group + f"players/{scene.players[4].pk}/",
              group + f"nights/{scene.finished.game_night_id}/"]
    assert wider_than_the_phone(page, live_server.url, pages) == {}


def test_a_guest_with_a_name_as_long_as_a_pass_allows_stays_inside_the_phone(
    live_server: Any, page: Page, scene: Evening
) -> None:
    # The pass's page lists the match's players to pick from; the guest's own name (typed,
    # 40 letters) then heads the sheet.
    player = scene.players[0]
    player.name = longest_name(player.name)
    player.save(update_fields=["name"])
    match = scene.running["x-nimmt"]
    table_pass = pass_services.table_pass_create(created_by=scene.user, may_write=True,
                                                 match=match)
    page.goto(f"{live_server.url}/t/{pass_services.pass_token(table_pass)}/")
    widths = {"join": page.evaluate("document.documentElement.scrollWidth")}
    page.locator('input[name="typed"]').fill("Bartholomäus" * 3 + "Bart")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"**{scene.sheet(match)}")
    widths["sheet"] = page.evaluate("document.documentElement.scrollWidth")
    assert widths == {"join": 390, "sheet": 390}


def test_a_group_name_and_a_place_as_long_as_allowed_stay_inside_the_phone(
    live_server: Any, page: Page, scene: Evening
) -> None:
    # 80 letters of group name and 100 of game night place, each one word; and a player of
    # the finished match with 40 (the ratings list them).
    scene.group.name = ("Donnerstagsspielegruppe" * 4)[:80]
    scene.group.save(update_fields=["name"])
    night = scene.finished.game_night
    night.place = ("Spielecafébeimhauptbahnhof" * 4)[:100]
    night.save(update_fields=["place"])
    player = scene.players[4]
    player.name = longest_name(player.name)
    player.save(update_fields=["name"])
    log_in(page, live_server.url, scene.user)
    group = f"/g/{scene.group.pk}/"
    pages = ["/", "/groups/", "/accounts/", group, group + "matches/new/",
             scene.sheet(scene.running["x-nimmt"]), group + f"nights/{night.pk}/",
             group + "ratings/"]
    assert wider_than_the_phone(page, live_server.url, pages) == {}
