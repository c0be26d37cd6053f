"""Lighthouse (mobile) on the production server: login, group home, an open sheet, a rules page.

Starts the production profile (bench/serving.py: gunicorn with gunicorn.conf.py,
DEBUG off, collected static files, a throw-away SQLite database with the demo
data) on 127.0.0.1, logs in as the demo account, starts an X nimmt! match with
two deals (an open sheet with the deal form) and runs Lighthouse 12.2.3 on the
four pages (the signed-in pages get the session cookie through --extra-headers).
Prints the four category scores per page and every audit that is not passed.

Lighthouse 12.2.3 runs on Node 20 (13 needs Node 22); install it outside the tree:

    npm i --prefix /tmp/lighthouse -E lighthouse@12.2.3
    .venv/bin/python bench/lighthouse.py --lighthouse /tmp/lighthouse/node_modules/.bin/lighthouse

Options: --port (default 8600), --runs N (the median score of N runs per page;
performance varies from run to run on a shared machine), --dark (the phone in
dark mode), --json DIR (keep the reports).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import Visitor, demo_pages, production_server

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                "--disable-background-networking --disable-component-update --disable-sync")
# Blink's preferred colour scheme: 0 is dark, 1 is light.
DARK_FLAG = " --blink-settings=preferredColorScheme=0"
METRICS = {"first-contentful-paint": "FCP", "largest-contentful-paint": "LCP",
           "total-blocking-time": "TBT", "cumulative-layout-shift": "CLS", "speed-index": "SI"}


def run_lighthouse(lighthouse: str, url: str, cookie: str, *, dark: bool, out: Path) -> dict:
    command = [
        lighthouse, url, "--quiet", "--output=json", f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}{DARK_FLAG if dark else ''}",
    ]
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    environment = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    subprocess.run(command, check=True, timeout=300, env=environment,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return json.loads(out.read_text())


def failing_audits(report: dict) -> list[str]:
    """Audits of the four categories that are not passed, with what Lighthouse says about them."""
    lines = []
    audits = report["audits"]
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = audits[ref["id"]]
            score = audit.get("score")
            if audit.get("scoreDisplayMode") in ("notApplicable", "manual", "informative"):
                continue
            if score is None or score >= 1 or (category == "performance" and score >= 0.9
                                               and ref["id"] not in METRICS):
                continue
            detail = audit.get("displayValue") or ""
            items = (audit.get("details") or {}).get("items") or []
            where = []
            for item in items[:3]:
                node = item.get("node") or {}
                where.append(node.get("snippet") or item.get("url") or item.get("source") or "")
            extra = f" [{'; '.join(w for w in where if w)}]" if any(where) else ""
            lines.append(f"    {category:<14} {ref['id']} ({score:.2f}) {detail}{extra}"[:400])
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8600)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--lighthouse", default=os.environ.get("LIGHTHOUSE") or shutil.which(
        "lighthouse") or "/tmp/lighthouse/node_modules/.bin/lighthouse")
    options = parser.parse_args()
    if not Path(options.lighthouse).exists():
        raise SystemExit(f"No Lighthouse at {options.lighthouse}: "
                         "npm i --prefix /tmp/lighthouse -E lighthouse@12.2.3")
    folder = options.json or Path(tempfile.mkdtemp(prefix="kartenrunde-lighthouse-"))
    folder.mkdir(parents=True, exist_ok=True)
    with production_server(options.port, workers=2, threads=4) as base:
        phone = Visitor()
        paths = demo_pages(base, phone)
        cookie = "; ".join(f"{c.name}={c.value}" for c in phone.cookies)
        pages = [("login page", "/accounts/login/", ""),
                 ("group home", paths["group home"], cookie),
                 ("open score sheet", paths["score sheet"], cookie),
                 ("rules page", paths["rules page"], cookie)]
        mode = "dark" if options.dark else "light"
        print(f"Lighthouse 12.2.3, mobile, {mode} mode, median of {options.runs} run(s) "
              f"(performance / accessibility / best practices / SEO)")
        for name, path, page_cookie in pages:
            scores: dict[str, list[float]] = {c: [] for c in CATEGORIES}
            report: dict = {}
            for run in range(options.runs):
                out = folder / f"{name.replace(' ', '-')}-{mode}-{run}.json"
                report = run_lighthouse(options.lighthouse, base + path, page_cookie,
                                        dark=options.dark, out=out)
                if report["finalDisplayedUrl"].rstrip("/") != (base + path).rstrip("/"):
                    raise SystemExit(f"{name}: Lighthouse ended on {report['finalDisplayedUrl']}")
                for category in CATEGORIES:
                    scores[category].append(report["categories"][category]["score"] * 100)
            figures = " / ".join(f"{statistics.median(scores[c]):.0f}" for c in CATEGORIES)
            if options.runs > 1:
                figures += "  (performance " + ", ".join(
                    f"{s:.0f}" for s in scores["performance"]) + ")"
            metrics = ", ".join(f"{label} {report['audits'][m]['displayValue']}"
                                for m, label in METRICS.items())
            print(f"{name:<17} {figures:<20} {path}  ({metrics}, last run)")
            for line in failing_audits(report):
                print(line)
    print(f"# reports: {folder}", file=sys.stderr)


if __name__ == "__main__":
    main()
