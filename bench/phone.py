"""Phone benchmark (issue 18): what a player feels, in a real browser on a throttled phone.

Playwright drives Debian's Chromium (/usr/bin/chromium, the flags of tests/conftest.py)
in a 390x844 phone context; every page gets Chrome's CPU throttling
(``Emulation.setCPUThrottlingRate`` 4: a mid-range phone) and an emulated network
(``Network.emulateNetworkConditions``) before it loads. The app is served as `make run`
serves it (bench/served.py: gunicorn as gunicorn.conf.py sets it, DEBUG off) on a
throw-away SQLite file (or ``--database-url``), 127.0.0.1 only. Rows:

- tap: tap "save" on a deal (11 nimmt!, 4 players, deal 2 of 4, the entries typed in
  and their preview answered first) until the frame in which #standings shows the new
  totals, on 4G and Slow 3G, the profiles interleaved. Measured in the page: from the
  click event to the first frame after a MutationObserver saw #standings change
  (requestAnimationFrame, then a message: after that frame's paint); with the preview's
  standings (static/js/standings.js) that frame comes before the answer. Beside it the
  server's answer: when it arrived (Resource Timing ``responseEnd``), when its sheet was
  swapped in and painted, the part after it arrived (the browser's work), and inside
  that htmx's swap (``htmx:beforeSwap`` to ``htmx:afterSwap``);
- phone to phone: phone A saves a deal, phone B (a second context on the same sheet,
  polling as the page does) shows the new standings; the save at a random moment of
  B's 2 s poll cycle; median, 95th percentile and maximum over ``--saves`` saves (4G);
- cold visit: the first visit of a sheet with an empty cache on Slow 3G (the session
  cookie set): first contentful paint, LCP, bytes;
- repeat visit: a sheet opened again on 4G (HTTP cache and, where allowed, the service
  worker warm from a first visit), service workers allowed vs blocked: time to the
  first tap-able form (the save button there and the DOMContentLoaded handlers run),
  TTFB, LCP.

The home pages at 5/50/700 running matches (server CPU and bytes) are rows of
bench/budgets.py (``--only home``). ``--profile`` records Chrome's trace and a JS CPU
profile of a few saves at 4x CPU and prints where the browser's time goes.

    .venv/bin/python bench/phone.py [--runs 12] [--saves 20] [--only tap,p2p,cold,repeat]
                                    [--profile]

Medians over interleaved runs; the machine's load average at start and end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from typing import Any

import served  # bench/ is the script's folder, so on sys.path

# ------------------------------------------------------------------ what is selected
# Stable ids of today's sheet (the markup around them may change): keep them here.
STANDINGS = "#standings"
SHEET = "#sheet"
DEAL_FORM = "#deal-form form"
SAVE_BUTTON = "#deal-form form button[type=submit]:not([name])"
SAVE_URL_PART = "/deals/new/"
SHEET_URL = "/g/{group}/matches/{match}/"
DEAL_EDIT_URL = SHEET_URL + "deals/{number}/"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [  # tests/conftest.py's
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "is_mobile": True, "has_touch": True, "locale": "de-DE"}
CPU_SLOWDOWN = 4
NETWORKS = {
    # latency: the round trip each request waits; throughput in bytes per second.
    "4G": {"latency": 60, "downloadThroughput": 9_000_000 / 8,
           "uploadThroughput": 1_500_000 / 8},
    "Slow 3G": {"latency": 400, "downloadThroughput": 400_000 / 8,
                "uploadThroughput": 400_000 / 8},
}
KEYS = ("tap", "p2p", "cold", "repeat")
GAME, PLAYERS, NUMBER = "elf-nimmt", 4, 2  # the deal saved: 11 nimmt!, 4 players, deal 2

# In the page (window.__krWatch, a promise awaited after the tap): wait for #standings to
# change after a tap on save, then for the frame that shows it; the times
# (performance.now()) of the steps on the way.
WATCH = """([standings, button, savePart]) => { window.__krWatch = new Promise((resolve) => {
  const before = (document.querySelector(standings) || {}).textContent;
  const t = {};
  const first = (name) => (event) => { if (t[name] === undefined) t[name] = performance.now(); };
  document.addEventListener("click", (event) => {
    if (event.target.closest(button)) t.click = event.timeStamp;
  }, {capture: true, once: true});
  // The next frame after now, as painted: a rAF, then a task (after the frame's paint).
  const nextPaint = (done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(0);
  });
  // Done once the standings were painted (at once from the preview: static/js/standings.js,
  // or with the answer) and the server's answer was swapped in and painted.
  const finish = () => {
    if (t.painted === undefined || t.answerPainted === undefined) return;
    const save = performance.getEntriesByType("resource")
      .filter((e) => e.name.includes(savePart)).pop();
    if (save) { t.requestStart = save.requestStart; t.responseStart = save.responseStart;
                t.responseEnd = save.responseEnd; t.bytes = save.transferSize; }
    t.origin = performance.timeOrigin;
    resolve(t);
  };
  for (const name of ["beforeRequest", "beforeSwap", "afterSwap", "afterSettle"]) {
    document.addEventListener("htmx:" + name, (event) => {
      const path = (event.detail.requestConfig || {}).path || "";
      if (!path.includes(savePart) || t[name] !== undefined) return;
      t[name] = performance.now();
      if (name === "afterSettle") nextPaint((now) => { t.answerPainted = now; finish(); });
    });
  }
  const observer = new MutationObserver(() => {
    const now = document.querySelector(standings);
    if (!now || now.textContent === before || t.changed !== undefined) return;
    t.changed = performance.now();
    observer.disconnect();
    nextPaint((painted) => {
      t.painted = painted;
      performance.mark("kr-painted");
      finish();
    });
  });
  observer.observe(document.documentElement, {subtree: true, childList: true,
                                              characterData: true});
  setTimeout(() => resolve({...t, timeout: true, notice:
    (document.querySelector("#sheet-notice") || document.body).innerText.slice(0, 500)}), 30000);
}); }"""

# On phone B (window.__krWatch): resolves with the epoch time (ms) of the first frame
# after #standings changed.
WATCH_OTHER = """(standings) => { window.__krWatch = new Promise((resolve) => {
  const before = (document.querySelector(standings) || {}).textContent;
  const observer = new MutationObserver(() => {
    const now = document.querySelector(standings);
    if (!now || now.textContent === before) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.timeOrigin + performance.now());
      channel.port2.postMessage(0);
    });
  });
  observer.observe(document.documentElement, {subtree: true, childList: true,
                                              characterData: true});
  setTimeout(() => resolve(null), 30000);
}); }"""

# Typed into the deal form: the entries (name, value) as the deal's edit form holds them.
FILL = """([form, pairs]) => {
  const element = document.querySelector(form);
  if (!element) return ["no deal form"];
  const names = new Set(pairs.map(([name]) => name));
  const missing = [];
  for (const field of element.elements) {
    if (names.has(field.name) && field.type === "checkbox") field.checked = false;
  }
  for (const [name, value] of pairs) {
    const fields = [...element.elements].filter((field) => field.name === name);
    if (!fields.length) { missing.push(name); continue; }
    for (const field of fields) {
      if (field.type === "checkbox" || field.type === "radio") {
        if (field.value === value) field.checked = true;
      } else { field.value = value; }
    }
    fields[0].dispatchEvent(new Event("input", {bubbles: true}));
    fields[0].dispatchEvent(new Event("change", {bubbles: true}));
  }
  return missing;
}"""

# Added to every page before its scripts: LCP, and the moment the save button can be
# tapped (in the DOM once the DOMContentLoaded handlers, htmx's among them, have run).
PAGE_TIMES = """(() => {
  window.__kr = {lcp: 0};
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__kr.lcp = entry.startTime;
    }).observe({type: "largest-contentful-paint", buffered: true});
  } catch (error) {}
  document.addEventListener("DOMContentLoaded", () => setTimeout(() => {
    const ready = () => { window.__kr.tapable = performance.now(); };
    if (document.querySelector(BUTTON)) { ready(); return; }
    const observer = new MutationObserver(() => {
      if (document.querySelector(BUTTON)) { observer.disconnect(); ready(); }
    });
    observer.observe(document.documentElement, {subtree: true, childList: true});
  }, 0));
})();""".replace("BUTTON", json.dumps(SAVE_BUTTON))


class Phones:
    """The browser, the server's data and the phones' sessions."""

    def __init__(self, args: argparse.Namespace, port: int, plan: dict[str, Any]) -> None:
        from playwright.sync_api import sync_playwright

        self.args, self.port, self.plan = args, port, plan
        self.base = f"http://127.0.0.1:{port}"
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        self.cookies: dict[str, list[dict[str, Any]]] = {}
        for name in ("anna", "ben"):
            phone = served.Phone(port)
            phone.login(name)
            self.cookies[name] = [{"name": key, "value": value, "url": self.base}
                                  for key, value in phone.cookies.items()]
            phone.close()
        self.fresh = list(plan["matches"])

    def close(self) -> None:
        self.browser.close()
        self.playwright.stop()

    def context(self, user: str = "anna", *, service_workers: str = "block") -> Any:
        context = self.browser.new_context(**PHONE, service_workers=service_workers)
        context.add_cookies(self.cookies[user])
        context.add_init_script(PAGE_TIMES)
        return context

    def page(self, context: Any, network: str) -> Any:
        """A new tab of ``context``, throttled (CPU 4x, ``network``) before it loads."""
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions",
                 {"offline": False, **NETWORKS[network]})
        page.set_default_timeout(60_000)
        page.cdp = cdp  # type: ignore[attr-defined]
        return page

    def sheet_url(self, match: Any, *, mode: str = "") -> str:
        url = self.base + SHEET_URL.format(group=self.plan["group"].pk, match=match.pk)
        return url + (f"?mode={mode}" if mode else "")

    def next_match(self) -> Any:
        if not self.fresh:
            raise SystemExit("no fresh match left: seed more")
        return self.fresh.pop()

    def fill(self, page: Any) -> None:
        """The deal's entries typed in; back when their preview has answered."""
        missing = page.evaluate(FILL, [DEAL_FORM, self.plan["entries"]])
        if missing:
            raise SystemExit(f"the deal form has no field {missing}")
        page.wait_for_timeout(400)  # the preview waits 300 ms for more typing
        # The preview's request done (not the sheet's held poll, which is nearly always out).
        page.wait_for_function("() => !document.querySelector('.deal-preview-box.htmx-request')")

    def open_sheet(self, page: Any, match: Any) -> None:
        page.goto(self.sheet_url(match, mode=self.plan["mode"]), wait_until="load")
        page.wait_for_selector(SAVE_BUTTON)

    # -------------------------------------------------------------------- the rows

    def tap(self, network: str) -> dict[str, float]:
        """One save on a fresh match: the times from the click, in ms."""
        context = self.context()
        try:
            page = self.page(context, network)
            self.open_sheet(page, self.next_match())
            self.fill(page)
            page.wait_for_timeout(random.uniform(0, 500))
            page.evaluate(WATCH, [STANDINGS, SAVE_BUTTON, SAVE_URL_PART])
            tap(page)
            t = watched(page)
        finally:
            context.close()
        return {
            "total": t["painted"] - t["click"],
            "answer": t["responseEnd"] - t["click"],
            "confirmed": t["answerPainted"] - t["click"],
            "after": t["answerPainted"] - t["responseEnd"],
            "swap": t["afterSwap"] - t["beforeSwap"],
            "to_swap": t["beforeSwap"] - t["responseEnd"],
            "settle": t["answerPainted"] - t["afterSwap"],
            "to_request": t["beforeRequest"] - t["click"],
            "kb": t.get("bytes", 0) / 1000,
        }

    def phone_to_phone(self, saves: int) -> list[float]:
        """Seconds from A's click to B's frame with the new standings, per save."""
        a_context, b_context = self.context("anna"), self.context("ben")
        seconds = []
        try:
            a_page, b_page = self.page(a_context, "4G"), self.page(b_context, "4G")
            for _ in range(saves):
                match = self.next_match()
                self.open_sheet(b_page, match)
                self.open_sheet(a_page, match)
                self.fill(a_page)
                # The save at a random point of B's poll cycle (every 2 s).
                a_page.wait_for_timeout(random.uniform(0, 2000))
                visible = b_page.evaluate("document.visibilityState")
                if visible != "visible":
                    raise SystemExit(f"phone B's page is {visible}: it would not poll")
                b_page.evaluate(WATCH_OTHER, STANDINGS)
                a_page.evaluate(WATCH, [STANDINGS, SAVE_BUTTON, SAVE_URL_PART])
                tap(a_page)
                t = watched(a_page)
                shown = b_page.evaluate("window.__krWatch")
                if shown is None:
                    raise SystemExit("phone B did not show the save within 30 s")
                seconds.append((shown - (t["origin"] + t["click"])) / 1000)
        finally:
            a_context.close()
            b_context.close()
        return seconds

    def cold(self) -> dict[str, float]:
        """The first visit of a sheet on Slow 3G with an empty cache."""
        context = self.context()
        try:
            page = self.page(context, "Slow 3G")
            page.goto(self.sheet_url(self.plan["viewed"]), wait_until="load")
            page.wait_for_timeout(300)
            found = page.evaluate("""() => {
              const paint = performance.getEntriesByType("paint")
                .find((e) => e.name === "first-contentful-paint");
              const resources = performance.getEntriesByType("resource");
              const nav = performance.getEntriesByType("navigation")[0];
              const css = resources.filter((e) => e.name.endsWith(".css"))
                .reduce((sum, e) => sum + e.transferSize, 0);
              const all = resources.reduce((sum, e) => sum + e.transferSize, nav.transferSize);
              return {fcp: paint ? paint.startTime : NaN, lcp: window.__kr.lcp,
                      ttfb: nav.responseStart, kb: all / 1000, css: css / 1000};
            }""")
        finally:
            context.close()
        return found

    def repeat(self, service_workers: str) -> dict[str, float]:
        """A sheet opened again (a new tab) after a first visit, on 4G."""
        context = self.context(service_workers=service_workers)
        try:
            first = self.page(context, "4G")
            first.goto(self.sheet_url(self.plan["viewed"]), wait_until="load")
            first.wait_for_timeout(500)
            if service_workers == "allow":
                first.wait_for_function("!!navigator.serviceWorker.controller", timeout=20_000)
                # Stopped, as a worker is after 30 idle seconds: the next visit starts it, and
                # Chrome then throttles its fetches like the page's (a worker still running
                # from the closed tab's time would fetch unthrottled).
                first.cdp.send("ServiceWorker.enable")
                first.cdp.send("ServiceWorker.stopAllWorkers")
            first.close()
            page = self.page(context, "4G")
            page.goto(self.sheet_url(self.plan["viewed"]), wait_until="load")
            page.wait_for_function("window.__kr && window.__kr.tapable !== undefined")
            page.wait_for_timeout(300)
            found = page.evaluate("""() => {
              const nav = performance.getEntriesByType("navigation")[0];
              const bytes = performance.getEntriesByType("resource")
                .reduce((sum, e) => sum + e.transferSize, nav.transferSize);
              return {tap: window.__kr.tapable, ttfb: nav.responseStart, html: nav.responseEnd,
                      lcp: window.__kr.lcp, kb: bytes / 1000,
                      sw: !!navigator.serviceWorker && !!navigator.serviceWorker.controller};
            }""")
        finally:
            context.close()
        if found.pop("sw") != (service_workers == "allow"):
            raise SystemExit(f"service workers {service_workers}, but the page says otherwise")
        return found

    def profile(self, saves: int) -> str:
        """Chrome's trace and a JS CPU profile of saves at 4x CPU on 4G: where time goes."""
        categories = ["devtools.timeline", "disabled-by-default-devtools.timeline",
                      "blink.user_timing", "v8.execute", "v8", "blink", "loading"]
        phases: Counter[str] = Counter()
        functions: Counter[tuple[str, str]] = Counter()
        files: Counter[str] = Counter()
        early_phases: Counter[str] = Counter()
        early_functions: Counter[tuple[str, str]] = Counter()
        windows = []
        for _ in range(saves):
            context = self.context()
            try:
                page = self.page(context, "4G")
                self.open_sheet(page, self.next_match())
                self.fill(page)
                cdp = page.cdp
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 100})
                self.browser.start_tracing(page=page, categories=categories)
                cdp.send("Profiler.start")
                page.evaluate(WATCH, [STANDINGS, SAVE_BUTTON, SAVE_URL_PART])
                tap(page)
                t = watched(page)
                page.wait_for_timeout(100)
                profile = cdp.send("Profiler.stop")["profile"]
                trace = json.loads(self.browser.stop_tracing())
            finally:
                context.close()
            events = trace["traceEvents"] if isinstance(trace, dict) else trace
            painted = next((e for e in events if e.get("name") == "kr-painted"), None)
            if painted is None:
                raise SystemExit("the trace has no kr-painted mark")
            # Trace and profile count µs on one clock; performance.now() is ms from the
            # page's origin: the mark made at t["painted"] ties them together.
            offset = painted["ts"] - t["painted"] * 1000
            window = (t["responseEnd"] * 1000 + offset, t["painted"] * 1000 + offset)
            windows.append(t)
            _trace_self_time(events, (painted["pid"], painted["tid"]), window, phases)
            _profile_self_time(profile, window, functions, files)
            early = (t["click"] * 1000 + offset, t["beforeRequest"] * 1000 + offset)
            _trace_self_time(events, (painted["pid"], painted["tid"]), early, early_phases)
            _profile_self_time(profile, early, early_functions, Counter())
        after = statistics.median(w["painted"] - w["responseEnd"] for w in windows)
        total = statistics.median(w["painted"] - w["click"] for w in windows)
        before = statistics.median(w["beforeRequest"] - w["click"] for w in windows)
        out = [f"Profile of {saves} saves (4G, CPU {CPU_SLOWDOWN}x, traced, so slower): tap to "
               f"paint median {total:.0f} ms; tap to request sent {before:.0f} ms; answer "
               f"arrived to paint {after:.0f} ms.",
               "Renderer main thread from the answer's arrival to the paint, self time per "
               "save (trace events, ms):"]
        out += [f"  {name:<40} {value / saves:>7.1f}" for name, value in phases.most_common(16)]
        out += [f"  {'(all)':<40} {sum(phases.values()) / saves:>7.1f}",
                "JavaScript self time in the same window per save (CPU profile, ms), by file:"]
        out += [f"  {name:<40} {value / saves:>7.1f}" for name, value in files.most_common(8)]
        out.append("  by function:")
        out += [f"  {name[:44]:<44} {where[:24]:<24} {value / saves:>7.1f}"
                for (name, where), value in functions.most_common(20)]
        out.append("From the tap to the request sent, per save: trace events (self, ms):")
        out += [f"  {name:<40} {value / saves:>7.1f}"
                for name, value in early_phases.most_common(8)]
        out.append("  JavaScript self time by function:")
        out += [f"  {name[:44]:<44} {where[:24]:<24} {value / saves:>7.1f}"
                for (name, where), value in early_functions.most_common(10)]
        return "\n".join(out)


def tap(page: Any) -> None:
    """A finger's tap on save (touch events, then the click), without Playwright's checks
    that the button receives it: they run in the page, inside the measured time."""
    button = page.locator(SAVE_BUTTON)
    button.scroll_into_view_if_needed()
    page.wait_for_timeout(100)
    button.tap(force=True)


def watched(page: Any) -> dict[str, float]:
    """The times WATCH took in ``page`` (waits for them)."""
    t = page.evaluate("window.__krWatch")
    if t.get("timeout"):
        raise SystemExit(f"no new standings 30 s after the tap: {t}")
    return t


def _trace_self_time(events: list[dict[str, Any]], thread: tuple[int, int],
                     window: tuple[float, float], phases: Counter[str]) -> None:
    """Adds each trace event's self time (its duration less its children's, ms) inside
    ``window`` on ``thread`` (the page's main thread) to ``phases``, by event name."""
    spans = sorted(
        ((e["ts"], e["ts"] + e["dur"], e["name"]) for e in events
         if e.get("ph") == "X" and "dur" in e and (e.get("pid"), e.get("tid")) == thread),
        key=lambda span: (span[0], -span[1]),
    )
    start, end = window

    def clipped(a: float, b: float) -> float:
        return max(0.0, min(b, end) - max(a, start))

    stack: list[list[Any]] = []  # [begin, end, name, children's clipped time]
    def close(span: list[Any]) -> None:
        phases[span[2]] += (clipped(span[0], span[1]) - span[3]) / 1000
        if stack:
            stack[-1][3] += clipped(span[0], span[1])

    for begin, finish, name in spans:
        while stack and stack[-1][1] <= begin:
            close(stack.pop())
        stack.append([begin, finish, name, 0.0])
    while stack:
        close(stack.pop())


def _profile_self_time(profile: dict[str, Any], window: tuple[float, float],
                       functions: Counter[tuple[str, str]], files: Counter[str]) -> None:
    """Adds the CPU profile's samples inside ``window`` (µs) as self time (ms) per
    function and per script file."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    stamp = profile["startTime"]
    previous = None
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        stamp += delta
        if previous is not None and window[0] <= stamp <= window[1]:
            frame = nodes[node_id]["callFrame"]
            name = frame["functionName"] or "(anonymous)"
            where = frame["url"].rsplit("/", 1)[-1].split("?")[0] or "(native)"
            ms = (stamp - previous) / 1000
            functions[(name, f"{where}:{frame.get('lineNumber', 0) + 1}")] += ms
            files[where] += ms
        previous = stamp


# ------------------------------------------------------------------------ seeding


def seed(args: argparse.Namespace, keys: set[str]) -> dict[str, Any]:
    """Two members (anna, ben) of one group, fresh matches to save a deal on, one to view."""
    seeder = served.Seeder(args.seed)
    anna, ben = seeder.user("anna"), seeder.user("ben")
    group, roster = seeder.group("Tisch", anna, ("Anna", "Ben", "Cem", "Dora"), [ben])
    needed = 2
    if "tap" in keys:
        needed += 2 * (args.runs + 1)
    if "p2p" in keys:
        needed += args.saves + 1
    if args.profile:
        needed += args.profile
    seated = roster[:PLAYERS]
    matches = [seeder.match(group, GAME, seated, NUMBER - 1) for _ in range(needed)]
    twin = seeder.match(group, GAME, seated, NUMBER)
    viewed = seeder.match(group, GAME, seated, NUMBER)  # cold and repeat visits
    from django.test import Client

    client = Client(HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(anna)
    edit = client.get(DEAL_EDIT_URL.format(group=group.pk, match=twin.pk, number=NUMBER))
    entries = served.deal_entries(edit.content.decode(), f"/deals/{NUMBER}/")
    return {"group": group, "matches": matches, "viewed": viewed, "entries": entries,
            "mode": dict(entries).get("mode", "")}


# ------------------------------------------------------------------------ printing


def q(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return (values[0],) * 3 if values else (float("nan"),) * 3
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def line(label: str, values: list[float], *, unit: str = "ms", note: str = "",
         goal: str = "") -> None:
    q1, median, q3 = q(values)
    spread = f"{q1:.0f}–{q3:.0f}"
    print(f"{label:<66} {median:>8.0f} {spread:>13} {len(values):>4}  {goal:<20} {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=12, help="runs per row and profile")
    parser.add_argument("--saves", type=int, default=20, help="phone to phone: saves")
    parser.add_argument("--only", help=f"comma-separated rows: {', '.join(KEYS)}")
    parser.add_argument("--profile", type=int, nargs="?", const=5, default=0,
                        help="also trace this many saves (default 5) and print where the "
                        "browser's time goes")
    parser.add_argument("--database-url", help="postgres://... (that database is DROPPED)")
    parser.add_argument("--port", type=int, default=8392)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    keys = set(args.only.split(",")) if args.only else set(KEYS)
    if keys - set(KEYS):
        raise SystemExit(f"--only: choose from {', '.join(KEYS)}")
    random.seed(args.seed)
    load_start = os.getloadavg()
    environment, label = served.prepare(args.database_url)
    plan = seed(args, keys)
    from django.db import connections

    connections.close_all()
    results: dict[str, list[Any]] = defaultdict(list)
    loads: list[float] = []
    with served.server(environment, args.port):
        phones = Phones(args, args.port, plan)
        try:
            # Warm-up: the server's caches and compiled templates (both workers), the
            # browser's start.
            warm = served.Phone(args.port)
            warm.login("anna")
            for _ in range(8):
                warm.close()  # a new connection: it may land on the other worker
                warm.request("GET", phones.sheet_url(plan["viewed"]).removeprefix(phones.base))
            if keys & {"tap", "p2p"}:
                phones.tap("4G")
            began = time.perf_counter()
            load_measured = os.getloadavg()
            for run in range(args.runs):
                # Interleaved: every kind once per run, in a shuffled order.
                kinds = []
                if "tap" in keys:
                    kinds += [("tap 4G", lambda: phones.tap("4G")),
                              ("tap Slow 3G", lambda: phones.tap("Slow 3G"))]
                if "cold" in keys:
                    kinds.append(("cold", phones.cold))
                if "repeat" in keys:
                    kinds += [("repeat allow", lambda: phones.repeat("allow")),
                              ("repeat block", lambda: phones.repeat("block"))]
                random.shuffle(kinds)
                for name, measure in kinds:
                    results[name].append(measure())
                loads.append(os.getloadavg()[0])
                print(f"# run {run + 1}/{args.runs}, load average {loads[-1]:.2f}",
                      file=sys.stderr)
            if "p2p" in keys:
                results["p2p"] = phones.phone_to_phone(args.saves)
            seconds = time.perf_counter() - began
            profiled = phones.profile(args.profile) if args.profile else ""
        finally:
            phones.close()
    load_end = os.getloadavg()
    report(args, label, results, load_start, load_measured, load_end, seconds, loads)
    if profiled:
        print()
        print(profiled)


def report(args: argparse.Namespace, label: str, results: dict[str, list[Any]],
           load_start: tuple[float, ...], load_measured: tuple[float, ...],
           load_end: tuple[float, ...], seconds: float, loads: list[float]) -> None:
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=served.ROOT,
                            capture_output=True, text=True).stdout.strip()
    version = subprocess.run([CHROMIUM, "--version"], capture_output=True,
                             text=True).stdout.strip()
    print(f"# bench/phone.py, commit {commit}, {time.strftime('%Y-%m-%d %H:%M')}, {version}")
    print(f"# {label}; gunicorn as `make run` starts it, DEBUG off; 390x844 phone, CPU "
          f"throttled {CPU_SLOWDOWN}x; 4G: 60 ms RTT, 9 Mbit/s down, 1.5 up; "
          "Slow 3G: 400 ms RTT, 400 kbit/s")
    print("# load average (1/5/15 min): at start {:.2f} {:.2f} {:.2f}, when measuring began "
          "{:.2f} {:.2f} {:.2f}, at end {:.2f} {:.2f} {:.2f}".format(
              *load_start, *load_measured, *load_end))
    during = f"{min(loads):.2f}–{max(loads):.2f}" if loads else "-"
    print(f"# {args.runs} runs, interleaved, in {seconds:.0f} s; 1-min load average after "
          f"each run {during}")
    print()
    print(f"{'what the player feels (ms)':<66} {'median':>8} {'IQR':>13} {'runs':>4}  "
          f"{'goal (issue 18)':<20}")
    for network, goal in (("4G", "≤ RTT + 120 = 180"), ("Slow 3G", "≤ RTT + 200 = 600")):
        runs = results.get(f"tap {network}")
        if not runs:
            continue
        line(f"tap save → new standings painted, {network}", [r["total"] for r in runs],
             goal=goal)
        line("  click → request sent (htmx:beforeRequest)", [r["to_request"] for r in runs])
        line("  click → answer arrived (responseEnd)", [r["answer"] for r in runs])
        line("  click → the server's sheet swapped in and painted", [r["confirmed"] for r in runs])
        line("    of it: answer arrived → painted (browser work)", [r["after"] for r in runs],
             goal="≤ 50")
        line("    of that: answer → htmx:beforeSwap", [r["to_swap"] for r in runs])
        line("    of that: htmx swap (beforeSwap → afterSwap)", [r["swap"] for r in runs])
        line("    of that: afterSwap → painted (handlers, style, layout, paint)",
             [r["settle"] for r in runs])
        print(f"{'  answer size, KB as sent':<66} {statistics.median(r['kb'] for r in runs):>8.1f}")
    if results.get("p2p"):
        values = [s * 1000 for s in results["p2p"]]
        p95 = statistics.quantiles(values, n=20, method="inclusive")[18]
        line("phone A saves → phone B shows it, 4G", values, goal="p95 ≤ 1000",
             note=f"p95 {p95:.0f}, max {max(values):.0f}")
    if results.get("cold"):
        runs = results["cold"]
        line("cold first visit of a sheet, Slow 3G: first contentful paint",
             [r["fcp"] for r in runs], goal="≤ 1600")
        line("  largest contentful paint", [r["lcp"] for r in runs])
        line("  TTFB (responseStart)", [r["ttfb"] for r in runs])
        print(f"{'  KB transferred (CSS of it)':<66} "
              f"{statistics.median(r['kb'] for r in runs):>8.0f} "
              f"({statistics.median(r['css'] for r in runs):.0f})")
    for sw in ("allow", "block"):
        runs = results.get(f"repeat {sw}")
        if not runs:
            continue
        name = "service worker on" if sw == "allow" else "service worker blocked"
        line(f"repeat visit of a sheet, 4G, {name}: first tap-able form",
             [r["tap"] for r in runs], goal="on ≤ blocked")
        line("  TTFB (responseStart)", [r["ttfb"] for r in runs])
        line("  document arrived (responseEnd)", [r["html"] for r in runs])
        line("  largest contentful paint", [r["lcp"] for r in runs])
        print(f"{'  KB transferred (0 when from a cache)':<66} "
              f"{statistics.median(r['kb'] for r in runs):>8.1f}")
    print()
    print("Times in ms from the tap (click event) or from the navigation's start, measured in "
          "the page\n(performance.now()); painted = after the first frame that shows the change "
          "(requestAnimationFrame,\nthen a message). Phone to phone: A's click to B's frame, "
          "epoch-aligned through performance.timeOrigin.\nChrome's network emulation delays "
          "the body, not responseStart, of a request the page makes itself,\nbut "
          "responseStart of one a service worker makes: compare responseEnd. The service "
          "worker\nis stopped before the repeat visit (as after 30 idle seconds) and is not CPU "
          "throttled\n(Chrome throttles pages only). The home pages at 5/50/700 running matches: "
          "bench/budgets.py --only home.")


if __name__ == "__main__":
    main()
