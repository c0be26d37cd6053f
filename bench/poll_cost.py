"""Server CPU per request of what a table's phones send while a match runs (issue 31): the
sheet a woken poll gets (200), an unchanged poll (304), the edit form of a deal, a save,
and ``/rules/`` for comparison.

The app is served as `make run` serves it (bench/served.py, one process, SQLite, or the
hosted profile with ``--database-url``). One phone sends the kinds in turn, ``--rounds``
rounds of ``--each`` requests per kind (interleaved, so a noisy machine hurts every kind
alike); printed per kind: server CPU milliseconds per request, median of the rounds with
min and max, and the wall time per request.

    .venv/bin/python bench/poll_cost.py [--rounds 10] [--each 20] [--database-url ...]
        [--app /path/to/another/checkout]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import served
import watchers

PORT = 8298


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--each", type=int, default=20)
    parser.add_argument("--database-url")
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--app", type=Path, help="serve this checkout of the app instead")
    args = parser.parse_args()
    import httpx

    environment, label = served.prepare(args.database_url)
    environment["WEB_CONCURRENCY"] = "1"
    match = watchers.seed(4)[0]
    if args.app:
        served.ROOT = args.app.resolve()
    sheet = match["sheet"]
    base = f"http://127.0.0.1:{args.port}"
    csrf = "x" * 32
    writer = {**watchers.HEADERS, "Cookie": f"sessionid={match['writer']}; csrftoken={csrf}"}
    phone = {**watchers.HEADERS, "HX-Request": "true", "HX-Target": "sheet",
             "Cookie": f"sessionid={match['phones'][0]}"}
    edit = f"{sheet}deals/2/"
    load = os.getloadavg()
    print(f"# bench/poll_cost.py, {label}, app {served.ROOT}, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    with served.server(environment, args.port) as process, httpx.Client(base_url=base) as client:
        def current_etag() -> str:
            return client.get(sheet, headers=phone).headers["ETag"]

        stale = current_etag()

        def save() -> None:
            page = client.get(edit, headers=writer)
            data = served.form_values(page.text, edit)
            answer = client.post(edit, data=dict(data), headers={
                **writer, "X-CSRFToken": csrf, "Referer": f"{base}{edit}"})
            assert answer.status_code in (200, 302, 303), answer.status_code

        save()
        kinds: dict[str, Callable[[], int]] = {
            "woken poll (200, the sheet)": lambda: client.get(
                sheet, headers={**phone, "If-None-Match": stale}).status_code,
            "unchanged poll (304)": lambda: client.get(
                sheet, headers={**phone, "If-None-Match": etag}).status_code,
            "edit form (GET)": lambda: client.get(edit, headers=writer).status_code,
            "save (GET form + POST)": lambda: (save(), 302)[1],
            "/rules/": lambda: client.get("/rules/", headers=watchers.HEADERS).status_code,
        }
        cpu: dict[str, list[float]] = {kind: [] for kind in kinds}
        wall: dict[str, list[float]] = {kind: [] for kind in kinds}
        for _ in range(args.rounds):
            for kind, send in kinds.items():
                etag = current_etag()
                before, _ = served.server_cpu(process.pid)
                started = time.perf_counter()
                for _ in range(args.each):
                    status = send()
                    assert status in (200, 302, 304), (kind, status)
                wall[kind].append((time.perf_counter() - started) / args.each)
                after, _ = served.server_cpu(process.pid)
                cpu[kind].append((after - before) / args.each)
    print(f"{'request':<30} {'CPU ms median':>13} {'min':>6} {'max':>6} {'wall ms':>8}")
    for kind in kinds:
        values = cpu[kind]
        print(f"{kind:<30} {statistics.median(values) * 1000:>13.1f} "
              f"{min(values) * 1000:>6.1f} {max(values) * 1000:>6.1f} "
              f"{statistics.median(wall[kind]) * 1000:>8.1f}")
    load = os.getloadavg()
    print(f"# load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
