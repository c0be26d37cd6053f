"""Web benchmark: what a phone polling a score sheet costs the server.

Every phone showing a sheet asks for it every 2 seconds with the ETag of what it
shows; an unchanged sheet answers 304 from one indexed read. This measures, in
one run and in interleaved rounds through Django's full middleware stack (DEBUG
off, static files collected into a throw-away place, a temporary SQLite
database: the project's database is not touched):

- a bare view returning a fixed string (no session, no database): the floor;
- a bare page: the site layout (base.html) for the logged-in user;
- the 304 poll: the sheet asked for with its current ETag (logged in, htmx);
- the sheet partial a poll gets after a change (200), and the whole sheet page.

It prints the median wall time and the median CPU time of each, and their ratio
to the bare view. Aim: the 304 poll at most 1.5× the bare view.

    .venv/bin/python bench/web.py [--rounds 400]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import configure  # bench/ is the script folder, so on sys.path


def _sheet() -> tuple[str, Any]:
    """A running X nimmt! match of three players with one deal; its URL and a client."""
    from django.contrib.auth.models import User
    from django.test import Client

    from companion.models import Group, Membership, Player
    from companion.services import matches

    user = User.objects.create_user("bench", password="bench-password-1")
    group = Group.objects.create(name="Benchrunde", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    players = [Player.objects.create(group=group, name=name) for name in ("Anna", "Ben", "Cem")]
    match = matches.match_start(group=group, game="x-nimmt", players=players)
    matches.deal_record(match=match, number=1, entries={
        players[0].pk: {"hand": 5, "x_stack": 9}, players[1].pk: {"hand": 3},
        players[2].pk: {"hand": 1},
    })
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    return f"/g/{group.pk}/matches/{match.pk}/", client


def _measure(requests: dict[str, tuple[str, dict[str, str], int]], client: Any,
             rounds: int) -> dict[str, tuple[list[float], list[float]]]:
    for url, headers, status in requests.values():
        for _ in range(5):
            got = client.get(url, **headers).status_code
            if got != status:
                raise SystemExit(f"{url} answered {got}, not {status}")
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in requests}
    for _ in range(rounds):
        for name, (url, headers, _status) in requests.items():
            wall, cpu = time.perf_counter(), time.process_time()
            client.get(url, **headers)
            times[name][1].append((time.process_time() - cpu) * 1000)
            times[name][0].append((time.perf_counter() - wall) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kartenrunde-bench-web-") as tmp:
        configure(Path(tmp) / "bench.sqlite3", Path(tmp) / "static")
        url, client = _sheet()
        htmx = {"HTTP_HX_REQUEST": "true"}
        etag = client.get(url, **htmx)["ETag"]
        requests = {
            "bare view": ("/bench/bare/", {}, 200),
            "bare page (base.html)": ("/bench/page/", {}, 200),
            "poll, unchanged (304)": (url, {**htmx, "HTTP_IF_NONE_MATCH": etag}, 304),
            "poll, changed (200)": (url, {**htmx, "HTTP_IF_NONE_MATCH": '"0-de-0"'}, 200),
            "sheet page": (url, {}, 200),
        }
        times = _measure(requests, client, args.rounds)
        bare_wall = statistics.median(times["bare view"][0])
        bare_cpu = statistics.median(times["bare view"][1])
        page_wall = statistics.median(times["bare page (base.html)"][0])
        print(f"\n{'request':<24} {'wall ms':>8} {'cpu ms':>7} {'× bare':>7} {'cpu × bare':>10} "
              f"{'× page':>7}")
        for name, (wall, cpu) in times.items():
            median, median_cpu = statistics.median(wall), statistics.median(cpu)
            print(f"{name:<24} {median:>8.3f} {median_cpu:>7.3f} {median / bare_wall:>7.2f} "
                  f"{median_cpu / bare_cpu:>10.2f} {median / page_wall:>7.2f}")
        print("\n× bare: against a view returning a fixed string (no session, no query); "
              "× page: against\nthe site layout rendered for the logged-in user. Medians of "
              f"{args.rounds} interleaved rounds;\nPython {sys.version.split()[0]}, SQLite.")


if __name__ == "__main__":
    main()
