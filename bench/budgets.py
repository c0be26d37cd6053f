"""Budgets benchmark (issue 17): server CPU per request over HTTP, as a user feels it.

The app is served as `make run` serves it (``manage.py serve``: gunicorn with
gunicorn.conf.py, one process x 32 threads, DEBUG off, static files collected) on
127.0.0.1, on a fresh throw-away database: a temporary SQLite file, or the
PostgreSQL database named by ``--database-url`` (DROPPED and created anew). A
logged-in phone (session cookie from the login form) sends, round after round,
one batch of N identical requests of every kind (the kinds interleaved, in a
shuffled order per round):

- reload: GET of a score sheet already shown at its revision, 4 players, the
  longest matches 4 players can have. No game has 10 deals at 4 players: 13 and
  11 nimmt! have 4, so those two, finished, and 11 nimmt! open (3 of 4 deals and
  the deal form);
- first load: GET of a sheet whose revision moved just before (a real change: its
  last deal corrected through the app's services, outside the measurement, to
  entries no process has seen), 11 nimmt! 7 players, 6 of 7 deals and the deal
  form, N different matches; the phone had each of them open before the change
  (on the same connection, so the same worker);
- save: the htmx deal save as the page's form posts it (HX-Request, the CSRF
  header, the fresh form's entry mode), a real save on a fresh match every time (made
  beforehand): 11 nimmt! 4 players deal 2 of 4, and 7 players deal 7 of 7;
- poll: the unchanged sheet's htmx poll with the ETag of the last answer (304);
- history: group history, player page, game page, head-to-head on 5,000 finished
  matches (bench/history.py's builder);
- home: the group home and "/" of a member with 5, 50 and 700 running matches.

Server CPU per request: user + system time of gunicorn's master and workers
(/proc/<pid>/stat, with the ended workers the master waited for) before and after
the batch, divided by N; medians and interquartile ranges over the rounds. A
batch during which a worker was replaced (max_requests) is left out and counted.
On PostgreSQL on this machine (when the URL's user may read the data directory)
the database server's CPU (postmaster and backends) is shown beside it. The
client's wall time per request (median over every request) stands beside the
CPU; queries per request are counted in this process with Django's test client
(CaptureQueriesContext) on the same data. KB: the answer as sent (gzip) / as read.

    .venv/bin/python bench/budgets.py [--rounds 15] [--only reload,save] [--port 8391]

PostgreSQL: a throw-away cluster as .ci/run starts it (postgresql from apt if
missing; pick another port than 54329 if that one is taken)::

    PGBIN=$(dirname "$(ls /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -n 1)")
    PGDATA=$(mktemp -d /tmp/kartenrunde-bench-pg.XXXXXX) && chown postgres: "$PGDATA"
    runuser -u postgres -- "$PGBIN/initdb" -D "$PGDATA" -A trust -U postgres >/dev/null
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w \\
        -o "-c listen_addresses=127.0.0.1 -p 54329 -k $PGDATA" start
    .venv/bin/python bench/budgets.py \\
        --database-url postgres://postgres@127.0.0.1:54329/kartenrunde_bench
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -m fast stop && rm -rf "$PGDATA"
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import served  # bench/ is the script's folder, so on sys.path

# ---------------------------------------------------------------- the app's addresses
SHEET = "/g/{group}/matches/{match}/"
DEAL_NEW = SHEET + "deals/new/"
DEAL_EDIT = SHEET + "deals/{number}/"
HISTORY = "/g/{group}/history/"
PLAYER = "/g/{group}/players/{player}/"
GAME = "/g/{group}/games/{game}/"
HEAD_TO_HEAD = "/g/{group}/head-to-head/?first={first}&second={second}"
GROUP_HOME = "/g/{group}/"
HOME = "/"

KEYS = ("reload", "first-load", "save", "poll", "history", "home")
NAMES = ("Anna", "Ben", "Cem", "Dora", "Emil", "Fiona", "Gero")
HOME_COUNTS = (5, 50, 700)
HOME_GAMES = ("elf-nimmt", "x-nimmt", "dreizehn")
BATCH_SECONDS = 0.3
"""A repeated request's batch lasts about this long (CPU time is counted in 10 ms ticks)."""
MIN_BATCH, MAX_BATCH = 4, 120
"""Not more: every worker is replaced after about 2,000 requests (gunicorn.conf.py)."""


@dataclass
class Request:
    method: str
    path: str
    data: Any = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Row:
    """One kind of request: a batch of ``n`` of them per round."""

    key: str
    label: str
    budget: str
    phone: served.Phone
    n: int
    requests: Callable[[int], list[Request]] | None = None
    """The batch of round r (r = -1: the warm-up); else ``n`` times ``repeat``."""
    repeat: Request | None = None
    status: int = 200
    before: Callable[[int], None] | None = None
    """Outside the measurement, before the batch of round r (a change)."""
    queries: int | None = None
    cpu: list[float] = field(default_factory=list)
    db: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    wire: int = 0
    raw: int = 0
    left_out: int = 0

    def batch(self, r: int) -> list[Request]:
        if self.requests is not None:
            return self.requests(r)
        assert self.repeat is not None
        return [self.repeat] * self.n


def _htmx(phone: served.Phone, page: str, target: str = "sheet") -> dict[str, str]:
    """The headers htmx adds to a request from ``page`` (base.html's hx-headers too)."""
    return {"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1:{phone.port}{page}",
            "HX-Target": target, "X-CSRFToken": phone.cookies.get("csrftoken", "")}


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.keys = set(args.only.split(",")) if args.only else set(KEYS)
        unknown = self.keys - set(KEYS)
        if unknown:
            raise SystemExit(f"--only: unknown {', '.join(sorted(unknown))}; "
                             f"choose from {', '.join(KEYS)}")
        self.seeder = served.Seeder(args.seed)
        self.plan: dict[str, Any] = {}
        self.loads: list[float] = []

    # ------------------------------------------------------------------ the data

    def seed(self) -> None:
        """Every match the rows need, made before the server starts."""
        s, plan, rounds = self.seeder, self.plan, self.args.rounds
        started = time.perf_counter()
        if "history" in self.keys:
            import history  # bench/history.py: 5,000 finished matches, user "bench"
            from django.contrib.auth.models import User

            with contextlib.redirect_stdout(sys.stderr):
                group, players = history._fill(self.args.matches, self.args.seed)
            plan["history"] = (group, players)
            user = User.objects.get(username="bench")
            user.set_password(served.PASSWORD)
            user.save()
        else:
            user = s.user("bench")
        plan["user"] = user
        group, roster = s.group("Tisch", user, NAMES)
        plan["group"] = group
        four, seven = roster[:4], roster[:7]
        if self.keys & {"reload", "poll"}:
            plan["reload"] = [
                ("13, 4 players, 4 of 4 deals, finished",
                 s.match(group, "dreizehn", four, None, finish=True)),
                ("11 nimmt!, 4 players, 4 of 4 deals, finished",
                 s.match(group, "elf-nimmt", four, None, finish=True)),
                ("11 nimmt!, 4 players, 3 of 4 deals + deal form",
                 s.match(group, "elf-nimmt", four, 3)),
            ]
        if "first-load" in self.keys:
            plan["first-load"] = [s.match(group, "elf-nimmt", seven, deals(7) - 1)
                                  for _ in range(self.args.batch + 1)]
        if "save" in self.keys:
            plan["save"] = []
            for seated, number in ((four, 2), (seven, deals(7))):
                count = (rounds + 1) * self.args.batch + 1  # rounds, warm-up, in-process
                matches = [s.match(group, "elf-nimmt", seated, number - 1) for _ in range(count)]
                twin = s.match(group, "elf-nimmt", seated, number)  # its edit form: the entries
                plan["save"].append((len(seated), number, matches, twin))
        if "home" in self.keys:
            plan["home"] = []
            for count in HOME_COUNTS:
                owner = s.user(f"home{count}")
                home_group, players = s.group(f"Runde {count}", owner, NAMES[:4])
                for index in range(count):
                    s.match(home_group, HOME_GAMES[index % len(HOME_GAMES)], players, 1)
                plan["home"].append((count, owner, home_group))
        print(f"# seeded in {time.perf_counter() - started:.0f} s", file=sys.stderr)

    # --------------------------------------------------------- queries, in-process

    def client(self, user: Any) -> Any:
        from django.test import Client

        client = Client(HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE="de")
        client.force_login(user)
        return client

    def count(self, client: Any, method: str, path: str, *args: Any,
              **extra: Any) -> tuple[int, Any]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            response = getattr(client, method)(path, *args, **extra)
        return len(queries), response

    def save_data(self, client: Any, seats: int, number: int, twin: Any,
                  spare: Any) -> tuple[list[tuple[str, str]], str | None]:
        """The save's entries (the twin's edit form) and the fresh form's entry mode."""
        group = self.plan["group"].pk
        edit = client.get(DEAL_EDIT.format(group=group, match=twin.pk, number=number))
        entries = served.deal_entries(edit.content.decode(), f"/deals/{number}/")
        mode = dict(entries).get("mode", "")
        page = client.get(SHEET.format(group=group, match=spare.pk), {"mode": mode} if mode
                          else {})
        return entries, served.form_fresh(page.content.decode())

    # ------------------------------------------------------------------- the rows

    def rows(self, phones: dict[str, served.Phone]) -> list[Row]:
        """The rows, their query counts taken in this process first."""
        plan, rows = self.plan, []
        group = plan["group"].pk
        phone = phones["bench"]
        client = self.client(plan["user"])
        if "reload" in self.keys:
            for label, match in plan["reload"]:
                url = SHEET.format(group=group, match=match.pk)
                client.get(url)
                queries, _ = self.count(client, "get", url)
                rows.append(Row("reload", f"sheet reload: {label}", "≤ 20 ms", phone,
                                self.args.batch, repeat=Request("GET", url), queries=queries))
        if "first-load" in self.keys:
            *matches, spare = plan["first-load"]
            changed = deals(7) - 1
            url = SHEET.format(group=group, match=spare.pk)
            client.get(url)
            self.seeder.correct(spare.pk, changed)
            queries, _ = self.count(client, "get", url)
            urls = [SHEET.format(group=group, match=m.pk) for m in matches]

            def change(r: int, urls: list[str] = urls, matches: list[Any] = matches) -> None:
                # The phone had these sheets open (on the connection, so the worker, of the
                # batch): then another phone's correction moves their revision.
                for url in urls:
                    phone.request("GET", url)
                for match in matches:
                    self.seeder.correct(match.pk, changed)

            rows.append(Row(
                "first-load", f"sheet first load after a change (deal {changed} corrected): "
                f"11 nimmt!, 7 players, {changed} of {deals(7)} deals + deal form", "≤ 25 ms",
                phone,
                len(urls), lambda r, urls=urls: [Request("GET", u) for u in urls],
                before=change, queries=queries))
        if "save" in self.keys:
            for seats, number, matches, twin in plan["save"]:
                spare, *fresh = matches
                entries, mode = self.save_data(client, seats, number, twin, spare)
                data = [*entries, ("number", str(number)), ("client_key", uuid.uuid4().hex)]
                queries, response = self.count(
                    client, "post", DEAL_NEW.format(group=group, match=spare.pk),
                    dict_data(data), HTTP_HX_REQUEST="true",
                    **({"HTTP_KR_FRESH_FORM": mode} if mode else {}))
                if response.status_code != 200:
                    raise SystemExit(f"the in-process save answered {response.status_code}:\n"
                                     f"{response.content.decode()[:1500]}")
                rows.append(Row(
                    "save", f"htmx deal save: 11 nimmt!, {seats} players, deal {number} "
                    f"of {deals(seats)}",
                    "≤ 15 ms, ≤ 8 queries", phone, self.args.batch,
                    self._saves(phone, entries, number, mode, fresh), queries=queries))
        if "poll" in self.keys:
            _, match = plan["reload"][-1]
            url = SHEET.format(group=group, match=match.pk)
            etag = client.get(url, HTTP_HX_REQUEST="true")["ETag"]
            queries, response = self.count(client, "get", url, HTTP_HX_REQUEST="true",
                                           HTTP_IF_NONE_MATCH=etag)
            assert response.status_code == 304, response.status_code
            headers = _htmx(phone, url)
            answer = phone.request("GET", url, headers=headers)
            headers["If-None-Match"] = answer.headers["ETag"]
            rows.append(Row("poll", "unchanged-sheet poll (304): 11 nimmt!, 4 players, 3 of 4 "
                            "deals",
                            "≤ 2 ms, 1 query", phone, self.args.batch,
                            repeat=Request("GET", url, None, headers), status=304,
                            queries=queries))
        if "history" in self.keys:
            history_group, players = plan["history"]
            for label, url in (
                ("group history", HISTORY.format(group=history_group)),
                ("player page", PLAYER.format(group=history_group, player=players[0])),
                ("game page (11 nimmt!)", GAME.format(group=history_group, game="elf-nimmt")),
                ("head-to-head", HEAD_TO_HEAD.format(group=history_group, first=players[0],
                                                     second=players[1])),
            ):
                client.get(url)
                queries, _ = self.count(client, "get", url)
                rows.append(Row("history", f"history at {self.args.matches:,} matches: {label}",
                                "≤ 50 ms", phone, self.args.batch, repeat=Request("GET", url),
                                queries=queries))
        if "home" in self.keys:
            for count, owner, home_group in plan["home"]:
                home_client = self.client(owner)
                for label, url in (("group home", GROUP_HOME.format(group=home_group.pk)),
                                   ('"/"', HOME)):
                    home_client.get(url)
                    queries, _ = self.count(home_client, "get", url)
                    rows.append(Row("home", f"{label}, {count} running matches",
                                    "≤ 15 ms, ≤ 30 KB", phones[owner.username], self.args.batch,
                                    repeat=Request("GET", url), queries=queries))
        return rows

    def _saves(self, phone: served.Phone, entries: list[tuple[str, str]], number: int,
               mode: str | None, fresh: list[Any]) -> Callable[[int], list[Request]]:
        group = self.plan["group"].pk
        batch = self.args.batch

        def requests(r: int) -> list[Request]:
            # r = -1: the warm-up; every round its own fresh matches.
            chosen = fresh[(r + 1) * batch:(r + 2) * batch]
            sent = []
            for match in chosen:
                page = SHEET.format(group=group, match=match.pk)
                headers = _htmx(phone, page)
                if mode:
                    headers["KR-Fresh-Form"] = mode
                data = [*entries, ("number", str(number)), ("client_key", uuid.uuid4().hex),
                        ("csrfmiddlewaretoken", phone.cookies.get("csrftoken", ""))]
                sent.append(Request("POST", DEAL_NEW.format(group=group, match=match.pk),
                                    data, headers))
            return sent

        return requests

    # --------------------------------------------------------------- measuring

    def warm(self, rows: list[Row]) -> None:
        """Every request a few times (both workers' caches, compiled templates), checked;
        a repeated request's batch made long enough for CPU ticks of 10 ms to not matter."""
        for row in rows:
            walls = []
            for _attempt in range(6 if row.repeat else 1):
                row.phone.close()  # a new connection: it may land on the other worker
                if row.before is not None:
                    row.before(-1)
                for request in row.batch(-1)[:3 if row.repeat else None]:
                    answer = row.phone.request(request.method, request.path,
                                               data=request.data, headers=request.headers)
                    check(row, answer)
                    walls.append(answer.wall)
                    row.wire, row.raw = len(answer.body), len(answer.raw)
            if row.repeat:
                wall = statistics.median(walls[len(walls) // 2:])
                row.n = max(MIN_BATCH, min(MAX_BATCH, round(BATCH_SECONDS / wall)))

    def measure(self, rows: list[Row], master: int, database: int | None) -> None:
        order = list(rows)
        rng = random.Random(self.args.seed)
        for r in range(self.args.rounds):
            rng.shuffle(order)
            for row in order:
                if row.before is not None:
                    row.before(r)
                requests = row.batch(r)
                cpu, workers = served.server_cpu(master)
                db = served.tree_cpu(database)[0] if database else 0.0
                walls = []
                for request in requests:
                    answer = row.phone.request(request.method, request.path,
                                               data=request.data, headers=request.headers)
                    check(row, answer)
                    walls.append(answer.wall)
                cpu_after, workers_after = served.server_cpu(master)
                db_after = served.tree_cpu(database)[0] if database else 0.0
                if workers_after != workers:
                    row.left_out += 1
                    continue
                row.cpu.append((cpu_after - cpu) * 1000 / len(requests))
                if database:
                    row.db.append((db_after - db) * 1000 / len(requests))
                row.wall += [w * 1000 for w in walls]
            self.loads.append(os.getloadavg()[0])
            print(f"# round {r + 1}/{self.args.rounds} done, load average "
                  f"{self.loads[-1]:.2f}", file=sys.stderr)


def deals(players: int, game: str = "elf-nimmt") -> int:
    from scoring.common import rules_for

    return rules_for(game).deal_count(players)


def dict_data(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, value in pairs:
        data.setdefault(name, []).append(value)
    return {k: v[0] if len(v) == 1 else v for k, v in data.items()}


def check(row: Row, answer: served.Answer) -> None:
    if answer.status != row.status:
        raise SystemExit(f"{row.label}: HTTP {answer.status}, not {row.status}\n"
                         f"{answer.text[:2000]}")
    if row.key == "save" and 'id="standings"' not in answer.text:
        raise SystemExit(f"{row.label}: the answer has no standings\n{answer.text[:2000]}")


def quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        value = values[0] if values else float("nan")
        return value, value, value
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def report(rows: list[Row], database: bool) -> None:
    width = max(len(row.label) for row in rows)
    db_head = f" {'db cpu ms':>9}" if database else ""
    print(f"{'request':<{width}} {'N':>4} {'queries':>7} {'KB gz/raw':>11} {'cpu ms':>7} "
          f"{'cpu IQR':>13}{db_head} {'wall ms':>8} {'budget':<20}")
    for row in rows:
        q1, median, q3 = quartiles(row.cpu)
        db = f" {statistics.median(row.db):>9.1f}" if database and row.db else (
            f" {'-':>9}" if database else "")
        size = f"{row.wire / 1000:.1f}/{row.raw / 1000:.1f}"
        queries = "-" if row.queries is None else str(row.queries)
        left = f" ({row.left_out} left out)" if row.left_out else ""
        print(f"{row.label:<{width}} {row.n:>4} {queries:>7} {size:>11} {median:>7.1f} "
              f"{f'{q1:.1f}–{q3:.1f}':>13}{db} {statistics.median(row.wall):>8.1f} "
              f"{row.budget:<20}{left}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--batch", type=int, default=20,
                        help="requests per batch of saves and first loads (fresh matches each); "
                        "the other batches hold as many as fill 0.3 s (4 to 120)")
    parser.add_argument("--only", help=f"comma-separated rows: {', '.join(KEYS)}")
    parser.add_argument("--database-url", help="postgres://... (that database is DROPPED)")
    parser.add_argument("--matches", type=int, default=5000, help="history: finished matches")
    parser.add_argument("--port", type=int, default=8391)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    load_start = os.getloadavg()
    environment, label = served.prepare(args.database_url)
    bench = Bench(args)
    bench.seed()
    from django.db import connections

    phones: dict[str, served.Phone] = {}
    with served.server(environment, args.port) as process:
        for name in ["bench", *(f"home{c}" for c in HOME_COUNTS if "home" in bench.keys)]:
            phones[name] = served.Phone(args.port)
            phones[name].login(name)
        rows = bench.rows(phones)
        connections.close_all()
        database = served.postgres_master(args.database_url) if args.database_url else None
        bench.warm(rows)
        load_measured = os.getloadavg()
        began = time.perf_counter()
        bench.measure(rows, process.pid, database)
        seconds = time.perf_counter() - began
    load_end = os.getloadavg()
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=served.ROOT,
                            capture_output=True, text=True).stdout.strip()
    print(f"# bench/budgets.py, commit {commit}, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print(f"# {label}; gunicorn as `make run` starts it (event-loop workers, "
          f"{environment.get('WEB_CONCURRENCY', 'default')} process(es) x "
          f"{environment.get('KARTENRUNDE_THREADS', '16')} threads for Django), DEBUG off, "
          "German, logged in")
    print("# load average (1/5/15 min): at start {:.2f} {:.2f} {:.2f}, when measuring began "
          "{:.2f} {:.2f} {:.2f}, at end {:.2f} {:.2f} {:.2f}".format(
              *load_start, *load_measured, *load_end))
    print(f"# {args.rounds} rounds in {seconds:.0f} s, the rows interleaved (shuffled per round); "
          f"1-min load average after each round {min(bench.loads):.2f}–{max(bench.loads):.2f}")
    print()
    report(rows, database is not None)
    print()
    print("N: requests per batch. queries: per request, counted in-process (test client) on "
          "the same data.\ncpu ms: gunicorn's CPU time (master + workers, user + system) per "
          "request: median over rounds,\nIQR its interquartile range" +
          (", db cpu ms: the PostgreSQL server's (median)" if database else "") +
          ". wall ms: the client's time per request\n(median of every request), 127.0.0.1. "
          "KB: one answer as sent (gzip) / uncompressed.\nNo game has 10 deals at 4 players: "
          "13 and 11 nimmt! (4 deals each) are the longest sheets.")


if __name__ == "__main__":
    main()
