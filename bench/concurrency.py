"""Phones writing at once: the real server (gunicorn with gunicorn.conf.py, as `make run`
serves: event-loop workers, Django in a pool of threads), real HTTP, counts of what went
wrong.

Two scenarios, each with THREADS phones (threads with their own login session):

- writers: every phone records all deals of its own match of 13 and then corrects
  every deal once (8 phones x 8 matches by default);
- editors: every phone corrects the same deal until it has landed EDITS corrections,
  retrying with the data of every 409 refusal (8 phones x 1 deal).

It prints, per scenario, how many answers were 2xx/3xx, 409, other 4xx and 500
(and connection errors), and how many updates were lost: a change answered as
saved that the database does not hold.

Usage (127.0.0.1 only, bounded in time)::

    .venv/bin/python bench/concurrency.py                       # SQLite, a temp file
    DATABASE_URL=postgres://postgres@127.0.0.1:54329/kartenrunde_bench \\
        .venv/bin/python bench/concurrency.py                   # PostgreSQL (database wiped)

Options: --port (default 8290), --threads (8 phones, and as many server threads),
--edits (5), --workers (1 gunicorn process).
"""

from __future__ import annotations

import argparse
import collections
import html
import http.client
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "kartenrunde-bench-1"
DEADLINE = 120.0
"""Seconds a scenario may take before it is called off."""


def configure_database() -> str:
    """Point the settings at a throw-away database; returns a label for the output."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        return "PostgreSQL " + urllib.parse.urlparse(url).path.lstrip("/")
    path = Path(tempfile.mkdtemp(prefix="kartenrunde-bench-")) / "bench.sqlite3"
    if "dj_database_url" in (ROOT / "companion/settings.py").read_text():
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(path)
    return f"SQLite {path}"


class Phone:
    """One phone: a keep-alive HTTP connection with its own cookies."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, data: dict[str, Any] | None = None,
                htmx: bool = False) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   "Accept-Language": "en"}
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if htmx:
            headers["HX-Request"] = "true"
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            return 0, ""
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, text

    def login(self, username: str) -> None:
        self.request("GET", "/accounts/login/")
        status, _ = self.request("POST", "/accounts/login/", {
            "username": username, "password": PASSWORD,
            "csrfmiddlewaretoken": self.cookies.get("csrftoken", ""),
        })
        if status != 302:
            raise SystemExit(f"login of {username} failed with HTTP {status}")


def prepare(threads: int) -> dict[str, Any]:
    """Migrate and wipe the database, then create the phones' users, group and matches."""
    import django
    from django.core.management import call_command

    os.environ["DJANGO_STATIC_ROOT"] = tempfile.mkdtemp(prefix="kartenrunde-bench-static-")
    django.setup()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    from django.contrib.auth.models import User
    from django.db import connections

    from companion.models import Group, Membership, Player
    from companion.services import deals as deal_services
    from companion.services import matches as match_services
    from companion.services import sheet as sheet_services

    owner = User.objects.create_user("phone0", password=PASSWORD)
    group = Group.objects.create(name="Bench", owner=owner)
    users = [owner] + [
        User.objects.create_user(f"phone{n}", password=PASSWORD) for n in range(1, threads)
    ]
    for user in users:
        Membership.objects.create(
            group=group, user=user,
            role=Membership.Role.OWNER if user == owner else Membership.Role.MEMBER,
        )
    players = [Player.objects.create(group=group, name=name) for name in ("Anna", "Ben", "Cem")]
    writers = [
        match_services.match_start(group=group, game="dreizehn", players=players).pk
        for _ in range(threads)
    ]
    shared = match_services.match_start(group=group, game="dreizehn", players=players)
    deal_services.deal_record(match=shared, number=1, entries={p.pk: {} for p in players})
    connections.close_all()
    return {"group": group.pk, "writers": writers, "shared": shared.pk,
            "users": [u.username for u in users], "deals": sheet_services.deals_needed(shared, 3)}


def start_gunicorn(port: int, threads: int, workers: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "--config", "gunicorn.conf.py",
         "--workers", str(workers), "-b", f"127.0.0.1:{port}",
         "--log-level", "warning", "--timeout", "60"],
        cwd=ROOT, env={**os.environ, "DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
                      "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
                      "KARTENRUNDE_THREADS": str(threads)},
    )
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")


VERSION = re.compile(r'name="version" value="(\d+)"')


def run_threads(target: Any, args: list[tuple[Any, ...]]) -> None:
    barrier = threading.Barrier(len(args))
    workers = [threading.Thread(target=target, args=(barrier, *a), daemon=True) for a in args]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(DEADLINE)
    if any(worker.is_alive() for worker in workers):
        raise SystemExit(f"a scenario took longer than {DEADLINE} s")


def writers(port: int, setup: dict[str, Any], counts: collections.Counter[str],
            saved: dict[tuple[int, int], int]) -> None:
    """Every phone records every deal of its own match, then corrects each once."""
    lock = threading.Lock()

    def phone(barrier: threading.Barrier, index: int, match_id: int) -> None:
        client = Phone(port)
        client.login(setup["users"][index])
        base = f"/g/{setup['group']}/matches/{match_id}/deals/"
        barrier.wait()
        for number in range(1, setup["deals"] + 1):
            status, _ = client.request("POST", base + "new/", {
                "number": number, "s0-red": "1", "s1-blue": "1",
            }, htmx=number % 2 == 0)
            with lock:
                counts[bucket(status)] += 1
                if status < 400 and status:
                    saved[(match_id, number)] = 1
        for number in range(1, setup["deals"] + 1):
            status, _ = client.request("POST", base + f"{number}/", {
                "version": 1, "s0-red": "2", "s2-blue": "1",
            }, htmx=number % 2 == 1)
            with lock:
                counts[bucket(status)] += 1
                if status < 400 and status:
                    saved[(match_id, number)] = 2

    run_threads(phone, [(i, m) for i, m in enumerate(setup["writers"])])


def editors(port: int, setup: dict[str, Any], edits: int, counts: collections.Counter[str],
            landed: list[int], bad_refusals: list[str]) -> None:
    """Every phone corrects deal 1 of one match ``edits`` times, retrying after a 409."""
    lock = threading.Lock()

    def phone(barrier: threading.Barrier, index: int) -> None:
        client = Phone(port)
        client.login(setup["users"][index])
        path = f"/g/{setup['group']}/matches/{setup['shared']}/deals/1/"
        _, page = client.request("GET", path)
        version = int(VERSION.search(page).group(1))  # type: ignore[union-attr]
        barrier.wait()
        done = attempts = 0
        while done < edits and attempts < edits * 40:
            attempts += 1
            status, page = client.request("POST", path, {
                "version": version, "s0-red": str(index % 3), "s1-blue": "1",
            }, htmx=attempts % 2 == 0)
            with lock:
                counts[bucket(status)] += 1
            if status in (200, 302):
                done += 1
                version += 1
                with lock:
                    landed.append(version)
            elif status == 409:
                match = VERSION.search(page)
                if match is None or int(match.group(1)) <= version:
                    with lock:
                        bad_refusals.append(html.unescape(page[:200]))
                    return
                version = int(match.group(1))
            else:
                return

    run_threads(phone, [(i,) for i in range(len(setup["users"]))])


def bucket(status: int) -> str:
    if status == 0:
        return "connection error"
    if status == 500:
        return "500"
    if status == 409:
        return "409"
    if status >= 400:
        return f"other {status}"
    return "saved"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8290)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1)
    options = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    label = configure_database()
    setup = prepare(options.threads)
    server = start_gunicorn(options.port, options.threads, options.workers)
    try:
        from companion.models import Deal, MatchChange

        counts: collections.Counter[str] = collections.Counter()
        saved: dict[tuple[int, int], int] = {}
        began = time.monotonic()
        writers(options.port, setup, counts, saved)
        seconds = time.monotonic() - began
        stored = {
            (deal.match_id, deal.number): deal.version
            for deal in Deal.objects.filter(match_id__in=setup["writers"])
        }
        lost = sum(1 for key, version in saved.items() if stored.get(key, 0) < version)
        print(f"{label}, gunicorn event-loop workers {options.workers} x {options.threads} "
              "Django threads")
        print(f"writers: {options.threads} phones x {options.threads} matches, "
              f"{sum(counts.values())} requests in {seconds:.1f} s: {dict(sorted(counts.items()))}"
              f", lost updates {lost}")

        counts = collections.Counter()
        landed: list[int] = []
        bad: list[str] = []
        began = time.monotonic()
        editors(options.port, setup, options.edits, counts, landed, bad)
        seconds = time.monotonic() - began
        deal = Deal.objects.get(match_id=setup["shared"], number=1)
        edits = MatchChange.objects.filter(
            match_id=setup["shared"], kind=MatchChange.Kind.EDIT
        ).count()
        lost = len(landed) - (deal.version - 1)
        print(f"editors: {options.threads} phones x 1 deal, {sum(counts.values())} requests in "
              f"{seconds:.1f} s: {dict(sorted(counts.items()))}, edits answered as saved "
              f"{len(landed)}, deal version {deal.version}, edit log entries {edits}, "
              f"lost updates {lost}, 409s without newer data {len(bad)}")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
