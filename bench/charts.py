"""Charts benchmark: the charts of the history pages and the score sheet, drawn alone.

Draws, as the median of several interleaved rounds (CPU time: the machine is shared),
the charts the pages show at their largest usual size: a match's score progression
(7 players with their colours over 20 deals, plot and legend, and the plot alone as a
saved deal sends it), a player's win rate over 24 months, and the win shares of a game
among 12 players. The charts read nothing from the database (the pages' query counts
are the pages' tests'), so no data is filled.

    .venv/bin/python bench/charts.py [--rounds 15] [--calls 200]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from harness import ROOT  # bench/ is the script folder, so on sys.path


def _charts() -> dict[str, Callable[[], Any]]:
    from companion import charts
    from scoring import GAMES

    rng = random.Random(1)
    names = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fiona <Gero>", "Hanna"]
    colours = ("#0b5ed7", "", "#ffda6a", "", "#198754", "", "#a61e6c")
    totals = [[rng.randint(-5, 15) for _deal in range(20)] for _name in names]
    running = [tuple(sum(row[:index + 1]) for index in range(20)) for row in totals]
    progression = charts.Progression(GAMES["x-nimmt"], tuple(range(1, 21)),
                                     tuple(zip(names, running, strict=True)), colours)
    months = SimpleNamespace(
        player=SimpleNamespace(name="Anna"),
        months=[SimpleNamespace(win_rate=rng.random(),
                                axis_label=f"{m % 12 + 1:02d}/{m // 12 + 24}")
                for m in range(24)],
    )
    shares = SimpleNamespace(
        game=GAMES["elf-nimmt"], matches=400, wins=420,
        win_shares=[(f"Player {index}", 60 - 4 * index) for index in range(12)],
    )
    return {
        "progression (plot + legend)": lambda: str(charts.progression_chart(progression)),
        "progression plot (a saved deal)": lambda: str(charts.progression_chart_parts(
            progression, plot_attrs='hx-swap-oob="outerHTML:#sheet .progression .kr-plot"')[0]),
        "win rate per month": lambda: str(charts.months_chart(months)),  # type: ignore[arg-type]
        "win shares": lambda: str(charts.win_shares_chart(shares)),  # type: ignore[arg-type]
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    os.chdir(ROOT)
    import django

    django.setup()
    from django.utils import translation

    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    with translation.override("de"):
        charts = _charts()
        times: dict[str, list[float]] = {name: [] for name in charts}
        for name, draw in charts.items():
            draw()
            print(f"  {name}: {len(draw())} characters")
        for _round in range(args.rounds):
            for name, draw in charts.items():
                start = time.process_time()
                for _call in range(args.calls):
                    draw()
                times[name].append((time.process_time() - start) / args.calls * 1e6)
    print(f"µs CPU per chart, median of {args.rounds} rounds of {args.calls} calls "
          "(min–max):")
    for name, values in times.items():
        print(f"  {name:<34} {statistics.median(values):8.1f}  "
              f"({min(values):.1f}–{max(values):.1f})")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
