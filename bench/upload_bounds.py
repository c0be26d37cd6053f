"""What one upload may cost the server (issue 30, items 6, 9, 10): peak memory of the
worst file, four uploads at once, a hostile backup's refusal time, the BG Stats confirm
page.

Each measurement runs in a fresh process on a throw-away SQLite database (the project's
database is not touched) and prints one line:

- ``hostile``: 16 MB of ``[{},{},…]`` sent to the group import (refused): wall time,
  peak memory (max RSS) and what the process held before;
- ``padded``: an export padded to 16 MB with empty objects (refused);
- ``parallel``: four threads sending the 16 MB ``[{},…]`` at once;
- ``restore``: a backup of a group of ``--matches`` matches with a superuser as its
  last row: how long ``restore`` takes to refuse it;
- ``confirm``: a BG Stats file of ``--plays`` plays uploaded, then its confirm page
  opened three times (median and spread), and the session's size.

    .venv/bin/python bench/upload_bounds.py hostile padded parallel confirm restore
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

MB = 2**20


def _rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MB


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _objects(size: int, prefix: bytes = b"[", suffix: bytes = b"]") -> bytes:
    count = (size - len(prefix) - len(suffix)) // 3
    return prefix + b"{}," * (count - 1) + b"{}" + suffix


def _user(name: str) -> Any:
    from django.contrib.auth.models import User

    return User.objects.create_user(name, password="bench-password-1")


def _import(user: Any, content: bytes) -> str:
    from companion.services.transfer import TransferError
    from companion.services.transfer.importer import group_import

    try:
        group_import(user=user, content=content)
    except TransferError as err:
        return str(err)[:90]
    return "imported"


def hostile(args: argparse.Namespace) -> dict[str, Any]:
    content = _objects(16 * MB - 1024)
    user = _user("bench")
    idle = _rss_mb()
    began = time.perf_counter()
    answer = _import(user, content)
    return {"wall_s": time.perf_counter() - began, "peak_mb": _peak_mb(), "idle_mb": idle,
            "answer": answer}


def padded(args: argparse.Namespace) -> dict[str, Any]:
    head = b'{"format":"kartenrunde-history","version":1,"group":{"name":"X","created_at":' \
           b'"2026-01-01T00:00:00+00:00"},"players":[],"game_nights":[],"padding":['
    content = _objects(16 * MB - 1024, head, b"]}")
    user = _user("bench")
    idle = _rss_mb()
    began = time.perf_counter()
    answer = _import(user, content)
    return {"wall_s": time.perf_counter() - began, "peak_mb": _peak_mb(), "idle_mb": idle,
            "answer": answer}


def parallel(args: argparse.Namespace) -> dict[str, Any]:
    content = _objects(16 * MB - 1024)
    users = [_user(f"bench{index}") for index in range(4)]
    idle = _rss_mb()
    answers: list[str] = []
    began = time.perf_counter()

    def send(user: Any) -> None:
        from django.db import connection

        answers.append(_import(user, content))
        connection.close()

    threads = [threading.Thread(target=send, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"wall_s": time.perf_counter() - began, "peak_mb": _peak_mb(), "idle_mb": idle,
            "answers": sorted(answers)}


def restore(args: argparse.Namespace) -> dict[str, Any]:
    from django.core.management import call_command
    from django.core.management.base import CommandError
    from imports import history_document

    user = _user("bench")
    document = history_document(matches=args.matches, nights=max(1, args.matches // 4),
                                deals=args.matches * 3, changes=args.matches * 3)
    from companion.services.transfer.importer import group_import

    group_import(user=user, content=json.dumps(document))
    work = Path(tempfile.mkdtemp(prefix="kartenrunde-bench-restore-"))
    path = work / "backup.json"
    call_command("backup", str(path), verbosity=0)
    rows = json.loads(path.read_text())
    rows.append({"model": "auth.user", "pk": 99999, "fields": {
        "username": "root", "password": "!", "is_superuser": True, "is_staff": True,
        "is_active": True, "first_name": "", "last_name": "", "email": "",
        "date_joined": "2026-01-01T00:00:00Z", "last_login": None, "groups": [],
        "user_permissions": []}})
    path.write_text(json.dumps(rows))
    size = path.stat().st_size / MB
    call_command("flush", interactive=False, verbosity=0)
    began = time.perf_counter()
    try:
        call_command("restore", str(path), verbosity=0)
        answer = "restored"
    except CommandError as err:
        answer = str(err).split(": ", 1)[-1][:90]
    return {"backup_mb": size, "refused_after_s": time.perf_counter() - began,
            "answer": answer}


def confirm(args: argparse.Namespace) -> dict[str, Any]:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from companion.models import Group, Membership

    user = _user("bench")
    group = Group.objects.create(name="Benchrunde", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    plays = [{"uuid": f"play-{index}", "gameRefId": 1 + index % 2,
              "playDate": f"20{10 + index % 15}-05-01 20:00:00", "locationRefId": 1,
              "playerScores": [{"playerRefId": 1 + (index + seat) % 6,
                                "score": str((index * 7 + seat * 3) % 60), "seatOrder": seat,
                                "winner": seat == 0, "startPlayer": seat == 0}
                               for seat in range(4)]}
             for index in range(args.plays)]
    document = {"games": [{"id": 1, "name": "Freaky", "bggId": 0},
                          {"id": 2, "name": "X nimmt!", "bggId": 0}],
                "players": [{"id": ref, "name": f"Spieler {ref}"} for ref in range(1, 7)],
                "locations": [{"id": 1, "name": "Bei Anna"}], "plays": plays}
    content = json.dumps(document).encode()
    client = Client()
    client.force_login(user)
    began = time.perf_counter()
    response = client.post(f"/g/{group.pk}/import/bgstats/", {"file": SimpleUploadedFile(
        "BGStatsExport.json", content, content_type="application/json")})
    upload = time.perf_counter() - began
    assert response.status_code == 302, response.status_code
    times = []
    for _view in range(3):
        began = time.perf_counter()
        assert client.get(response["Location"]).status_code == 200
        times.append(time.perf_counter() - began)
    from django.contrib.sessions.models import Session

    session = max(len(row.session_data) for row in Session.objects.all())
    return {"file_mb": len(content) / MB, "upload_s": upload,
            "confirm_median_s": statistics.median(times),
            "confirm_spread_s": [min(times), max(times)], "session_kb": session / 1024}


MEASURES = {"hostile": hostile, "padded": padded, "parallel": parallel, "restore": restore,
            "confirm": confirm}


def _child(name: str, database: Path, args: argparse.Namespace) -> None:
    from harness import configure

    configure(database, database.parent / "static")
    print(json.dumps(MEASURES[name](args)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("measures", nargs="+", choices=sorted(MEASURES))
    parser.add_argument("--matches", type=int, default=2000,
                        help="matches of the restored backup (default 2,000)")
    parser.add_argument("--plays", type=int, default=10_000,
                        help="plays of the BG Stats file (default 10,000)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, Path(args.database), args)
        return
    print(f"load average at start: {os.getloadavg()}")
    for name in args.measures:
        work = Path(tempfile.mkdtemp(prefix="kartenrunde-bench-upload-"))
        answer = subprocess.run(
            [sys.executable, str(Path(__file__)), name, "--child", name,
             "--database", str(work / "bench.sqlite3"), "--matches", str(args.matches),
             "--plays", str(args.plays)],
            cwd=ROOT, capture_output=True, text=True, timeout=1800,
        )
        if answer.returncode:
            print(f"{name}: failed\n{answer.stderr[-2000:]}")
            continue
        print(f"{name}: {answer.stdout.strip().splitlines()[-1]}")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
