"""Soak benchmark (not a test): phones at three tables for ten minutes against the
production stack, counting errors and watching every process's memory.

A fresh database (a temporary SQLite file, or the PostgreSQL database named by
BENCH_DATABASE_URL, dropped and created), migrated; gunicorn with the project's
gunicorn.conf.py on 127.0.0.1, DEBUG off, its workers never recycled (``--max-requests
0``, so that a leak would show). Twelve phones (threads with their own login session
and keep-alive connection) at three tables of four; each phone, as a player would:

- polls its sheet every 2 s the way sync.js does (htmx, If-None-Match: mostly 304);
- records the deals of its match of X nimmt! (htmx), now and then without JavaScript,
  corrects the last deal or undoes it, and finishes the match and starts the next one;
  one phone per table plays 3 sind einer zuviel! on the live board, card by card;
- every fourth change sends its form a second time with the same key (a lost answer:
  it must be answered as saved and stored once);
- reads the group's pages now and then: its home, the history, the statistics, the
  match log, a rules page and the rules search, the export;
- and one phone imports a group of about 2 MB every three minutes (a long write beside
  the phones' short ones).

Errors are answers the phone did not expect: any 5xx, a connection error, a 4xx for a
valid form (409 "another phone was first" is expected and counted apart) and a change
answered as saved that the database does not hold. Every process's memory (RSS from
/proc) is sampled every 5 s; the figures after the warm-up (the first fifth of the run)
should stay flat.

    .venv/bin/python bench/soak.py                    # SQLite, 10 minutes
    .venv/bin/python bench/soak.py --minutes 2        # shorter
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:54329/kartenrunde_soak \\
        .venv/bin/python bench/soak.py                # PostgreSQL (database dropped)
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

PASSWORD = "kartenrunde-soak-1"
TABLES, SEATS = 3, 4
NEXT = re.compile(r'id="sheet"[^>]*data-next="(\d+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')
UNDO = re.compile(r'action="[^"]*/undo/".*?name="change" value="(\d+)"', re.S)
REVISION = re.compile(r'name="revision" value="(\d+)"')
SHEET = re.compile(r"(/g/\d+/matches/\d+/)$")


class Phone:
    """One phone: a keep-alive HTTP connection with its own cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, data: dict[str, Any] | None = None, *,
                htmx: bool = False, headers: dict[str, str] | None = None,
                body: bytes | None = None) -> tuple[int, str, dict[str, str]]:
        sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                "Accept-Language": "en", **(headers or {})}
        if data is not None:
            body = urllib.parse.urlencode(data).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if method == "POST":
            sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if htmx:
            sent["HX-Request"] = "true"
        try:
            self.conn.request(method, path, body=body, headers=sent)
            response = self.conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            return 0, "", {}
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, text, {k.lower(): v for k, v in response.getheaders()}

    def login(self, username: str) -> None:
        self.request("GET", "/accounts/login/")
        status, _, _ = self.request("POST", "/accounts/login/", {
            "username": username, "password": PASSWORD,
            "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
        if status != 302:
            raise SystemExit(f"login of {username} failed with HTTP {status}")


class Tally:
    """What the phones saw: answers per kind of request, latencies, errors."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: collections.Counter[str] = collections.Counter()
        self.times: dict[str, list[float]] = collections.defaultdict(list)
        self.errors: list[str] = []
        self.saved = collections.Counter[str]()

    def note(self, kind: str, status: int, seconds: float, expected: tuple[int, ...],
             detail: str = "") -> bool:
        with self.lock:
            self.counts[f"{kind} {status}"] += 1
            self.times[kind].append(seconds)
            if status not in expected:
                self.errors.append(f"{kind}: HTTP {status} {detail}"[:300])
                return False
        return True


def prepare(database: str) -> dict[str, Any]:
    """The database migrated and wiped; three groups of four phones' accounts, each a
    roster of its four players; returns names and ids."""
    import django
    from django.core.management import call_command

    os.environ["DATABASE_URL"] = database
    django.setup()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    from django.contrib.auth.models import User
    from django.db import connections

    from companion.models import Group, Membership, Player

    tables = []
    for table in range(TABLES):
        users = [User.objects.create_user(f"soak{table}{seat}", password=PASSWORD)
                 for seat in range(SEATS)]
        group = Group.objects.create(name=f"Tisch {table + 1}", owner=users[0])
        players = []
        for seat, user in enumerate(users):
            Membership.objects.create(
                group=group, user=user,
                role=Membership.Role.OWNER if seat == 0 else Membership.Role.MEMBER)
            players.append(Player.objects.create(group=group, name=f"Spieler {table}{seat}",
                                                 user=user).pk)
        tables.append({"group": group.pk, "users": [u.username for u in users],
                       "players": players})
    importer = User.objects.create_user("soakimport", password=PASSWORD)
    connections.close_all()
    return {"tables": tables, "importer": importer.username}


def export_file() -> bytes:
    """A group's export of about 2 MB (bench/imports.py's history)."""
    from imports import history_document

    document = history_document(matches=300, nights=120, deals=1200, changes=2400)
    return json.dumps(document, separators=(",", ":")).encode()


def multipart(name: str, filename: str, content: bytes, fields: dict[str, str]
              ) -> tuple[bytes, str]:
    boundary = secrets.token_hex(12)
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
             .encode() for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                 f'filename="{filename}"\r\nContent-Type: application/json\r\n\r\n'.encode()
                 + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


class Player:
    """One phone at a table: its own match, the table's pages, its changes."""

    def __init__(self, port: int, table: dict[str, Any], seat: int, tally: Tally,
                 until: float, seed: int) -> None:
        self.phone = Phone(port)
        self.table, self.seat, self.tally, self.until = table, seat, tally, until
        self.rng = random.Random(seed)
        self.group = table["group"]
        self.live = seat == SEATS - 1  # one phone per table plays on the live board
        self.sheet = ""
        self.etag = ""

    def call(self, kind: str, method: str, path: str, data: dict[str, Any] | None = None,
             *, expected: tuple[int, ...] = (200,), htmx: bool = False,
             headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
        began = time.perf_counter()
        status, text, answer = self.phone.request(method, path, data, htmx=htmx,
                                                  headers=headers)
        self.tally.note(kind, status, time.perf_counter() - began, expected, path)
        return status, text, answer

    def change(self, kind: str, path: str, data: dict[str, Any], *, htmx: bool = True,
               expected: tuple[int, ...] = (200,)) -> tuple[int, str]:
        """A write with its key; every fourth one is sent twice (the first answer "lost")."""
        data = {**data, "client_key": secrets.token_hex(16)}
        if not htmx:
            data["csrfmiddlewaretoken"] = self.phone.cookies.get("csrftoken", "")
            expected = tuple(302 if code == 200 else code for code in expected)
        status, text, _ = self.call(kind, "POST", path, data, htmx=htmx, expected=expected)
        if status in expected and status != 409:
            with self.tally.lock:
                self.tally.saved[kind] += 1
            if self.rng.random() < 0.25:
                again, text, _ = self.call(kind + " (sent again)", "POST", path, data,
                                           htmx=htmx, expected=(status,))
                if (again == status == 200 and "already" not in text
                        and kind != "live: a card"):
                    self.tally.note(kind + " (sent again)", -1, 0, (status,),
                                    "not answered as saved already")
        return status, text

    def start(self) -> None:
        players = self.table["players"]
        order = players[self.seat:] + players[:self.seat]
        game = "drei-sind-einer-zuviel" if self.live else "x-nimmt"
        data = {"game": game, **{f"seat_{i}": pk for i, pk in enumerate(order)}}
        self.phone.request("GET", f"/g/{self.group}/matches/new/")
        data["csrfmiddlewaretoken"] = self.phone.cookies.get("csrftoken", "")
        data["client_key"] = secrets.token_hex(16)
        began = time.perf_counter()
        status, _, answer = self.phone.request("POST", f"/g/{self.group}/matches/new/", data)
        self.tally.note("start a match", status, time.perf_counter() - began, (302,))
        found = SHEET.search(answer.get("location", ""))
        if found:
            self.sheet = found.group(1)
            self.etag = ""

    def poll(self) -> str:
        headers = {"If-None-Match": self.etag} if self.etag else {}
        status, text, answer = self.call("poll the sheet", "GET", self.sheet, htmx=True,
                                         headers=headers, expected=(200, 304))
        if status == 200:
            self.etag = answer.get("etag", "")
        return text if status == 200 else ""

    def play_x_nimmt(self) -> None:
        status, page, _ = self.call("open the sheet", "GET", self.sheet, htmx=True)
        found = NEXT.search(page)
        if status != 200 or found is None:
            return
        number = int(found.group(1))
        if 'name="number"' not in page:  # complete: finish it, start the next
            self.change("finish", self.sheet + "finish/", {})
            self.start()
            return
        roll = self.rng.random()
        if roll < 0.15 and number > 1:
            _, form, _ = self.call("open a correction", "GET",
                                   self.sheet + f"deals/{number - 1}/", htmx=True)
            version = VERSION.search(form)
            if version:
                self.change("correct a deal", self.sheet + f"deals/{number - 1}/", {
                    "number": number - 1, "version": version.group(1), **self.deal(9)},
                    htmx=self.rng.random() < 0.7)
            return
        if roll < 0.22:
            undo = UNDO.search(page)
            if undo:
                self.change("undo", self.sheet + "undo/", {"change": undo.group(1)},
                            expected=(200, 409))
            return
        self.change("record a deal", self.sheet + "deals/new/", {
            "number": number, **self.deal(12)},
            htmx=self.rng.random() < 0.8, expected=(200, 409))

    def deal(self, most: int) -> dict[str, int]:
        """A deal of X nimmt! as typed: Hornochsen in hand, one player out (0 in hand), some
        in the X-stack (the engine refuses a deal in which everybody still holds cards)."""
        out = self.rng.randrange(SEATS)
        fields = {f"s{s}-hand": 0 if s == out else self.rng.randint(1, most)
                  for s in range(SEATS)}
        fields[f"s{self.rng.randrange(SEATS)}-x_stack"] = self.rng.randint(0, 3)
        return fields

    def play_live(self) -> None:
        live = self.sheet + "live/"
        status, page, _ = self.call("open the live board", "GET", live, htmx=True)
        revision = REVISION.search(page)
        if status != 200:
            return
        if revision is None:  # closed: the result is on the sheet
            _, sheet, _ = self.call("open the sheet", "GET", self.sheet, htmx=True)
            if 'action="' + self.sheet + 'finish/"' in sheet:
                self.change("finish", self.sheet + "finish/", {})
            self.start()
            return
        taken = int(re.search(r"(\d+) cards? taken", page).group(1)) if re.search(
            r"(\d+) cards? taken", page) else 0
        if taken >= 16:
            status, _ = self.change("live: put on the sheet", live, {
                "revision": revision.group(1), "action": "save", "confirm": "yes"})
            if status == 200:
                self.change("finish", self.sheet + "finish/", {})
                self.start()
            return
        players = self.table["players"]
        colours = ["orange", "flieder", "hellblau", "rot", "tuerkis", "magenta", "olivgruen"]
        self.change("live: a card", live, {
            "revision": revision.group(1), "player": players[taken % SEATS],
            "colour": colours[taken % len(colours)], "action": "take"}, expected=(200, 409))

    def read(self) -> None:
        group = f"/g/{self.group}/"
        kind, path = self.rng.choice([
            ("group home", group), ("history", group + "history/"),
            ("statistics", group + "games/x-nimmt/"),
            ("match log", self.sheet + "changes/"),
            ("rules page", "/rules/x-nimmt/"),
            ("rules search", "/rules/search/?q=Hornochsen"),
            ("export", group + "export.json"),
        ])
        self.call(kind, "GET", path)

    def run(self) -> None:
        self.phone.login(self.table["users"][self.seat])
        self.start()
        next_move = time.monotonic() + self.rng.uniform(0, 4)
        next_read = time.monotonic() + self.rng.uniform(5, 15)
        while time.monotonic() < self.until:
            if self.sheet:
                self.poll()
            now = time.monotonic()
            if self.sheet and now >= next_move:
                (self.play_live if self.live else self.play_x_nimmt)()
                next_move = now + self.rng.uniform(2, 8)
            if now >= next_read:
                self.read()
                next_read = now + self.rng.uniform(8, 20)
            time.sleep(2)


def importer(port: int, username: str, content: bytes, tally: Tally, until: float) -> None:
    phone = Phone(port)
    phone.login(username)
    while time.monotonic() + 60 < until:
        phone.request("GET", "/groups/import/")
        body, kind = multipart("file", "runde.json", content,
                               {"csrfmiddlewaretoken": phone.cookies.get("csrftoken", "")})
        began = time.perf_counter()
        status, _, _ = phone.request("POST", "/groups/import/", headers={"Content-Type": kind},
                                     body=body)
        tally.note("import a group (2 MB)", status, time.perf_counter() - began, (302,))
        time.sleep(max(0.0, min(180.0, until - time.monotonic())))


def processes(master: int) -> dict[int, str]:
    """The gunicorn master and its workers: pid → name."""
    found = {master: "master"}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == master:
                found[int(entry.name)] = f"worker {entry.name}"
    return found


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def start_server(port: int, database: str, work: Path) -> subprocess.Popen[bytes]:
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "KARTENRUNDE_"))},
        "DATABASE_URL": database, "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64)[:50],
        "DJANGO_STATIC_ROOT": str(work / "static"),
    }
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                   cwd=ROOT, env=environment, check=True, timeout=600)
    log = (work / "gunicorn.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}", "--max-requests", "0"],
        cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/")
            connection.getresponse().read()
            return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise SystemExit(f"gunicorn did not answer; see {work / 'gunicorn.log'}")


def recreate_postgres(url: str) -> None:
    import dj_database_url
    import psycopg
    from psycopg import sql

    db = dj_database_url.parse(url)
    with psycopg.connect(dbname="postgres", user=db["USER"] or None,
                         password=db["PASSWORD"] or None, host=db["HOST"] or None,
                         port=db["PORT"] or None, autocommit=True) as connection:
        name = sql.Identifier(db["NAME"])
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(name))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--port", type=int, default=8297)
    parser.add_argument("--no-import", action="store_true", help="leave the importer out")
    options = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    work = Path(tempfile.mkdtemp(prefix="kartenrunde-soak-"))
    database = os.environ.get("BENCH_DATABASE_URL", "")
    if database:
        recreate_postgres(database)
        label = "PostgreSQL"
    else:
        database, label = f"sqlite:///{work / 'soak.sqlite3'}", "SQLite"
    setup = prepare(database)
    content = export_file()
    server = start_server(options.port, database, work)
    tally = Tally()
    samples: dict[int, list[tuple[float, float]]] = collections.defaultdict(list)
    names: dict[int, str] = {}
    began = time.monotonic()
    until = began + options.minutes * 60
    threads = [threading.Thread(target=Player(options.port, table, seat, tally, until,
                                              seed=10 * t + seat).run, daemon=True)
               for t, table in enumerate(setup["tables"]) for seat in range(SEATS)]
    if not options.no_import:
        threads.append(threading.Thread(target=importer, daemon=True, args=(
            options.port, setup["importer"], content, tally, until)))
    try:
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            for pid, name in processes(server.pid).items():
                names[pid] = name
                rss = rss_mb(pid)
                if rss is not None:
                    samples[pid].append((time.monotonic() - began, rss))
            time.sleep(5)
            if time.monotonic() > until + 120:
                raise SystemExit("the phones did not stop in time")
    finally:
        server.terminate()
        server.wait(30)
    seconds = time.monotonic() - began
    requests = sum(tally.counts.values())
    print(f"# {label}, gunicorn (gunicorn.conf.py: "
          f"{os.environ.get('WEB_CONCURRENCY', 'default')} event-loop worker(s) x "
          f"{os.environ.get('KARTENRUNDE_THREADS', '16')} Django threads, workers not "
          f"recycled), {TABLES * SEATS} phones{'' if options.no_import else ' + an importer'}, "
          f"{seconds / 60:.1f} minutes")
    print(f"requests: {requests} ({requests / seconds:.1f}/s), errors: {len(tally.errors)}")
    for error in tally.errors[:20]:
        print(f"  ERROR {error}")
    print(f"{'request':32} {'count':>6} {'median':>8} {'p95':>8} {'max':>8}  answers")
    for kind in sorted(tally.times):
        times = tally.times[kind]
        answers = ", ".join(f"{key.rsplit(' ', 1)[1]}×{n}"
                            for key, n in sorted(tally.counts.items())
                            if key.rsplit(" ", 1)[0] == kind)
        print(f"{kind:32} {len(times):6} {statistics.median(times) * 1000:7.0f}ms "
              f"{percentile(times, .95) * 1000:7.0f}ms {max(times) * 1000:7.0f}ms  {answers}")
    warm = options.minutes * 60 / 5
    print(f"memory (RSS, MB) per process, once a minute; after the warm-up ({warm:.0f} s): "
          "first → last, and the slope of a straight line through every sample")
    for pid, series in sorted(samples.items()):
        after = [(at, rss) for at, rss in series if at >= warm]
        if len(after) < 2:
            continue
        minutes = [rss for at, rss in series if int(at) % 60 < 5]
        slope = statistics.linear_regression([at / 60 for at, _ in after],
                                             [rss for _, rss in after]).slope
        print(f"  {names[pid]:14} {' '.join(f'{rss:.0f}' for rss in minutes)}")
        print(f"  {'':14} {after[0][1]:.1f} → {after[-1][1]:.1f} MB, {slope:+.2f} MB/minute")
    print(f"changes answered as saved: {dict(sorted(tally.saved.items()))}")
    lost = check_stored(setup, tally)
    print(f"lost changes (answered as saved, not stored): {lost}")
    if tally.errors or lost:
        raise SystemExit(1)


def check_stored(setup: dict[str, Any], tally: Tally) -> int:
    """Deals answered as recorded that the log does not hold (a repeat is logged once)."""
    from companion.models import MatchChange

    groups = [table["group"] for table in setup["tables"]]
    recorded = MatchChange.objects.filter(
        match__group__in=groups, kind=MatchChange.Kind.RECORD, client_key__isnull=False
    ).count()
    return max(0, tally.saved["record a deal"] - recorded)


if __name__ == "__main__":
    main()
