"""Night picture benchmark: how long the night's picture (``nights/<id>/card.png``) takes
to draw on a night of 250, 1,000 and 10,000 finished matches.

Fills a temporary SQLite database (configured here; the project's database is not
touched) with one game night of N complete random matches among 8 players (the
engine's game models, stored as the score sheet stores them, the results kept as
finishing writes them), then times, per size:

- ``summary``: :func:`night_summary` (the night's tally, read from the database);
- ``picture``: :func:`night_png` on that tally (the drawing alone);
- ``first`` and ``kept``: the card's page through Django's test client, the first request
  after a change (draws and keeps the picture) and a later one (the kept picture).

A drawing over ``--limit`` seconds is stopped and reported as "> limit".

    .venv/bin/python bench/night_card.py [--sizes 250,1000,10000] [--rounds 5] [--limit 120]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from harness import configure  # bench/ is the script folder, so on sys.path


class TooLong(Exception):
    pass


@contextlib.contextmanager
def _at_most(seconds: int) -> Iterator[None]:
    def stop(signum: int, frame: Any) -> None:
        raise TooLong

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _fill(matches: int, seed: int) -> tuple[int, int]:
    """The group's and the night's ids, after storing one night of ``matches`` matches."""
    import datetime as dt

    from django.contrib.auth.models import User
    from django.db import transaction

    from companion.models import Deal, DealScore, GameNight, Group, Match, Membership, Player, Seat
    from companion.services.results import results_rebuild
    from scoring import GAMES, rank
    from scoring.common import rules_for

    rng = random.Random(seed)
    names = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fiona", "Gero", "Hanna"]
    pool: dict[tuple[str, int], list[tuple[list[dict[str, Any]], list[dict[str, int]]]]] = {}

    def sample(game: str, players: int) -> tuple[list[dict[str, Any]], list[dict[str, int]]]:
        key = (game, players)
        if key not in pool:
            rules = rules_for(game)
            pool[key] = []
            for _ in range(10):
                played = rules.random_game(players, rng)
                pool[key].append((
                    [{p: rules.entry_to_dict(e) for p, e in deal.items()} for deal in played.deals],
                    [rules.score_deal(deal) for deal in played.deals],
                ))
        return rng.choice(pool[key])

    with transaction.atomic():
        user, _ = User.objects.get_or_create(username="bench")
        group = Group.objects.create(name=f"Abend {matches}", owner=user)
        Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
        players = Player.objects.bulk_create(Player(group=group, name=n) for n in names)
        night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 5), place="Bei Anna")
        slugs = list(GAMES)
        start = dt.datetime(2026, 3, 5, 18, tzinfo=dt.UTC)
        match_rows, plans = [], []
        for index in range(matches):
            game = slugs[index % len(slugs)]
            info = GAMES[game]
            count = rng.randint(info.min_players, min(info.max_players, len(players)))
            seated = rng.sample(players, count)
            created = start + dt.timedelta(seconds=index)
            match_rows.append(Match(group=group, game_night=night, game=game, created_at=created,
                                    status=Match.Status.FINISHED, finished_at=created))
            plans.append((info, seated, *sample(game, count)))
        Match.objects.bulk_create(match_rows, batch_size=500)
        seat_rows, deal_rows, score_plan = [], [], []
        for match, (info, seated, deals, scores) in zip(match_rows, plans, strict=True):
            sim = [f"P{i}" for i in range(1, len(seated) + 1)]
            totals = {n: sum(s[n] for s in scores) for n in sim}
            places = {n: p for p, n, _t in rank(totals, lower_is_better=info.lower_is_better)}
            for number, (player, name) in enumerate(zip(seated, sim, strict=True)):
                seat_rows.append(Seat(match=match, player=player, number=number,
                                      total=totals[name], place=places[name],
                                      is_winner=places[name] == 1))
            for number, (entries, deal_scores) in enumerate(zip(deals, scores, strict=True), 1):
                deal = Deal(match=match, number=number, created_at=match.created_at,
                            updated_at=match.created_at)
                deal_rows.append(deal)
                score_plan.append((deal, [(player, entries[name], deal_scores[name])
                                          for player, name in zip(seated, sim, strict=True)]))
        Seat.objects.bulk_create(seat_rows, batch_size=1000)
        Deal.objects.bulk_create(deal_rows, batch_size=1000)
        DealScore.objects.bulk_create(
            (DealScore(deal=deal, player=player, data=data, score=score)
             for deal, rows in score_plan for player, data, score in rows),
            batch_size=2000,
        )
    results_rebuild(group=group)
    return group.pk, night.pk


def _time(call: Callable[[], Any], limit: int) -> float | None:
    """Seconds ``call`` took, None if it was stopped after ``limit`` seconds."""
    start = time.perf_counter()
    try:
        with _at_most(limit):
            call()
    except TooLong:
        return None
    return time.perf_counter() - start


def _spread(values: list[float]) -> str:
    if not values:
        return "-"
    return (f"{statistics.median(values) * 1000:9.1f} ms "
            f"(min {min(values) * 1000:.1f}, max {max(values) * 1000:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="250,1000,10000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--limit", type=int, default=120, help="seconds per drawing at most")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        configure(Path(folder) / "bench.sqlite3", Path(folder) / "static")
        from django.contrib.auth.models import User
        from django.core.cache import cache
        from django.test import Client
        from django.utils import translation

        from companion.models import GameNight
        from companion.night_card import night_png
        from companion.selectors.nights import night_summary

        client = Client(HTTP_ACCEPT_LANGUAGE="de")
        client.force_login(User.objects.get_or_create(username="bench")[0])
        print(f"night picture, {args.rounds} rounds per size (limit {args.limit} s per drawing)")
        for size in sizes:
            group_id, night_id = _fill(size, args.seed)
            night = GameNight.objects.get(pk=night_id)
            summaries: list[float] = []
            pictures: list[float] = []
            stopped = False
            with translation.override("de"):
                for _ in range(args.rounds):
                    start = time.perf_counter()
                    summary = night_summary(night)
                    summaries.append(time.perf_counter() - start)
                    took = _time(lambda tally=summary: night_png(tally), args.limit)
                    if took is None:
                        stopped = True
                        break
                    pictures.append(took)
            url = f"/g/{group_id}/nights/{night_id}/card.png"
            firsts: list[float] = []
            kept: list[float] = []
            if not stopped:
                for _ in range(args.rounds):
                    cache.clear()
                    start = time.perf_counter()
                    status = client.get(url).status_code
                    firsts.append(time.perf_counter() - start)
                    assert status == 200, status
                    start = time.perf_counter()
                    client.get(url)
                    kept.append(time.perf_counter() - start)
            print(f"{size:>6} matches  summary {_spread(summaries)}")
            print(f"{'':>6}          picture " + (f"> {args.limit} s (stopped)" if stopped
                                                  else _spread(pictures)))
            print(f"{'':>6}          first   {_spread(firsts)}")
            print(f"{'':>6}          kept    {_spread(kept)}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
