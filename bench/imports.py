"""Import benchmark: the largest group import the limits allow, its time, memory and the
longest time a phone waits to write meanwhile.

Builds an export document (``kartenrunde-history``) at the limits of
``companion/limits.py``: every count at its maximum at once, made shorter until the file
fits the file size limit (``--shape``: with the cards of every 11 nimmt! entry, without
them, or the most matches and game nights with one deal each). It writes it to a
temporary file, then imports it in a fresh process on a
temporary SQLite database (the project's database is not touched) while a "phone" (a
raw sqlite3 connection) writes one row every 20 ms and notes how long each write
waited for the lock. It prints the import's wall time, CPU time, peak memory (the
process's maximum RSS, as ``/usr/bin/time -v`` reports it) and the phone's longest
wait. Aim (issue 21): ≤ 30 s, ≤ 200 MB, no wait longer than about a second.

    .venv/bin/python bench/imports.py                 # the largest allowed import
    .venv/bin/python bench/imports.py --shape many    # the most matches allowed
    .venv/bin/python bench/imports.py --shape night   # as many, on one game night
    .venv/bin/python bench/imports.py --scale 0.1     # a tenth of it
    .venv/bin/python bench/imports.py --matches 2000  # a plain history of 2,000 matches
    BENCH_PARALLEL=4 .venv/bin/python bench/imports.py  # four accounts send it at once
    .venv/bin/python bench/imports.py --bgstats 10000 # a BG Stats import of 10,000 plays
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _stamp(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat()


def history_document(
    *, matches: int, nights: int, deals: int, changes: int, players: int = 8,
    light: bool = False, seed: int = 1,
) -> dict[str, Any]:
    """A valid export of ``matches`` finished matches over ``nights`` game nights, with at
    most ``deals`` deals and ``changes`` log entries in all.

    Matches are 11 nimmt! with as many players as the roster allows (the game with the
    most deals and entries per match) while deals are left, then X nimmt! (two deals)
    and 3 sind einer zuviel! (one deal); every deal has its log entry ("recorded", with
    every player's entry) while log entries are left, and the rest of the allowance goes
    to entries "edited" (before and after) in the largest matches. ``light``: the 11
    nimmt! entries as numbers (no card lists), the smallest file for the counts.
    """
    from scoring import GAMES, rank
    from scoring.common import rules_for

    rng = random.Random(seed)
    keys = [f"p{index}" for index in range(1, players + 1)]
    pool: dict[tuple[str, int], list[tuple[list[dict[str, Any]], list[dict[str, int]]]]] = {}

    def sample(game: str, count: int) -> tuple[list[dict[str, Any]], list[dict[str, int]]]:
        if (game, count) not in pool:
            rules = rules_for(game)
            pool[game, count] = []
            for _ in range(20):
                played = rules.random_game(count, rng)
                strip = light and game == "elf-nimmt"
                pool[game, count].append((
                    [{p: {k: None if strip and k.endswith("_cards") else v
                          for k, v in rules.entry_to_dict(e).items()}
                      for p, e in deal.items()} for deal in played.deals],
                    [rules.score_deal(deal) for deal in played.deals],
                ))
        return rng.choice(pool[game, count])

    start = dt.datetime(2000, 1, 7, 19, tzinfo=dt.UTC)
    night_docs = [
        {"date": (start + dt.timedelta(days=7 * (i // 2) + i % 2)).date().isoformat(),
         "place": rng.choice(["Bei Anna", "Bei Ben", "Kneipe", ""]), "notes": "",
         "created_at": _stamp(start + dt.timedelta(days=7 * (i // 2) + i % 2)), "matches": []}
        for i in range(nights)
    ]
    deals_left, changes_left = deals, changes
    big = min(players, GAMES["elf-nimmt"].max_players)
    for index in range(matches):
        matches_left = matches - index
        # 11 nimmt! while its deals fit beside at least one deal for every match after it.
        if deals_left - rules_for("elf-nimmt").deal_count(big) >= matches_left - 1:
            game, count = "elf-nimmt", big
        elif deals_left - 2 >= matches_left - 1:
            game, count = "x-nimmt", min(players, 4)
        else:
            game, count = "drei-sind-einer-zuviel", min(players, 4)
        night = night_docs[index * nights // matches]
        began = dt.datetime.fromisoformat(night["created_at"]) + dt.timedelta(
            minutes=len(night["matches"]))
        seated = keys[:count]
        names = [f"P{i}" for i in range(1, count + 1)]
        entries, scores = sample(game, count)
        deals_left -= len(entries)
        totals = {n: sum(s[n] for s in scores) for n in names}
        places = {n: p for p, n, _t in rank(totals, lower_is_better=GAMES[game].lower_is_better)}
        log = []
        for number, deal in enumerate(entries, 1):
            if changes_left > 0:
                changes_left -= 1
                log.append({"kind": "record", "deal_number": number, "before": None,
                            "after": {k: deal[n] for k, n in zip(seated, names, strict=True)},
                            "created_at": _stamp(began), "undone_at": None,
                            "client_key": f"bench-{index:06d}-{number:02d}"})
        if changes_left > 0:
            changes_left -= 1
            log.append({"kind": "finish", "deal_number": None, "before": None, "after": None,
                        "created_at": _stamp(began), "undone_at": None, "client_key": None})
        night["matches"].append({
            "game": game, "options": {}, "first_dealer": 0, "status": "finished",
            "created_at": _stamp(began), "finished_at": _stamp(began),
            "seats": [{"player": k, "number": i, "total": totals[n], "place": places[n],
                       "is_winner": places[n] == 1}
                      for i, (k, n) in enumerate(zip(seated, names, strict=True))],
            "deals": [{"number": number, "version": 1, "created_at": _stamp(began),
                       "updated_at": _stamp(began),
                       "scores": [{"player": k, "data": deal[n], "score": score[n]}
                                  for k, n in zip(seated, names, strict=True)]}
                      for number, (deal, score) in enumerate(zip(entries, scores, strict=True), 1)],
            "changes": log,
        })
    # What is left of the log allowance: corrections of the first deal of the largest
    # matches (before and after the same entries, so the deals stay as they are).
    for night in night_docs:
        for match in night["matches"]:
            if changes_left <= 0:
                break
            if match["deals"] and len(match["changes"]) < 50:
                first = {s["player"]: s["data"] for s in match["deals"][0]["scores"]}
                extra = min(changes_left, 50 - len(match["changes"]))
                changes_left -= extra
                match["changes"][:0] = [
                    {"kind": "edit", "deal_number": 1, "before": first, "after": first,
                     "created_at": match["created_at"], "undone_at": None, "client_key": None}
                    for _ in range(extra)
                ]
    return {
        "format": "kartenrunde-history", "version": 1,
        "group": {"name": "Benchrunde", "created_at": _stamp(start)},
        "players": [{"key": k, "name": f"Spieler {k[1:]}", "created_at": _stamp(start)}
                    for k in keys],
        "game_nights": night_docs,
    }


def _phone(path: Path, stop: threading.Event, waits: list[float], saves: list[float]) -> None:
    """Writes a row every 20 ms, as a phone saving deals would; notes how long each waited
    for the write lock, and how long each took in all (the commit included: the one that
    finds the write-ahead log long copies it into the database)."""
    connection = sqlite3.connect(path, timeout=120, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("CREATE TABLE IF NOT EXISTS phone (at REAL)")
    while not stop.is_set():
        began = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        waits.append(time.perf_counter() - began)
        connection.execute("INSERT INTO phone VALUES (?)", (began,))
        connection.execute("COMMIT")
        saves.append(time.perf_counter() - began)
        time.sleep(0.02)
    connection.close()


def watch_writes() -> list[tuple[float, str]]:
    """Time every write transaction of this process: each outermost ``atomic`` block
    (on SQLite, ``BEGIN IMMEDIATE`` takes the write lock at once and holds it to the end)
    and each write statement run outside one (autocommit). Returns the list the
    durations go to, as (seconds, where: the function that opened it)."""
    import sys as _sys

    from django.db import connection, transaction

    held: list[tuple[float, str]] = []
    opened: list[tuple[float, str]] = []
    enter, leave = transaction.Atomic.__enter__, transaction.Atomic.__exit__

    def where() -> str:
        frame = _sys._getframe(2)
        while frame and (frame.f_code.co_filename.endswith(("transaction.py", "query.py",
                                                            "contextlib.py"))):
            frame = frame.f_back
        return f"{Path(frame.f_code.co_filename).stem}.{frame.f_code.co_name}" if frame else "?"

    def timed_enter(self: Any) -> None:
        if not connection.in_atomic_block:
            opened.append((time.perf_counter(), where()))
        enter(self)

    def timed_exit(self: Any, *exc: Any) -> None:
        leave(self, *exc)
        if not connection.in_atomic_block and opened:
            began, place = opened.pop()
            held.append((time.perf_counter() - began, place))

    def statement(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if connection.in_atomic_block or sql.lstrip()[:6].upper() not in (
                "INSERT", "UPDATE", "DELETE"):
            return execute(sql, params, many, context)
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            held.append((time.perf_counter() - began, "autocommit " + sql.split()[0]))

    transaction.Atomic.__enter__ = timed_enter  # type: ignore[method-assign]
    transaction.Atomic.__exit__ = timed_exit  # type: ignore[method-assign]
    connection.execute_wrappers.append(statement)
    return held


def longest_writes(held: list[tuple[float, str]], count: int = 3) -> str:
    """The longest write transactions, for the report."""
    return ", ".join(f"{seconds * 1000:.0f} ms ({place})"
                     for seconds, place in sorted(held, reverse=True)[:count])


def _child(document: Path, database: Path) -> None:
    """In a fresh process: Django on ``database`` (migrated already), then the import of
    ``document``; prints the figures as JSON."""
    os.environ.update(DJANGO_SETTINGS_MODULE="companion.settings", SQLITE_PATH=str(database),
                      DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="testserver",
                      DJANGO_STATIC_ROOT=str(database.parent / "static"))
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.test import Client

    from companion.models import Group
    from companion.services.transfer import importer

    user = User.objects.create_user("bench", password="bench-password-1")
    idle = _rss_mb()
    held = watch_writes()
    began, cpu = time.perf_counter(), time.process_time()
    parallel = int(os.environ.get("BENCH_PARALLEL", "1"))
    if parallel > 1:
        # Four new accounts sending the file at once, each upload in memory as its own
        # bytes (as four requests' bodies are): one imports, the others wait, then are
        # told to try again (one import at a time per server).
        answers: list[str] = []

        def send(index: int) -> None:
            from django.db import connection

            other = User.objects.create_user(f"bench{index}", password="bench-password-1")
            try:
                importer.group_import(user=other, content=document.read_bytes())
                answers.append("imported")
            except importer.TransferError as err:
                answers.append(str(err)[:40])
            finally:
                connection.close()

        threads = [threading.Thread(target=send, args=(index,)) for index in range(parallel)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print("answers: " + "; ".join(answers), file=sys.stderr)
        group = Group.objects.order_by("-pk").first()
    else:
        group = importer.group_import(user=user, content=document.read_bytes())
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    client = Client()
    client.force_login(user)
    match = group.matches.order_by("-pk").first()
    pages = {}
    for name, url in (("group home", f"/g/{group.pk}/"), ("history", f"/g/{group.pk}/history/"),
                      ("match log", f"/g/{group.pk}/matches/{match.pk}/changes/" if match else "")):
        if url:
            client.get(url)  # the first request compiles templates and warms the caches
            began = time.perf_counter()
            status = client.get(url).status_code
            pages[name] = (status, time.perf_counter() - began)
    print(json.dumps({"wall": wall, "cpu": cpu, "peak_mb": peak,
                      "writes": len(held), "longest": longest_writes(held),
                      "idle_mb": idle, "group": group.pk, "matches": group.matches.count(),
                      "pages": pages}))


def bgstats_document(plays: int) -> dict[str, Any]:
    """A BG Stats export of ``plays`` plays of two games by six players, four at a table
    (the file of ``upload_bounds.py confirm``)."""
    return {
        "games": [{"id": 1, "name": "Freaky", "bggId": 0},
                  {"id": 2, "name": "X nimmt!", "bggId": 0}],
        "players": [{"id": ref, "name": f"Spieler {ref}"} for ref in range(1, 7)],
        "locations": [{"id": 1, "name": "Bei Anna"}],
        "plays": [{"uuid": f"play-{index}", "gameRefId": 1 + index % 2,
                   "playDate": f"20{10 + index % 15}-05-{1 + index % 28:02d} 20:00:00",
                   "locationRefId": 1,
                   "playerScores": [{"playerRefId": 1 + (index + seat) % 6,
                                     "score": str((index * 7 + seat * 3) % 60),
                                     "seatOrder": seat, "winner": seat == 0,
                                     "startPlayer": seat == 0} for seat in range(4)]}
                  for index in range(plays)],
    }


def _bgstats_child(document: Path, database: Path) -> None:
    """In a fresh process: a group of the BG Stats file's players, then the file's
    import into it (the plan read first, as the upload does); prints the figures."""
    os.environ.update(DJANGO_SETTINGS_MODULE="companion.settings", SQLITE_PATH=str(database),
                      DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="testserver",
                      DJANGO_STATIC_ROOT=str(database.parent / "static"))
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.contrib.auth.models import User

    from companion.bgstats import bgstats_plan
    from companion.models import Group, Membership
    from companion.services.bgstats import bgstats_import

    user = User.objects.create_user("bench", password="bench-password-1")
    group = Group.objects.create(name="Benchrunde", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    plan = bgstats_plan(document.read_bytes(), group=group)
    idle = _rss_mb()
    held = watch_writes()
    began, cpu = time.perf_counter(), time.process_time()
    imported = bgstats_import(group=group, plan=plan, user=user)
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"wall": wall, "cpu": cpu, "peak_mb": peak,
                      "writes": len(held), "longest": longest_writes(held),
                      "idle_mb": idle, "group": group.pk, "matches": imported.matches,
                      "pages": {}}))


def _rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0,
                        help="a share of the largest allowed import (default 1: all of it)")
    parser.add_argument("--matches", type=int, help="a plain history of this many matches")
    parser.add_argument("--shape", choices=("heavy", "light", "many", "night"), default="heavy",
                        help="heavy: 11 nimmt! entries with their cards; light: as numbers "
                        "(the file size limit binds for both); many: the most matches and "
                        "game nights, one deal each (the count limits bind); night: as many, "
                        "all on one game night (issue 30: one transaction held the lock 38 s)")
    parser.add_argument("--bgstats", type=int, metavar="PLAYS",
                        help="a BG Stats import of this many plays instead (issue 30: "
                        "10,000 plays rebuilt the statistics in one transaction of 41 s)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--bgstats-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(Path(args.child[0]), Path(args.child[1]))
        return
    if args.bgstats_child:
        _bgstats_child(Path(args.bgstats_child[0]), Path(args.bgstats_child[1]))
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    from companion import limits

    work = Path(tempfile.mkdtemp(prefix="kartenrunde-bench-import-"))
    path = work / "export.json"
    scale, probe = args.scale, not args.matches and not args.bgstats and args.scale > 0.02
    if probe:
        scale = 0.02  # a small one first, to learn how large the file gets
    while not args.bgstats:
        if args.matches:
            sizes = {"matches": args.matches, "nights": max(1, args.matches // 4),
                     "deals": args.matches * 3, "changes": args.matches * 3}
        elif args.shape in ("many", "night"):
            sizes = {"matches": int(limits.MATCHES.maximum * scale),
                     "nights": 1 if args.shape == "night" else int(limits.NIGHTS.maximum * scale),
                     "deals": int(limits.MATCHES.maximum * scale),
                     "changes": int(limits.MATCHES.maximum * scale) * 2}
        else:
            sizes = {"matches": int(limits.MATCHES.maximum * scale),
                     "nights": int(limits.NIGHTS.maximum * scale),
                     "deals": int(limits.DEALS.maximum * scale),
                     "changes": int(limits.CHANGES.maximum * scale)}
        began = time.perf_counter()
        document = history_document(**sizes, players=8, light=args.shape == "light")
        data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
        del document
        if probe:
            probe = False
            scale = min(args.scale, scale * limits.IMPORT_BYTES.maximum / len(data) * 0.98)
            continue
        if args.matches or len(data) <= limits.IMPORT_BYTES.maximum:
            break
        # Over the file size limit: the same history, shorter, until it fits.
        scale *= limits.IMPORT_BYTES.maximum / len(data) * 0.99
    if args.bgstats:
        data = json.dumps(bgstats_document(args.bgstats)).encode()
        sizes = {"matches": args.bgstats}
        began = time.perf_counter()
        print(f"BG Stats file: {args.bgstats:,} plays, {len(data) / 2**20:.1f} MB")
    path.write_bytes(data)
    if not args.bgstats:
        print(f"document ({args.shape}): {sizes['matches']:,} matches, {sizes['nights']:,} game "
              f"nights, {sizes['deals']:,} deals (at most), {sizes['changes']:,} log entries (at "
              f"most), {len(data) / 2**20:.1f} MB (built in {time.perf_counter() - began:.0f} s)")
    del data
    database = work / "bench.sqlite3"
    # Migrated first (in a process of its own), so that the phone has a database to write to.
    subprocess.run([sys.executable, "-c",
                    "import sys; sys.path.insert(0, 'bench'); from harness import configure; "
                    f"from pathlib import Path; configure(Path({str(database)!r}), "
                    f"Path({str(work / 'static')!r}))"], cwd=ROOT, check=True)
    stop, waits, saves = threading.Event(), [], []
    phone = threading.Thread(target=_phone, args=(database, stop, waits, saves))
    phone.start()
    try:
        answer = subprocess.run(
            [sys.executable, str(Path(__file__)),
             "--bgstats-child" if args.bgstats else "--child", str(path), str(database)],
            cwd=ROOT, capture_output=True, text=True, timeout=900,
        )
    finally:
        stop.set()
        phone.join()
    if answer.returncode:
        raise SystemExit(f"the import failed:\n{answer.stderr[-3000:]}")
    if "answers: " in answer.stderr:
        print(answer.stderr[answer.stderr.index("answers: "):].strip())
    result = json.loads(answer.stdout.strip().splitlines()[-1])
    waits.sort()
    saves.sort()
    print(f"import: {result['wall']:.1f} s wall (reading, checking and writing the file, "
          f"a batch at a time), {result['cpu']:.1f} s CPU, peak memory (max RSS) "
          f"{result['peak_mb']:.0f} MB (the process held {result['idle_mb']:.0f} MB before), "
          f"{result['matches']:,} matches")
    print(f"write transactions of the import: {result['writes']:,}; longest: "
          f"{result['longest']}")
    print("pages afterwards (second request): " + ", ".join(
        f"{name} {ms * 1000:.0f} ms (HTTP {status})"
        for name, (status, ms) in result["pages"].items()))
    print(f"phone writing every 20 ms meanwhile: {len(waits)} writes; waiting for the write "
          f"lock: longest {waits[-1] * 1000:.0f} ms, 99th percentile "
          f"{waits[int(len(waits) * .99)] * 1000:.0f} ms; whole write (commit included): "
          f"longest {saves[-1] * 1000:.0f} ms, 99th percentile "
          f"{saves[int(len(saves) * .99)] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
