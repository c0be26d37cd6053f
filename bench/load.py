"""Load benchmark: score sheet requests per second under gunicorn, with wrk.

Starts a fresh production server (bench/serving.py: gunicorn with the project's
gunicorn.conf.py, DEBUG off, demo data, an X nimmt! match with two deals), logs
in as the demo account and lets ``wrk`` (/usr/bin/wrk) request that match's
score sheet as a logged-in phone would (its session cookie, ``Accept-Encoding:
gzip, br``) for a fixed time at 1, 10 and 50 open connections, 127.0.0.1 only.
Prints requests per second, the median and 99th percentile latency, and the
errors (non-2xx/3xx answers, socket errors and timeouts).

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:54329/kartenrunde_bench \\
        .venv/bin/python bench/load.py        # PostgreSQL (that database is DROPPED)
    .venv/bin/python bench/load.py            # SQLite in a temporary file

Options: --seconds (15 per run), --port (8181), --workers (2), --threads (4).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import Visitor, demo_pages, production_server

UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def milliseconds(text: str) -> float:
    found = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    assert found, text
    return float(found.group(1)) * UNITS[found.group(2)]


def wrk(url: str, cookie: str, connections: int, seconds: int) -> dict[str, float]:
    command = [
        shutil.which("wrk") or "/usr/bin/wrk", f"-t{min(2, connections)}", f"-c{connections}",
        f"-d{seconds}s",
        "--latency", "--timeout", "10s",
        "-H", f"Cookie: {cookie}", "-H", "Accept-Encoding: gzip, br", "-H", "Accept-Language: de",
        url,
    ]
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60,
                         check=True).stdout
    if not re.search(r"^\s*99%", out, re.M):
        raise SystemExit(f"wrk gave no latency distribution:\n{out}")
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "requests": float(re.search(r"(\d+) requests in", out).group(1)),  # type: ignore[union-attr]
        "per_second": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
        "p50": milliseconds(re.search(r"^\s*50%\s+([\d.]+(?:us|ms|s))", out, re.M).group(1)),  # type: ignore[union-attr]
        "p99": milliseconds(re.search(r"^\s*99%\s+([\d.]+(?:us|ms|s))", out, re.M).group(1)),  # type: ignore[union-attr]
        "non_2xx": float(bad.group(1)) if bad else 0.0,
        "socket_errors": float(sum(int(n) for n in socket.groups())) if socket else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--port", type=int, default=8181)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    with production_server(args.port, workers=args.workers, threads=args.threads) as base:
        phone = Visitor()
        sheet = base + demo_pages(base, phone)["score sheet"]
        cookie = "; ".join(f"{c.name}={c.value}" for c in phone.cookies)
        wrk(sheet, cookie, 4, 3)  # warm up: connections, caches, compiled templates
        print(f"score sheet {sheet.removeprefix(base)}, {args.seconds} s per run")
        print(f"{'connections':>11} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'requests':>9} {'non-2xx':>8} {'socket errors':>13}")
        for connections in (1, 10, 50):  # 1: the time of one request with the server idle
            r = wrk(sheet, cookie, connections, args.seconds)
            print(f"{connections:>11} {r['per_second']:>8.1f} {r['p50']:>8.1f} {r['p99']:>8.1f} "
                  f"{r['requests']:>9.0f} {r['non_2xx']:>8.0f} {r['socket_errors']:>13.0f}")


if __name__ == "__main__":
    main()
