"""Wire benchmark: what a phone downloads for a page, first visit and repeat visit.

For the score sheet (an X nimmt! match with two deals), the group home and a
rules page: the HTML and every stylesheet and script it links, requested with
``Accept-Encoding: gzip, br`` like a browser. It counts the bytes received
(status line, headers and body as sent, compressed where the server compressed).
A repeat visit loads the HTML again; a static file comes from the browser's
cache when its Cache-Control allows (max-age of a day or more), otherwise the
browser asks again with If-None-Match / If-Modified-Since and the answer counts.
Goals: first visit of the sheet at most 120 KB, a repeat visit at most 15 KB.

    .venv/bin/python bench/wire.py               # starts its own gunicorn (bench/serving.py)
    .venv/bin/python bench/wire.py --url http://127.0.0.1:8000   # a running server, demo data

With --url the demo account must exist (`make demo`) and KARTENRUNDE_DEMO_PASSWORD hold the
password it printed; a match is started in its group.
"""

from __future__ import annotations

import argparse
import http.client
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import Visitor, demo_pages, production_server

ACCEPT = {"Accept-Encoding": "gzip, br", "Accept-Language": "de"}
ASSET = re.compile(
    r'<(?:link[^>]+rel="stylesheet"[^>]+href|script[^>]+src)="([^"]+)"', re.IGNORECASE
)
DAY = 24 * 3600


@dataclass
class Fetched:
    url: str
    status: int
    wire: int
    """Bytes received: status line, headers, body as sent."""
    body: int
    """Bytes of the body after decompression would be: the Content-Length of identity."""
    headers: dict[str, str]


def fetch(url: str, cookie: str, extra: dict[str, str] | None = None) -> Fetched:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    connection.request("GET", path, headers={**ACCEPT, "Cookie": cookie, **(extra or {})})
    response = connection.getresponse()
    body = response.read()
    head = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + sum(
        len(name) + len(value) + 4 for name, value in response.getheaders()
    ) + 2
    connection.close()
    return Fetched(url, response.status, head + len(body), len(body),
                   {k.lower(): v for k, v in response.getheaders()})


def cached(headers: dict[str, str]) -> bool:
    found = re.search(r"max-age=(\d+)", headers.get("cache-control", ""))
    return bool(found) and int(found.group(1)) >= DAY


def measure(base: str, path: str, cookie: str) -> tuple[list[Fetched], list[Fetched]]:
    assets = sorted(set(ASSET.findall(page_text(base + path, cookie))))
    first = [fetch(base + path, cookie)] + [fetch(urljoin(base, a), cookie) for a in assets]
    assert first[0].status == 200, (path, first[0].status)
    repeat = [fetch(base + path, cookie)]
    for asset in first[1:]:
        if cached(asset.headers):
            continue
        validators = {}
        if "etag" in asset.headers:
            validators["If-None-Match"] = asset.headers["etag"]
        if "last-modified" in asset.headers:
            validators["If-Modified-Since"] = asset.headers["last-modified"]
        repeat.append(fetch(asset.url, cookie, validators))
    return first, repeat


def page_text(url: str, cookie: str) -> str:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", parts.path, headers={"Cookie": cookie, "Accept-Language": "de"})
    text = connection.getresponse().read().decode()
    connection.close()
    return text


def kb(n: int) -> str:
    return f"{n / 1000:.1f}"


def report(base: str) -> None:
    phone = Visitor()
    pages = demo_pages(base, phone)
    cookie = "; ".join(f"{c.name}={c.value}" for c in phone.cookies)
    print(f"{'page':<13} {'first visit KB':>15} {'HTML':>6} {'CSS':>6} {'JS':>6} "
          f"{'files':>5}   {'repeat KB':>9} {'files':>5}   {'uncompressed KB':>15}")
    for label, path in pages.items():
        first, repeat = measure(base, path, cookie)
        css = sum(f.wire for f in first if f.url.split("?")[0].endswith(".css"))
        js = sum(f.wire for f in first if f.url.split("?")[0].endswith(".js"))
        plain = fetch(base + path, cookie, {"Accept-Encoding": "identity"}).body + sum(
            fetch(f.url, cookie, {"Accept-Encoding": "identity"}).body for f in first[1:]
        )
        print(f"{label:<13} {kb(sum(f.wire for f in first)):>15} {kb(first[0].wire):>6} "
              f"{kb(css):>6} {kb(js):>6} {len(first):>5}   "
              f"{kb(sum(f.wire for f in repeat)):>9} {len(repeat):>5}   {kb(plain):>15}")
        for f in first[1:]:
            encoding = f.headers.get("content-encoding", "identity")
            print(f"    {urlsplit(f.url).path:<62} {kb(f.wire):>6} KB  {encoding:<8} "
                  f"{f.headers.get('cache-control', '(no Cache-Control)')}")
    print("goal: score sheet first visit <= 120 KB, repeat visit <= 15 KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server with the demo data")
    parser.add_argument("--port", type=int, default=8180, help="port of the server started")
    args = parser.parse_args()
    if args.url:
        report(args.url.rstrip("/"))
        return
    with production_server(args.port) as base:
        report(base)


if __name__ == "__main__":
    main()
