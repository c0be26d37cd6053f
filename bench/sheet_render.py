"""Server CPU of the sheet a change brings to the watching phones (issue 31), by length of
the match: after each new deal, the first poll of a watching member renders the sheet (the
other phones then get the kept text); its CPU is measured in this process (Django's test
client: the whole middleware stack, no HTTP), median with min and max of ``--each``
changes per length, for the game the watchers bench plays (bench/watchers.py).

    .venv/bin/python bench/sheet_render.py [--deals 10,50,100] [--each 15]
        [--app /path/to/another/checkout]

``--app`` measures another checkout (e.g. a worktree at the commit before a change) with
this virtual environment; run both, one after the other, on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(lengths: list[int], each: int, app: Path | None) -> None:
    import served
    import watchers

    if app is not None:
        # served.py puts this checkout first on the path: the other one goes before it.
        sys.path.insert(0, str(app))
        served.ROOT = app

    served.prepare(None)
    from django.conf import settings
    from django.core.cache import caches
    from django.test import Client

    from companion.models import Match
    from companion.shared_renders import sheets

    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "sheet"}
    print(f"{'deals':>5} {'render CPU ms median':>20} {'min':>6} {'max':>6} {'kB':>5}")
    for length in lengths:
        seeded = watchers.seed(4, "new")[0]
        match = Match.objects.get(pk=int(seeded["sheet"].rstrip("/").split("/")[-1]))
        seeder = served.Seeder()
        deals = seeder.game(match.game, [seat.player for seat in
                                         match.seats.select_related("player").order_by("number")])
        app = served.services()
        phone = Client()
        phone.cookies["sessionid"] = seeded["phones"][0]
        number = match.deals.count()
        times: list[float] = []
        size = 0
        while number < length + each:
            number += 1
            app.deal_record(match=Match.objects.get(pk=match.pk), number=number,
                            entries=deals[(number - 1) % len(deals)])
            sheets.clear()  # a new revision: nothing kept for it in this process
            if "renders" in settings.CACHES:  # shared by the server's processes
                caches["renders"].clear()
            started = time.process_time()
            answer = phone.get(seeded["sheet"], **poll)
            spent = time.process_time() - started
            assert answer.status_code == 200, answer.status_code
            if number > length:
                times.append(spent)
                size = len(answer.content)
        print(f"{length:>5} {statistics.median(times) * 1000:>20.1f} {min(times) * 1000:>6.1f} "
              f"{max(times) * 1000:>6.1f} {size / 1024:>5.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="10,50,100")
    parser.add_argument("--each", type=int, default=15)
    parser.add_argument("--app", type=Path, help="measure this checkout of the app instead")
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.app and not args.here:
        # The other checkout's code, this bench: run again with the app first on the path.
        environment = {**os.environ, "PYTHONPATH": f"{args.app.resolve()}:{HERE}"}
        subprocess.run([sys.executable, __file__, "--here", "--deals", args.deals,
                        "--each", str(args.each)], env=environment, check=True,
                       cwd=args.app.resolve())
        return
    sys.path.insert(0, str(HERE))
    load = os.getloadavg()
    other = Path(os.environ["PYTHONPATH"].split(":")[0]) if args.here else None
    print(f"# bench/sheet_render.py, app {other or HERE.parent}, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    measure([int(n) for n in args.deals.split(",")], args.each, other)
    import companion

    assert Path(companion.__file__).resolve().is_relative_to((other or HERE.parent).resolve())


if __name__ == "__main__":
    main()
