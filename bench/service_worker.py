"""Repeat visits of a score sheet on an emulated 4G phone: service worker allowed vs blocked.

Starts the production profile (bench/serving.py: gunicorn, DEBUG off, demo data),
opens an X nimmt! sheet with two deals and visits it again and again in Debian's
Chromium at 390×844 with the CPU throttled 4× (a mid-range phone). The network is a
small proxy on 127.0.0.1 in front of gunicorn that delays every chunk by half the
round trip each way, limits the bandwidth and costs one round trip per new
connection: unlike Chrome's own throttling it also slows the service worker's
requests. Profile "4G": 60 ms round trip, 9 Mbit/s down, 3 Mbit/s up.

Each run, alternating between the two, is a fresh browser context (service workers
"allow" or "block"): a first visit of the sheet (with the worker: until it has
stored the page), then two repeat visits in a new tab: "cold", after the service
worker was stopped (the phone coming back to the app), and "warm", right after (the
worker still running, as when tapping from page to page). Prints medians (and
quartiles) over the runs of TTFB (the navigation's responseStart), first paint and
first contentful paint, in milliseconds from the start of the navigation.

With ``--compare DIR`` (another checkout of the project, e.g. ``git worktree add`` or
``git archive`` of an older commit), a second server runs that code beside this one and
the runs alternate between the two as well, so both see the same machine load.

    .venv/bin/python bench/service_worker.py [--runs 12] [--port 8640] [--compare DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import ROOT, Visitor, demo_pages, production_server

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
METRICS = """async () => {
  const nav = performance.getEntriesByType("navigation")[0];
  const paint = Object.fromEntries(performance.getEntriesByType("paint")
    .map(entry => [entry.name, entry.startTime]));
  return {ttfb: nav.responseStart, fp: paint["first-paint"],
          fcp: paint["first-contentful-paint"], worker: nav.workerStart > 0,
          styled: getComputedStyle(document.querySelector("nav")).position === "sticky",
          routed: performance.getEntriesByType("resource")
            .filter(entry => entry.workerMatchedSourceType === "cache").length,
          bypassed: performance.getEntriesByType("resource")
            .filter(entry => entry.workerMatchedSourceType === "network").length};
}"""


class Link:
    """One direction of a throttled connection: delivers chunks in order, each no earlier
    than half a round trip after it arrived and after the previous chunk has passed
    through a pipe of ``rate`` bytes per second."""

    def __init__(self, one_way: float, rate: float) -> None:
        self.one_way, self.rate, self.free_at = one_way, rate, 0.0

    async def pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                arrived, data = await queue.get()
                if not data:
                    break
                start = max(arrived + self.one_way, self.free_at)
                self.free_at = start + len(data) / self.rate
                await asyncio.sleep(max(0.0, self.free_at - loop.time()))
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.create_task(deliver())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((loop.time(), data))
        except ConnectionError:
            pass
        queue.put_nowait((loop.time(), b""))
        await sender


@contextmanager
def throttled(port: int, upstream: int, *, rtt_ms: float, down_mbit: float,
              up_mbit: float) -> Iterator[str]:
    """A proxy on 127.0.0.1:``port`` to ``upstream`` with the given network profile."""
    loop = asyncio.new_event_loop()
    one_way = rtt_ms / 2000

    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        await asyncio.sleep(2 * one_way)  # the TCP handshake's round trip
        server_r, server_w = await asyncio.open_connection("127.0.0.1", upstream)
        await asyncio.gather(
            Link(one_way, up_mbit * 125_000).pump(client_r, server_w),
            Link(one_way, down_mbit * 125_000).pump(server_r, client_w),
            return_exceptions=True,
        )

    server = loop.run_until_complete(asyncio.start_server(handle, "127.0.0.1", port))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        loop.call_soon_threadsafe(server.close)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)


def visit(context: object, url: str, *, stop_workers: bool) -> dict[str, float]:
    page = context.new_page()  # type: ignore[attr-defined]
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    if stop_workers:
        cdp.send("ServiceWorker.enable")
        cdp.send("ServiceWorker.stopAllWorkers")
        time.sleep(0.3)
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)
    found: dict[str, float] = page.evaluate(METRICS)
    page.close()
    return found


def run(browser: object, base: str, path: str, cookies: list[dict[str, str]], *,
        workers: str) -> dict[str, dict[str, float]]:
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 390, "height": 844}, service_workers=workers,
        extra_http_headers={"Accept-Language": "de"},
    )
    context.add_cookies(cookies)
    first = context.new_page()
    first.goto(base + path, wait_until="load")
    if workers == "allow":
        first.wait_for_function("document.documentElement.dataset.offlineReady === '1'",
                                timeout=30_000)
    else:
        first.wait_for_timeout(500)
    first.close()
    cold = visit(context, base + path, stop_workers=True)
    warm = visit(context, base + path, stop_workers=False)
    context.close()
    if workers == "allow":
        assert cold["worker"] and warm["worker"], "the service worker did not answer"
    assert cold["styled"] and warm["styled"], "the page lost Bootstrap's styles"
    return {"cold": cold, "warm": warm}


def _quartiles(values: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{median:6.0f} ({q1:4.0f}–{q3:4.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--port", type=int, default=8640)
    parser.add_argument("--compare", type=Path, help="another checkout to measure beside this")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    roots = {"this": ROOT, **({"compared": args.compare.resolve()} if args.compare else {})}
    results: dict[tuple[str, str], list[dict[str, dict[str, float]]]] = {}
    with ExitStack() as stack:
        sites: dict[str, tuple[str, str, list[dict[str, str]]]] = {}
        for number, (label, root) in enumerate(roots.items()):
            port = args.port + 2 * number
            direct = stack.enter_context(production_server(port, root=root))
            base = stack.enter_context(
                throttled(port + 1, port, rtt_ms=60, down_mbit=9, up_mbit=3))
            phone = Visitor()
            sheet = demo_pages(direct, phone)["score sheet"]
            cookies = [{"name": c.name, "value": c.value or "", "url": base}
                       for c in phone.cookies]
            sites[label] = (base, sheet, cookies)
        variants = [(label, workers) for label in sites for workers in ("allow", "block")]
        results = {variant: [] for variant in variants}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            for base, sheet, cookies in sites.values():  # warm up servers and disk
                run(browser, base, sheet, cookies, workers="allow")
            for number in range(args.runs):
                shift = number % len(variants)
                for label, workers in variants[shift:] + variants[:shift]:
                    base, sheet, cookies = sites[label]
                    results[label, workers].append(
                        run(browser, base, sheet, cookies, workers=workers))
            browser.close()
    print(f"\nrepeat visit of a score sheet over a 4G proxy (60 ms RTT, 9/3 Mbit/s), CPU 4× "
          f"slower; medians (quartiles) of {args.runs} runs, ms from navigation start")
    print(f"{'code':<9} {'visit':<6} {'worker':<7} {'TTFB':>18} {'first paint':>18} {'FCP':>18}")
    for label in sites:
        for visit_kind in ("cold", "warm"):
            for workers in ("allow", "block"):
                rows = [r[visit_kind] for r in results[label, workers]]
                print(f"{label:<9} {visit_kind:<6} {workers:<7} "
                      + " ".join(f"{_quartiles([r[m] for r in rows]):>18}"
                                 for m in ("ttfb", "fp", "fcp")))
    if args.compare:
        print(f"compared: {args.compare}")
    for label in sites:
        allowed = [r[kind] for r in results[label, "allow"] for kind in ("cold", "warm")]
        print(f"{label}, service worker allowed, per visit (static routing): "
              f"{statistics.median(r['routed'] for r in allowed):.0f} files from its cache, "
              f"{statistics.median(r['bypassed'] for r in allowed):.0f} requests past it")
    print(f"\ncold: the service worker stopped before the visit; warm: right after the cold one."
          f"\nload average before {' '.join(f'{x:.2f}' for x in load_before)}, after "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
