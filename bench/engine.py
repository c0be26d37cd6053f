"""Engine benchmark: complete random games and score computations per second.

Runs on one core (the process is pinned where the OS allows it) and prints,
per game, how many full random games the game model plays per second and how
many match scores it computes per second from the recorded data.

    .venv/bin/python bench/engine.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import GAMES, GameInfo
from scoring.common import match_totals, rules_for


def _rate(seconds: float, step: Callable[[], None]) -> float:
    """Calls of ``step`` per second, measured for about ``seconds``."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        step()
        count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def measure(info: GameInfo, seconds: float) -> tuple[float, float]:
    """(complete random games per second, match scorings per second) for one game."""
    rules = rules_for(info.slug)
    rng = random.Random(2026)
    counts = list(range(info.min_players, info.max_players + 1))
    turn = iter(range(10**12))

    def play() -> None:
        rules.random_game(counts[next(turn) % len(counts)], rng)

    sample = [rules.random_game(p, rng) for p in counts]
    sample_turn = iter(range(10**12))

    def score() -> None:
        match_totals(info.slug, sample[next(sample_turn) % len(sample)].deals)

    return _rate(seconds, play), _rate(seconds, score)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"{'game':<24}{'players':>8}{'games/s':>12}{'scorings/s':>14}")
    for info in GAMES.values():
        games_per_s, scorings_per_s = measure(info, args.seconds)
        span = f"{info.min_players}-{info.max_players}"
        print(f"{info.title:<24}{span:>8}{games_per_s:>12,.0f}{scorings_per_s:>14,.0f}")


if __name__ == "__main__":
    main()
