"""What stalls the server (issue 30.3, 30.4, 28.5), against `make run`'s server (bench/served.py:
``manage.py serve`` on a throw-away SQLite file, or PostgreSQL with ``--database-url``):

- restart gap: 24 phones hold a poll of a running sheet while requests drive the worker to
  its ``max_requests``; printed: the longest time `/rules/` (asked every 50 ms) went
  without an answer around the worker's replacement, and how the held polls ended;
- slow headers: 200 connections that each send a request line and then one header every
  5 s; printed: `/rules/` p50 / p95 / max and failures over 30 s meanwhile;
- Ctrl+C: SIGINT to the server's process group (what the terminal does) with 24 polls
  held; printed: seconds until the server is gone, how the polls ended, and any line of
  its output that says ERROR, Error or SIGKILL.

    .venv/bin/python bench/stalls.py [--app /path/to/a/checkout] [--port 8290]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import served
from watchers import quantile, seed

HELD = 24


def rules_prober(port: int, until: threading.Event, every: float,
                 times: list[tuple[float, float | None]]) -> None:
    """Asks /rules/ every ``every`` s on a fresh connection: (sent at, seconds or None)."""
    while not until.is_set():
        sent = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", "/rules/", headers={"Accept-Language": "de"})
            ok = connection.getresponse()
            ok.read()
            connection.close()
            times.append((sent, time.monotonic() - sent if ok.status == 200 else None))
        except OSError:
            times.append((sent, None))
        time.sleep(max(0.0, every - (time.monotonic() - sent)))


def hold_polls(port: int, sheets: list[tuple[str, str]], answers: list[tuple[int, float]],
               until: threading.Event) -> list[threading.Thread]:
    """One phone per (sheet, session) holding its poll again and again (KR-Wait) until
    ``until`` or an error: every answer as (status, when); 0 for a failed connection."""
    def hold(sheet: str, session: str) -> None:
        headers = {"Cookie": f"sessionid={session}", "HX-Request": "true",
                   "Accept-Language": "de"}
        try:
            phone = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            phone.request("GET", sheet, headers=headers)
            first = phone.getresponse()
            first.read()
            etag = first.headers["ETag"]
            while not until.is_set():
                phone.request("GET", sheet, headers={**headers, "If-None-Match": etag,
                                                     "KR-Wait": "1"})
                answer = phone.getresponse()
                answer.read()
                answers.append((answer.status, time.monotonic()))
                if answer.status != 304:
                    return
        except (OSError, http.client.HTTPException):
            answers.append((0, time.monotonic()))

    threads = [threading.Thread(target=hold, args=pair, daemon=True) for pair in sheets]
    for thread in threads:
        thread.start()
    return threads


def start(environment: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--no-qr"], cwd=served.ROOT, env=environment, stdout=log.open("wb"),
        stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 90
    while True:
        try:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            probe.request("GET", "/accounts/login/")
            probe.getresponse().read()
            return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit(f"the server did not answer; see {log}") from None
            time.sleep(0.3)


def stop(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)


def sessions(matches: list[dict[str, object]]) -> list[tuple[str, str]]:
    pairs = []
    for match in matches:
        for session in match["phones"]:  # type: ignore[attr-defined]
            pairs.append((str(match["sheet"]), str(session)))
    return pairs[:HELD]


def restart_gap(environment: dict[str, str], port: int, log: Path,
                pairs: list[tuple[str, str]]) -> None:
    process = start(environment, port, log)
    try:
        worker = served.children(process.pid)
        answers: list[tuple[int, float]] = []
        done = threading.Event()
        hold_polls(port, pairs, answers, done)
        time.sleep(2)
        times: list[tuple[float, float | None]] = []
        prober = threading.Thread(target=rules_prober, args=(port, done, 0.05, times))
        prober.start()
        began = time.monotonic()

        def drive() -> None:  # cheap requests until the worker is replaced
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while not done.is_set():
                try:
                    connection.request("GET", "/accounts/login/")
                    connection.getresponse().read()
                except OSError:
                    time.sleep(0.05)
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        drivers = [threading.Thread(target=drive) for _ in range(4)]
        for driver in drivers:
            driver.start()
        while served.children(process.pid) == worker and time.monotonic() - began < 240:
            time.sleep(0.05)
        replaced = time.monotonic()
        time.sleep(8)  # the new worker boots and answers
        done.set()
        for thread in [prober, *drivers]:
            thread.join(timeout=70)
        around = [(at, took) for at, took in times if at > replaced - 30]
        gap = 0.0
        last_answer = around[0][0] if around else replaced
        for at, took in around:
            if took is not None:
                gap = max(gap, at + took - last_answer)
                last_answer = at + took
        near = [(status, at - replaced) for status, at in answers
                if abs(at - replaced) < 10]
        statuses = sorted(status for status, _ in near)
        held_end = [round(at, 1) for _, at in near]
        print(f"restart gap: worker replaced after {replaced - began:.1f} s of requests; "
              f"longest time without a /rules/ answer {gap:.2f} s; "
              f"/rules/ max {max((t for _, t in around if t), default=0):.2f} s, "
              f"failed {sum(1 for _, t in around if t is None)}; poll answers within 10 s "
              f"{dict((s, statuses.count(s)) for s in set(statuses))}, at "
              f"{min(held_end, default=0)}..{max(held_end, default=0)} s from the replacement")
    finally:
        stop(process)


def slow_headers(environment: dict[str, str], port: int, log: Path, count: int = 200,
                 seconds: float = 30) -> None:
    process = start(environment, port, log)
    try:
        sockets = []
        for _ in range(count):
            try:
                slow = socket.create_connection(("127.0.0.1", port), timeout=5)
                slow.sendall(b"GET /rules/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                sockets.append(slow)
            except OSError:
                pass
        times: list[tuple[float, float | None]] = []
        done = threading.Event()
        prober = threading.Thread(target=rules_prober, args=(port, done, 0.5, times))
        prober.start()
        end = time.monotonic() + seconds
        number = 0
        while time.monotonic() < end:
            time.sleep(5)
            number += 1
            for slow in sockets:
                with contextlib.suppress(OSError):
                    slow.sendall(f"X-Slow-{number}: {number}\r\n".encode())
        done.set()
        prober.join(timeout=70)
        took = [t * 1000 for _, t in times if t is not None]
        print(f"slow headers: {len(sockets)} connections trickling for {seconds:.0f} s; "
              f"/rules/ p50 {statistics.median(took) if took else float('nan'):.0f} ms, "
              f"p95 {quantile(took, 0.95):.0f} ms, max {max(took, default=0):.0f} ms, "
              f"answered {len(took)}, failed {sum(1 for _, t in times if t is None)}")
        for slow in sockets:
            slow.close()
    finally:
        stop(process)


def ctrl_c(environment: dict[str, str], port: int, log: Path,
           pairs: list[tuple[str, str]]) -> None:
    process = start(environment, port, log)
    answers: list[tuple[int, float]] = []
    hold_polls(port, pairs, answers, threading.Event())
    time.sleep(2)
    pressed = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
    gone = time.monotonic() - pressed
    time.sleep(0.2)
    alarming = [line for line in log.read_text(errors="replace").splitlines()
                if any(word in line for word in ("ERROR", "Error", "SIGKILL", "Traceback"))]
    statuses = sorted(status for status, at in answers if at >= pressed)
    print(f"Ctrl+C: server gone after {gone:.2f} s; held polls ended "
          f"{dict((s, statuses.count(s)) for s in set(statuses))}; alarming lines: "
          f"{alarming or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url")
    parser.add_argument("--port", type=int, default=8290)
    parser.add_argument("--app", type=Path, help="serve this checkout of the app instead")
    parser.add_argument("--only", choices=["restart", "slow", "ctrl-c"])
    args = parser.parse_args()
    environment, label = served.prepare(args.database_url)
    matches = seed(HELD)
    if args.app:
        served.ROOT = args.app.resolve()
    log = Path(environment["DJANGO_STATIC_ROOT"]).parent / "server.log"
    load = os.getloadavg()
    print(f"# bench/stalls.py, {label}, app {served.ROOT}, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    pairs = sessions(matches)
    if args.only in (None, "restart"):
        # The new server's max_requests comes from the environment; the old one's is 2,000.
        restart_gap({**environment, "GUNICORN_MAX_REQUESTS": "2000"}, args.port, log, pairs)
    if args.only in (None, "slow"):
        slow_headers(environment, args.port, log)
    if args.only in (None, "ctrl-c"):
        ctrl_c(environment, args.port, log, pairs)
    load = os.getloadavg()
    print(f"# load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
