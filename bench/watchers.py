"""How many watching phones one server keeps in step (issue 31): N phones on N/4 running
sheets, one writer per match saving every 5 s.

The app is served as `make run` serves it (bench/served.py: ``manage.py serve``, one
process, SQLite), or as the hosted profile does (``--database-url postgres://…``,
``--workers 2``). Each phone is a plain HTTP client (bench/http1.py, asyncio) doing what
static/js/sync.js does: it asks for the sheet with ``HX-Request``, then polls with the
ETag it shows (``If-None-Match``) and ``KR-Wait``, at once after a held or new answer, 2 s
after a quick 304. Each match has a writer (its owner, logged in) that every 5 s
(``--write-every``) saves what ``--save`` says: the next deal, as the page's deal form saves
it (``new``, the default: what a table does every deal; a game over 100 deals, each N on
matches of its own), or a correction of deal 2 from its edit page (``correction``; 11
nimmt!, the measure of the issue's first table).

The phones of an N first open the sheet, all at once (as after a restart of the server);
the measured interval begins when every one shows it ("opened": how long that took).
Printed per N, over ``--seconds`` (60) of watching:
- visibility: from the writer's tap on "save" (its POST sent) to each of the match's phones
  holding a sheet of a newer revision, p50 / p95 / max (a phone that had not seen a save
  before the next one counts as the whole interval, "late"). Not from the writer's
  answer: a loaded server answers the writer late, and a phone that saw the change before
  that would count as late;
- save p95: from the tap to the writer's answer;
- errors (answers other than 200/304, timeouts, refused connections), saves done;
- the server's CPU (seconds per second, master and workers), its RSS (MB, largest seen),
  and this client's own CPU (it shares the machine's two cores with the server) and how
  late its event loop woke (p95: a busy client sees every answer late);
- `/rules/` p50 / p95 meanwhile (one client asking every 0.5 s);
- on PostgreSQL the most connections the server held at once (pg_stat_activity);
- how the work was spread over the server's processes: the busiest one's share of their
  CPU ("busiest", 50% is even), and the sockets each had open at the end (its phones'
  connections, its listening socket and a few of its own).

``--warmup S``: the phones watch and the writers save for S seconds before the measured
interval begins (an evening under way, not the first minute after a restart).

    .venv/bin/python bench/watchers.py [--phones 25,100,250,500,1000] [--seconds 60]
        [--database-url postgres://...] [--workers 2] [--app /path/to/a/checkout]
        [--write-every 5] [--warmup 0]

``--app`` serves another checkout of the app (e.g. a worktree at main, to measure the
server before a change) with this virtual environment.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import secrets
import shutil
import statistics
import string
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import http1
import served

PORT = 8297
WRITE_EVERY = 5.0
TIMEOUT = 30.0
SETTLE = 120.0
"""Seconds the phones may take to open the sheet before the measured interval starts."""


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def revision_of(etag: str | None) -> int | None:
    if not etag:
        return None
    head = etag.removeprefix("W/").strip('"').split(".", 1)[0]
    return int(head) if head.isdigit() else None


def session_for(user: Any) -> str:
    """A logged-in session for ``user`` made in the database (no password hashing: two
    thousand logins through the form would take minutes)."""
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


LONG_MATCH = {"deals": 100}
"""The option of the matches a table records deals into (``--save new``): a fixed 100
deals, so that no match is over before the run is."""


def long_game(players: int) -> str:
    """A game whose matches can be set to :data:`LONG_MATCH`'s number of deals."""
    from scoring import GAMES
    from scoring.common import rules_for

    for slug in GAMES:
        try:
            if rules_for(slug, LONG_MATCH).deal_count(players) == LONG_MATCH["deals"]:
                return slug
        except (TypeError, ValueError):
            continue
    raise SystemExit(f"no game takes {LONG_MATCH}")


def seed(phones: int, save: str = "correction") -> list[dict[str, Any]]:
    """phones/4 groups of 4 members and an owner, each with a running match with 2 deals:
    11 nimmt! for corrections, for new deals one over 100 deals (:func:`long_game`)."""
    from django.contrib.auth.models import User

    seeder = served.Seeder()
    matches = []
    existing = User.objects.count()
    for index in range((phones + 3) // 4):
        base = existing + index * 5
        owner = User.objects.create_user(f"writer{base}", password=None)
        members = [User.objects.create_user(f"phone{base + k}", password=None)
                   for k in range(1, 5)]
        group, players = seeder.group(f"Tisch {base}", owner, ["Anna", "Ben", "Cem", "Dora"],
                                      members)
        if save == "new":
            match = seeder.match(group, long_game(len(players)), players, recorded=2,
                                 options=LONG_MATCH)
        else:
            match = seeder.match(group, "elf-nimmt", players, recorded=2)
        matches.append({
            "sheet": f"/g/{group.pk}/matches/{match.pk}/",
            "writer": session_for(owner),
            "phones": [session_for(member) for member in members],
        })
    return matches


class Run:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.errors: dict[str, int] = {}
        self.saves: dict[str, list[float]] = {}
        self.seen: dict[str, list[list[float]]] = {}
        """sheet → per phone, the times it got a sheet of a new revision."""
        self.rules: list[float] = []
        self.end = 0.0
        self.resent = 0
        self.lag: list[float] = []
        """This client's event loop: seconds it woke late (:func:`lag`)."""
        self.answered: list[float] = []
        """Per save, seconds from the tap to the writer's answer."""
        self.showing = 0
        """Phones that got their first sheet."""
        self.all_showing = asyncio.Event()
        self.phones = 0
        self.polls: dict[str, list[list[tuple[float, int | None, int, int | None, float]]]] = {}
        """sheet → per phone, its polls (``--trace``): sent, revision shown, status, revision
        got, answered."""
        self.writes: dict[str, list[tuple[float, float, int, int | None]]] = {}
        """sheet → its saves (``--trace``): tapped, answered, status, revision answered."""
        self.trace = False
        self.since = 0.0
        """When the measured interval began (:meth:`forget`)."""

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def forget(self) -> None:
        """The warm-up is over: what was recorded so far does not count. Nor does a save
        tapped before now and recorded after (at its answer): the phones may have seen it
        before now, and without that it counted as seen only after the next save."""
        self.since = time.monotonic()
        for saves in self.saves.values():
            saves.clear()
        for phones in self.seen.values():
            for seen in phones:
                seen.clear()
        for recorded in (self.rules, self.lag, self.answered):
            recorded.clear()
        for phones in self.polls.values():
            for polls in phones:
                polls.clear()
        for writes in self.writes.values():
            writes.clear()
        self.errors.clear()
        self.resent = 0


async def get(client: Any, run: Run, url: str, **kwargs: Any) -> Any:
    """A GET as a browser sends it: when the server closed the kept-alive connection just
    as it was reused (its keep-alive time ran out), the browser sends it again on a new
    connection; so does this phone (counted as "resent", not as an error)."""
    try:
        return await client.get(url, **kwargs)
    except (http1.RemoteProtocolError, http1.ReadError):
        run.resent += 1
        return await client.get(url, **kwargs)


def cookies(session: str, csrf: str = "") -> dict[str, str]:
    found = {"sessionid": session}
    if csrf:
        found["csrftoken"] = csrf
    return found


HEADERS = {"Accept-Language": "de", "Accept-Encoding": "gzip"}


async def phone(client: Any, run: Run, sheet: str, session: str, index: int) -> None:
    seen = run.seen[sheet][index]
    # As htmx sends the poll of #sheet-poll (hx-target="#sheet").
    # The cookies a phone's browser has after the sheet's page: its session and the CSRF
    # token the page set (without it every answer would set one).
    csrf = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
    # It takes a save's step of the sheet instead of the whole sheet (KR-Steps), as the page does.
    sent = {**HEADERS, "HX-Request": "true", "HX-Target": "sheet", "KR-Steps": "1",
            "Cookie": f"sessionid={session}; csrftoken={csrf}"}
    etag = None
    while time.monotonic() < run.end:
        started = time.monotonic()
        headers = dict(sent)
        if etag:
            headers.update({"If-None-Match": etag, "KR-Wait": "1"})
        try:
            answer = await get(client, run, sheet, headers=headers)
        except http1.HTTPError as error:
            run.error(type(error).__name__)
            await asyncio.sleep(2)
            continue
        if run.trace:
            run.polls[sheet][index].append((started, revision_of(etag), answer.status_code,
                                            revision_of(answer.headers.get("ETag")),
                                            time.monotonic()))
        if answer.status_code == 200:
            new = answer.headers.get("ETag")
            if etag is None:
                run.showing += 1
                if run.showing == run.phones:
                    run.all_showing.set()
            elif revision_of(new) != revision_of(etag):
                seen.append(time.monotonic())
            etag = new
        elif answer.status_code == 304:
            if time.monotonic() - started < 1:
                await asyncio.sleep(2)
        else:
            run.error(f"HTTP {answer.status_code}")
            await asyncio.sleep(2)


async def writer(client: Any, run: Run, sheet: str, session: str, delay: float,
                 save: str = "correction") -> None:
    """The match's writer: every :data:`WRITE_EVERY` seconds a change the phones must show.
    ``correction``: deal 2's edit page, sent back corrected (no JavaScript: answered with a
    redirect, not followed). ``new``: the next deal, saved as the page's deal form saves it
    (htmx, ``KR-Fresh-Form``: answered with the changed parts of the sheet), with the
    entries of deal 1."""
    csrf = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
    jar = {**HEADERS, "Cookie": f"sessionid={session}; csrftoken={csrf}"}
    edit = f"{sheet}deals/2/"
    new = f"{sheet}deals/new/"
    sent = {**jar, "X-CSRFToken": csrf, "Referer": f"http://127.0.0.1:{PORT}{sheet}"}
    await asyncio.sleep(delay)
    if save == "new":
        first = await get(client, run, f"{sheet}deals/1/", headers=jar)
        entries = served.deal_entries(first.text, "/deals/1/")
        mode = dict(entries).get("mode", "")
        page = await get(client, run, sheet, headers=jar, params={"mode": mode} if mode else {})
        fresh = served.form_fresh(page.text)
        if fresh:
            sent = {**sent, "KR-Fresh-Form": fresh}
        sent = {**sent, "HX-Request": "true", "HX-Target": "sheet"}
        number = 3
    next_at = time.monotonic()
    while True:
        next_at += WRITE_EVERY
        if next_at > run.end - 1:
            return
        try:
            if save == "new":
                data = [*entries, ("number", str(number)), ("client_key", secrets.token_hex(16))]
                tapped = time.monotonic()
                saved = await client.post(new, data=dict(data), headers=sent)
                number += 1
            else:
                page = await get(client, run, edit, headers=jar)
                data = served.form_values(page.text, edit)
                tapped = time.monotonic()
                saved = await client.post(edit, data=dict(data), headers={
                    **sent, "Referer": f"http://127.0.0.1:{PORT}{edit}"})
            if run.trace:
                run.writes[sheet].append((tapped, time.monotonic(), saved.status_code,
                                          revision_of(saved.headers.get("ETag"))))
            if saved.status_code not in (200, 302, 303):
                run.error(f"save HTTP {saved.status_code}")
            else:
                run.saves[sheet].append(tapped)
                run.answered.append(time.monotonic() - tapped)
        except http1.HTTPError as error:
            run.error(f"save {type(error).__name__}")
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))


async def rules(client: Any, run: Run) -> None:
    while time.monotonic() < run.end:
        started = time.perf_counter()
        try:
            answer = await get(client, run, "/rules/", headers=HEADERS)
            if answer.status_code == 200:
                run.rules.append(time.perf_counter() - started)
            else:
                run.error(f"/rules/ HTTP {answer.status_code}")
        except http1.HTTPError as error:
            run.error(f"/rules/ {type(error).__name__}")
        await asyncio.sleep(0.5)


async def lag(run: Run) -> None:
    """How late this client's own event loop wakes (every 0.1 s): a busy client sees the
    server's answers late, and its own delay would count as the server's."""
    while time.monotonic() < run.end:
        due = time.monotonic() + 0.1
        await asyncio.sleep(0.1)
        run.lag.append(time.monotonic() - due)


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def db_connections(database_url: str | None, pids: list[int]) -> int | None:
    """The connections the server's processes ``pids`` hold to the database now (their
    TCP connections to its port), or None without a database server. Counted at the
    server, not in ``pg_stat_activity``: there the bench's own showed too (the threads
    that counted held idle connections of their own). It reads the machine's TCP table
    (two lines per phone): call it in a thread, not in the phones' event loop."""
    if not database_url:
        return None
    port = urlparse(database_url).port or 5432
    inodes = {inode for pid in pids for inode in socket_inodes(pid)}
    found = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                # remote address "hex-ip:hex-port", state 01 (established), the inode
                if int(fields[2].rsplit(":", 1)[1], 16) == port and fields[3] == "01" \
                        and fields[9] in inodes:
                    found += 1
    return found


async def measure(matches: list[dict[str, Any]], count: int, seconds: float, master: int,
                  database_url: str | None, save: str,
                  warmup: float = 0.0, trace: bool = False) -> dict[str, Any]:
    run = Run(seconds)
    run.trace = trace
    used = matches[: (count + 3) // 4]
    # A client per phone, as each phone is a browser of its own (its own connection).
    async with contextlib.AsyncExitStack() as stack:
        def client() -> Any:
            return http1.Client("127.0.0.1", PORT, TIMEOUT)

        clients = [await stack.enter_async_context(client())
                   for _ in range(count + len(used) + 1)]
        # The phones open the sheet first (all at once, as after a restart of the
        # server); the measured interval starts once every one shows it: a change is
        # "seen by the others" only on phones that watch the sheet already.
        run.end = time.monotonic() + SETTLE + seconds + TIMEOUT
        tasks = []
        placed = 0
        opened = time.monotonic()
        for match in used:
            phones = match["phones"][: max(0, min(4, count - placed))]
            placed += len(phones)
            run.saves[match["sheet"]] = []
            run.seen[match["sheet"]] = [[] for _ in phones]
            run.polls[match["sheet"]] = [[] for _ in phones]
            run.writes[match["sheet"]] = []
            tasks += [asyncio.create_task(phone(clients.pop(), run, match["sheet"], session, i))
                      for i, session in enumerate(phones)]
        run.phones = placed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(run.all_showing.wait(), SETTLE)
        settled = time.monotonic() - opened
        run.end = time.monotonic() + warmup + seconds
        for number, match in enumerate(used):
            # The writers start spread over the first interval.
            tasks.append(asyncio.create_task(writer(
                clients.pop(), run, match["sheet"], match["writer"],
                WRITE_EVERY * number / len(used), save)))
        tasks.append(asyncio.create_task(rules(clients.pop(), run)))
        tasks.append(asyncio.create_task(lag(run)))
        if warmup:
            # Watching and saving, not yet measured.
            await asyncio.sleep(warmup)
            run.forget()
        cpu_before, _ = served.server_cpu(master)
        workers = served.children(master)
        worker_before = [served.tree_cpu(pid)[0] for pid in workers]
        client_before = time.process_time()
        wall_before = time.monotonic()
        rss = 0.0
        connections = 0
        while time.monotonic() < run.end:
            await asyncio.sleep(1)
            server = [master, *served.children(master)]
            rss = max(rss, rss_mb(server))
            found = await asyncio.to_thread(db_connections, database_url, server)
            connections = max(connections, found or 0)
        cpu_after, _ = served.server_cpu(master)
        worker_cpu = [served.tree_cpu(pid)[0] - before
                      for pid, before in zip(workers, worker_before, strict=True)]
        sockets = [open_sockets(pid) for pid in workers]
        client_cpu = (time.process_time() - client_before) / (time.monotonic() - wall_before)
        wall = time.monotonic() - wall_before
        await asyncio.wait(tasks, timeout=TIMEOUT + 5)
        for task in tasks:
            task.cancel()
    delays: list[float] = []
    late = 0
    traces: list[str] = []
    for sheet, saves in run.saves.items():
        for index, phone_seen in enumerate(run.seen[sheet]):
            for k, saved in enumerate(saves):
                if saved < run.since:
                    continue  # tapped in the warm-up (:meth:`Run.forget`)
                until = saves[k + 1] if k + 1 < len(saves) else run.end
                # From the tap on "save": the change cannot be seen before it is sent.
                got = [at for at in phone_seen if saved <= at < until]
                if got:
                    delays.append(max(0.0, got[0] - saved))
                elif until < run.end:
                    late += 1
                    delays.append(until - saved)
                    if trace:
                        traces.append(late_trace(run, sheet, index, saved, until))
    return {
        "phones": count, "saves": sum(len(s) for s in run.saves.values()),
        "p50": quantile(delays, 0.5), "p95": quantile(delays, 0.95),
        "max": max(delays) if delays else float("nan"), "late": late,
        "errors": sum(run.errors.values()), "error_kinds": run.errors, "resent": run.resent,
        "cpu": (cpu_after - cpu_before) / wall, "rss": rss, "client": client_cpu,
        "rules50": quantile(run.rules, 0.5) * 1000, "rules95": quantile(run.rules, 0.95) * 1000,
        "save95": quantile(run.answered, 0.95), "lag95": quantile(run.lag, 0.95),
        "connections": connections if database_url else None,
        "settled": settled, "showing": run.showing, "traces": traces,
        # How the work and the phones' connections were spread over the server's processes.
        "busiest": max(worker_cpu) / sum(worker_cpu) if sum(worker_cpu) > 0 else float("nan"),
        "sockets": sockets,
    }


def late_trace(run: Run, sheet: str, index: int, saved: float, until: float) -> str:
    """(``--trace``) A change phone ``index`` of ``sheet`` saw only after the next save: the
    match's saves and the phone's polls around it, in seconds from the late save's tap."""
    lines = [f"{sheet} phone {index}: the save tapped at {saved - run.end:+.2f} s "
             "(from the end) seen only after the next one"]
    for tapped, answered, status, revision in run.writes[sheet]:
        if saved - 6 <= tapped <= until + 6:
            lines.append(f"  save   {tapped - saved:+7.3f} .. {answered - saved:+7.3f} "
                         f"{status} -> rev {revision}")
    for sent, shown, status, got, answered in run.polls[sheet][index]:
        if answered >= saved - 16 and sent <= until + 6:
            lines.append(f"  poll   {sent - saved:+7.3f} .. {answered - saved:+7.3f} "
                         f"rev {shown} -> {status} rev {got}")
    return "\n".join(lines)


def socket_inodes(pid: int) -> list[str]:
    """The inodes of the sockets process ``pid`` has open, one per descriptor."""
    found = []
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    found.append(target[8:-1])
    return found


def open_sockets(pid: int) -> int:
    """The sockets a server process has open (its connections, the listening socket and
    a few of its own) at the end of the interval."""
    return len(socket_inodes(pid))


def collections(log: str, every: float) -> str:
    """Python's garbage collections in the server's load lines (companion/load_report.py),
    over the whole run, warm-up included: a full one stops every thread of its process."""
    pauses: list[int] = []
    spent = {"gc": 0, "gc_full": 0}
    full = 0
    seconds = 0.0
    for found in re.finditer(r"gc=(\d+) \((\d+) ms, longest \d+ ms\) gc_full=(\d+) "
                             r"\((\d+) ms, longest (\d+) ms\)", log):
        spent["gc"] += int(found[2])
        spent["gc_full"] += int(found[4])
        seconds += every
        full += int(found[3])
        if int(found[3]):
            pauses.append(int(found[5]))
    if not seconds:
        return "# garbage collections: no load lines"
    median = statistics.median(pauses) if pauses else 0
    return (f"# garbage collections, whole run, per process: {spent['gc'] / seconds / 10:.1f} % "
            f"of the time in the young ones, {spent['gc_full'] / seconds / 10:.1f} % in "
            f"{full} full ones (the longest of a line: median {median:.0f} ms, "
            f"max {max(pauses, default=0)} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", default="25,100,250,500,1000")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--database-url")
    parser.add_argument("--workers", type=int,
                        help="server processes (default: gunicorn.conf.py's, as make run)")
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--write-every", type=float, default=WRITE_EVERY,
                        help="seconds between two saves of a match (5: the issue's pace; "
                        "a table takes a minute or more per deal)")
    parser.add_argument("--save", choices=("new", "correction"), default="new",
                        help="what each writer saves: the next deal as the page saves it "
                        "(default; a game over 100 deals), or a correction of deal 2 (11 nimmt!)")
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="seconds of watching and saving before the measured interval "
                        "(0: it starts when every phone shows the sheet, as after a restart)")
    parser.add_argument("--app", type=Path, help="serve this checkout of the app instead")
    parser.add_argument("--server-log", type=Path, metavar="FILE",
                        help="copy the server's log there at the end (with "
                             "--server-env KARTENRUNDE_LOAD_REPORT=5: its load lines)")
    parser.add_argument("--trace", type=Path, metavar="FILE",
                        help="write each late change there: the match's saves and the "
                             "phone's polls around it")
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting for the server (e.g. KARTENRUNDE_POLL_THREADS=8); "
                        "may be given more than once")
    args = parser.parse_args()
    globals()["PORT"] = args.port
    globals()["WRITE_EVERY"] = args.write_every
    counts = [int(n) for n in args.phones.split(",")]
    environment, label = served.prepare(args.database_url)
    if args.workers:
        environment["WEB_CONCURRENCY"] = str(args.workers)
    for setting in args.server_env:
        name, _, value = setting.partition("=")
        environment[name] = value
    processes = args.workers or min(2, os.cpu_count() or 1)
    # Each N watches matches of its own: new deals make a match's sheet longer.
    matches = seed(sum(counts) + 4 * len(counts), args.save)
    if args.app:
        served.ROOT = args.app.resolve()
    load = os.getloadavg()
    print(f"# bench/watchers.py, {label}, {processes} process(es), app {served.ROOT}, "
          f"{args.seconds:.0f} s per N"
          + (f" after {args.warmup:.0f} s of warm-up" if args.warmup else "")
          + f", a save ({args.save}) per match every "
          f"{args.write_every:g} s, "
          + "".join(f"{setting}, " for setting in args.server_env)
          + f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'phones':>6} {'saves':>5} {'seen p50':>8} {'p95':>6} {'max':>6} {'late':>5} "
          f"{'errors':>6} {'CPU':>5} {'client':>6} {'RSS MB':>6} {'/rules/ p50':>11} {'p95 ms':>7} "
          f"{'DB conns':>8} {'save p95':>8} {'lag p95':>7} {'opened':>7} {'busiest':>7} sockets")
    sys.stdout.flush()
    with served.server(environment, args.port) as process:
        for count in counts:
            found = asyncio.run(measure(matches, count, args.seconds, process.pid,
                                        args.database_url, args.save, args.warmup,
                                        trace=args.trace is not None))
            if args.trace:
                with args.trace.open("a") as traced:
                    traced.writelines(f"# {count} phones\n{text}\n" for text in found["traces"])
            matches = matches[(count + 3) // 4:]
            conns = "-" if found["connections"] is None else str(found["connections"])
            print(f"{count:>6} {found['saves']:>5} {found['p50']:>7.2f}s {found['p95']:>5.2f}s "
                  f"{found['max']:>5.2f}s {found['late']:>5} {found['errors']:>6} "
                  f"{found['cpu']:>5.2f} {found['client']:>6.2f} {found['rss']:>6.0f} "
                  f"{found['rules50']:>9.0f}ms "
                  f"{found['rules95']:>7.0f} {conns:>8} {found['save95']:>7.2f}s "
                  f"{found['lag95'] * 1000:>5.0f}ms {found['settled']:>6.1f}s "
                  f"{found['busiest'] * 100:>6.0f}% {'/'.join(map(str, found['sockets']))}"
                  + ("" if found["showing"] == count else f"  only {found['showing']} opened")
                  + (f"  {found['error_kinds']}" if found["errors"] else "")
                  + (f"  resent {found['resent']}" if found["resent"] else ""))
            sys.stdout.flush()
    log = Path(environment["DJANGO_STATIC_ROOT"]).parent / "gunicorn.log"
    if args.server_log:
        shutil.copyfile(log, args.server_log)
    if "KARTENRUNDE_LOAD_REPORT" in environment:
        print(collections(log.read_text(errors="replace"),
                          float(environment["KARTENRUNDE_LOAD_REPORT"])))
    load = os.getloadavg()
    print(f"# load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
