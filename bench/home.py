"""Home pages benchmark: "/" and the group home with 5, 50 and 700 running matches.

Fills a temporary SQLite database (the project's database is not touched) with a
group of 6 players whose matches are all running (one deal recorded each), all in one
game night as the score sheet's "New match" puts a day's matches (or ``--per-night``
per night), in steps up to each count, and prints per page and count: the
server's CPU milliseconds per request (median of the rounds, the process's CPU time
around Django's test client), the answer's size in KB and its SQL queries. Aim
(issue 18): the same at any count, at most 15 ms and 30 KB.

    .venv/bin/python bench/home.py [--counts 5 50 700] [--rounds 15] [--per-night 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from harness import configure  # bench/ is the script folder, so on sys.path


def _group() -> tuple[object, object]:
    from django.contrib.auth.models import User

    from companion.models import Group, Membership, Player

    user = User.objects.create_user("bench", password="bench-password-1")
    group = Group.objects.create(name="Benchrunde", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    Player.objects.bulk_create(
        Player(group=group, name=name) for name in ("Anna", "Ben", "Cem", "Dora", "Emil", "Fiona")
    )
    return user, group


def _add_running(group: object, user: object, count: int, per_night: int) -> None:
    """``count`` more running matches, one deal each, ``per_night`` per new game night
    (0: all in one)."""
    import datetime as dt

    from django.db import transaction

    from companion.models import Deal, GameNight, Match, Player, Seat
    from scoring import GAMES

    players = list(Player.objects.filter(group=group).order_by("id"))
    slugs = list(GAMES)
    start = Match.objects.filter(group=group).count()
    with transaction.atomic():
        if per_night:
            nights = GameNight.objects.bulk_create(
                GameNight(group=group,
                          date=dt.date(2024, 1, 1) + dt.timedelta(days=(start + i) // per_night))
                for i in range(0, count, per_night)
            )
        else:
            nights = [GameNight.objects.get_or_create(group=group, date=dt.date(2024, 1, 1))[0]]
            per_night = count
        matches = Match.objects.bulk_create(
            Match(group=group, game_night=nights[i // per_night],
                  game=slugs[(start + i) % len(slugs)],
                  status=Match.Status.OPEN, created_by=user,
                  created_at=dt.datetime(2024, 1, 1, 19, tzinfo=dt.UTC)
                  + dt.timedelta(minutes=start + i))
            for i in range(count)
        )
        seats = []
        for match in matches:
            seated = players[: GAMES[match.game].min_players + 1]
            seats += [Seat(match=match, player=p, number=n, total=10 * n, place=n + 1)
                      for n, p in enumerate(seated)]
        Seat.objects.bulk_create(seats, batch_size=1000)
        Deal.objects.bulk_create((Deal(match=m, number=1) for m in matches), batch_size=1000)


def _measure(url: str, user: object, rounds: int) -> tuple[float, float, int]:
    """Median CPU ms, KB and queries of ``url`` for ``user``."""
    from django.db import connection
    from django.test import Client

    client = Client()
    client.force_login(user)
    for _ in range(3):
        response = client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
    queries = []

    def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = client.get(url)
    cpu = []
    for _ in range(rounds):
        start = time.process_time()
        client.get(url)
        cpu.append((time.process_time() - start) * 1000)
    return statistics.median(cpu), len(response.content) / 1000, len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[5, 50, 700])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--per-night", type=int, default=0,
                        help="matches per game night (0, the default: all in one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kartenrunde-bench-") as tmp:
        configure(Path(tmp) / "bench.sqlite3", Path(tmp) / "static")
        user, group = _group()
        pages = {"/": "/", "group home": f"/g/{group.pk}/"}  # type: ignore[attr-defined]
        rows = []
        made = 0
        for count in sorted(args.counts):
            _add_running(group, user, count - made, args.per_night)
            made = count
            for name, url in pages.items():
                rows.append((name, count, *_measure(url, user, args.rounds)))
        print(f"\n{'page':<12} {'running':>7} {'cpu ms':>7} {'KB':>7} {'queries':>8}")
        for name, count, cpu, kb, queries in sorted(rows, key=lambda row: (row[0], row[1])):
            print(f"{name:<12} {count:>7} {cpu:>7.1f} {kb:>7.1f} {queries:>8}")
        layout = f"{args.per_night} per game night" if args.per_night else "in one game night"
        print(f"\nrunning matches {layout}; medians of {args.rounds} requests after 3 warm-up "
              "ones; load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; Python "
              f"{sys.version.split()[0]}")


if __name__ == "__main__":
    main()
