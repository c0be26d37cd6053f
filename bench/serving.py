"""A throw-away production server for the benchmarks (bench/wire.py, bench/load.py).

A fresh database (a temporary SQLite file, or the PostgreSQL database named by
BENCH_DATABASE_URL, dropped and created), migrated, with the cache table and the
demo data; static files collected into a temporary folder; gunicorn with the
project's gunicorn.conf.py on 127.0.0.1, DEBUG off. Stopped when the block ends.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.deploy.visitor import Answer, Visitor  # noqa: E402

# A password of this run only (a server with a well-known one would be open to the LAN);
# against a running server (`--url`) the one `make demo` printed, in KARTENRUNDE_DEMO_PASSWORD.
DEMO = {"username": "demo",
        "password": os.environ.get("KARTENRUNDE_DEMO_PASSWORD") or secrets.token_urlsafe(12)}


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


@contextmanager
def production_server(port: int, *, workers: int = 2, threads: int = 4,
                      root: Path = ROOT) -> Iterator[str]:
    """The base URL of a fresh production server on 127.0.0.1:``port`` (of the project in
    ``root``: another checkout to compare with)."""
    work = Path(tempfile.mkdtemp(prefix="kartenrunde-bench-"))
    database = os.environ.get("BENCH_DATABASE_URL", "")
    if database:
        _recreate_postgres(database)
    else:
        database = f"sqlite:///{work / 'bench.sqlite3'}"
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "KARTENRUNDE_"))},
        "DATABASE_URL": database, "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64)[:50],
        "DJANGO_STATIC_ROOT": str(work / "static"),
        "WEB_CONCURRENCY": str(workers), "KARTENRUNDE_THREADS": str(threads),
    }
    python = sys.executable
    for step in (["migrate", "--noinput", "-v", "0"], ["createcachetable"],
                 ["seed_demo", "--password", DEMO["password"]],
                 ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([python, "manage.py", *step], cwd=root, env=environment, check=True,
                       timeout=600, stdout=subprocess.DEVNULL)
    log = (work / "gunicorn.log").open("w")
    server = subprocess.Popen(
        [python, "-m", "gunicorn", "--config", "gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}"],
        cwd=root, env=environment, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=5).close()
                break
            except OSError as error:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(
                        f"gunicorn did not answer; see {work / 'gunicorn.log'}"
                    ) from error
                time.sleep(0.3)
        print(f"# server: gunicorn {workers} processes x {threads} threads, "
              f"{'PostgreSQL' if database.startswith('postgres') else 'SQLite'}, DEBUG off",
              file=sys.stderr)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def demo_pages(base: str, phone: Visitor) -> dict[str, str]:
    """Log in as the demo account and start an X nimmt! match with two deals recorded;
    returns the paths of the score sheet, the group home and a rules page."""
    login = phone.get(base + "/accounts/login/")
    answer = phone.submit(login, "/accounts/login/", DEMO)
    groups = phone.get(base + "/groups/")
    found = re.search(r'href="(/g/\d+/)"', groups.text)
    assert found, "the demo account has no group: is the demo data there?"
    home = found.group(1)
    start = phone.get(base + home + "matches/new/")
    answer = phone.submit(start, "/matches/new/", {"game": "x-nimmt"})
    sheet = re.search(r"(/g/\d+/matches/\d+/)$", answer.url)
    assert sheet, f"no match started ({answer.status} {answer.url})"
    for values in ({"s0-hand": "5", "s0-x_stack": "2", "s1-hand": "3"},
                   {"s0-hand": "1", "s1-hand": "7", "s1-x_stack": "1"}):
        page = phone.get(base + sheet.group(1))
        saved: Answer = phone.submit(page, "/deals/new/", values)
        assert saved.status == 200, saved.status
    return {"score sheet": sheet.group(1), "group home": home, "rules page": "/rules/x-nimmt/"}
