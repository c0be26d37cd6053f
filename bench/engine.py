"""Engine benchmark: complete random games and match scorings per second, per game.

What is counted
    *A complete random game* is one call of the game module's
    ``random_game(players, rng)``: a whole match with every deal of it
    (``deal_count(players)``: X nimmt! 2, 11 nimmt! 2–7 and 13 4–6 by the
    player count, the others 1), from the shuffle to the final totals, every
    move a random legal move chosen by the game model's random policy. The
    player counts take turns (min, min + 1, … max, min, …), so the ``games/s``
    column is the mix of all counts; ``slowest`` is the rate at the player
    count that plays slowest. A *scoring* is ``match_totals`` over the
    recorded deals of such a game (validation included).

    Not counted: the property tests (``tests/scoring/*_properties.py``) play
    their random games step by step through the public model
    (``legal_actions``/``apply``) and check every card's place after every
    step; those cost many times a game here and are timed by pytest
    (``--durations``), not by this script.

How it is measured
    On one core (the process is pinned where the OS allows it), in CPU time
    (``time.process_time``) with wall time beside it. Each repeat runs every
    measurement once for about ``--seconds``, the games interleaved (game 1,
    game 2, …, then the next repeat), and the table shows the median over
    ``--repeats`` repeats. The machine may be shared: CPU time is the figure
    to compare, and only figures from the same run.

    .venv/bin/python bench/engine.py [--seconds 0.5] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import GAMES, GameInfo
from scoring.common import SimulatedGame, match_totals, rules_for


@dataclass(frozen=True, slots=True)
class Rate:
    """Calls per second of one measurement, by CPU time and by wall time."""

    cpu: float
    wall: float


def _rate(seconds: float, step: Callable[[], object]) -> Rate:
    """Calls of ``step`` per second, measured for about ``seconds`` of CPU time."""
    count = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    deadline = cpu_start + seconds
    while True:
        step()
        count += 1
        cpu = time.process_time()
        if cpu >= deadline:
            wall = time.perf_counter()
            return Rate(count / (cpu - cpu_start), count / (wall - wall_start))


@dataclass
class GameBench:
    """The measurements of one game, one list entry per repeat."""

    info: GameInfo
    games: list[Rate] = field(default_factory=list)
    per_count: dict[int, list[Rate]] = field(default_factory=dict)
    scorings: list[Rate] = field(default_factory=list)

    def run_once(self, seconds: float, rng: random.Random) -> None:
        info = self.info
        rules = rules_for(info.slug)
        counts = list(range(info.min_players, info.max_players + 1))
        turn = iter(range(10**12))

        def play() -> SimulatedGame:
            return rules.random_game(counts[next(turn) % len(counts)], rng)

        self.games.append(_rate(seconds, play))
        for players in counts:
            rate = _rate(seconds / len(counts), partial(rules.random_game, players, rng))
            self.per_count.setdefault(players, []).append(rate)
        sample = [rules.random_game(players, rng) for players in counts for _ in range(5)]
        sample_turn = iter(range(10**12))

        def score() -> dict[str, int]:
            return match_totals(info.slug, sample[next(sample_turn) % len(sample)].deals)

        self.scorings.append(_rate(seconds, score))


def _median(rates: list[Rate]) -> Rate:
    return Rate(
        statistics.median(rate.cpu for rate in rates),
        statistics.median(rate.wall for rate in rates),
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU time per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (the median is shown)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rng = random.Random(2026)
    benches = [GameBench(info) for info in GAMES.values()]
    for _ in range(args.repeats):
        for bench in benches:
            bench.run_once(args.seconds, rng)
    print(
        f"complete random games per second, median of {args.repeats} repeats "
        f"(CPU time, wall time in brackets)"
    )
    print(f"{'game':<22}{'players':>8}{'games/s':>18}{'slowest':>22}{'scorings/s':>22}")
    for bench in benches:
        info = bench.info
        games = _median(bench.games)
        slowest_count, slowest = min(
            ((players, _median(rates)) for players, rates in bench.per_count.items()),
            key=lambda item: item[1].cpu,
        )
        scorings = _median(bench.scorings)
        span = f"{info.min_players}-{info.max_players}"
        print(
            f"{info.title:<22}{span:>8}"
            f"{games.cpu:>9,.0f} ({games.wall:>6,.0f})"
            f"{slowest.cpu:>9,.0f} ({slowest.wall:>6,.0f}) @{slowest_count}"
            f"{scorings.cpu:>11,.0f} ({scorings.wall:>8,.0f})"
        )


if __name__ == "__main__":
    main()
