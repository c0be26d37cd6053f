"""What bench/budgets.py and bench/phone.py share: the app served as `make run` serves it.

- :func:`prepare` points this process's Django at a throw-away database (a temporary
  SQLite file, or the PostgreSQL database named by ``--database-url``, dropped and
  created), migrates it, makes the cache table and collects the static files;
- :class:`Seeder` fills it, through the app's services (the one place that knows them);
- :func:`server` starts ``manage.py serve --host 127.0.0.1`` (gunicorn with
  gunicorn.conf.py: one process x 32 threads, DEBUG off) on that database;
- :func:`server_cpu` reads the CPU seconds of gunicorn's master and workers from /proc;
- :class:`Phone` is a keep-alive HTTP client with its own cookies (a logged-in phone).
"""

from __future__ import annotations

import atexit
import gzip
import http.client
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PASSWORD = "kartenrunde-bench-1"
TICKS = os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------- the database


def _recreate_postgres(url: str) -> None:
    import dj_database_url
    import psycopg
    from psycopg import sql

    db = dj_database_url.parse(url)
    with psycopg.connect(
        dbname="postgres", user=db["USER"] or None, password=db["PASSWORD"] or None,
        host=db["HOST"] or None, port=db["PORT"] or None, autocommit=True,
    ) as connection:
        name = sql.Identifier(db["NAME"])
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(name))


def prepare(database_url: str | None) -> tuple[dict[str, str], str]:
    """This process's Django on a fresh database; returns the environment for the
    server (the same database, secret key and static files) and a label."""
    work = Path(tempfile.mkdtemp(prefix="kartenrunde-bench-"))
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    environment = {
        k: v for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "KARTENRUNDE_")) and k not in ("DATABASE_URL",
                                                                        "SQLITE_PATH")
    }
    environment.update({
        "DJANGO_SETTINGS_MODULE": "companion.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64)[:50],
        "DJANGO_STATIC_ROOT": str(work / "static"),
        # testserver: the in-process test client that counts queries.
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
    })
    if database_url:
        _recreate_postgres(database_url)
        environment["DATABASE_URL"] = database_url
        label = "PostgreSQL " + urllib.parse.urlparse(database_url).path.lstrip("/")
    else:
        environment["SQLITE_PATH"] = str(work / "bench.sqlite3")
        label = f"SQLite {work / 'bench.sqlite3'}"
    os.environ.clear()
    os.environ.update(environment)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    return environment, label


# ------------------------------------------------------------------------ seeding
# The only code that knows the app's services: when they move, adapt the import line in
# services(). Everything else here is the ORM (users, groups, players, memberships) and
# the engine (random legal games).


def services() -> Any:
    """The app's services the seeding calls (imported once Django is set up)."""
    from companion.services.deals import deal_edit, deal_record
    from companion.services.matches import match_finish, match_start

    return SimpleNamespace(match_start=match_start, deal_record=deal_record,
                           match_finish=match_finish, deal_edit=deal_edit)


class Seeder:
    """Users, groups and matches, made the way the app makes them."""

    def __init__(self, seed: int = 2026) -> None:
        self.rng = random.Random(seed)
        self._games: dict[tuple[str, int], list[dict[int, dict[str, Any]]]] = {}

    def user(self, name: str) -> Any:
        from django.contrib.auth.models import User

        return User.objects.create_user(name, password=PASSWORD)

    def group(self, name: str, owner: Any, players: Sequence[str],
              members: Sequence[Any] = ()) -> tuple[Any, list[Any]]:
        """A group owned by ``owner`` (and joined by ``members``) with a roster."""
        from companion.models import Group, Membership, Player

        group = Group.objects.create(name=name, owner=owner)
        Membership.objects.create(group=group, user=owner, role=Membership.Role.OWNER)
        for member in members:
            Membership.objects.create(group=group, user=member, role=Membership.Role.MEMBER)
        return group, [Player.objects.create(group=group, name=n) for n in players]

    def game(self, game: str, seated: Sequence[Any]) -> list[dict[int, dict[str, Any]]]:
        """The deals (entries per player id) of one random game of ``game``, the same for
        every call with the same game and players: copies of a match are identical."""
        from scoring.common import rules_for

        key = (game, len(seated))
        if key not in self._games:
            rules = rules_for(game)
            played = rules.random_game(len(seated), self.rng)
            self._games[key] = [
                {index: rules.entry_to_dict(entry)
                 for index, entry in enumerate(entries[name] for name in played.players)}
                for entries in played.deals
            ]
        return [{seated[i].pk: entry for i, entry in deal.items()} for deal in self._games[key]]

    def match(self, group: Any, game: str, seated: Sequence[Any], recorded: int | None,
              *, finish: bool = False, options: dict[str, Any] | None = None) -> Any:
        """A match with its first ``recorded`` deals (all with ``None``), maybe finished."""
        app = services()
        match = app.match_start(group=group, game=game, players=list(seated), options=options)
        deals = self.game(game, seated)
        for number, entries in enumerate(deals[:recorded], start=1):
            app.deal_record(match=match, number=number, entries=entries)
        if finish:
            match = app.match_finish(match=match)
        return match

    def correct(self, match_id: int, number: int) -> None:
        """A real change of the match: deal ``number`` corrected to the same deal of a new
        random game (entries no process has seen: nothing is answered from a memo)."""
        from companion.models import Deal, Match
        from scoring.common import rules_for

        match = Match.objects.get(pk=match_id)
        seated = list(match.seats.order_by("number").values_list("player_id", flat=True))
        rules = rules_for(match.game)
        played = rules.random_game(len(seated), self.rng)
        entries = {
            player: rules.entry_to_dict(played.deals[number - 1][name])
            for player, name in zip(seated, played.players, strict=True)
        }
        version = Deal.objects.get(match=match, number=number).version
        services().deal_edit(match=match, number=number, version=version, entries=entries)


# ------------------------------------------------------------------------ the server


@contextmanager
def server(environment: dict[str, str], port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``manage.py serve`` on 127.0.0.1:``port`` (it becomes gunicorn: the process is the
    master); stopped when the block ends."""
    log = Path(environment["DJANGO_STATIC_ROOT"]).parent / "gunicorn.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--no-qr"], cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    probe.request("GET", "/accounts/login/")
                    probe.getresponse().read()
                    probe.close()
                    break
                except OSError as error:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise SystemExit(f"the server did not answer; see {log}") from error
                    time.sleep(0.3)
            yield process
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()  # fields from the 3rd (state) on


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry.name))
    return sorted(found)


def tree_cpu(pid: int) -> tuple[float, tuple[int, ...]]:
    """CPU seconds (user + system) of process ``pid`` and its children, with the children
    that ended and were waited for (the parent's cutime + cstime); and the children's pids
    (a new pid means a worker was replaced during the measurement)."""
    fields = _stat(pid)
    if fields is None:
        raise SystemExit(f"process {pid} is gone")
    # utime, stime, cutime, cstime are the 14th to 17th fields (fields[11:15] here).
    ticks = sum(int(value) for value in fields[11:15])
    kids = children(pid)
    for kid in kids:
        kid_fields = _stat(kid)
        if kid_fields is not None:
            ticks += int(kid_fields[11]) + int(kid_fields[12])
    return ticks / TICKS, tuple(kids)


def server_cpu(master: int) -> tuple[float, tuple[int, ...]]:
    """gunicorn's master and workers: :func:`tree_cpu`."""
    return tree_cpu(master)


def postgres_master(database_url: str) -> int | None:
    """The PostgreSQL server's postmaster pid when it runs on this machine and we may ask
    (its backends are then counted beside gunicorn's CPU), else ``None``."""
    import dj_database_url
    import psycopg

    db = dj_database_url.parse(database_url)
    try:
        with psycopg.connect(
            dbname=db["NAME"], user=db["USER"] or None, password=db["PASSWORD"] or None,
            host=db["HOST"] or None, port=db["PORT"] or None,
        ) as connection:
            row = connection.execute("SHOW data_directory").fetchone()
        pid = int((Path(row[0]) / "postmaster.pid").read_text().split()[0])
    except Exception:  # not local, not a superuser, not readable: no database column
        return None
    return pid if _stat(pid) is not None else None


# ------------------------------------------------------------------------ the phones


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    """As it came over the wire (compressed when the server compressed it)."""
    wall: float
    """Seconds from sending the request to the last byte of the answer."""

    @property
    def raw(self) -> bytes:
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            return gzip.decompress(self.body)
        if encoding == "deflate":
            return zlib.decompress(self.body)
        if encoding:
            raise SystemExit(f"cannot read Content-Encoding {encoding}")
        return self.body

    @property
    def text(self) -> str:
        return self.raw.decode()


class Phone:
    """A logged-in phone: one keep-alive connection, its cookies, a browser's headers."""

    IDLE = 3.0
    """Seconds after which the connection is made anew (gunicorn keeps it 5 s)."""

    def __init__(self, port: int, *, language: str = "de") -> None:
        self.port = port
        self.language = language
        self.cookies: dict[str, str] = {}
        self._conn: http.client.HTTPConnection | None = None
        self._used = 0.0

    def request(self, method: str, path: str, *, data: Any = None,
                headers: dict[str, str] | None = None) -> Answer:
        if self._conn is None or time.monotonic() - self._used > self.IDLE:
            if self._conn is not None:
                self._conn.close()
            self._conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {
            "Accept-Language": self.language,
            # A browser's; the server compresses pages with gzip (GZipMiddleware).
            "Accept-Encoding": "gzip, deflate, br, zstd",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            **(headers or {}),
        }
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data, doseq=True)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        self._conn.request(method, path, body=body, headers=sent)
        response = self._conn.getresponse()
        content = response.read()
        wall = time.perf_counter() - started
        self._used = time.monotonic()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if value and "max-age=0" not in header.lower():
                self.cookies[name.strip()] = value
            else:
                self.cookies.pop(name.strip(), None)
        return Answer(response.status, response.headers, content, wall)

    def login(self, username: str) -> None:
        """Logs in through the login form (its CSRF cookie and token)."""
        self.request("GET", "/accounts/login/")
        answer = self.request("POST", "/accounts/login/", data={
            "username": username, "password": PASSWORD,
            "csrfmiddlewaretoken": self.cookies.get("csrftoken", ""),
        })
        if answer.status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"login of {username} failed with HTTP {answer.status}")

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


# ------------------------------------------------------------------- forms as sent


class _FormValues(HTMLParser):
    """The values a browser sends for the form whose action ends with ``action``."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action
        self.inside = False
        self.values: list[tuple[str, str]] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.inside = a.get("action", "").endswith(self.action)
        if not self.inside or "disabled" in a:
            return
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self.values.append((name, a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.values.append((self._select, a.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea = name
            self.values.append((name, ""))

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            name, text = self.values[-1]
            self.values[-1] = (name, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def form_values(html: str, action: str) -> list[tuple[str, str]]:
    """The (name, value) pairs of the page's form posting to ``…action``."""
    parser = _FormValues(action)
    parser.feed(html)
    if not parser.values:
        raise SystemExit(f"no form posting to …{action} on the page")
    return parser.values


def deal_entries(html: str, action: str) -> list[tuple[str, str]]:
    """A recorded deal's entries as its edit form (``…deals/<n>/``) sends them: what a
    player taps into the new-deal form for the same deal (the entry mode included),
    without the form's bookkeeping (token, number, version, key)."""
    skip = {"csrfmiddlewaretoken", "number", "version", "client_key"}
    return [(name, value) for name, value in form_values(html, action) if name not in skip]


FRESH = re.compile(
    r'id="deal-form"[^>]*data-fresh="([^"]+)"|data-fresh="([^"]+)"[^>]*id="deal-form"'
)


def form_fresh(html: str) -> str | None:
    """The entry mode the page names for its fresh deal form (sent with a save as
    ``KR-Fresh-Form``, static/js/sync.js: the answer then leaves the next form out)."""
    found = FRESH.search(html)
    return (found.group(1) or found.group(2)) if found else None
