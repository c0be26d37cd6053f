"""axe-core finds nothing on the app's pages, in German and English, light and dark.

axe-core (bundled by axe-playwright-python) runs its default rules (WCAG 2.x A and
AA, best practices) on the login page and on every page a player reaches at the
table: group home, roster, score sheets open (with the deal form) and finished,
the live boards, history pages, rules and their checks, the start form, ...
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser

from companion.services import groups as group_services
from companion.services import passes as pass_services
from tests.e2e.scenes import Evening, evening, log_in
from tests.e2e.test_reach import main_pages, other_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Axe()


def violations(page: Any) -> list[str]:
    """One line per violated rule: its id, impact, what it asks and where it fails."""
    results = AXE.run(page).response["violations"]
    lines = []
    for rule in results:
        where = "; ".join(
            f"{' '.join(map(str, node['target']))}: {node.get('failureSummary', '')}"
            .replace("\n", " ")[:200]
            for node in rule["nodes"][:3]
        )
        lines.append(f"{rule['id']} ({rule['impact']}, {len(rule['nodes'])}×) "
                     f"{rule['help']} — {where}")
    return lines


LOGGED_OUT = ("/accounts/login/", "/accounts/signup/", "/", "/rules/x-nimmt/")


def visitor_pages(scene: Evening) -> list[str]:
    """Logged out too: an invite link, a table pass's link, and the sheet and the game
    night as the pass's guest sees them (the pass is joined before the sheet)."""
    invite = group_services.invite_create(group=scene.group, created_by=scene.user)
    match = scene.running["x-nimmt"]
    table_pass = pass_services.table_pass_create(
        created_by=scene.user, may_write=True, game_night=match.game_night)
    return [f"/join/{invite.token}/", f"/t/{pass_services.pass_token(table_pass)}/",
            scene.sheet(match), f"/g/{scene.group.pk}/nights/{match.game_night_id}/"]


def more_pages(scene: Evening) -> list[str]:
    """Pages beyond test_reach's lists: a sheet's changes, a deal to correct, forms, search."""
    group = f"/g/{scene.group.pk}/"
    sheet = scene.sheet(scene.running["x-nimmt"])
    return [sheet + "changes/", sheet + "deals/1/", scene.sheet(scene.finished) + "changes/",
            sheet + "pass/", group + f"nights/{scene.running['x-nimmt'].game_night_id}/pass/",
            group + "nights/new/", group + f"nights/{scene.finished.game_night_id}/edit/",
            "/accounts/password/", "/groups/import/", "/rules/search/?q=Reihe",
            "/running/", group + "running/", group + "changes/"]


@pytest.fixture
def scene(db: Any) -> Evening:
    return evening()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["de", "en"])
def test_axe_finds_no_violations_on_the_pages(
    live_server: Any, browser: Browser, scene: Evening, language: str, scheme: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme,
                                  extra_http_headers={"Accept-Language": language})
    page = context.new_page()
    found: dict[str, list[str]] = {}
    visitor = visitor_pages(scene)
    logged_out = [*LOGGED_OUT, *visitor]
    paths = [*logged_out, *main_pages(scene), *other_pages(scene), *more_pages(scene)]
    for number, path in enumerate(paths):
        if number == len(logged_out):
            log_in(page, live_server.url, scene.user)
        if number == len(LOGGED_OUT) + 2:  # the guest joins the table pass, then the sheet
            page.locator('input[name="typed"]').fill("Zoe")
            page.locator("main form button[type=submit]").click()
            page.wait_for_load_state()
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        where = f"{path} (logged out)" if number < len(logged_out) else path
        assert page.evaluate("document.documentElement.lang") == language
        assert page.evaluate("document.documentElement.dataset.bsTheme") == scheme
        if lines := violations(page):
            found[where] = lines
    context.close()
    assert found == {}, f"{language}, {scheme}:\n" + "\n".join(
        f"{path}: {line}" for path, lines in found.items() for line in lines
    )
