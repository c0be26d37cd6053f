"""The look of the pages with two Bootstrap stylesheets, compared pixel by pixel.

Serves the app (DEBUG off, static files collected, WhiteNoise) on a throw-away SQLite
database with the browser tests' game night (tests/e2e/scenes.py: a running match of
every game with deals and live boards in use, a finished one), and takes full-page
screenshots in Debian's Chromium at 390×844, light and dark, of the pages a player
sees: each twice, once with Bootstrap's stylesheet answered by the file ``--before``
and once by ``--after`` (the same server, data and clock, so the stylesheet is the only
difference). Prints per page and colour scheme the number of pixels that differ and
writes the screenshots (and a difference image where they differ) to ``--out``.

    .venv/bin/python bench/look.py --before static/vendor/bootstrap/bootstrap.min.css \
        --after static/vendor/bootstrap/bootstrap.app.css --out /tmp/look
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from harness import ROOT, configure  # bench/ is the script folder, so on sys.path

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
GAMES = ("drei-sind-einer-zuviel", "x-nimmt", "freaky", "elf-nimmt", "dreizehn")
# Scripts run before a screenshot: states the page reaches by a tap.
OPEN_MENU = "document.querySelector('details.account-menu').open = true"
OPEN_ROSTER_ROW = "document.querySelector('.roster-row details, details.roster-row').open = true"
TOAST = ("window.Kartenrunde.toast('Netzwerkfehler: nicht gespeichert.', "
         "{level: 'warning', action: function () {}})")


def pages(scene: object) -> list[tuple[str, str, str]]:
    """(name, path, script) of the pages to compare (logged in, except the first two)."""
    group = f"/g/{scene.group.pk}/"  # type: ignore[attr-defined]
    sheet = scene.sheet  # type: ignore[attr-defined]
    running = scene.running  # type: ignore[attr-defined]
    finished = scene.finished  # type: ignore[attr-defined]
    players = scene.players  # type: ignore[attr-defined]
    found = [
        ("login (logged out)", "/accounts/login/", ""),
        ("start page (logged out)", "/", ""),
        ("home", "/", ""),
        ("home, account menu open", "/", OPEN_MENU),
        ("group home", group, ""),
        ("roster", group + "roster/", ""),
        ("roster, a row open", group + "roster/", OPEN_ROSTER_ROW),
        ("group settings", group + "settings/", ""),
        ("group changes", group + "changes/", ""),
        ("running matches", "/running/", ""),
        ("running matches of the group", group + "running/", ""),
        ("new match", group + "matches/new/", ""),
    ]
    found += [(f"sheet {game}", sheet(running[game]), "") for game in GAMES]
    found += [
        ("sheet x-nimmt, toast", sheet(running["x-nimmt"]), TOAST),
        ("sheet finished", sheet(finished), ""),
        ("table mode", sheet(finished) + "?view=table", ""),
        ("sheet changes", sheet(running["x-nimmt"]) + "changes/", ""),
        ("deal correction", sheet(running["x-nimmt"]) + "deals/1/", ""),
        ("live board drei (colour table)", sheet(running["drei-sind-einer-zuviel"]) + "live/", ""),
        ("live board freaky (card grid)", sheet(running["freaky"]) + "live/", ""),
        ("rules index", "/rules/", ""),
        ("rules x-nimmt", "/rules/x-nimmt/", ""),
        ("rules search", "/rules/search/?q=Reihe", ""),
        ("tool bulls", "/tools/bulls/", ""),
        ("tool targets", "/tools/targets/", ""),
    ]
    found += [(f"rules check {game}", f"/rules/{game}/check/", "") for game in GAMES]
    found += [
        ("history", group + "history/", ""),
        ("game night", group + f"nights/{finished.game_night_id}/", ""),
        ("player", group + f"players/{players[4].pk}/", ""),
        ("game stats x-nimmt", group + "games/x-nimmt/", ""),
        ("head-to-head", group + "head-to-head/", ""),
        ("groups", "/groups/", ""),
        ("account", "/accounts/", ""),
        ("import", "/groups/import/", ""),
    ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path,
                        default=ROOT / "static/vendor/bootstrap/bootstrap.min.css")
    parser.add_argument("--after", type=Path,
                        default=ROOT / "static/vendor/bootstrap/bootstrap.app.css")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "look")
    parser.add_argument("--only", help="only pages whose name contains this")
    args = parser.parse_args()
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the scene's login, beside Playwright's loop
    css = {"before": args.before.read_bytes(), "after": args.after.read_bytes()}
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kartenrunde-bench-") as tmp:
        configure(Path(tmp) / "bench.sqlite3", Path(tmp) / "static")
        from django.test.testcases import LiveServerThread
        from PIL import Image, ImageChops
        from playwright.sync_api import Route, sync_playwright

        sys.path.insert(0, str(ROOT))
        from tests.e2e.scenes import evening, log_in

        scene = evening()
        server = LiveServerThread("localhost", lambda handler: handler, port=0)
        server.daemon = True
        server.start()
        server.is_ready.wait()
        if server.error:
            raise server.error
        base = f"http://localhost:{server.port}"
        results = []
        chosen = {"css": css["before"]}

        def answer(route: Route) -> None:
            route.fulfill(status=200, body=chosen["css"],
                          headers={"Content-Type": "text/css; charset=utf-8",
                                   "Cache-Control": "no-store"})

        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                for scheme in ("light", "dark"):
                    context = browser.new_context(
                        viewport={"width": 390, "height": 844}, color_scheme=scheme,
                        extra_http_headers={"Accept-Language": "de"},
                        service_workers="block",
                    )
                    page = context.new_page()
                    page.route("**/vendor/bootstrap/*.css", answer)
                    logged_in = False
                    for number, (name, path, script) in enumerate(pages(scene)):
                        if number >= 2 and not logged_in:
                            log_in(page, base, scene.user)
                            logged_in = True
                        if args.only and args.only not in name:
                            continue
                        shots = {}
                        for which in ("before", "after"):
                            chosen["css"] = css[which]
                            page.goto(base + path, wait_until="networkidle")
                            if script:
                                page.evaluate(script)
                            page.wait_for_timeout(150)
                            file = args.out / f"{_slug(name)}-{scheme}-{which}.png"
                            page.screenshot(path=file, full_page=True, animations="disabled",
                                            caret="hide")
                            shots[which] = Image.open(file).convert("RGB")
                        before, after = shots["before"], shots["after"]
                        if before.size != after.size:
                            results.append((name, scheme, -1, before.size, after.size))
                            continue
                        mask = ImageChops.difference(before, after).convert("L").point(
                            lambda v: 255 if v else 0)
                        changed = mask.histogram()[255]
                        if changed:
                            mask.save(args.out / f"{_slug(name)}-{scheme}-difference.png")
                        results.append((name, scheme, changed, before.size, after.size))
                    context.close()
                browser.close()
        finally:
            server.terminate()
    print(f"\n{'page':<34} {'scheme':<6} {'size':>10} {'pixels differing':>17}")
    for name, scheme, changed, size, other in results:
        shown = "SIZE DIFFERS " + f"{other[0]}×{other[1]}" if changed < 0 else str(changed)
        print(f"{name:<34} {scheme:<6} {size[0]:>4}×{size[1]:<5} {shown:>17}")
    worst = max((changed for *_, changed, _size, _other in results), default=0)
    print(f"\n{len(results)} screenshots pairs, most pixels differing on one page: {worst}; "
          f"files in {args.out}")


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")


if __name__ == "__main__":
    main()
