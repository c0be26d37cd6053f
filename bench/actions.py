"""Actions benchmark: server time of the slow actions of issue 28 (sign-up, starting a
match, finishing it, the rematch, a BG Stats import), measured with Django's test client
(the whole Django stack: middleware, view, templates, the database; no network, no
server process), on a throw-away SQLite database holding a group with a history of
``--matches`` finished matches (bench/history.py's fill). Prints per action the median and
the spread (min–max) of ``--rounds`` runs, with the load average before and after, and with
``--profile`` the functions that took most of one run of each (cProfile, cumulative).

    .venv/bin/python bench/actions.py [--matches 500] [--rounds 5] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from harness import configure  # bench/ is the script folder, so on sys.path

SAMPLE = Path(__file__).resolve().parent.parent / "tests/companion/data/BGStatsExport.json"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print("load average before:", " ".join(os.getloadavg().__repr__().strip("()").split(", ")))
    with tempfile.TemporaryDirectory() as tmp:
        configure(Path(tmp) / "bench.sqlite3", Path(tmp) / "static")
        from django.test import Client
        from history import _fill

        from companion.models import Group, Match, Player

        group_id, player_ids = _fill(args.matches, seed=28)
        client = Client()
        client.login(username="bench", password="bench-password-1")
        group = Group.objects.get(pk=group_id)
        players = Player.objects.filter(pk__in=player_ids[:4]).order_by("pk")
        counter = iter(range(10**6))

        def post(url: str, data: dict[str, object], expect: tuple[int, ...] = (302,)) -> None:
            response = client.post(url, data)
            assert response.status_code in expect, (url, response.status_code)

        def sign_up() -> None:
            other = Client()
            n = next(counter)
            response = other.post("/accounts/signup/", {
                "username": f"neu{n}", "password1": "kartenrunde-neu-1x", "password2":
                "kartenrunde-neu-1x"})
            assert response.status_code == 302, response.status_code

        def start() -> None:
            post(f"/g/{group_id}/matches/new/", {
                "game": "elf-nimmt", **{f"seat_{i}": p.pk for i, p in enumerate(players)}})

        def latest() -> Match:
            match = Match.objects.filter(group=group).order_by("-pk").first()
            assert match is not None
            return match

        def play_out(match: Match) -> None:
            from companion.services import deals as deal_services
            from companion.services.sheet import deals_needed

            for number in range(match.deals.count() + 1, deals_needed(match, 4) + 1):
                deal_services.deal_record(match=match, number=number, entries={
                    p.pk: ({"went_out": True} if i == 0 else {"hand": 3})
                    for i, p in enumerate(players)})

        def finish() -> None:
            match = latest()
            post(f"/g/{group_id}/matches/{match.pk}/finish/", {})

        def rematch() -> None:
            match = latest()
            post(f"/g/{group_id}/matches/{match.pk}/rematch/", {})

        def bgstats_import() -> None:
            from companion.models import Match as M
            M.objects.filter(group=group, source=M.Source.BGSTATS).delete()
            upload = io.BytesIO(SAMPLE.read_bytes())
            upload.name = "BGStatsExport.json"
            response = client.post(f"/g/{group_id}/import/bgstats/", {"file": upload})
            assert response.status_code in (200, 302), response.status_code
            confirm = client.get(f"/g/{group_id}/import/bgstats/confirm/")
            form = confirm.context["form"] if confirm.context else None
            data = {name: field.value() for name, field in (
                (n, form[n]) for n in form.fields)} if form is not None else {}
            post(f"/g/{group_id}/import/bgstats/confirm/",
                 {k: ("" if v is None else v) for k, v in data.items()}, expect=(200, 302))

        timings: dict[str, list[float]] = {}

        def timed(name: str, action: Callable[[], None], profile: bool) -> None:
            profiler = cProfile.Profile() if profile else None
            began = time.perf_counter()
            if profiler:
                profiler.enable()
            action()
            if profiler:
                profiler.disable()
                out = io.StringIO()
                pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(
                    r"companion/(?!middleware)|hashers|openskill|sqlite3", 14)
                print(f"--- profile: {name}\n" + out.getvalue()[-4500:])
            else:
                timings.setdefault(name, []).append(time.perf_counter() - began)

        for round_ in range(args.rounds + (1 if args.profile else 0)):
            profile = args.profile and round_ == args.rounds
            timed("sign-up", sign_up, profile)
            timed("start a match", start, profile)
            play_out(latest())
            timed("finish", finish, profile)
            timed("rematch", rematch, profile)
            timed("BG Stats import", bgstats_import, profile)
        print(f"{args.matches} finished matches in the group, {args.rounds} rounds, "
              "Django test client (server time, no network)")
        for name, values in timings.items():
            ms = sorted(v * 1000 for v in values)
            print(f"{name:16} median {statistics.median(ms):7.0f} ms  "
                  f"(min {ms[0]:.0f}, max {ms[-1]:.0f})")
    print("load average after:", " ".join(os.getloadavg().__repr__().strip("()").split(", ")))


if __name__ == "__main__":
    main()
