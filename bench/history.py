"""History benchmark: render times of the history pages on a long history.

Fills a temporary SQLite database (configured here, the project's database is
not touched) with a group of 8 players and 5,000 finished matches across the
five games (complete random games played by the engine's game models, stored
the way the score sheet stores them), then renders, in interleaved rounds, the
group's history page, a player page and the game pages, next to a bare Django
view (same middleware, same logged-in session) measured in the same run. It
prints the median and 95th percentile of each and their ratio to the bare
view and to the bare page (base.html), CPU time beside wall time. Aim: each page at
most 5× the bare page, and a game page's first request after a change under 100 ms.

    .venv/bin/python bench/history.py [--matches 5000] [--rounds 60]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import configure  # bench/ is the script folder, so on sys.path


def _fill(matches: int, seed: int) -> tuple[int, list[int]]:
    """The group and its players' ids, after storing ``matches`` random finished matches."""
    import datetime as dt

    from django.contrib.auth.models import User
    from django.db import transaction

    from companion.models import Deal, DealScore, GameNight, Group, Match, Membership, Player, Seat
    from scoring import GAMES, rank
    from scoring.common import SimulatedGame, rules_for

    rng = random.Random(seed)
    names = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fiona", "Gero", "Hanna"]
    pool: dict[tuple[str, int], list[tuple[list[dict[str, Any]], list[dict[str, int]]]]] = {}

    def sample(game: str, players: int) -> tuple[list[dict[str, Any]], list[dict[str, int]]]:
        """A complete random game: entry dicts and scores per deal (a pool of 25 per setting)."""
        key = (game, players)
        if key not in pool:
            rules = rules_for(game)
            pool[key] = []
            for _ in range(25):
                played: SimulatedGame = rules.random_game(players, rng)
                pool[key].append((
                    [{p: rules.entry_to_dict(e) for p, e in deal.items()} for deal in played.deals],
                    [rules.score_deal(deal) for deal in played.deals],
                ))
        return rng.choice(pool[key])

    with transaction.atomic():
        user = User.objects.create_user("bench", password="bench-password-1")
        group = Group.objects.create(name="Benchrunde", owner=user)
        Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
        players = Player.objects.bulk_create(Player(group=group, name=n) for n in names)
        nights = GameNight.objects.bulk_create(
            GameNight(group=group, date=dt.date(2020, 1, 1) + dt.timedelta(days=2 * i),
                      place=rng.choice(["Bei Anna", "Bei Ben", "Kneipe", ""]))
            for i in range(matches // 4 + 1)
        )
        slugs = list(GAMES)
        plans = []
        match_rows = []
        for index in range(matches):
            game = slugs[index % len(slugs)]
            info = GAMES[game]
            count = rng.randint(info.min_players, min(info.max_players, len(players)))
            seated = rng.sample(players, count)
            deals, scores = sample(game, count)
            night = nights[index // 4]
            created = dt.datetime.combine(night.date, dt.time(19), tzinfo=dt.UTC) + dt.timedelta(
                minutes=40 * (index % 4)
            )
            match_rows.append(Match(group=group, game_night=night, game=game, created_at=created,
                                    status=Match.Status.FINISHED, finished_at=created))
            plans.append((info, seated, deals, scores))
        Match.objects.bulk_create(match_rows, batch_size=500)
        seat_rows, deal_rows, score_plan = [], [], []
        for match, (info, seated, deals, scores) in zip(match_rows, plans, strict=True):
            sim_names = [f"P{i}" for i in range(1, len(seated) + 1)]
            totals = {n: sum(s[n] for s in scores) for n in sim_names}
            places = {n: p for p, n, _t in rank(totals, lower_is_better=info.lower_is_better)}
            for number, (player, name) in enumerate(zip(seated, sim_names, strict=True)):
                seat_rows.append(Seat(match=match, player=player, number=number,
                                      total=totals[name], place=places[name],
                                      is_winner=places[name] == 1))
            for number, (entries, deal_scores) in enumerate(zip(deals, scores, strict=True), 1):
                deal = Deal(match=match, number=number, created_at=match.created_at,
                            updated_at=match.created_at)
                deal_rows.append(deal)
                score_plan.append((deal, [(player, entries[name], deal_scores[name])
                                          for player, name in zip(seated, sim_names,
                                                                  strict=True)]))
        Seat.objects.bulk_create(seat_rows, batch_size=1000)
        Deal.objects.bulk_create(deal_rows, batch_size=1000)
        DealScore.objects.bulk_create(
            (DealScore(deal=deal, player=player, data=data, score=score)
             for deal, rows in score_plan for player, data, score in rows),
            batch_size=2000,
        )
    # The statistics kept per finished match, as finishing each match would have written them
    # (without them the statistics pages would render empty).
    from companion.services.results import results_rebuild

    results_rebuild(group=group)
    print(f"filled: {len(match_rows)} matches, {len(seat_rows)} seats, {len(deal_rows)} deals, "
          f"{DealScore.objects.count()} deal scores, {len(nights)} game nights")
    return group.pk, [p.pk for p in players]


def _measure(
    pages: dict[str, str], rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """CPU and wall milliseconds of each page, ``rounds`` times, the pages interleaved."""
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    client.force_login(User.objects.get(username="bench"))
    for url in pages.values():
        for _ in range(3):
            response = client.get(url)
            if response.status_code != 200:
                raise SystemExit(f"{url} answered {response.status_code}")
    cpu: dict[str, list[float]] = {name: [] for name in pages}
    wall: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(rounds):
        for name, url in pages.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            client.get(url)
            cpu[name].append((time.process_time() - start_cpu) * 1000)
            wall[name].append((time.perf_counter() - start) * 1000)
    return cpu, wall


def _cold(url: str) -> float:
    """Milliseconds of one request with an empty cache (the statistics computed afresh)."""
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.test import Client

    cache.clear()
    client = Client()
    client.force_login(User.objects.get(username="bench"))
    client.get("/bench/bare/")
    start = time.perf_counter()
    client.get(url)
    return (time.perf_counter() - start) * 1000


def _after_change(slug: str, group: int, times: int = 3) -> tuple[float, ...]:
    """CPU and wall milliseconds of the game page's first request after a change to the
    game's history, and of finishing the match in that change (medians of ``times``).

    The change: the newest finished match of the game is reopened, its first deal saved
    again with the same entries (a new version of the deal) and the match finished again,
    through the app's services as the score sheet does it.
    """
    from django.contrib.auth.models import User
    from django.test import Client

    from companion.models import Match
    from companion.services import deals as deal_services
    from companion.services import matches as match_services

    client = Client()
    user = User.objects.get(username="bench")
    client.force_login(user)
    client.get("/bench/bare/")
    url = f"/g/{group}/games/{slug}/"
    client.get(url)
    pages: list[tuple[float, float]] = []
    changes: list[tuple[float, float]] = []
    for _ in range(times):
        match = Match.objects.filter(group_id=group, game=slug, status=Match.Status.FINISHED
                                     ).order_by("-created_at", "-id").first()
        assert match is not None
        match_services.match_reopen(match=match, user=user)
        deal = match.deals.get(number=1)
        entries = {score.player_id: score.data for score in deal.scores.all()}
        deal_services.deal_edit(match=match, number=1, version=deal.version, entries=entries,
                           user=user)
        start, start_cpu = time.perf_counter(), time.process_time()
        match_services.match_finish(match=match, user=user)
        changes.append(((time.process_time() - start_cpu) * 1000,
                        (time.perf_counter() - start) * 1000))
        start, start_cpu = time.perf_counter(), time.process_time()
        client.get(url)
        pages.append(((time.process_time() - start_cpu) * 1000,
                      (time.perf_counter() - start) * 1000))
    columns = (*zip(*pages, strict=True), *zip(*changes, strict=True))
    return tuple(statistics.median(column) for column in columns)


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", type=Path, help="keep (or reuse) the database at this path")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kartenrunde-bench-") as tmp:
        database = args.keep or Path(tmp) / "bench.sqlite3"
        reuse = database.exists()
        configure(database, Path(tmp) / "static")
        started = time.perf_counter()
        if reuse:
            from companion.models import Group

            found = Group.objects.get(name="Benchrunde")
            group = found.pk
            players = list(found.players.order_by("id").values_list("pk", flat=True))
        else:
            group, players = _fill(args.matches, args.seed)
            print(f"fill time: {time.perf_counter() - started:.1f} s")
        from django.urls import NoReverseMatch, reverse

        pages = {
            "bare view": "/bench/bare/",
            "bare page (base.html)": "/bench/page/",
            "history": f"/g/{group}/history/",
        }
        with contextlib.suppress(NoReverseMatch):
            pages["group home"] = reverse("group_home", args=[group])
        pages["player page"] = f"/g/{group}/players/{players[0]}/"
        for slug in ("x-nimmt", "elf-nimmt", "drei-sind-einer-zuviel", "freaky", "dreizehn"):
            pages[f"game {slug}"] = f"/g/{group}/games/{slug}/"
        pages["head-to-head"] = f"/g/{group}/head-to-head/?first={players[0]}&second={players[1]}"
        cold = {name: _cold(url) for name, url in pages.items()}
        cpu, wall = _measure(pages, args.rounds)
        changed = {name: _after_change(name.removeprefix("game "), group)
                   for name in pages if name.startswith("game ")}  # last: it changes data
        bare = statistics.median(cpu["bare view"])
        page = statistics.median(cpu["bare page (base.html)"])
        print(f"\n{'page':<24} {'cpu ms':>7} {'p95':>6} {'wall ms':>8} {'p95':>6} "
              f"{'× bare':>7} {'× page':>7} {'first ms':>9} {'changed cpu/wall':>17} "
              f"{'finish cpu/wall':>16}")
        for name, values in cpu.items():
            median = statistics.median(values)
            after = finish = ""
            if name in changed:
                page_cpu, page_wall, finish_cpu, finish_wall = changed[name]
                after = f"{page_cpu:.1f} / {page_wall:.1f}"
                finish = f"{finish_cpu:.1f} / {finish_wall:.1f}"
            print(f"{name:<24} {median:>7.2f} {_p95(values):>6.2f} "
                  f"{statistics.median(wall[name]):>8.2f} {_p95(wall[name]):>6.2f} "
                  f"{median / bare:>7.1f} {median / page:>7.1f} {cold[name]:>9.1f} "
                  f"{after:>17} {finish:>16}")
        print("\ncpu/wall ms: medians (and 95th percentiles) of the process's CPU time and "
              "of the wall time per request.\n× bare, × page: CPU-time medians against a view "
              "returning a fixed string, and against\na view rendering the site layout "
              "(base.html) for the logged-in user. first ms: wall time of\nthe first request "
              "with an empty cache. changed: CPU / wall time of a game page's first "
              "request\nafter a change (a finished match reopened, a deal saved again, finished "
              "again);\nfinish: CPU / wall time of finishing that match again (medians of 3).")
        print(f"\n{args.rounds} rounds, pages interleaved; Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
