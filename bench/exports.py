"""Export benchmark (issue 30, item 6): the download of the largest group the import
limits allow, as JSON, as CSV and as a BG Stats export: time to the first byte, time
to the last, and the memory the process took for it (peak RSS over what it held
before).

The group is imported once (``bench/imports.py``'s document at the limits: 11 nimmt!
with its cards, the file size limit binding) into a throw-away SQLite database; each
download then runs in a fresh process through Django's test client, reading the
response part by part as a browser would.

    .venv/bin/python bench/exports.py                # the largest group, JSON and CSV
    .venv/bin/python bench/exports.py --scale 0.1    # a tenth of it
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

LARGEST = 0.11
"""The share of the count limits whose heavy export is just within the file size limit
(``bench/imports.py``: 1,102 matches, 15.7 MB)."""


def _rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _reset_peak() -> None:
    """The process's peak memory (VmHWM) set back to what it holds now (Linux)."""
    Path("/proc/self/clear_refs").write_text("5")


def _peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _prepare(database: Path, scale: float) -> None:
    from harness import configure

    configure(database, database.parent / "static")
    from django.contrib.auth.models import User
    from imports import history_document

    from companion import limits
    from companion.services.transfer.importer import group_import

    document = history_document(
        matches=int(limits.MATCHES.maximum * scale), nights=int(limits.NIGHTS.maximum * scale),
        deals=int(limits.DEALS.maximum * scale), changes=int(limits.CHANGES.maximum * scale))
    user = User.objects.create_user("bench", password="bench-password-1")
    group = group_import(user=user, content=json.dumps(document, ensure_ascii=False,
                                                       separators=(",", ":")))
    print(json.dumps({"group": group.pk, "matches": group.matches.count()}))


def _download(database: Path, kind: str) -> None:
    from harness import configure

    configure(database, database.parent / "static")
    from django.contrib.auth.models import User
    from django.test import Client

    from companion.models import Group

    client = Client()
    client.force_login(User.objects.get(username="bench"))
    group = Group.objects.get()
    url = (f"/g/{group.pk}/export/bgstats.json" if kind == "bgstats"
           else f"/g/{group.pk}/export.{kind}")
    client.get(f"/g/{group.pk}/")  # templates, caches, the session: not the export's cost
    idle = _rss_mb()
    _reset_peak()
    began = time.perf_counter()
    response = client.get(url)
    size, first = 0, None
    parts = response.streaming_content if response.streaming else [response.content]
    for part in parts:
        if first is None:
            first = time.perf_counter() - began
        size += len(part)
    total = time.perf_counter() - began
    peak = _peak_mb()
    print(json.dumps({"kind": kind, "status": response.status_code, "mb": size / 2**20,
                      "first_byte_s": first, "total_s": total, "idle_mb": idle,
                      "peak_mb": peak, "streamed": response.streaming}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=LARGEST)
    parser.add_argument("--runs", type=int, default=3, help="downloads of each (median)")
    parser.add_argument("--kinds", default="json,csv,bgstats",
                        help="which downloads (json, csv, bgstats: the BG Stats export)")
    parser.add_argument("--prepare", help=argparse.SUPPRESS)
    parser.add_argument("--download", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        _prepare(Path(args.prepare), args.scale)
        return
    if args.download:
        _download(Path(args.download[0]), args.download[1])
        return
    print(f"load average at start: {os.getloadavg()}")
    work = Path(tempfile.mkdtemp(prefix="kartenrunde-bench-export-"))
    database = work / "bench.sqlite3"
    began = time.perf_counter()
    made = subprocess.run([sys.executable, __file__, "--prepare", str(database),
                           "--scale", str(args.scale)], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800, check=True)
    group = json.loads(made.stdout.strip().splitlines()[-1])
    print(f"group: {group['matches']:,} matches (imported in {time.perf_counter() - began:.0f} s)")
    for kind in args.kinds.split(","):
        runs = []
        for _run in range(args.runs):
            answer = subprocess.run([sys.executable, __file__, "--download", str(database),
                                     kind], cwd=ROOT, capture_output=True, text=True,
                                    timeout=900, check=True)
            runs.append(json.loads(answer.stdout.strip().splitlines()[-1]))
        first = [run["first_byte_s"] for run in runs]
        total = [run["total_s"] for run in runs]
        taken = [run["peak_mb"] - run["idle_mb"] for run in runs]
        print(f"{kind}: {runs[0]['mb']:.1f} MB, {'streamed' if runs[0]['streamed'] else 'whole'}"
              f"; first byte {statistics.median(first):.2f} s ({min(first):.2f}–"
              f"{max(first):.2f}), last byte {statistics.median(total):.2f} s "
              f"({min(total):.2f}–{max(total):.2f}); memory taken (peak RSS over the "
              f"{runs[0]['idle_mb']:.0f} MB held) {statistics.median(taken):.0f} MB "
              f"({min(taken):.0f}–{max(taken):.0f}), peak {runs[0]['peak_mb']:.0f} MB")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
